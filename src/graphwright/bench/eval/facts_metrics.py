"""Scoring a system's graph of one bench-facts text against every fact the text states.

A predicted triple under a KB property is **right** when a gold fact (or an optional one) has the same
property and arguments, or the inverse property with the arguments swapped, or a symmetric property
either way round. Arguments match as follows:

* a gold entity the default KB holds: the predicted KB entity is that one; a node the KB lacks under
  one of the gold entity's names also matches (the fact is kept, its link missed: counted apart);
* a gold entity the KB lacks: a node under one of its names (folded: case, accents, punctuation). A
  KB entity there is a **wrong link**;
* a value: dates by their lexical value at the text's precision, quantities by number ("4.2 million"
  and 4200000 are one value), strings by their folded words.

Precision is over the KB-property triples; recall over the gold facts. Triples under a minted relation
(no property fits) are counted apart, with how many restate a gold or unmappable fact. The entity
wrong-link rate is over the distinct KB links a system made for names the gold lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from graphwright.bench.eval.facts_data import Argument, FactEntity, FactText, FactValue, GoldFact
from graphwright.kb.namespaces import WDT, is_unlinked, parse_wikidata_id
from graphwright.linking.literals import parse_date, parse_quantity
from graphwright.linking.names import normalize
from graphwright.model import ExtractionResult, Term, Triple

#: property -> the properties that state the same fact with subject and object swapped
INVERSES: dict[str, frozenset[str]] = {
    pid: frozenset(others)
    for pid, others in {
        "P40": {"P22", "P25"},
        "P22": {"P40"},
        "P25": {"P40"},
        "P749": {"P355"},
        "P355": {"P749"},
        "P361": {"P527"},
        "P527": {"P361"},
        "P127": {"P1830"},
        "P1830": {"P127"},
        "P131": {"P150"},
        "P150": {"P131"},
        "P1365": {"P1366"},
        "P1366": {"P1365"},
        "P155": {"P156"},
        "P156": {"P155"},
        "P710": {"P1344"},
        "P1344": {"P710"},
        "P50": {"P800"},
        "P170": {"P800"},
        "P800": {"P50", "P170"},
        "P1327": {"P1327"},
    }.items()
}
SYMMETRIC = frozenset({"P26", "P3373", "P47", "P451", "P530", "P1327"})
_SCALES = {"thousand": Decimal(1_000), "million": Decimal(1_000_000), "billion": Decimal(1_000_000_000)}


@dataclass
class FactCounts:
    predicted: int = 0  # distinct triples under a KB property
    right: int = 0  # of those, stated in the gold (or optional)
    gold: int = 0
    found: int = 0  # gold facts some predicted triple matches
    minted: int = 0  # triples under a minted relation
    minted_stated: int = 0  # of those, restating a gold or unmappable fact's arguments
    links: int = 0  # distinct KB links made for names the gold lists
    wrong_links: int = 0
    missed_links: int = 0  # right facts whose KB entity was kept as a new node
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    def __add__(self, other: FactCounts) -> FactCounts:
        return FactCounts(*(getattr(self, f) + getattr(other, f) for f in _FIELDS))

    @property
    def precision(self) -> float:
        return self.right / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def wrong_link_rate(self) -> float:
        return self.wrong_links / self.links if self.links else 0.0


_FIELDS = (
    "predicted",
    "right",
    "gold",
    "found",
    "minted",
    "minted_stated",
    "links",
    "wrong_links",
    "missed_links",
    "wrong",
    "missed",
)


def property_id(term: Term) -> str | None:
    """``P19`` for a Wikidata property IRI; None for a minted relation."""
    return parse_wikidata_id(term.value) if term.kind == "iri" and term.value.startswith(WDT) else None


def score_fact_text(text: FactText, result: ExtractionResult) -> FactCounts:
    counts = FactCounts(gold=len(text.facts))
    stated = [*text.facts, *text.optional]
    found: set[int] = set()
    for triple in {t.key(): t for t in result.triples}.values():
        pid = property_id(triple.predicate)
        if pid is None:
            counts.minted += 1
            counts.minted_stated += any(_same_arguments(triple, fact) for fact in [*stated, *text.unmappable])
            continue
        counts.predicted += 1
        hits = [i for i, fact in enumerate(stated) if _states(triple, pid, fact)]
        if hits:
            counts.right += 1
            found.update(i for i in hits if i < len(text.facts))
            counts.missed_links += any(_link_missed(triple, stated[i]) for i in hits)
        else:
            counts.wrong.append(show_triple(triple))
    counts.found = len(found)
    counts.missed = [_show_gold(f) for i, f in enumerate(text.facts) if i not in found]
    counts.links, counts.wrong_links = _links(text, result)
    return counts


def _states(triple: Triple, pid: str, fact: GoldFact) -> bool:
    if pid == fact.relation and _matches(triple.subject, fact.subject) and _matches(triple.object, fact.object):
        return True
    swapped = pid in INVERSES.get(fact.relation, ()) or (pid == fact.relation and pid in SYMMETRIC)
    return swapped and _matches(triple.subject, fact.object) and _matches(triple.object, fact.subject)


def _same_arguments(triple: Triple, fact: GoldFact) -> bool:
    return any(
        _matches(a, x) and _matches(b, y)
        for (a, b), (x, y) in [
            ((triple.subject, triple.object), (fact.subject, fact.object)),
            ((triple.object, triple.subject), (fact.subject, fact.object)),
        ]
    )


def _matches(term: Term, gold: Argument) -> bool:
    if isinstance(gold, FactValue):
        return _value_matches(term, gold)
    if term.kind == "iri" and not is_unlinked(term.value):
        return gold.kb is not None and parse_wikidata_id(term.value) == gold.kb
    return bool(gold.name) and _named(term, gold)


def _named(term: Term, gold: FactEntity) -> bool:
    names = {normalize(n) for n in gold.names}
    return any(
        normalize(w) in names for w in (term.surface, term.label, term.value if term.kind == "literal" else None) if w
    )


def _value_matches(term: Term, gold: FactValue) -> bool:
    words = term.value if term.kind == "literal" else (term.surface or term.label or "")
    if gold.kind == "date":
        parsed = parse_date(words)
        return parsed is not None and parsed.lexical == gold.value
    if gold.kind == "quantity":
        got = _number(words)
        return got is not None and got in _gold_numbers(gold)
    return normalize(words) == normalize(gold.value)


def _number(words: str) -> Decimal | None:
    parsed = parse_quantity(words)
    try:
        return Decimal(parsed.lexical) if parsed else None
    except InvalidOperation:
        return None


def _gold_numbers(gold: FactValue) -> set[Decimal]:
    value = Decimal(gold.value)
    scale = _SCALES.get((gold.unit or "").split(" ")[0].casefold(), Decimal(1))
    return {value, value * scale}


def _link_missed(triple: Triple, fact: GoldFact) -> bool:
    """A gold KB entity kept as a node of its own name: right fact, missed link."""
    return any(
        isinstance(g, FactEntity) and g.kb and t.kind == "iri" and is_unlinked(t.value) and _named(t, g)
        for t, g in (
            (triple.subject, fact.subject),
            (triple.object, fact.object),
            (triple.subject, fact.object),
            (triple.object, fact.subject),
        )
    )


def _links(text: FactText, result: ExtractionResult) -> tuple[int, int]:
    """(KB links made for names the gold lists, how many of them point at another entity than the gold's)."""
    made: dict[tuple[str, str | None], bool] = {}  # None: an IRI outside Wikidata
    for triple in result.triples:
        for term in (triple.subject, triple.object):
            if term.kind != "iri" or is_unlinked(term.value):
                continue
            qid = parse_wikidata_id(term.value)
            for handle, entity in text.entities.items():
                if _named(term, entity):
                    made[(handle, qid)] = entity.kb == qid
    return len(made), sum(not right for right in made.values())


def show_triple(triple: Triple) -> str:
    def part(term: Term) -> str:
        name = term.surface or term.label or term.value
        qid = parse_wikidata_id(term.value) if term.kind == "iri" and not is_unlinked(term.value) else None
        return f"{name} ({qid})" if qid and qid != name else name

    return (
        f"[{part(triple.subject)} | {property_id(triple.predicate) or triple.predicate.label} | {part(triple.object)}]"
    )


def _show_gold(fact: GoldFact) -> str:
    def part(arg: Argument) -> str:
        return arg.value if isinstance(arg, FactValue) else (arg.name or arg.kb or "?")

    return f"[{part(fact.subject)} | {fact.relation} | {part(fact.object)}]"
