"""Same-name KB entities told apart by the document's other names (issue 61), on the default KB: the place a
name is written with, and the country or county its description shares with the text."""

from __future__ import annotations

import pytest

from graphwright.kb.namespaces import is_unlinked, parse_wikidata_id
from graphwright.linking import LinkJudge
from graphwright.linking.resolve import Resolver
from graphwright.model import Document
from graphwright.systems.facts.kb_names import KBNames


@pytest.fixture(scope="module")
def linker(default_kb):
    judge, names = LinkJudge(default_kb), KBNames(default_kb)

    def link(text: str, surface: str) -> str | None:
        outcome = Resolver(judge, Document(text=text)).link_or_mint(surface, names.record(surface), None, "value", text)
        value = outcome.terms[0].value
        return None if is_unlinked(value) else parse_wikidata_id(value)
    return link


def test_the_county_and_state_the_text_names_choose_the_town(linker):
    text = "The band formed in Birmingham, where Jefferson County's steel mills once employed half of Alabama's workers."
    assert linker(text, "Birmingham") == "Q79867"  # Birmingham, Alabama, not the English city


def test_a_place_written_with_a_place_no_namesake_lies_in_is_minted(linker):
    assert linker("Ada Lindqvist grew up in London, Ontario, and studied in Toronto.", "London") is None
    assert linker("Ada Lindqvist grew up in London, England, and studied in Leeds.", "London") == "Q84"


def test_a_list_of_people_is_not_a_place_and_its_qualifier(linker):
    text = "The college counts Oscar Wilde, Margaret Thatcher and many others among its former students."
    assert linker(text, "Oscar Wilde") == "Q30875"


def test_a_country_stays_the_country_before_its_capital(linker):
    text = "The Democratic Party of Luxembourg won the election; Luxembourg has had a coalition since."
    assert linker(text, "Luxembourg") == "Q32"
