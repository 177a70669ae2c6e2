"""Agentic-KGR's six tools against values worked out by hand, and its format validator."""

from __future__ import annotations

import math

import numpy as np
import pytest

from graphwright.growth.episodes import seed_schema
from graphwright.growth.observe import Observer
from graphwright.growth.policy import GrowthPolicy
from graphwright.growth.resolve import Resolver
from graphwright.growth.state import GrowthState
from graphwright.model import Document
from graphwright.papers.agentic_kgr.analysis import (
    coverage_feedback,
    extraction_density,
    iterative_feedback,
    quality_metrics,
)
from graphwright.papers.agentic_kgr.graph_tools import entity_disambiguation, kg_storage, standardize
from graphwright.papers.agentic_kgr.kg_json import KG, KGSchema, check_format

SCHEMA = KGSchema(
    "company",
    ["Peop", "Org", "Loc"],
    ["Work_For", "Live_In", "OrgBased_In"],
    {"Work_For": (["Peop"], ["Org"]), "Live_In": (["Peop"], ["Loc"]), "OrgBased_In": (["Org"], ["Loc"])},
)
TEXT = "Lena Vogt, who lives in Hamburg, works for Nordwind Logistik, a shipping firm based in Kiel since 1998."
SPARSE = KG(
    entities={"Peop": ["Lena Vogt"], "Org": ["Nordwind Logistik"]},
    relations={"Work_For": [{"subject": "Lena Vogt", "object": "Nordwind Logistik"}]},
)


def test_the_format_validator_names_what_is_wrong():
    assert check_format(SPARSE.render()).valid
    assert check_format("{not json").errors[0].startswith("not JSON")
    bad = check_format('{"entities": {"Peop": "Lena"}, "relations": {}, "extra": 1}')
    assert not bad.valid and "unexpected key 'extra'" in bad.errors and any("list of names" in e for e in bad.errors)
    assert not check_format('{"entities": {}, "relations": {"Work_For": [{"subject": "a"}]}}').valid
    assert check_format("[]").errors == ["the answer must be a JSON object with 'entities' and 'relations'"]


def test_density_asks_for_more_below_the_expected_density():
    out = extraction_density(TEXT, SCHEMA, SPARSE)
    # 5 name-like spans (Lena Vogt, Hamburg, Nordwind Logistik, Kiel, 1998): 4.0 entities and 2.0 relations expected
    assert out["expected_density"]["min_entities"] == 2.0 and out["expected_density"]["max_relations"] == 4.0
    complexity = out["complexity_features"]["complexity_score"]
    assert complexity == pytest.approx(0.5 * 18 / 40, abs=1e-4)  # 18 words in one sentence, no technical term
    adequacy = (0.5 * 2 / 4 + 0.3 * 1 / 2 + 0.2 * 1.0) * (1.1 - 0.2 * complexity)
    assert out["density_assessment"]["adequacy"] == pytest.approx(adequacy, abs=1e-4)
    assert out["needs_more_extraction"] and out["density_assessment"]["level"] == "moderate"
    assert "Hamburg, Kiel, 1998" in out["recommendations"][-1]


def test_density_never_asks_for_more_when_over_extracted():
    many = KG(entities={"Peop": [f"P{i}" for i in range(12)]})
    out = extraction_density(TEXT, SCHEMA, many)
    assert out["density_assessment"]["potential_over_extraction"] and not out["needs_more_extraction"]
    assert out["density_assessment"]["level"] == "over_extraction"


def test_coverage_weighs_entities_and_relations_six_to_four():
    out = coverage_feedback(TEXT, SCHEMA, SPARSE, priority_types=["Loc"])
    # the text signals all three relations (lives, works, based) and so all three entity types
    assert out["missing_entity_types"] == ["Loc"] and out["missing_relation_types"] == ["Live_In", "OrgBased_In"]
    assert out["coverage_score"] == pytest.approx(0.6 * 2 / 3 + 0.4 * 1 / 3, abs=1e-4)
    assert out["coverage_level"] == "moderate" and out["priority_coverage"] == 0.0


def test_quality_scores_each_dimension_and_weighs_them():
    kg = KG(
        entities={"Peop": ["Lena Vogt", "the Kiel office"], "Org": ["Nordwind Logistik"], "Loc": ["Berlin"]},
        relations={
            "Work_For": [
                {"subject": "Lena Vogt", "object": "Nordwind Logistik"},
                {"subject": "Lena Vogt", "object": "Acme"},
            ]
        },
    )
    out = quality_metrics(TEXT, SCHEMA, kg)
    d = out["dimension_scores"]
    size = 4 + 2  # entities + relations
    assert d["accuracy"]["details"]["entities_not_in_text"] == ["the Kiel office", "Berlin"]
    assert d["accuracy"]["score"] == pytest.approx(1 - 3 / size, abs=1e-4)  # and one relation with "Acme"
    assert d["consistency"]["details"]["boundary_errors"] == ["the Kiel office"]
    assert d["schema_compliance"]["score"] == pytest.approx(1 - 1 / size, abs=1e-4)  # Acme is not an entity
    weights = {"completeness": 0.30, "accuracy": 0.30, "consistency": 0.25, "schema_compliance": 0.15}
    expected = sum(w * d[k]["score"] for k, w in weights.items())
    assert out["overall_score"] == pytest.approx(expected, abs=1e-3)


def test_iterative_feedback_goes_on_while_it_improves_and_stops_on_a_plateau():
    going = iterative_feedback([SPARSE, SPARSE], [0.5, 0.7])
    assert going["trend"] == "improving" and going["should_continue_iteration"] and going["effectiveness"] == "high"
    flat = iterative_feedback([SPARSE, SPARSE], [0.7, 0.705])
    assert not flat["should_continue_iteration"] and "minimal gain after 2 or more iterations" in flat["stop_reasons"]
    assert iterative_feedback([SPARSE], [0.5])["effectiveness"] == "insufficient_data"
    done = iterative_feedback([SPARSE] * 5, [0.1, 0.2, 0.3, 0.4, 0.6], max_iterations=5)
    assert "maximum number of iterations reached" in done["stop_reasons"] and done["phase"] == "refinement"


def memory_with(names: dict[str, str]) -> tuple[GrowthState, Observer]:
    state = GrowthState()
    seed_schema(state, {SCHEMA.relation_iri(r) for r in SCHEMA.relation_types}, set())
    policy = GrowthPolicy(embedder=None)
    observer = Observer(state, policy, Resolver(state, 0.92))
    doc = Document(text="Lena Vogt works for Nordwind Logistik.")
    kg = KG(
        entities={"Peop": ["Lena Vogt"], "Org": [names.get("org", "Nordwind Logistik")]},
        relations={"Work_For": [{"subject": "Lena Vogt", "object": names.get("org", "Nordwind Logistik")}]},
    )
    kg_storage(kg, SCHEMA, state, observer, document=doc, system="t", episode=1)
    return state, observer


def test_exact_disambiguation_finds_known_entities_and_their_relations():
    memory, _ = memory_with({})
    kg = KG(entities={"Peop": ["lena vogt"], "Org": ["Kessler Werke"]})
    out = entity_disambiguation(kg, memory)
    lena, kessler = out["results"]
    assert lena["is_disambiguated"] and lena["best_match"]["confidence"] == 1.0
    assert lena["related_relationships"] == [["Lena Vogt", "Work_For", "Nordwind Logistik"]]
    assert not kessler["is_disambiguated"] and kessler["candidates"] == []
    assert out["quality_score"] == pytest.approx(0.6 * 1 / 2 + 0.4 * (1.0 + 0.0) / 2)
    assert out["standardization_suggestions"] == [{"entity": "lena vogt", "use": "Lena Vogt"}]
    fixed = standardize(kg, out["standardization_suggestions"])
    assert fixed.entities["Peop"] == ["Lena Vogt"]


def test_semantic_disambiguation_warns_under_point_nine():
    memory, _ = memory_with({})
    vectors = {
        "Lena Vogt": [1.0, 0.0, 0.0],
        "Nordwind Logistik": [0.0, 1.0, 0.0],
        "L. Vogt": [0.85, 0.0, math.sqrt(1 - 0.85**2)],
    }

    def embed(texts):
        return np.array([vectors[t] for t in texts])

    out = entity_disambiguation(
        KG(entities={"Peop": ["L. Vogt"]}),
        memory,
        disambiguation_strategy="semantic_similarity",
        similarity_threshold=0.8,
        embed=embed,
    )
    [row] = out["results"]
    assert row["best_match"]["name"] == "Lena Vogt" and row["best_match"]["confidence"] == pytest.approx(0.85)
    assert out["warnings"] and "0.85" in out["warnings"][0]


def test_storage_reports_stored_skipped_and_failed_per_part():
    memory, observer = memory_with({})
    doc = Document(text="Lena Vogt works for Nordwind Logistik in Kiel.")
    kg = KG(
        entities={"Peop": ["Lena Vogt"], "Org": ["Nordwind Logistik"], "Loc": ["Kiel"]},
        relations={
            "Work_For": [{"subject": "Lena Vogt", "object": "Nordwind Logistik"}],
            "OrgBased_In": [
                {"subject": "Nordwind Logistik", "object": "Kiel"},
                {"subject": "Nordwind Logistik", "object": "Bremen"},
            ],
        },
    )
    out = kg_storage(kg, SCHEMA, memory, observer, document=doc, system="t", episode=1)
    entities, relations = out["storage_status"]["entities"], out["storage_status"]["relations"]
    assert (entities["code"], entities["stored"], entities["skipped"]) == (0, 1, 2)
    assert (relations["code"], relations["stored"], relations["skipped"], relations["failed"]) == (-1, 1, 1, 1)
    assert "Bremen" in out["warnings"][0] and out["final_kg"] == kg.model_dump()


def test_observations_are_cut_to_their_key_fields_and_budget():
    from graphwright.papers.agentic_kgr.compress import compress_observation, estimate_tokens

    out = extraction_density(TEXT, SCHEMA, SPARSE)
    whole = compress_observation("query_extraction_density", out, None)
    short = compress_observation("query_extraction_density", out, 60)
    assert json_keys(whole) > {"needs_more_extraction", "text_stats"}
    assert "text_stats" not in short and "needs_more_extraction" in short and estimate_tokens(short) <= 60


def json_keys(text):
    import json

    return set(json.loads(text))


def test_screen_drops_type_names_and_types_outside_the_schema():
    from graphwright.papers.agentic_kgr.screen import screen

    text = "The Org said Lena Vogt joined Nordwind Logistik."
    kg = KG(
        entities={"Org": ["Org", "Nordwind Logistik"], "Peop": ["Lena Vogt"], "Ship": ["Nordwind Logistik"]},
        relations={
            "Work_For": [{"subject": "Lena Vogt", "object": "Nordwind Logistik"}],
            "Owns": [{"subject": "Lena Vogt", "object": "Nordwind Logistik"}],
        },
    )
    kept, dropped = screen(kg, text, SCHEMA)
    assert kept.entities == {"Org": ["Nordwind Logistik"], "Peop": ["Lena Vogt"]}
    assert kept.triples() == [("Lena Vogt", "Work_For", "Nordwind Logistik")]
    assert dropped == [
        "entity 'Org' (Org): a type name, not an entity",
        "entity 'Nordwind Logistik' (Ship): type not in the schema",
        "relation (Lena Vogt, Owns, Nordwind Logistik): relation not in the schema",
    ]
