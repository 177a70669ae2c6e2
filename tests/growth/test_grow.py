"""The growing graph over stored runs: resolution, staging and votes, promotion with schema growth,
ageing, reruns, and the atomic save."""

from __future__ import annotations

import math

import pytest

from graphwright.errors import StoreError
from graphwright.growth import GrowthPolicy, check, grow, load, save
from graphwright.growth.codec import KG_GRAPH
from graphwright.growth.episodes import apply, pending_runs
from graphwright.model.schema import name_entity_iri
from tests.growth.runs import EMPLOYER, NOVEL, linked, person, result, triple

POLICY = GrowthPolicy(embedder=None)
DAY1, DAY2 = "2026-11-01T00:00:00+00:00", "2026-11-02T00:00:00+00:00"


def edge(state, subject, predicate, obj):
    return next(
        e
        for e in state.edges.values()
        if e.subject == name_entity_iri(subject) and e.predicate == predicate and e.object.value == name_entity_iri(obj)
    )


def test_an_edge_of_a_schema_relation_is_promoted_at_once_and_carries_its_evidence(store):
    store.add_result(
        None,
        result(
            "d1",
            [
                triple(
                    "Lena Vogt",
                    EMPLOYER,
                    "Nordwind Logistik GmbH",
                    sentence="Lena Vogt works at Nordwind Logistik GmbH.",
                )
            ],
        ),
    )
    [report] = grow(store, POLICY, now=DAY1)
    state = load(store)
    e = edge(state, "Lena Vogt", EMPLOYER, "Nordwind Logistik GmbH")
    assert (e.status, e.confidence, e.votes) == ("promoted", 0.5, 1)
    assert [(ev.document_id, ev.text) for ev in e.evidence] == [("d1", "Lena Vogt works at Nordwind Logistik GmbH.")]
    assert (e.created_at, e.last_seen, e.first_episode) == (DAY1, DAY1, 1)
    assert report.record.counts["edges"] == 1 and report.record.counts["pending"] == 0
    rows = store.query(f"SELECT ?o WHERE {{ GRAPH <{KG_GRAPH}> {{ ?s <{EMPLOYER}> ?o }} }}", union=False)
    assert rows == [{"o": name_entity_iri("Nordwind Logistik GmbH")}]


def test_a_novel_relation_waits_for_three_documents_then_joins_the_schema(store):
    for i in (1, 2):
        store.add_result(
            None,
            result(f"d{i}", [triple("Nordwind", NOVEL, "Kessler Werke", sentence=f"s{i}", label="supplies parts to")]),
        )
    grow(store, POLICY, now=DAY1)
    e = edge(load(store), "Nordwind", NOVEL, "Kessler Werke")
    assert (e.status, e.reason, e.votes, e.confidence) == ("pending", "relation type not in the schema", 2, 0.75)
    store.add_result(
        None, result("d3", [triple("Nordwind", NOVEL, "Kessler Werke", sentence="s3", label="supplies parts to")])
    )
    [report] = grow(store, POLICY, now=DAY2)
    state = load(store)
    e = edge(state, "Nordwind", NOVEL, "Kessler Werke")
    assert (e.status, e.votes, e.confidence) == ("promoted", 3, pytest.approx(0.875))
    assert NOVEL in state.allowed_relations and state.schema_version == 1
    [change] = state.schema_log
    assert (change.kind, change.term, change.version, change.episode) == ("relation", NOVEL, 1, 2)
    assert "3 documents" in change.reason and "Kessler Werke" in change.reason
    assert report.record.counts["promoted"] == 1


def test_a_low_confidence_edge_is_staged_with_its_reason(store):
    store.add_result(None, result("d1", [triple("Ana Ruiz", EMPLOYER, "Kessler Werke", sentence="s", confidence=0.3)]))
    grow(store, POLICY, now=DAY1)
    e = edge(load(store), "Ana Ruiz", EMPLOYER, "Kessler Werke")
    assert (e.status, e.reason) == ("pending", "confidence 0.30 below 0.50")


def test_one_document_read_twice_is_one_vote(store):
    store.add_result(None, result("d1", [triple("Nordwind", NOVEL, "Kessler Werke", sentence="s1")]))
    store.add_result(None, result("d1", [triple("Nordwind", NOVEL, "Kessler Werke", sentence="s1")], system="other"))
    grow(store, POLICY, now=DAY1)
    e = edge(load(store), "Nordwind", NOVEL, "Kessler Werke")
    assert (e.votes, e.confidence) == (1, 0.5)
    assert {ev.system for ev in e.evidence} == {"test"}  # the same sentence of the same document once


def test_merging_again_changes_nothing_but_last_seen(store):
    store.add_result(
        None,
        result(
            "d1",
            [
                triple("Lena Vogt", EMPLOYER, "Nordwind Logistik GmbH", sentence="a"),
                triple("Nordwind Logistik GmbH", NOVEL, "Kessler Werke", sentence="b"),
            ],
        ),
    )
    store.add_result(None, result("d2", [triple("Lena Vogt", EMPLOYER, "Nordwind Logistik", sentence="c")]))
    grow(store, POLICY, now=DAY1, episode_size=1)
    first = load(store)
    assert grow(store, POLICY, now=DAY2) == []  # nothing new
    grow(store, POLICY, now=DAY2, everything=True)
    again = load(store)
    assert again.counts() == first.counts()
    for key, e in first.edges.items():
        later = again.edges[key]
        assert (later.votes, later.status, later.confidence, later.evidence) == (
            e.votes,
            e.status,
            e.confidence,
            e.evidence,
        )
        assert later.last_seen == DAY2 and later.created_at == DAY1
    assert len(again.episodes) == 3


def test_names_merge_by_alias_and_the_merge_is_recorded(store):
    store.add_result(None, result("d1", [triple("Lena Vogt", EMPLOYER, "Nordwind Logistik GmbH", sentence="a")]))
    store.add_result(None, result("d2", [triple("Lena Vogt", EMPLOYER, "the Nordwind Logistik", sentence="b")]))
    grow(store, POLICY, now=DAY1)
    state = load(store)
    [merge] = state.merges
    assert (merge.source, merge.target, merge.method, merge.document_id) == (
        name_entity_iri("the Nordwind Logistik"),
        name_entity_iri("Nordwind Logistik GmbH"),
        "alias",
        "d2",
    )
    assert len(state.nodes) == 2
    e = edge(state, "Lena Vogt", EMPLOYER, "Nordwind Logistik GmbH")
    assert e.votes == 2 and "the Nordwind Logistik" in state.nodes[name_entity_iri("Nordwind Logistik GmbH")].aliases
    same = store.query(f"SELECT ?a ?b WHERE {{ GRAPH <{KG_GRAPH}> {{ ?a owl:sameAs ?b }} }}", union=False)
    assert same == [{"a": name_entity_iri("the Nordwind Logistik"), "b": name_entity_iri("Nordwind Logistik GmbH")}]


def test_kb_entities_and_ambiguous_names_are_never_merged_by_name(store):
    store.add_result(None, result("d1", [], entities=[linked("Q1", "Acme"), linked("Q2", "ACME")]))
    store.add_result(None, result("d2", [], entities=[person("Acme")]))  # the linker kept it apart from the KB
    store.add_result(None, result("d3", [], entities=[person("Jonas Berg")]))
    store.add_result(None, result("d4", [], entities=[person("jonas berg")]))
    grow(store, POLICY, now=DAY1)
    state = load(store)
    assert len(state.nodes) == 4
    assert [(m.source, m.target) for m in state.merges] == [
        (name_entity_iri("jonas berg"), name_entity_iri("Jonas Berg"))
    ]


def test_similar_names_merge_above_the_threshold_only(store):
    vectors = {"Kessler Werke": [1.0, 0.0], "Kesler Werke": [0.96, 0.28], "Kessel Werk": [0.8, 0.6]}

    def embed(texts):
        import numpy as np

        return np.array([vectors[t] for t in texts])

    store.add_result(None, result("d1", [], entities=[person("Kessler Werke")]))
    store.add_result(None, result("d2", [], entities=[person("Kesler Werke"), person("Kessel Werk")]))
    from graphwright.growth import episodes

    original = episodes.embedder_function
    episodes.embedder_function = lambda name: embed
    try:
        grow(store, GrowthPolicy(embedder="fake", resolve_threshold=0.92), now=DAY1)
    finally:
        episodes.embedder_function = original
    [merge] = load(store).merges
    assert (merge.label, merge.method, merge.score) == ("Kesler Werke", "embedding", pytest.approx(0.96))


def test_self_loops_are_refused_unless_allowed(store):
    store.add_result(None, result("d1", [triple("Nordwind", EMPLOYER, "Nordwind", sentence="s")]))
    [report] = grow(store, POLICY, now=DAY1)
    assert report.record.counts["self_loops"] == 1 and not load(store).edges
    store.add_result(None, result("d1", [triple("Nordwind", EMPLOYER, "Nordwind", sentence="s2")], system="again"))
    grow(store, GrowthPolicy(embedder=None, self_loops=[EMPLOYER]), now=DAY1)
    assert len(load(store).edges) == 1


def test_ageing_decays_after_the_soft_window_and_removes_after_the_hard_one(store):
    store.add_result(None, result("d1", [triple("Lena Vogt", EMPLOYER, "Kessler Werke", sentence="s")]))
    grow(store, POLICY, now=DAY1)
    aged = apply(store, POLICY, "age", now="2026-11-11T00:00:00+00:00")  # 10 days: 3 past the soft window
    e = edge(load(store), "Lena Vogt", EMPLOYER, "Kessler Werke")
    assert aged.decayed == 1 and e.confidence == pytest.approx(0.5 * math.exp(-0.08 * 3))
    apply(store, POLICY, "age", now="2026-11-11T00:00:00+00:00")  # ageing twice at one time is ageing once
    assert edge(load(store), "Lena Vogt", EMPLOYER, "Kessler Werke").confidence == pytest.approx(0.5 * math.exp(-0.24))
    aged = apply(store, POLICY, "age", now="2026-12-17T00:00:00+00:00")  # 46 days
    state = load(store)
    assert (aged.removed_edges, aged.removed_entities) == (1, 2) and not state.edges and not state.nodes


def test_the_episode_clock_ages_by_episodes(store):
    policy = GrowthPolicy(embedder=None, clock="episodes", soft_window=1, hard_window=2)
    store.add_result(None, result("d1", [triple("Lena Vogt", EMPLOYER, "Kessler Werke", sentence="s")]))
    for i in range(2, 6):
        store.add_result(None, result(f"d{i}", [], entities=[person(f"Someone {i}")]))
    grow(store, policy, now=DAY1, episode_size=1)
    counts = [ep.counts for ep in load(store).episodes]
    assert [c["decayed"] for c in counts] == [0, 0, 1, 0, 0]
    assert [c["removed_edges"] for c in counts] == [0, 0, 0, 1, 0]


def test_a_novel_entity_type_joins_the_schema_after_enough_documents(store):
    kind = "https://graphwright.dev/schema/custom/Supplier"
    for i in range(1, 4):
        entity = person(f"Supplier {i}")
        entity.types = [kind]
        store.add_result(None, result(f"d{i}", [], entities=[entity]))
    grow(store, POLICY, now=DAY1, episode_size=2)
    state = load(store)
    assert kind in state.allowed_types and [c.kind for c in state.schema_log] == ["entity_type"]
    assert state.schema_log[0].episode == 2 and not check(state, POLICY).invalid_types


def test_a_schema_file_seeds_the_allow_list(store, tmp_path):
    from graphwright.growth.episodes import schema_terms
    from graphwright.model.schema import load_schema

    path = tmp_path / "s.yaml"
    path.write_text("name: custom\nrelations:\n  supplies_parts_to: {description: sells parts to}\n")
    store.add_result(None, result("d1", [triple("Nordwind", NOVEL, "Kessler Werke", sentence="s")]))
    relations, types = schema_terms(load_schema(path))
    grow(store, POLICY, now=DAY1, relations=relations, entity_types=types)
    state = load(store)
    assert state.allowed_relations == {NOVEL} and state.schema_version == 1
    assert edge(state, "Nordwind", NOVEL, "Kessler Werke").status == "promoted"


def test_labels_from_text_round_trip_as_data(store):
    nasty = 'Acme "} ; DROP GRAPH <x> . \n<script>alert(1)</script> \\ `x`'
    store.add_result(None, result("d1", [triple(nasty, EMPLOYER, "Kessler Werke", sentence=nasty)]))
    grow(store, POLICY, now=DAY1)
    state = load(store)
    assert state.nodes[name_entity_iri(nasty)].label == nasty
    assert edge(state, nasty, EMPLOYER, "Kessler Werke").evidence[0].text == nasty
    save(store, state)
    assert load(store) == state


def test_a_failed_save_keeps_the_previous_graph(store):
    store.add_result(None, result("d1", [triple("Lena Vogt", EMPLOYER, "Kessler Werke", sentence="s")]))
    grow(store, POLICY, now=DAY1)
    before = load(store)
    broken = load(store)
    next(iter(broken.nodes.values())).types.add("not an IRI")
    with pytest.raises(StoreError):
        save(store, broken)
    assert load(store) == before


def test_snapshots_keep_the_graph_as_it_was(store):
    from graphwright.growth.codec import snapshot_quads

    store.add_result(None, result("d1", [triple("Lena Vogt", EMPLOYER, "Kessler Werke", sentence="s")]))
    grow(store, POLICY, now=DAY1)
    store.add_result(None, result("d2", [triple("Ana Ruiz", EMPLOYER, "Kessler Werke", sentence="s")]))
    grow(store, POLICY, now=DAY2)
    state = load(store)
    assert [(s.sid, s.episode, s.edges) for s in state.snapshots] == [("s1-ep1", 1, 1), ("s2-ep2", 2, 2)]
    first = [q for q in snapshot_quads(store, "s1-ep1") if q.predicate.value == EMPLOYER]
    assert len(first) == 1
    snap = apply(store, POLICY, "snapshot", now=DAY2, note="before the import", sid="release-1")
    assert (snap.sid, snap.edges, snap.note) == ("release-1", 2, "before the import")
    with pytest.raises(Exception, match="exists already"):
        apply(store, POLICY, "snapshot", now=DAY2, sid="release-1")


def test_name_keys_set_legal_forms_aside():
    from graphwright.growth.resolve import name_key

    assert name_key("Mosterdijk Koelvracht B.V.") == name_key("Mosterdijk Koelvracht") == "mosterdijk koelvracht"
    assert name_key("the Aldaine Foods group") == name_key("Aldaine Foods plc") == "aldaine foods"
    assert name_key("Tsurugane Photonics K.K.") == "tsurugane photonics" and name_key("Group") == "group"


def test_a_short_name_joins_the_full_name_of_the_same_document_only_when_unambiguous(store):
    store.add_result(
        None,
        result(
            "d1",
            [triple("Kuchta", EMPLOYER, "Sturmfeld", sentence="Kuchta joined Sturmfeld.")],
            entities=[person("Mirela Kuchta"), person("Kuchta"), person("Sturmfeld Frachtwerk"), person("Sturmfeld")],
        ),
    )
    store.add_result(
        None, result("d2", [], entities=[person("Ottmar Brandis"), person("Clara Brandis"), person("Brandis")])
    )
    grow(store, POLICY, now=DAY1)
    state = load(store)
    assert {(m.label, m.method) for m in state.merges} == {("Kuchta", "short name")}  # not "Sturmfeld"
    e = edge(state, "Mirela Kuchta", EMPLOYER, "Sturmfeld")
    assert e.evidence[0].text == "Kuchta joined Sturmfeld."
    assert name_entity_iri("Brandis") in state.nodes  # two Brandises: the short name stays apart


def test_rebuilding_grows_the_graph_again_under_new_settings(store):
    from graphwright.growth.codec import snapshot_quads

    for i in (1, 2):
        store.add_result(None, result(f"d{i}", [triple("Nordwind", EMPLOYER, "Kessler Werke", sentence=f"s{i}")]))
    grow(store, POLICY, now=DAY1, episode_size=1)
    assert load(store).counts()["edges"] == 1
    cautious = GrowthPolicy(embedder=None, stage_below=0.6, promote_votes=2)
    [report] = grow(store, cautious, now=DAY2, rebuild=True)
    state = load(store)
    assert [ep.number for ep in state.episodes] == [1] and report.record.documents == 2
    assert edge(state, "Nordwind", EMPLOYER, "Kessler Werke").status == "promoted"  # staged, then 2 votes
    assert [s.sid for s in state.snapshots] == ["s1-ep1"] and snapshot_quads(store, "s2-ep2") == []


def test_runs_are_grown_in_the_order_they_were_stored_whatever_their_times_digits():
    """The store writes seconds without trailing zeros: "27.91786Z" is before "27.917861Z" though it sorts after."""

    class Stored:
        def documents(self):
            return [
                {"document_id": "later", "system": "s", "status": "ok", "recorded_at": "2026-11-29T08:29:27.917861Z"},
                {"document_id": "first", "system": "s", "status": "ok", "recorded_at": "2026-11-29T08:29:27.91786Z"},
            ]

    assert [r["document_id"] for r in pending_runs(Stored(), None, everything=True)] == ["first", "later"]
