"""Agentic-KGR's four analysis tools (paper 004, A.4): extraction density, coverage feedback, quality metrics
and iterative feedback. They read the text, the schema and the current extraction; no model call.

The paper fixes their outputs, weights and bands (coverage 0.6/0.4; quality 0.30/0.30/0.25/0.15; the
adequacy threshold "typically 0.65-0.80") but not how the expected density or the missing types are
estimated; those estimates are ours, documented where they are made.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from graphwright.papers.agentic_kgr.kg_json import KG, KGSchema
from graphwright.text import sentence_spans, tokens, words

# A name candidate: a run of capitalised words (inner "of", "de", "&" allowed), or a number such as a year.
_NAME = re.compile(r"\b(?:[A-Z][\w'’.-]*|\d[\d.,]*)(?:\s+(?:(?:of|de|la|von|van|der|&|and)\s+)?[A-Z][\w'’.-]*)*")
_SENTENCE_STARTERS = frozenset(
    {
        "the",
        "a",
        "an",
        "in",
        "on",
        "at",
        "he",
        "she",
        "it",
        "they",
        "we",
        "i",
        "this",
        "that",
        "these",
        "those",
        "his",
        "her",
        "its",
        "their",
        "but",
        "and",
        "for",
        "after",
        "when",
    }
)
_TECHNICAL = re.compile(r"\b(?=\w*\d)(?=\w*[A-Za-z])\w+\b|\b[A-Z]{2,}\b|\b\w+-\w+\b")
_DETERMINERS = ("the ", "a ", "an ")


def normalize_name(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def in_text(name: str, text: str) -> bool:
    return bool(name.strip()) and normalize_name(name) in normalize_name(text)


def name_candidates(text: str) -> list[str]:
    """Spans that look like names or numbers: what a reader would expect an extractor to consider."""
    out = []
    starts = {start for start, _ in sentence_spans(text)}
    for m in _NAME.finditer(text):
        span = m.group(0).strip(" .,'’")
        sentence_initial = m.start() in starts
        if sentence_initial and span.split()[0].casefold() in _SENTENCE_STARTERS and len(span.split()) == 1:
            continue
        if span:
            out.append(span)
    return out


def text_stats(text: str) -> dict[str, int]:
    return {
        "tokens": len(tokens(text)),
        "sentences": max(1, len(sentence_spans(text))),
        "words": len(words(text)),
        "characters": len(text),
    }


def complexity(text: str, stats: dict[str, int]) -> dict[str, Any]:
    """0-1 score from sentence length (40 words or more count fully) and technical terms (one word in ten)."""
    technical = len(set(_TECHNICAL.findall(text)))
    average = stats["words"] / stats["sentences"]
    score = 0.5 * min(1.0, average / 40) + 0.5 * min(1.0, 10 * technical / max(1, stats["words"]))
    return {"complexity_score": round(score, 4), "technical_terms": technical, "avg_sentence_length": round(average, 2)}


def extraction_density(
    text: str, schema: KGSchema, kg: KG, *, domain: str | None = None, threshold: float = 0.7
) -> dict[str, Any]:
    """Tool 1, ``query_extraction_density``: is the extraction dense enough for this text?

    Expected entities are 0.8 per name-like span of the text (one per 20 tokens where the text has none),
    expected relations half as many; the minimum is half the expectation and the maximum twice it
    (never under 2 entities and 1 relation, so a short sentence is not over-extracted by one more name).
    """
    stats = text_stats(text)
    per_k = 1000 / max(1, stats["tokens"])
    entities, relations = kg.counts()
    candidates = len(set(name_candidates(text)))
    expected_entities = 0.8 * candidates if candidates else stats["tokens"] / 20
    expected_relations = expected_entities / 2
    features = complexity(text, stats)
    schema_complexity = round(min(1.0, (len(schema.entity_types) + len(schema.relation_types)) / 30), 4)
    bounds = {
        "entities": (0.5 * expected_entities, max(2.0, 2 * expected_entities)),
        "relations": (0.5 * expected_relations, max(1.0, 2 * expected_relations)),
    }
    entity_adequacy = min(1.0, entities / expected_entities) if expected_entities else 1.0
    relation_adequacy = min(1.0, relations / expected_relations) if expected_relations else 1.0
    ratio, expected_ratio = entities / max(1, relations), expected_entities / max(1.0, expected_relations)
    balance = min(ratio, expected_ratio) / max(ratio, expected_ratio) if entities else 0.0
    adequacy = 0.5 * entity_adequacy + 0.3 * relation_adequacy + 0.2 * balance
    adjusted = min(1.0, adequacy * (1.1 - 0.2 * features["complexity_score"]))  # harder texts ask for more
    over = entities > bounds["entities"][1] or relations > bounds["relations"][1]
    reasons = []
    if entities < bounds["entities"][0]:
        reasons.append(
            f"entity density below the minimum ({entities} entities, about {expected_entities:.1f} expected)"
        )
    if relations < bounds["relations"][0]:
        reasons.append(
            f"relation density below the minimum ({relations} relations, about {expected_relations:.1f} expected)"
        )
    if entities and balance < 0.3:
        reasons.append(f"entities and relations out of balance ({entities} entities, {relations} relations)")
    if adjusted < threshold:
        reasons.append(f"complexity-adjusted adequacy {adjusted:.2f} below {threshold:.2f}")
    needs_more = bool(reasons) and not over
    level = (
        "over_extraction"
        if over
        else "excellent"
        if adjusted >= 0.9
        else "adequate"
        if adjusted >= threshold
        else "moderate"
        if adjusted >= 0.5
        else "insufficient"
    )
    recommendations = [f"Extract more: {r}." for r in reasons] if needs_more else []
    if needs_more:
        missed = [
            c
            for c in dict.fromkeys(name_candidates(text))
            if not any(in_text(c, n) or in_text(n, c) for n in kg.entity_names())
        ]
        if missed:
            recommendations.append("Names in the text not extracted yet: " + ", ".join(missed[:8]) + ".")
    if over:
        recommendations.append("Possible over-extraction: keep only entities and relations the text states.")
    return {
        "text_stats": stats,
        "current_density": {
            "total_entities": entities,
            "total_relations": relations,
            "entities_per_1k_tokens": round(entities * per_k, 2),
            "relations_per_1k_tokens": round(relations * per_k, 2),
            "kg_elements_per_1k_tokens": round((entities + relations) * per_k, 2),
            "entity_relation_ratio": round(ratio, 3),
        },
        "expected_density": {
            "entities_per_1k_tokens": round(expected_entities * per_k, 2),
            "relations_per_1k_tokens": round(expected_relations * per_k, 2),
            "min_entities": round(bounds["entities"][0], 2),
            "max_entities": bounds["entities"][1],
            "min_relations": round(bounds["relations"][0], 2),
            "max_relations": bounds["relations"][1],
            "schema_complexity": schema_complexity,
            "complexity_factors": {"name_candidates": candidates, "domain": domain},
        },
        "complexity_features": features,
        "density_assessment": {
            "level": level,
            "is_adequate": not needs_more,
            "potential_over_extraction": over,
            "balance_score": round(balance, 4),
            "adequacy": round(adjusted, 4),
        },
        "needs_more_extraction": needs_more,
        "recommendations": recommendations,
    }


def _stem(word: str) -> str:
    return word.casefold()[:4]


def _cue_words(name: str, cues: list[str]) -> set[str]:
    """The schema's cue words, else the words of the relation's name (``OrgBased_In`` -> based)."""
    words = cues or re.findall(r"[A-Z]?[a-z]+", re.sub(r"[^A-Za-z]+", " ", name))
    return {_stem(w) for w in words if len(w) >= 4}


def signalled_types(text: str, schema: KGSchema) -> tuple[set[str], set[str]]:
    """The relation types whose cue words (the schema's cues, else the words of the name) the text holds,
    and the entity types those relations take; with no signatures, every entity type."""
    stems = {_stem(w) for w in words(text) if len(w) >= 4}
    relations = {r for r in schema.relation_types if _cue_words(r, schema.cues.get(r, [])) & stems}
    entity_types = {
        t for r in relations for t in (*schema.signatures.get(r, ([], []))[0], *schema.signatures.get(r, ([], []))[1])
    }
    if not schema.signatures:
        entity_types = set(schema.entity_types)
    return entity_types & set(schema.entity_types), relations


def _band(score: float) -> str:
    return (
        "excellent"
        if score >= 0.9
        else "good"
        if score >= 0.7
        else "moderate"
        if score >= 0.5
        else "poor"
        if score >= 0.3
        else "very_poor"
    )


def coverage_feedback(text: str, schema: KGSchema, kg: KG, *, priority_types: Sequence[str] = ()) -> dict[str, Any]:
    """Tool 2, ``query_coverage_feedback``: which signalled types the extraction covers and which it misses."""
    want_entities, want_relations = signalled_types(text, schema)
    have_entities = {t for t, names in kg.entities.items() if names}
    have_relations = {r for r, pairs in kg.relations.items() if pairs}

    def ratio(have: set[str], want: set[str]) -> float:
        return len(have & want) / len(want) if want else 1.0

    entity_cov, relation_cov = ratio(have_entities, want_entities), ratio(have_relations, want_relations)
    score = 0.6 * entity_cov + 0.4 * relation_cov
    priority = set(priority_types)
    return {
        "entity_coverage": {t: (1.0 if t in have_entities else 0.0) for t in sorted(want_entities)},
        "relation_coverage": {r: (1.0 if r in have_relations else 0.0) for r in sorted(want_relations)},
        "entity_coverage_ratio": round(entity_cov, 4),
        "relation_coverage_ratio": round(relation_cov, 4),
        "missing_entity_types": sorted(want_entities - have_entities),
        "missing_relation_types": sorted(want_relations - have_relations),
        "priority_coverage": round(ratio(have_entities | have_relations, priority), 4) if priority else None,
        "coverage_score": round(score, 4),
        "coverage_level": _band(score),
    }


QUALITY_WEIGHTS = {"completeness": 0.30, "accuracy": 0.30, "consistency": 0.25, "schema_compliance": 0.15}


def _level(score: float) -> str:
    return (
        "excellent"
        if score >= 0.9
        else "good"
        if score >= 0.8
        else "fair"
        if score >= 0.7
        else "poor"
        if score >= 0.6
        else "very_poor"
    )


def quality_metrics(text: str, schema: KGSchema, kg: KG, *, evaluation_aspects: Sequence[str] = ()) -> dict[str, Any]:
    """Tool 3, ``query_quality_metrics``: completeness, accuracy, consistency and schema compliance, each with
    the items behind its score; overall = 0.30 completeness + 0.30 accuracy + 0.25 consistency + 0.15 compliance."""
    rows, triples = kg.entity_rows(), kg.triples()
    size = max(1, len(rows) + len(triples))
    names = kg.entity_names()
    type_of: dict[str, set[str]] = {}
    for t, n in rows:
        type_of.setdefault(normalize_name(n), set()).add(t)
    not_in_text = [n for _, n in rows if not in_text(n, text)]
    relations_not_in_text = [list(t) for t in triples if not (in_text(t[0], text) and in_text(t[2], text))]
    duplicates = sorted({n for n, ts in type_of.items() if len(ts) > 1})
    boundary = sorted(
        {
            n
            for _, n in rows
            if n != n.strip(" .,;:'\"()") or n.casefold().startswith(_DETERMINERS) or len(n.split()) > 8
        }
    )
    pairs: dict[tuple[str, str], set[str]] = {}
    for s, r, o in triples:
        pairs.setdefault((normalize_name(s), normalize_name(o)), set()).add(r)
    conflicting = sorted(
        {f"{s} / {o}" for (s, o), rs in pairs.items() if len(rs) > 1 or (s != o and rs & pairs.get((o, s), set()))}
    )
    invalid_types = sorted(
        {t for t, _ in rows if t not in schema.entity_types}
        | {r for _, r, _ in triples if r not in schema.relation_types}
    )
    structure = []
    for s, r, o in triples:
        if s not in names or o not in names:
            structure.append(f"({s}, {r}, {o}): an argument is not among the entities")
            continue
        heads, tails = schema.signatures.get(r, ([], []))
        if (heads and not type_of.get(normalize_name(s), set()) & set(heads)) or (
            tails and not type_of.get(normalize_name(o), set()) & set(tails)
        ):
            structure.append(f"({s}, {r}, {o}): argument types do not fit {r}")
    density = extraction_density(text, schema, kg)
    scores = {
        "completeness": density["density_assessment"]["adequacy"],
        "accuracy": 1 - (len(not_in_text) + len(relations_not_in_text)) / size,
        "consistency": max(0.0, 1 - (len(duplicates) + len(conflicting) + len(boundary)) / size),
        "schema_compliance": max(0.0, 1 - (len(invalid_types) + len(structure)) / size),
    }
    details = {
        "completeness": {"density_level": density["density_assessment"]["level"]},
        "accuracy": {"entities_not_in_text": not_in_text, "relations_not_in_text": relations_not_in_text},
        "consistency": {
            "duplicate_entities": duplicates,
            "conflicting_relations": conflicting,
            "boundary_errors": boundary,
            "type_misclassifications": duplicates,
        },
        "schema_compliance": {"invalid_types": invalid_types, "structure_violations": structure},
    }
    overall = sum(QUALITY_WEIGHTS[k] * v for k, v in scores.items())
    shown = [a for a in evaluation_aspects if a in scores] or list(scores)
    return {
        "dimension_scores": {k: {"score": round(scores[k], 4), "details": details[k]} for k in shown},
        "overall_score": round(overall, 4),
        "quality_level": _level(overall),
    }


def iterative_feedback(
    extraction_history: list[KG], feedback_history: Sequence[float] = (), *, max_iterations: int = 5
) -> dict[str, Any]:
    """Tool 4, ``query_iterative_feedback``: the trend over the iterations so far and whether to go on.

    ``feedback_history`` holds each iteration's quality score (the quality tool's overall score); the
    trend compares the last two, improvement is per iteration relative to the first score."""
    n = len(extraction_history)
    scores = list(feedback_history)[-n:] if feedback_history else []
    if len(scores) < 2:
        trend, per_iteration, effectiveness = "stagnant", 0.0, "insufficient_data"
    else:
        delta = scores[-1] - scores[-2]
        trend = "improving" if delta > 0.01 else "declining" if delta < -0.01 else "stagnant"
        per_iteration = (scores[-1] - scores[0]) / max(1e-9, abs(scores[0]) or 1.0) / (len(scores) - 1)
        effectiveness = (
            "high"
            if per_iteration > 0.10
            else "medium"
            if per_iteration > 0.05
            else "low"
            if per_iteration > 0
            else "stagnant"
        )
    sizes = [k.counts() for k in extraction_history]
    issues: dict[str, int] = {}
    for kg in extraction_history:
        for name in (
            "no relations" if not kg.relations or not any(kg.relations.values()) else None,
            "no entities" if not kg.entity_names() else None,
        ):
            if name:
                issues[name] = issues.get(name, 0) + 1
    third = max(1, math.ceil(max_iterations / 3))
    phase = "coverage_expansion" if n <= third else "quality_improvement" if n <= 2 * third else "refinement"
    recent = (scores[-1] - scores[-2]) if len(scores) >= 2 else 0.0
    stop_reasons = []
    if n >= max_iterations:
        stop_reasons.append("maximum number of iterations reached")
    if trend == "declining" and n <= 2 * third:
        stop_reasons.append("early decline")
    if n >= 2 and len(scores) >= 2 and recent <= 0.01 and trend != "improving":
        stop_reasons.append("minimal gain after 2 or more iterations")
    should_continue = not stop_reasons and (len(scores) < 2 or (trend == "improving" and recent > 0.01))
    strategy = (
        "coverage_expansion"
        if phase == "coverage_expansion"
        else "quality_focus"
        if phase == "quality_improvement"
        else "balanced_improvement"
    )
    if any(count >= 2 for count in issues.values()):
        strategy = "pattern_specific"
    return {
        "iterations": n,
        "trend": trend,
        "converged": bool(stop_reasons) and trend != "improving",
        "recurring_issues": sorted(i for i, c in issues.items() if c >= 2),
        "strategy": strategy,
        "phase": phase,
        "effectiveness": effectiveness,
        "improvement_per_iteration": round(per_iteration, 4),
        "sizes": [list(s) for s in sizes],
        "should_continue_iteration": should_continue,
        "stop_reasons": stop_reasons,
        "next_steps": (
            [f"Follow the {strategy.replace('_', ' ')} strategy in the next extraction."]
            if should_continue
            else ["Stop iterating: disambiguate the entities, then store the graph."]
        ),
    }
