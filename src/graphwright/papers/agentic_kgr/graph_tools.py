"""Agentic-KGR's two graph tools (paper 004, A.4): entity disambiguation against the graph built so far, and
storage into it. The graph is graphwright's growing graph (``graphwright.growth``) held in memory for the run:
storing resolves entities, adds votes and stages novel relations exactly as ``graph merge`` does."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import numpy as np

from graphwright.growth.lifecycle import promote
from graphwright.growth.observe import Observed, Observer, Run, Tick
from graphwright.growth.state import GrowthState
from graphwright.model import Document, Entity, Mention, Provenance, Span, Term, Triple
from graphwright.model.schema import name_entity_iri
from graphwright.papers.agentic_kgr.analysis import in_text, normalize_name
from graphwright.papers.agentic_kgr.kg_json import KG, KGSchema, Pair

Embed = Callable[[list[str]], np.ndarray]


def _names(memory: GrowthState) -> list[tuple[str, str]]:
    """(node IRI, name) for every label and alias in the graph."""
    return [(n.iri, name) for n in memory.nodes.values() for name in sorted({n.label, *n.aliases})]


def _related(memory: GrowthState, iri: str, limit: int = 5) -> list[list[str]]:
    def label(value: str) -> str:
        node = memory.nodes.get(value)
        return node.label if node else value

    edges = [e for e in memory.promoted() if iri in (e.subject, e.object.value)]
    return [[label(e.subject), e.predicate_label or e.predicate, label(e.object.value)] for e in edges[:limit]]


def entity_disambiguation(
    kg: KG,
    memory: GrowthState,
    *,
    disambiguation_strategy: str = "exact_match",
    similarity_threshold: float = 0.8,
    context: str | None = None,
    embed: Embed | None = None,
) -> dict[str, Any]:
    """Tool 5, ``query_entity_disambiguation``: the graph's candidates for each extracted entity.

    exact_match: case-insensitive equality with a node's name or alias (confidence 1.0 or 0.0);
    semantic_similarity: cosine similarity of name embeddings (falls back to exact match without a model).
    quality_score = 0.6 x disambiguated share + 0.4 x mean best confidence; a match under 0.9 gets a warning.
    """
    names = _names(memory)
    semantic = disambiguation_strategy == "semantic_similarity" and embed is not None and bool(names)
    vectors = embed([n for _, n in names]) if semantic and embed is not None else None
    results: list[dict[str, Any]] = []
    warnings: list[str] = []
    suggestions: list[dict[str, str]] = []
    best_scores: list[float] = []
    for entity_type, name in kg.entity_rows():
        if vectors is not None and embed is not None:
            scores = vectors @ embed([name])[0]
            order = np.argsort(-scores)[:3]
            candidates = [
                {"id": names[i][0], "name": names[i][1], "confidence": round(float(scores[i]), 4)} for i in order
            ]
        else:
            candidates = [
                {"id": iri, "name": n, "confidence": 1.0}
                for iri, n in names
                if normalize_name(n) == normalize_name(name)
            ][:3]
        top = candidates[0] if candidates else None
        best = top if top is not None and top["confidence"] >= similarity_threshold else None
        best_scores.append(top["confidence"] if top else 0.0)
        if best is not None and best["confidence"] < 0.9:
            warnings.append(f"{name!r} matched {best['name']!r} with confidence {best['confidence']:.2f} only")
        canonical = memory.nodes[best["id"]].label if best is not None and best["id"] in memory.nodes else None
        if canonical is not None and canonical != name:
            suggestions.append({"entity": name, "use": canonical})
        results.append(
            {
                "entity": name,
                "type": entity_type,
                "candidates": candidates,
                "best_match": best,
                "is_disambiguated": best is not None,
                "related_relationships": _related(memory, best["id"]) if best is not None else [],
            }
        )
    total = len(results)
    done = sum(r["is_disambiguated"] for r in results)
    quality = 0.6 * (done / total) + 0.4 * (sum(best_scores) / total) if total else 0.0
    return {
        "results": results,
        "quality_score": round(quality, 4),
        "warnings": warnings,
        "standardization_suggestions": suggestions,
        "strategy": disambiguation_strategy if semantic or disambiguation_strategy == "exact_match" else "exact_match",
        "summary": {
            "total": total,
            "disambiguated": done,
            "new": total - done,
            "mean_confidence": round(sum(best_scores) / total, 4) if total else 0.0,
        },
    }


def standardize(kg: KG, suggestions: list[dict[str, str]]) -> KG:
    """The extraction with each suggested entity renamed to the graph's name for it."""
    rename = {s["entity"]: s["use"] for s in suggestions}

    def fix(name: str) -> str:
        return rename.get(name, name)

    return KG(
        entities={t: list(dict.fromkeys(fix(n) for n in names)) for t, names in kg.entities.items()},
        relations={
            r: [Pair(subject=fix(p.subject), object=fix(p.object)) for p in pairs] for r, pairs in kg.relations.items()
        },
    )


def evidence(document: Document, subject: str, obj: str) -> Span:
    """The first sentence naming both arguments (case aside), else the whole text."""
    for start, end in document.sentence_spans():
        if in_text(subject, document.text[start:end]) and in_text(obj, document.text[start:end]):
            return document.span(start, end)
    return document.span(0, len(document.text))


def as_graph(
    kg: KG, schema: KGSchema, document: Document, system: str, model: str | None = None
) -> tuple[list[Entity], list[Triple], list[str]]:
    """graphwright entities and triples of an extraction, and the items that cannot be stored (with why).

    An item of a type outside the schema is kept: it is the growing graph that stages novel types."""
    type_of: dict[str, list[str]] = {}
    for t, name in kg.entity_rows():
        type_of.setdefault(name, []).append(t)
    failed = [f"entity {name!r}: empty name" for name in type_of if not name.strip()]
    entities = [
        Entity(
            iri=name_entity_iri(name),
            label=name,
            types=[schema.type_iri(t) for t in types],
            mentions=[Mention(surface=name, span=document.find(name))],
        )
        for name, types in type_of.items()
        if name.strip()
    ]
    triples = []
    for s, r, o in kg.triples():
        if s not in type_of or o not in type_of:
            failed.append(f"relation ({s}, {r}, {o}): an argument is not among the entities")
            continue
        triples.append(
            Triple(
                subject=Term.iri(name_entity_iri(s), surface=s, label=s),
                predicate=Term.iri(schema.relation_iri(r), surface=r, label=r),
                object=Term.iri(name_entity_iri(o), surface=o, label=o),
                provenance=Provenance(system=system, agent="storage", model=model, evidence=evidence(document, s, o)),
            )
        )
    return entities, triples, failed


def kg_storage(
    kg: KG,
    schema: KGSchema,
    memory: GrowthState,
    observer: Observer,
    *,
    document: Document,
    system: str,
    episode: int,
    model: str | None = None,
) -> dict[str, Any]:
    """Tool 6, ``query_kg_storage``: store the extraction in the graph; per part, code 0 (success) or -1."""
    started = time.perf_counter()
    entities, triples, failed = as_graph(kg, schema, document, system, model)
    nodes_before, edges_before = len(memory.nodes), len(memory.edges)
    out = Observed()
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    tick = Tick(now, episode)
    observer.run(Run(document.id, system, now, entities, triples), tick, out)
    promoted = promote(memory, observer.policy, tick)  # what this document's votes now carry over the line
    seconds = time.perf_counter() - started
    stored_entities, stored_edges = len(memory.nodes) - nodes_before, len(memory.edges) - edges_before
    entity_failures = [f for f in failed if f.startswith("entity")]
    relation_failures = [f for f in failed if f.startswith("relation")]
    return {
        "storage_status": {
            "entities": {
                "code": -1 if entity_failures else 0,
                "stored": stored_entities,
                "skipped": len(entities) - stored_entities,
                "failed": len(entity_failures),
            },
            "relations": {
                "code": -1 if relation_failures else 0,
                "stored": stored_edges,
                "skipped": len(triples) - stored_edges - out.self_loops,
                "failed": len(relation_failures),
                "staged": out.staged,
                "promoted": len(promoted),
                "refused_self_loops": out.self_loops,
            },
        },
        "duplicates_detected": {
            "entities": len(entities) - stored_entities,
            "merged": out.new_merges,
            "relations": len(triples) - stored_edges - out.self_loops,
        },
        "timings_ms": round(1000 * seconds, 2),
        "final_kg": kg.model_dump(),
        "storage_summary": {
            "timestamp": now,
            "database": "graphwright growing graph (memory of this run)",
            "items_per_second": round((len(entities) + len(triples)) / max(seconds, 1e-6), 1),
        },
        "warnings": failed,
        "recommendations": (
            ["Relations must connect extracted entities; add the missing entities or drop them."]
            if relation_failures
            else []
        ),
    }
