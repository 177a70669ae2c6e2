"""``facts`` end to end with the real embedded 0.5B model on one short made-up text, with the KB and with a schema.

Quality is not asserted here (a 0.5B model copies its prompt's example and misreads directions); what
must hold is that a real model's answers go through both calls within the budget and that every fact
kept is one the text states, under a KB property or under its phrase."""

from __future__ import annotations

import asyncio

import pytest

from graphwright.kb.namespaces import UNLINKED_RELATION, WDT
from graphwright.linking.stated import unstated
from graphwright.llm import make_llm
from graphwright.model import Document
from graphwright.systems.base import make_system

TEXT = (
    "Maren Solberg founded Tidewater Instruments in Stavanger in 2016. The company makes ocean sensors and "
    "employs 40 people. Solberg studied at the University of Oslo."
)


@pytest.mark.slow
def test_facts_runs_on_the_real_small_model(default_kb):
    llm = make_llm("embedded:qwen2.5-coder-0.5b", cache=False, threads=2)
    system = make_system("facts", llm, default_kb, {"map_with_model": True})
    doc = Document(text=TEXT)
    try:
        result = asyncio.run(system.run(doc))
    finally:
        asyncio.run(llm.aclose())
    assert result.status == "ok" and 1 <= result.usage.llm_calls <= 4  # two calls, at most one correction each
    assert result.triples, result.warnings
    for triple in result.triples:
        assert triple.predicate.value.startswith((WDT, UNLINKED_RELATION)), triple.predicate.value
        for term in (triple.subject, triple.object):
            assert unstated(term, TEXT, default_kb) is None, term
        assert triple.provenance.evidence.text in TEXT


@pytest.mark.slow
def test_facts_with_a_schema_runs_on_the_real_small_model(default_kb, tmp_path):
    schema = tmp_path / "startups.yaml"
    schema.write_text(
        "name: startups\nrelations:\n"
        "  founder: {head: [Company], tail: [Person]}\n"
        "  foundingYear: {head: [Company], tail: [Year]}\n"
        "  location: {head: [Company], tail: [City]}\n"
        "  numberOfEmployees: {head: [Company], tail: [number]}\n"
        "  almaMater: {head: [Person], tail: [University]}\n",
        encoding="utf-8",
    )
    llm = make_llm("embedded:qwen2.5-coder-0.5b", cache=False, threads=2)
    system = make_system("facts", llm, default_kb, {"schema_file": str(schema), "outside_schema": "drop"})
    try:
        result = asyncio.run(system.run(Document(text=TEXT)))
    finally:
        asyncio.run(llm.aclose())
    assert result.status == "ok" and 1 <= result.usage.llm_calls <= 2  # one call, at most one correction
    names = {"founder", "foundingYear", "location", "numberOfEmployees", "almaMater"}
    for triple in result.triples:  # only the schema's relations, each argument one the text states
        assert triple.predicate.label in names, triple.predicate
        assert triple.predicate.value.startswith("https://graphwright.dev/schema/startups/")
        for term in (triple.subject, triple.object):
            assert unstated(term, TEXT, default_kb) is None, term


REVIEW_TEXT = (
    "Maren Solberg founded Tidewater Instruments in Stavanger in 2016. She studied physics at the University "
    "of Bergen and worked for Equinor before she started the company. Tidewater Instruments makes underwater "
    "sensors and employs 40 people. Its first customer was Brine & Kelp, a seaweed farm in Ålesund."
)


@pytest.mark.slow
def test_the_default_model_gives_no_person_a_company_fact_and_links_no_namesake(default_kb):
    """Issue 61's review text on the default 1.5B model: the founder gets no inception or place of formation,
    no fact is turned round without a sentence that states it, a country is a country, and every KB link
    is an entity of a name the text writes."""
    llm = make_llm("embedded:qwen2.5-coder-1.5b", cache=False, threads=2)
    system = make_system("facts", llm, default_kb, {})
    try:
        result = asyncio.run(system.run(Document(text=REVIEW_TEXT)))
    finally:
        asyncio.run(llm.aclose())
    assert result.status == "ok" and result.triples, result.warnings
    company_facts = {"P571", "P740", "P159", "inception", "founded in", "founded on", "location of formation"}
    for triple in result.triples:
        subject, prop = triple.subject.label, triple.predicate.value.removeprefix(WDT)
        assert not (subject == "Maren Solberg" and (prop in company_facts or triple.predicate.label in company_facts))
        assert not (subject == "University of Bergen" and prop == "P112")
        for term in (triple.subject, triple.object):
            if term.kind == "iri" and term.value.startswith("http://www.wikidata.org/entity/"):
                assert term.label and term.label.casefold() in REVIEW_TEXT.casefold(), term
        if prop in ("P17", "P27"):
            assert triple.object.label in {"Norway"}, triple
