"""The CIExMAS tools on real KB data: the packaged Wikidata slice, plus (for type constraints)
a user ontology that gives P102 the constraints Wikidata has for it (subject human, value
political party) and a small class chain."""

from __future__ import annotations

import asyncio
import json

import pytest

from graphwright.errors import ModelOutputError, UserError
from graphwright.kb import LocalKB, build_kb
from graphwright.kb.default import DATA_FILES, package_data_dir
from graphwright.kb.ontology import read_rdf_ontology
from graphwright.llm.fake import ScriptedLLM
from graphwright.tools.message_deletion import delete_messages
from graphwright.tools.network_traversal import TraversalRequest, network_traversal, render_traversal
from graphwright.tools.semantic_validation import semantic_validation
from graphwright.tools.turtle_to_label import turtle_to_label
from graphwright.tools.uri_retrieval import SearchRequest, uri_retrieval
from graphwright.tools.uri_summary import render_choices, summarize_results

ONTOLOGY = """
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<http://example.org/my-ontology> a owl:Ontology .
wdt:P102 rdfs:domain wd:Q5 ; rdfs:range wd:Q7278 .
wdt:P9999001 a owl:DatatypeProperty ; rdfs:label "founding year" ; rdfs:range xsd:gYear .
wd:Q9999001 a owl:Class ; rdfs:label "party official" ; rdfs:subClassOf wd:Q9999002 .
wd:Q9999002 a owl:Class ; rdfs:label "party member" ; rdfs:subClassOf wd:Q5 .
wd:Q9999003 a wd:Q9999001 ; rdfs:label "Jane Example"@en ; rdfs:comment "a made-up party official"@en .
"""


@pytest.fixture(scope="module")
def constrained_kb(tmp_path_factory):
    """The packaged slice plus the ontology above (no search: semantic checks need none)."""
    root = tmp_path_factory.mktemp("constrained")
    (root / "ontology.ttl").write_text(ONTOLOGY, encoding="utf-8")
    data = package_data_dir()
    path = build_kb(
        root / "kb",
        properties_dir=False,
        arnold_dir=False,
        ontology_files=[root / "ontology.ttl"],
        property_files=[data / DATA_FILES[0]],
        entity_files=[data / DATA_FILES[1]],
    )
    with LocalKB(path) as kb:
        yield kb


def verdicts(kb, turtle):
    return [(c.verdict, c.reasons) for c in semantic_validation(kb, turtle)]


# --- type constraints and semantic validation ------------------------------------------------


def test_ontology_domain_and_range_become_type_constraints(constrained_kb):
    p102 = constrained_kb.get("P102")
    assert p102.subject_types == ["Q5"] and p102.value_types == ["Q7278"]
    assert p102.label == "member of political party"  # the slice's label survives the merge
    year = constrained_kb.get("P9999001")
    assert year.kind == "property" and year.datatype == "time" and year.label == "founding year"
    jane = constrained_kb.get("Q9999003")
    assert jane.types == ["Q9999001"] and jane.description == "a made-up party official"


def test_semantic_validation_passes_a_correct_triple(constrained_kb):
    # Arnold Schwarzenegger (human) member of political party Republican Party (political party)
    [(verdict, reasons)] = verdicts(constrained_kb, "wd:Q2685 wdt:P102 wd:Q29468 .")
    assert verdict == "valid" and reasons == []


def test_semantic_validation_catches_a_type_violation_and_names_the_expected_types(constrained_kb):
    # Thal (a municipality) cannot be a party member; Arnold is not a political party
    checks = semantic_validation(constrained_kb, "wd:Q571822 wdt:P102 wd:Q29468 .\nwd:Q2685 wdt:P102 wd:Q2685 .")
    assert [c.verdict for c in checks] == ["invalid", "invalid"]
    assert "subject Q571822 is not of an allowed type (Q5 (human))" in checks[0].reasons
    assert "value Q2685 is not of an allowed type (Q7278 (political party))" in checks[1].reasons
    assert checks[0].expected_subject_types == ["Q5"] and checks[0].expected_object_types == ["Q7278"]


def test_semantic_validation_follows_the_whole_class_hierarchy(constrained_kb):
    # Jane is a party official < party member < human: two levels up
    [(verdict, _)] = verdicts(constrained_kb, "wd:Q9999003 wdt:P102 wd:Q29468 .")
    assert verdict == "valid"


def test_semantic_validation_checks_datatypes(constrained_kb):
    [(verdict, reasons)] = verdicts(constrained_kb, 'wd:Q2685 wdt:P102 "Republican Party" .')
    assert verdict == "invalid" and "the object must be wd:Q..., not a literal" in reasons[0]


def test_semantic_validation_says_when_it_cannot_check(default_kb):
    # "part of" constrains no types in Wikidata, so the default KB derives none for it
    [(verdict, reasons)] = verdicts(default_kb, "wd:Q2685 wdt:P361 wd:Q29468 .")
    assert verdict == "valid"  # the datatype fits
    assert "the KB has no type constraints for P361; subject and value types not checked" in reasons


def test_semantic_validation_checks_p102_with_the_default_kbs_derived_types(default_kb):
    [(verdict, reasons)] = verdicts(default_kb, "wd:Q2685 wdt:P102 wd:Q29468 .")
    assert verdict == "valid" and reasons == []


def test_semantic_validation_names_constraints_the_offline_dump_lacks():
    from graphwright.kb.records import KBRecord
    from graphwright.tools.semantic_validation import check_triple
    from graphwright.tools.turtle import parse_turtle

    class KB:  # the property as read from the offline dump: constraints declared, classes missing
        def get(self, ident):
            return KBRecord(
                id="P102",
                kind="property",
                label="member of political party",
                datatype="wikibase-item",
                unchecked_constraints=["subject type", "value type"],
            )

    check = check_triple(KB(), parse_turtle("wd:Q2685 wdt:P102 wd:Q29468 .")[0])
    assert check.verdict == "valid"
    assert any("has a subject type constraint, but the KB lacks its classes" in r for r in check.reasons)
    assert any("has a value type constraint" in r for r in check.reasons)


# --- network traversal -----------------------------------------------------------------------


def test_network_traversal_neighbours_of_p102(default_kb):
    result = network_traversal(default_kb, TraversalRequest(property="wdt:P102"))
    assert [(v.relation, v.id) for v in result.properties] == [("self", "P102"), ("super", "P463")]
    assert result.properties[1].label == "member of"
    around_p463 = network_traversal(default_kb, TraversalRequest(property="P463"))
    subs = {v.id for v in around_p463.properties if v.relation == "sub"}
    assert {"P102", "P4100", "P54"} <= subs
    assert ("super", "P1416") in [(v.relation, v.id) for v in around_p463.properties]


def test_network_traversal_type_check_allows_one_superclass_level(constrained_kb):
    fits = network_traversal(
        constrained_kb, TraversalRequest(property="wdt:P102", subject="wd:Q2685", object="wd:Q29468")
    )
    assert fits.properties[0].fits is True
    # P463 has the slice's derived types; one level up, human and political party reach person and organization
    assert fits.properties[1].id == "P463" and fits.properties[1].fits is True
    wrong = network_traversal(
        constrained_kb, TraversalRequest(property="wdt:P102", subject="wd:Q571822", object="wd:Q29468")
    )
    assert wrong.properties[0].fits is False and "[types do not fit]" in render_traversal(wrong)
    # Jane's class is two levels below human: beyond the one level traversal allows
    deep = network_traversal(constrained_kb, TraversalRequest(property="wdt:P102", subject="wd:Q9999003"))
    assert deep.properties[0].fits is False


def test_network_traversal_rejects_unknown_properties_and_bad_iris(default_kb):
    with pytest.raises(ModelOutputError, match="not a known property"):
        network_traversal(default_kb, TraversalRequest(property="wdt:P999999999"))
    with pytest.raises(ModelOutputError, match="not an entity IRI"):
        network_traversal(default_kb, TraversalRequest(property="wdt:P102", subject="wdt:P31"))


# --- turtle to label ---------------------------------------------------------------------------


def test_turtle_to_label_labels_a_correct_triple_and_flags_made_up_iris(default_kb):
    ok = turtle_to_label(default_kb, "wd:Q2685 wdt:P102 wd:Q29468 .")
    assert ok.ok and [t.predicate.label for t in ok.triples] == ["member of political party"]
    bad = turtle_to_label(default_kb, "wd:Q2685 wdt:P102 wd:Q987654321987 .\nwd:Q2685 wd:P102 wd:Q29468 .")
    assert any("unknown IRI Q987654321987" in p for p in bad.problems)
    assert any("wrong namespace for predicate wd:P102: use wdt:P102" in p for p in bad.problems)


def test_a_rejected_turtle_keeps_every_statement_that_parses_alone():
    from graphwright.tools.turtle import salvage_turtle

    turtle = (
        "@prefix ex: <http://example.org/> .\n"
        "wd:Q2685 wdt:P102 wd:Q29468 .\n"
        "wd:Q2685 wdt:P26 Maria Shriver .\n"  # an unquoted name: the whole document fails to parse
        "ex:a wdt:P31 wd:Q5 ;\n    wdt:P27 wd:Q30 ."
    )
    triples, errors = salvage_turtle(turtle)
    assert [(t.subject.value.rsplit("/", 1)[-1], t.predicate.value.rsplit("/", 1)[-1]) for t in triples] == [
        ("Q2685", "P102"),
        ("a", "P31"),
        ("a", "P27"),
    ]
    assert len(errors) == 1 and "Maria Shriver" in errors[0]
    assert (
        len(salvage_turtle("wd:Q2685 wdt:P102 wd:Q29468 .")[0]) == 1
        and salvage_turtle("wd:Q2685 wdt:P102 wd:Q29468 .")[1] == []
    )


def test_the_final_check_keeps_the_good_triples_of_a_partly_broken_turtle(default_kb):
    from graphwright.papers.cie.common.finish import check_turtle

    outcome = check_turtle(default_kb, "wd:Q2685 wdt:P102 wd:Q29468 .\nwd:Q2685 wdt:P26 Maria Shriver .", "agent")
    assert [t["predicate"]["value"] for t in outcome.triples] == ["http://www.wikidata.org/prop/direct/P102"]
    assert outcome.parse_error is None and any("Maria Shriver" in p for p in outcome.problems)
    broken = check_turtle(default_kb, "wd:Q2685 wdt:P26 Maria Shriver .", "agent")
    assert broken.triples == [] and broken.parse_error and "Invalid Turtle" in broken.parse_error


# --- URI retrieval, compact mode ----------------------------------------------------------------


def test_compact_uri_retrieval_keeps_only_a_candidate_or_none(default_kb):
    requests = [
        SearchRequest(term="Arnold Schwarzenegger", mode="label", kind="entity"),
        SearchRequest(term="member of political party", mode="label", kind="property"),
        SearchRequest(term="zzqqxx unfindable", mode="label", kind="entity"),
    ]
    results = uri_retrieval(default_kb, requests, k=3)
    seen = {}

    def judge(messages, json_schema=None):
        seen["schema"] = json_schema
        # the model names an IRI it was not offered for the second term: it must not survive
        return json.dumps(
            {
                "Arnold Schwarzenegger": {"iri": "wd:Q2685", "reason": "the actor"},
                "member of political party": {"iri": "wdt:P19", "reason": "guess"},
                **({"zzqqxx unfindable": {"iri": "none", "reason": "nothing fits"}} if results[2].candidates else {}),
            }
        )

    choices = asyncio.run(summarize_results(ScriptedLLM(judge), results, "Arnold is a Republican."))
    assert [(c.term, c.iri) for c in choices][:2] == [
        ("Arnold Schwarzenegger", "wd:Q2685"),
        ("member of political party", None),
    ]
    assert choices[0].label == "Arnold Schwarzenegger"
    enum = seen["schema"]["properties"]["Arnold Schwarzenegger"]["properties"]["iri"]["enum"]
    assert "wd:Q2685" in enum and enum[-1] == "none"
    assert '"Arnold Schwarzenegger" (entity) -> wd:Q2685 (Arnold Schwarzenegger): the actor' in render_choices(choices)


def test_compact_uri_retrieval_judges_a_few_terms_per_call(default_kb):
    requests = [SearchRequest(term=t, mode="label", kind="entity") for t in ("Arnold Schwarzenegger", "Thal", "human")]
    results = uri_retrieval(default_kb, requests, k=2)
    calls = []

    def judge(messages, json_schema=None):
        calls.append(sorted(json_schema["properties"]))
        return json.dumps({term: {"iri": "none", "reason": "no fit"} for term in json_schema["properties"]})

    choices = asyncio.run(summarize_results(ScriptedLLM(judge), results, "text", batch=2))
    assert calls == [["Arnold Schwarzenegger", "Thal"], ["human"]]
    assert [c.iri for c in choices] == [None, None, None] and choices[2].reason == "no fit"


# --- message deletion ---------------------------------------------------------------------------


def test_message_deletion_keeps_the_task_and_the_latest_message():
    messages = [{"id": i, "author": "a", "content": f"m{i}"} for i in range(5)]
    kept, note = delete_messages(messages, [1, 2], summary="m1 and m2 said X")
    assert [m["id"] for m in kept] == [0, 3, 4, 5] and kept[-1]["content"] == "m1 and m2 said X"
    assert note == "deleted messages [1, 2] and kept your summary"
    with pytest.raises(ModelOutputError, match="cannot be deleted"):
        delete_messages(messages, [0])
    with pytest.raises(ModelOutputError, match="cannot be deleted"):
        delete_messages(messages, [4])
    with pytest.raises(ModelOutputError, match=r"no messages with ids \[9\]"):
        delete_messages(messages, [9])


# --- ontology reader errors ---------------------------------------------------------------------


def test_ontology_terms_outside_wikidata_namespaces_are_named(tmp_path):
    path = tmp_path / "onto.ttl"
    path.write_text(
        "<http://example.org/worksFor> <http://www.w3.org/2000/01/rdf-schema#domain> <http://example.org/Person> .",
        encoding="utf-8",
    )
    with pytest.raises(UserError, match="http://example.org/worksFor is not a Wikidata-style IRI"):
        read_rdf_ontology(path)
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle", encoding="utf-8")
    with pytest.raises(UserError, match="invalid RDF"):
        read_rdf_ontology(bad)
