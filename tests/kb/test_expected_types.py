"""Expected subject/value types derived from usage (graphwright.kb.expected_types), on hand-made input."""

from __future__ import annotations

import gzip
import json

from graphwright.kb import expected_types as et

# A tiny hierarchy: city < settlement < geographic location; human < person; a cycle a <-> b.
SUBCLASS_OF = {"Q515": ["Q486972"], "Q486972": ["Q2221906"], "Q5": ["Q215627"], "Qa": ["Qb"], "Qb": ["Qa", "Q43229"]}
BROAD = ["Q2221906", "Q486972", "Q215627", "Q5", "Q43229"]
GENERALITY = {"Q2221906": 100, "Q486972": 50, "Q215627": 80, "Q5": 70, "Q43229": 60}
HUMAN, CITY = frozenset({"Q5", "Q215627"}), frozenset({"Q486972", "Q2221906"})


def test_hierarchy_reaches_broad_classes_through_the_whole_chain_and_cuts_cycles():
    h = et.Hierarchy(SUBCLASS_OF, BROAD)
    assert h.reach("Q515") == CITY
    assert h.reach("Qa") == {"Q43229"}  # through the a <-> b cycle
    assert h.kinds(["Q515", "Q5"]) == CITY | HUMAN
    assert h.kinds([]) is None  # no type: unknown, not "reaches nothing"
    assert h.kinds(["Qunknown"]) == frozenset()
    assert h.generality({"x": ["Q5"], "y": ["Q515"], "z": []}) == {"Q5": 1, "Q215627": 1, "Q486972": 1, "Q2221906": 1}


def test_cover_picks_the_most_covering_class_and_prefers_the_more_general_on_ties():
    assert et.cover([HUMAN] * 5, GENERALITY) == ["Q215627"]  # person (80) over human (70)
    assert et.cover([HUMAN] * 3 + [CITY] * 3, GENERALITY) == ["Q2221906", "Q215627"]


def test_cover_is_empty_on_thin_evidence_and_none_when_too_diverse():
    assert et.cover([HUMAN] * (et.MIN_TYPED - 1), GENERALITY) == []
    diverse = [frozenset({f"Qx{i}"}) for i in range(et.MAX_CLASSES + 1)] * 2
    assert et.cover(diverse, GENERALITY) is None
    # an entity that reaches no broad class cannot be covered: one in 5 is more than MAX_MISS
    assert et.cover([HUMAN] * 4 + [frozenset()], GENERALITY) is None


def test_cover_leaves_a_small_share_uncovered():
    assert et.cover([HUMAN] * 40 + [CITY], GENERALITY) == ["Q215627"]  # 1 of 41 < MAX_MISS


def _evidence(pid, role, kinds_list, source="wikidata"):
    ev = et.Evidence()
    for i, kinds in enumerate(kinds_list):
        ev.add(pid, role, source, f"Q{i}", kinds)
    return ev


def test_derive_only_fills_declared_constraints_and_item_values():
    ev = _evidence("P19", "subject", [HUMAN] * 6)
    for i in range(6):
        ev.add("P19", "value", "wikidata", f"Qc{i}", CITY)
        ev.add("P17", "subject", "wikidata", f"Qc{i}", CITY)  # "country" subjects: unconstrained
        ev.add("P569", "value", "wikidata", f"Qc{i}", CITY)  # nonsense evidence for a time property
    out = et.derive(
        ev,
        {"P19": "wikibase-item", "P17": "wikibase-item", "P569": "time"},
        {"P19": ["subject", "value"], "P569": ["subject", "value"]},
        {},
        GENERALITY,
    )
    assert out == {"P19": {"subject": ["Q215627"], "value": ["Q2221906"]}}


def test_derive_inherits_from_the_nearest_constrained_super_property():
    ev = _evidence("P26", "subject", [HUMAN] * 6)
    ev.add("P361", "subject", "wikidata", "Qz", CITY)  # unconstrained ancestor: passed over
    datatypes = {"P26": "wikibase-item", "P451": "wikibase-item", "P999": "wikibase-item", "P361": "wikibase-item"}
    constrained = {"P26": ["subject"], "P451": ["subject"], "P999": ["subject"]}
    supers = {"P451": ["P361", "P26"], "P999": ["P451"]}
    out = et.derive(ev, datatypes, constrained, supers, GENERALITY)
    assert out["P451"] == {"subject": ["Q215627"]} and out["P999"] == {"subject": ["Q215627"]}
    assert "P361" not in out


def test_a_diverse_source_vetoes_the_role_even_when_another_source_speaks():
    ev = _evidence("P50", "value", [HUMAN] * 6, source="re-docred")
    for i in range(10):
        ev.add("P50", "value", "wikidata", f"Qd{i}", frozenset({f"Qx{i % 5}"}))
    assert et.derive(ev, {"P50": "wikibase-item"}, {"P50": ["value"]}, {}, GENERALITY) == {}


def test_docred_coarse_types_stand_for_all_their_classes_and_misc_roles_stay_silent(tmp_path):
    def vertex(name, typ):
        return [{"name": name, "type": typ, "sent_id": 0, "pos": [0, 1]}]

    docs = [
        {
            "title": f"d{i}",
            "sents": [["x"]],
            "vertexSet": [
                vertex(f"Person {i}", "PER"),
                vertex(f"Town {i}", "LOC"),
                vertex(f"Work {i}", "MISC"),
                vertex(f"Church {i}", "ORG"),
            ],
            "labels": [
                {"h": 0, "t": 1, "r": "P19"},
                {"h": 0, "t": 2, "r": "P800"},
                {"h": 0, "t": 3, "r": "P140"},
                {"h": 2 if i == 0 else 0, "t": 1, "r": "P551"},
            ],
        }
        for i in range(20)
    ]
    path = tmp_path / "dev.json.gz"
    path.write_bytes(gzip.compress(json.dumps(docs).encode()))
    ev = et.Evidence()
    et.add_docred(ev, path)
    assert ev.expected("P19", "subject", GENERALITY) == ["Q215627", "Q95074"]  # person or fictional character
    assert ev.expected("P19", "value", GENERALITY) == ["Q2221906"]
    assert ev.expected("P140", "value", GENERALITY) == ["Q43229", "Q9174"]  # DocRED's ORG tags religions too
    assert ev.expected("P800", "value", GENERALITY) == []  # MISC: says nothing
    assert ev.expected("P551", "subject", GENERALITY) == ["Q215627", "Q95074"]  # 1 MISC in 20 = MAX_MISS


def test_rebel_evidence_reads_only_the_given_documents(tmp_path):
    def doc(s, o):
        return {
            "triples": [
                {"subject": {"uri": s}, "predicate": {"uri": "P19"}, "object": {"uri": o}},
                {"subject": {"uri": s}, "predicate": {"uri": "P569"}, "object": {"uri": "+1950^^x"}},
            ]
        }

    path = tmp_path / "sample.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(doc(f"Qh{i}", "Q65")) + "\n" for i in range(4)).encode()))
    ev = et.Evidence()
    types = {f"Qh{i}": ["Q5"] for i in range(4)} | {"Q65": ["Q515"]}
    et.add_rebel(ev, path, range(1, 3), types, et.Hierarchy(SUBCLASS_OF, BROAD))
    assert ev.obs[("P19", "subject")]["wikidata"] == {"Qh1": HUMAN, "Qh2": HUMAN}
    assert ev.obs[("P19", "value")]["wikidata"] == {"Q65": CITY}  # one observation per distinct entity
    assert ("P569", "value") not in ev.obs  # literal objects have no id
