"""``facts`` with the user's schema (``schema_file``): the extractor is shown the schema's relations, a fact
maps onto the relation it names, the one its Wikidata property stands for or the one nearest in words,
turned round where the names' types or a noun's "of" say so; the rest is kept or dropped as asked."""

from __future__ import annotations

import json

import pytest

from graphwright.errors import UserError
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.model.schema import phrase_relation_iri
from graphwright.systems.base import make_system

TEXT = (
    "Dr. Ilse Brandvik is the director of Nordhavn Technical College, which was established in 1994 in "
    "Tromsø. The college, affiliated with Arctic Marine University, has 310 academic staff. Its motto is "
    "Learning by the Sea. Ilse Brandvik studied at Lund University."
)
SCHEMA = {
    "name": "college",
    "relations": {
        "director": {"head": ["University"], "tail": ["Person"], "iri": "http://dbpedia.org/ontology/director"},
        "established": {"head": ["University"], "tail": ["Year"]},
        "city": {"head": ["University"], "tail": ["City"]},
        "affiliation": {"head": ["University"], "tail": ["University"]},
        "academicStaffSize": {"head": ["University"], "tail": ["number"]},
        "motto": {"head": ["University"], "tail": ["string"]},
        "almaMater": {"head": ["Person"], "tail": ["University"]},
        "ceo": {"description": "chief executive officer", "head": ["University"], "tail": ["Person"]},
    },
}
EXTRACTED = [
    ["Ilse Brandvik", "director", "Nordhavn Technical College"],  # turned round: the head is the University
    ["Nordhavn Technical College", "established", "1994"],
    ["Nordhavn Technical College", "city", "Tromsø"],
    ["Nordhavn Technical College", "affiliatedWith", "Arctic Marine University"],  # nearest name: affiliation
    ["Nordhavn Technical College", "number of academic staff", "310"],  # nearest name: academicStaffSize
    ["Nordhavn Technical College", "motto", "Learning by the Sea"],
    ["Ilse Brandvik", "studied at", "Lund University"],  # the table's P69, which almaMater stands for
    ["Tromsø", "sponsors", "Nordhavn Technical College"],  # no relation of the schema
    ["Nordhavn Technical College", "chief executive", "Ilse Brandvik"],  # ceo, by its description
]


@pytest.fixture
def schema_file(tmp_path):
    path = tmp_path / "college.json"
    path.write_text(json.dumps(SCHEMA), encoding="utf-8")
    return str(path)


def scripted(seen: list[str]) -> ScriptedLLM:
    def reply(messages, schema) -> str:
        seen.append(messages[0]["content"] + messages[-1]["content"])
        return json.dumps({"triples": EXTRACTED})

    return ScriptedLLM(reply)


async def run(default_kb, schema_file, seen, **settings):
    system = make_system("facts", scripted(seen), default_kb, {"schema_file": schema_file, **settings})
    return await system.run(Document(id="d1", text=TEXT))


def shown(result) -> set[tuple[str, str, str]]:
    def name(term) -> str:
        return term.surface if term.kind == "iri" else term.value

    return {(name(t.subject), t.predicate.label, name(t.object)) for t in result.triples}


async def test_schema_relations_replace_the_kb_properties(default_kb, schema_file):
    seen: list[str] = []
    result = await run(default_kb, schema_file, seen, in_passing=False)
    assert "University: director (Person), established (Year)" in seen[0]  # the prompt shows the schema
    facts = shown(result)
    assert ("Nordhavn Technical College", "director", "Ilse Brandvik") in facts
    assert ("Nordhavn Technical College", "established", "1994") in facts
    assert ("Nordhavn Technical College", "affiliation", "Arctic Marine University") in facts
    assert ("Nordhavn Technical College", "academicStaffSize", "310") in facts
    assert ("Ilse Brandvik", "almaMater", "Lund University") in facts
    assert ("Nordhavn Technical College", "ceo", "Ilse Brandvik") in facts
    by_label = {t.predicate.label: t for t in result.triples}
    assert by_label["director"].predicate.value == "http://dbpedia.org/ontology/director"  # the schema's IRI
    assert by_label["city"].predicate.value.startswith("https://graphwright.dev/schema/college/")  # minted
    motto = by_label["motto"].object
    assert motto.kind == "literal" and motto.value == "Learning by the Sea"  # a string, not a node to link
    # kept under its own phrase by default: no fact is dropped for want of a relation
    sponsors = [t for t in result.triples if t.predicate.value == phrase_relation_iri("sponsors")]
    assert len(sponsors) == 1 and sponsors[0].predicate.label == "sponsors"


async def test_facts_outside_the_schema_can_be_dropped(default_kb, schema_file):
    result = await run(default_kb, schema_file, [], in_passing=False, outside_schema="drop")
    assert {t.predicate.label for t in result.triples} == set(SCHEMA["relations"])
    assert result.extra["mapping"]["outside schema"] == 1


async def test_a_nouns_of_reads_from_object_to_subject(default_kb, schema_file):
    global EXTRACTED
    kept, EXTRACTED = EXTRACTED, [["Ilse Brandvik", "director of", "Nordhavn Technical College"]]
    try:
        result = await run(default_kb, schema_file, [], in_passing=False)
    finally:
        EXTRACTED = kept
    assert shown(result) == {("Nordhavn Technical College", "director", "Ilse Brandvik")}


def test_the_model_cannot_be_asked_to_map_onto_a_schema(default_kb, schema_file):
    with pytest.raises(UserError, match="map_with_model"):
        make_system(
            "facts", ScriptedLLM(lambda m, s: "{}"), default_kb, {"schema_file": schema_file, "map_with_model": True}
        )
