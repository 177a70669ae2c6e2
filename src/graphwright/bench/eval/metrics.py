"""The closed-IE metrics of CIExMAS (paper 000, section 5.2).

Hard match: a predicted triple is right when a gold triple of the same document has the same
subject, property and object IRIs. Categories: triples, subjects, properties, objects and entities
(subjects and objects together), each over the distinct items of a document. Soft matches relax the
property: *parental* accepts a direct super-property of the gold property, *related* any super- or
sub-property. Matching is counted from both sides: precision is the share of predictions that match
some gold item and recall the share of gold items matched by some prediction, so neither can pass 1
when several predictions match one gold item. Documents are macro-averaged by default; micro sums
the counts. A failed document counts as predicting nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from graphwright.bench.data.gold import GoldDocument, GoldTerm, iri_key, literal_key, normalize_name
from graphwright.kb.namespaces import is_unlinked
from graphwright.model import ExtractionResult, Term

CATEGORIES = (
    "triples",
    "triples_parental",
    "triples_related",
    "subjects",
    "properties",
    "properties_parental",
    "properties_related",
    "objects",
    "entities",
)
HEADLINE = ("triples", "subjects", "properties", "objects", "entities", "triples_parental", "triples_related")


class Hierarchy(Protocol):
    def parents(self, pid: str) -> set[str]: ...
    def ancestors(self, pid: str) -> set[str]: ...


class PropertyHierarchy:
    """Direct and transitive super-properties (P1647) from a KB, memoised: scoring asks often."""

    def __init__(self, super_properties: Callable[[str], Iterable[str]]):
        self._lookup = super_properties
        self._parents: dict[str, set[str]] = {}

    @classmethod
    def from_kb(cls, kb) -> PropertyHierarchy:
        return cls(lambda pid: [r.id for r in kb.super_properties(pid)])

    @classmethod
    def from_dict(cls, parents: dict[str, Iterable[str]]) -> PropertyHierarchy:
        return cls(lambda pid: parents.get(pid, ()))

    def parents(self, pid: str) -> set[str]:
        if pid not in self._parents:
            self._parents[pid] = set(self._lookup(pid)) if pid.startswith("P") or "/" in pid else set()
        return self._parents[pid]

    def ancestors(self, pid: str) -> set[str]:
        seen: set[str] = set()
        todo = list(self.parents(pid))
        while todo:  # the Wikidata hierarchy has cycles: stop at anything seen
            p = todo.pop()
            if p not in seen:
                seen.add(p)
                todo.extend(self.parents(p) - seen)
        return seen


NO_HIERARCHY = PropertyHierarchy(lambda pid: ())


@dataclass(frozen=True)
class Entity:
    """One side's subject or object: its key (IRI id, literal, or name) and the names it goes by."""

    key: str
    names: frozenset[str] = frozenset()
    by_name: bool = False


@dataclass(frozen=True)
class Fact:
    subject: Entity
    predicate: str
    object: Entity


@dataclass
class Counts:
    """``matched_pred`` of ``predicted`` items match some gold item; ``matched_gold`` of ``gold`` are found."""

    matched_pred: int = 0
    predicted: int = 0
    matched_gold: int = 0
    gold: int = 0

    @property
    def tp(self) -> int:
        return self.matched_pred

    @property
    def fp(self) -> int:
        return self.predicted - self.matched_pred

    @property
    def fn(self) -> int:
        return self.gold - self.matched_gold

    @property
    def precision(self) -> float:
        if self.predicted:
            return self.matched_pred / self.predicted
        return 1.0 if not self.gold else 0.0

    @property
    def recall(self) -> float:
        if self.gold:
            return self.matched_gold / self.gold
        return 1.0 if not self.predicted else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.matched_pred + other.matched_pred,
            self.predicted + other.predicted,
            self.matched_gold + other.matched_gold,
            self.gold + other.gold,
        )

    def as_dict(self) -> dict[str, int]:
        return {
            "matched_pred": self.matched_pred,
            "predicted": self.predicted,
            "matched_gold": self.matched_gold,
            "gold": self.gold,
        }


def set_counts(predicted: Iterable, gold: Iterable) -> Counts:
    """Exact matching of distinct items (strict RE triples, NER mentions): a hit counts on both sides."""
    p, g = set(predicted), set(gold)
    hit = len(p & g)
    return Counts(matched_pred=hit, predicted=len(p), matched_gold=hit, gold=len(g))


T = TypeVar("T")


def match_both_ways(predicted: list[T], gold: list[T], same: Callable[[T, T], bool]) -> Counts:
    """Counts from both sides (the paper's symmetric greedy search)."""
    matched_pred = sum(any(same(p, g) for g in gold) for p in predicted)
    matched_gold = sum(any(same(p, g) for p in predicted) for g in gold)
    return Counts(matched_pred, len(predicted), matched_gold, len(gold))


@dataclass
class Scorer:
    """Scores one document's facts; ``match_names`` also accepts a name match for gold entities with IRIs
    (for datasets whose entities the KB lacks, e.g. FewRel). With ``kb_has`` (a KB's membership test),
    an unlinked prediction matches a gold entity the KB lacks by name: open-world linking kept it
    under its own IRI, which is the right answer when the KB cannot have it."""

    hierarchy: Hierarchy = field(default_factory=lambda: NO_HIERARCHY)
    match_names: bool = False
    kb_has: Callable[[str], bool] | None = None
    categories = CATEGORIES  # class attribute: what score_document counts

    def same_entity(self, pred: Entity, gold: Entity) -> bool:
        if pred.key == gold.key:
            return True
        if not pred.names & gold.names:
            return False
        return (
            gold.by_name
            or self.match_names
            or (self.kb_has is not None and is_unlinked(pred.key) and not self.kb_has(gold.key))
        )

    def parental(self, pred: str, gold: str) -> bool:
        return pred == gold or pred in self.hierarchy.parents(gold)

    def related(self, pred: str, gold: str) -> bool:
        return pred == gold or pred in self.hierarchy.ancestors(gold) or gold in self.hierarchy.ancestors(pred)

    def score_document(self, result: ExtractionResult, doc: GoldDocument) -> dict[str, Counts]:
        return self.score(predicted_facts(result), gold_facts(doc))

    def score(self, predicted: list[Fact], gold: list[Fact]) -> dict[str, Counts]:
        predicted, gold = _distinct(predicted), _distinct(gold)
        out: dict[str, Counts] = {}
        for name, prop_ok in (("", _equal), ("_parental", self.parental), ("_related", self.related)):

            def same_fact(p: Fact, g: Fact, ok: Callable[[str, str], bool] = prop_ok) -> bool:
                return (
                    ok(p.predicate, g.predicate)
                    and self.same_entity(p.subject, g.subject)
                    and self.same_entity(p.object, g.object)
                )

            out["triples" + name] = match_both_ways(predicted, gold, same_fact)
            out["properties" + name] = match_both_ways(
                sorted({f.predicate for f in predicted}), sorted({f.predicate for f in gold}), prop_ok
            )
        roles = {
            "subjects": lambda f: [f.subject],
            "objects": lambda f: [f.object],
            "entities": lambda f: [f.subject, f.object],
        }
        for name, pick in roles.items():
            out[name] = match_both_ways(_entities(predicted, pick), _entities(gold, pick), self.same_entity)
        return {c: out[c] for c in CATEGORIES}


def _equal(a: str, b: str) -> bool:
    return a == b


def _distinct(facts: list[Fact]) -> list[Fact]:
    seen, out = set(), []
    for f in facts:
        key = (f.subject.key, f.predicate, f.object.key)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _entities(facts: list[Fact], pick: Callable[[Fact], list[Entity]]) -> list[Entity]:
    by_key: dict[str, Entity] = {}
    for f in facts:
        for e in pick(f):
            by_key.setdefault(e.key, e)
    return list(by_key.values())


# ---- from results and gold documents ----------------------------------------------------------------


def gold_facts(doc: GoldDocument) -> list[Fact]:
    return [Fact(_gold_entity(t.subject), iri_key(t.predicate.iri or ""), _gold_entity(t.object)) for t in doc.triples]


def predicted_facts(result: ExtractionResult) -> list[Fact]:
    if result.status != "ok":
        return []  # a failed document is scored as predicting nothing
    return [
        Fact(_predicted_entity(t.subject), iri_key(t.predicate.value), _predicted_entity(t.object))
        for t in result.triples
    ]


def _gold_entity(term: GoldTerm) -> Entity:
    return Entity(term.key, frozenset(term.all_names()), term.by_name)


def _predicted_entity(term: Term) -> Entity:
    key = iri_key(term.value) if term.kind == "iri" else literal_key(term.value)
    names = {normalize_name(n) for n in (term.surface, term.label) if n}
    if term.kind == "literal":
        names.add(normalize_name(term.value))
    return Entity(key, frozenset(n for n in names if n))


# ---- averages ------------------------------------------------------------------------------------------


@dataclass
class Scores:
    precision: float
    recall: float
    f1: float

    def as_dict(self) -> dict[str, float]:
        return {"precision": round(self.precision, 4), "recall": round(self.recall, 4), "f1": round(self.f1, 4)}


def macro(
    per_document: list[dict[str, Counts]], failed: list[bool] | None = None, categories: tuple[str, ...] = CATEGORIES
) -> dict[str, Scores]:
    """The mean of each document's precision, recall and F1: every document weighs the same.
    A failed document scores zero even where it had no gold to miss."""
    n = len(per_document)
    failed = failed or [False] * n

    def mean(c: str, metric: str) -> float:
        return sum(0.0 if bad else getattr(d[c], metric) for d, bad in zip(per_document, failed)) / n if n else 0.0

    return {c: Scores(mean(c, "precision"), mean(c, "recall"), mean(c, "f1")) for c in categories}


def micro(per_document: list[dict[str, Counts]], categories: tuple[str, ...] = CATEGORIES) -> dict[str, Scores]:
    """Scores of the summed counts: documents with more triples weigh more."""
    out = {}
    for c in categories:
        total = sum((d[c] for d in per_document), Counts())
        out[c] = Scores(total.precision, total.recall, total.f1) if per_document else Scores(0.0, 0.0, 0.0)
    return out


def counts_from_dict(data: dict[str, dict[str, int]]) -> dict[str, Counts]:
    return {c: Counts(**counts) for c, counts in data.items()}
