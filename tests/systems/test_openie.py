"""openie: what the passage holds is kept, with its evidence; what it does not hold is dropped and said."""

from __future__ import annotations

import asyncio
import json

from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.systems.base import make_system
from graphwright.systems.open_triples import trim

TEXT = "Mara Quill founded Tidewell Robotics in 2019. The company is based in Leeds. Max Orrin joined later."


def run(triples, **settings):
    llm = ScriptedLLM([json.dumps({"triples": triples})])
    return asyncio.run(make_system("openie", llm, None, settings).run(Document(id="d", text=TEXT))), llm


def test_kept_triples_are_nodes_values_and_phrases_with_evidence():
    result, llm = run(
        [
            ["Mara Quill", "founded", "Tidewell Robotics"],
            ["Tidewell Robotics", "founded in", "2019"],
            ["Tidewell Robotics", "Based In", "Leeds"],
        ]
    )
    founded, year, based = result.triples
    assert founded.subject.value == "https://graphwright.dev/entity/Mara%20Quill"
    assert founded.predicate.value == "https://graphwright.dev/schema/openie/founded"
    assert year.object.kind == "literal" and year.object.datatype.endswith("#gYear")  # 2019 is no node
    assert based.predicate.label == "based in"  # one relation, whatever the case
    # no sentence names both: the two sentences from the subject's to the object's are the evidence
    assert (
        based.provenance.evidence.text == "Mara Quill founded Tidewell Robotics in 2019. The company is based in Leeds."
    )
    assert founded.provenance.evidence.text == "Mara Quill founded Tidewell Robotics in 2019."
    assert {e.label for e in result.entities} == {"Mara Quill", "Tidewell Robotics", "Leeds"}
    assert len(llm.calls) == 1


def test_what_the_passage_does_not_hold_is_dropped_with_the_reason():
    result, _ = run(
        [
            ["Mara Quill", "born in", "Paris"],
            ["x", "in", "Max Orrin"],
            ["Leeds", "is", "leeds"],
            ["Mara Quill", "was the person who in the end decided to found", "Tidewell Robotics"],
            ["Tidewell Robotics", "based in Leeds", "Leeds"],
            ["Tidewell Robotics", "in", "2019"],
        ]
    )
    assert result.triples == []
    assert [w.split(": ", 1)[1] for w in result.warnings] == [
        "the passage does not hold 'Paris'",
        "the passage does not hold 'x'",  # not the x of "Max"
        "subject and object are the same",
        "the relation is a sentence",
        "the relation holds the object",
        "the relation names none",
    ]


def test_descriptions_before_a_name_are_trimmed():
    assert trim("the printer Odile Marchetti") == "Odile Marchetti"
    assert trim("her grandson,  Tomasz Marchetti") == "Tomasz Marchetti"
    assert trim("an engineer") == "an engineer"
    result, _ = run([["the founder Mara Quill", "founded", "Tidewell Robotics"]])
    assert result.triples[0].subject.label == "Mara Quill"


def test_an_answer_that_never_parses_leaves_the_document_empty_with_a_warning():
    llm = ScriptedLLM(["no", "no", "no"])
    result = asyncio.run(make_system("openie", llm, None, {}).run(Document(id="d", text=TEXT)))
    assert result.status == "ok" and result.triples == [] and "no valid answer" in result.warnings[0]
    assert result.usage.llm_calls == 3


def test_a_subject_named_by_a_number_is_a_node_and_the_passage_is_stored():
    from graphwright.store.rdf_store import GraphStore

    text = "311 is a rock band from Omaha. Nick Hexum is the current vocalist of 311."
    llm = ScriptedLLM(
        [json.dumps({"triples": [["311", "current vocalist", "Nick Hexum"], ["311", "formed in", "1988"]]})]
    )
    document = Document(id="band", text=text + " It formed in 1988.")
    result = asyncio.run(make_system("openie", llm, None, {}).run(document))
    band, formed = result.triples
    assert band.subject.kind == "iri" and band.subject.label == "311"  # the band, not the number 311
    assert formed.object.kind == "literal"  # a year as an object stays a value
    store = GraphStore.in_memory()
    store.add_result(document, result)  # a literal subject used to stop the whole indexing batch here
    assert store.count("band") == 2
