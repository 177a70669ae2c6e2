"""``linking=checked`` (issue 61): the model glosses each name the text leaves open, and a KB entity the gloss
contradicts is not linked; scripted model, default KB."""

from __future__ import annotations

import asyncio
import json

import pytest

from graphwright.errors import LLMUnavailableError
from graphwright.kb.namespaces import WDT, is_unlinked, parse_wikidata_id
from graphwright.linking.system import OpenWorldLinking
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple


class Found:
    """A system that found the given facts."""

    name = "found"

    def __init__(self, *facts: tuple[str, str, str]):
        self.facts = facts

    async def run(self, document: Document) -> ExtractionResult:
        return ExtractionResult(
            document_id=document.id,
            system=self.name,
            triples=[
                Triple(
                    subject=Term.literal(s, surface=s),
                    predicate=Term.iri(WDT + p),
                    object=Term.literal(o, surface=o),
                    provenance=Provenance(system=self.name),
                )
                for s, p, o in self.facts
            ],
        )


def glossing(*glosses: str) -> ScriptedLLM:
    return ScriptedLLM([json.dumps({str(i): g for i, g in enumerate(glosses, 1)})])


def objects(result: ExtractionResult) -> dict[str, str | None]:
    """Each object's name -> the QID it is linked to, None: minted."""
    return {
        t.object.surface: None if is_unlinked(t.object.value) else parse_wikidata_id(t.object.value)
        for t in result.triples
    }


def checked(default_kb, reader, text: str, *facts) -> ExtractionResult:
    """The rules and the gloss alone: the abstention after them has its own tests (test_abstain.py)."""
    linking = OpenWorldLinking(Found(*facts), default_kb, reader=reader, abstention=None)
    return asyncio.run(linking.run(Document(text=text)))


def test_a_place_the_gloss_puts_in_another_country_is_minted(default_kb):
    reader = glossing("an ancient city in Turkey")
    out = checked(
        default_kb, reader, "Ilse Morgen excavated at Troy for eleven seasons.", ("Ilse Morgen", "P937", "Troy")
    )
    assert objects(out) == {"Troy": None}  # not Troy, Alabama, the KB's only Troy of that kind
    assert "1. Troy" in reader.calls[0]["messages"][1]["content"]
    assert out.usage.llm_calls == 1 and "an ancient city in Turkey" in json.dumps(out.extra["link_check"])


def test_a_gloss_that_agrees_keeps_the_link(default_kb):
    out = checked(
        default_kb,
        glossing("the capital city of Malta"),
        "Ilse Morgen moved to Valletta in 2019.",
        ("Ilse Morgen", "P551", "Valletta"),
    )
    assert objects(out) == {"Valletta": "Q23800"}


def test_a_work_of_another_kind_is_minted(default_kb):
    out = checked(
        default_kb,
        glossing("a novel by Leo Tolstoy"),
        "Ilse Morgen translated War and Peace in 1990.",
        ("War and Peace", "P50", "Leo Tolstoy"),
        ("Ilse Morgen", "P800", "War and Peace"),
    )
    assert objects(out)["War and Peace"] is None  # the KB holds films of the name, not the novel


def test_a_person_is_not_a_work_of_that_field(default_kb):
    """ "a film director" glosses a person, not a film."""
    out = checked(
        default_kb,
        glossing("an American film director"),
        "Ilse Morgen worked with Steven Spielberg.",
        ("Ilse Morgen", "P1327", "Steven Spielberg"),
    )
    assert objects(out) == {"Steven Spielberg": "Q8877"}


# (the model's gloss, the text, the property, the name, the QID it links: None, minted)
KINDS_OF_PLACE = [
    ("a river in Ethiopia and Sudan", "Ilse Morgen rafted down the Blue Nile in 1998.", "P1427", "Blue Nile", None),
    # not Q309489, the state of Sudan
    ("a Vietnamese revolutionary leader", "Ilse Morgen wrote a life of Ho Chi Minh.", "P921", "Ho Chi Minh", None),
    # not Q1854, the city
    ("a city in South Korea", "Ilse Morgen wrote about Inchon.", "P921", "Inchon", None),  # not Q495123, the film
    # the model calls Tibet "a country": a region, a country, a town and an island are all land
    ("a country in Asia", "Ilse Morgen travelled in Tibet.", "P1427", "Tibet", "Q17252"),
    # a song or a team is not a place
    ("a song", "Ilse Morgen sang Rio at the festival.", "P921", "Rio", None),  # not Q8678, Rio de Janeiro
    ("a team", "Ilse Morgen wrote a history of Green Bay.", "P921", "Green Bay", "Q213837"),  # the Packers
    ("a boy", "Ilse Morgen wrote about Lowell.", "P921", "Lowell", None),  # not a town of the name
]


@pytest.mark.parametrize(("gloss", "text", "prop", "name", "linked"), KINDS_OF_PLACE)
def test_water_is_not_land_a_person_not_a_place_and_kinds_of_land_do_not_clash(
    default_kb, gloss, text, prop, name, linked
):
    out = checked(default_kb, glossing(gloss), text, ("Ilse Morgen", prop, name))
    assert objects(out) == {name: linked}


def test_a_company_is_not_a_moon_and_a_film_glossed_as_an_actor_is_not_judged(default_kb):
    from graphwright.linking.check import gloss_against
    from graphwright.linking.geography import Geography

    geography = Geography(default_kb)
    assert gloss_against(geography, "Titan", "a company", default_kb.get("Q2565")) == "an organisation, Q2565 an other"
    # the small model's gloss of a film; a person, work or organisation against each other is left alone
    assert gloss_against(geography, "The Karate Kid", "a movie actor", default_kb.get("Q846679")) is None


def test_a_country_and_a_name_the_text_settles_are_not_asked(default_kb):
    reader = ScriptedLLM([])  # any call fails the test
    out = checked(
        default_kb,
        reader,
        "Ilse Morgen grew up in Norway and moved to London, England.",
        ("Ilse Morgen", "P27", "Norway"),
        ("Ilse Morgen", "P551", "London"),
    )
    assert objects(out) == {"Norway": "Q20", "London": "Q84"} and not reader.calls


def test_a_model_that_fails_leaves_the_links_of_the_text_with_a_warning(default_kb):
    out = checked(
        default_kb,
        ScriptedLLM([LLMUnavailableError("no server")]),
        "Ilse Morgen moved to Valletta.",
        ("Ilse Morgen", "P551", "Valletta"),
    )
    assert objects(out) == {"Valletta": "Q23800"} and any("links not checked" in w for w in out.warnings)


def test_an_answer_that_is_not_json_is_fed_back_and_asked_again(default_kb):
    reader = ScriptedLLM(["Valletta is the capital of Malta.", json.dumps({"1": "the capital of Malta"})])
    out = checked(default_kb, reader, "Ilse Morgen moved to Valletta.", ("Ilse Morgen", "P551", "Valletta"))
    assert objects(out) == {"Valletta": "Q23800"} and len(reader.calls) == 2


def test_glosses_the_model_cannot_write_leave_the_links_of_the_text(default_kb):
    reader = ScriptedLLM(lambda messages, schema: "no idea")  # every attempt unusable
    out = checked(default_kb, reader, "Ilse Morgen moved to Valletta.", ("Ilse Morgen", "P551", "Valletta"))
    assert objects(out) == {"Valletta": "Q23800"} and any("links not checked" in w for w in out.warnings)
    assert len(reader.calls) == 3  # the answer and two corrections, fed back with the parse error
