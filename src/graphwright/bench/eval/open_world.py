"""What linking did to the entities of a text: the errors that matter on a user's text.

* Gold entity mentions (a predicted subject or object whose words are the gold mention's): of those
  the KB lacks, how many were linked to some KB entity anyway (wrong links) and how many kept
  unlinked; of those it has, how many were linked right.
* Made-up texts (``made_up_texts.jsonl``, written for this project): every fact about a made-up person
  or company must stay on an unlinked node; a link to a KB entity is a false fact about a real one.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Literal

from graphwright.bench.data.gold import GoldDocument, iri_key, normalize_name
from graphwright.kb.namespaces import is_unlinked
from graphwright.linking.names import is_number_or_date
from graphwright.model import ExtractionResult, Term

Outcome = Literal["right", "wrong", "unlinked", "missed"]


def entity_outcomes(result: ExtractionResult, gold: GoldDocument, kb_has: Callable[[str], bool]) -> Counter:
    """Counts of ``(in_kb, outcome)`` over the document's distinct gold entity mentions with an id."""
    predicted: dict[str, list[Term]] = {}
    for t in result.triples if result.status == "ok" else []:
        for term in (t.subject, t.object):
            if term.kind == "iri" and term.surface:
                predicted.setdefault(normalize_name(term.surface), []).append(term)
    counts: Counter = Counter()
    seen = set()
    for triple in gold.triples:
        for g in (triple.subject, triple.object):
            if not g.iri or not g.surface or (g.iri, g.surface) in seen:
                continue
            seen.add((g.iri, g.surface))
            counts[(kb_has(g.iri), _outcome(predicted.get(normalize_name(g.surface), []), iri_key(g.iri)))] += 1
    return counts


def _outcome(terms: list[Term], gold_id: str) -> Outcome:
    if not terms:
        return "missed"
    keys = {iri_key(t.value) for t in terms}
    if any(not is_unlinked(k) and k != gold_id for k in keys):
        return "wrong"  # one wrong link is a false fact, whatever else was right
    return "right" if gold_id in keys else "unlinked"


@dataclass(frozen=True)
class MadeUpText:
    id: str
    text: str
    made_up: list[str]  # names of people and companies that exist nowhere
    not_in_kb: list[str] = field(default_factory=list)  # real, but not in the shipped KB


def made_up_texts() -> list[MadeUpText]:
    lines = (resources.files("graphwright.bench.eval") / "made_up_texts.jsonl").read_text(encoding="utf-8").splitlines()
    return [MadeUpText(**json.loads(line)) for line in lines if line.strip()]


@dataclass
class FactCheck:
    facts: int = 0
    on_made_up: int = 0  # facts with a made-up entity as subject or object
    on_real_entity: list[str] = field(default_factory=list)  # a made-up or KB-less name linked to a KB entity
    values_as_items: list[str] = field(default_factory=list)  # a number or date linked as an item


def check_facts(result: ExtractionResult, text: MadeUpText) -> FactCheck:
    """The facts of a made-up text that attach a made-up name to a KB entity, or a value to an item."""
    check = FactCheck(facts=len(result.triples))
    for t in result.triples:
        about_made_up = False
        for term in (t.subject, t.object):
            named = _names_any(term.surface, text.made_up + text.not_in_kb)
            about_made_up |= _names_any(term.surface, text.made_up)
            if term.kind == "iri" and not is_unlinked(term.value):
                shown = f"{term.surface!r} -> {iri_key(term.value)} ({term.label or '?'})"
                if named:
                    check.on_real_entity.append(shown)
                elif term.surface and is_number_or_date(term.surface):
                    check.values_as_items.append(shown)
        check.on_made_up += about_made_up
    return check


def _names_any(surface: str | None, names: list[str]) -> bool:
    """The mention is one of the names, a part of one ("Vogel") or holds one ("Katrin Vogel and Jonas Berg")."""
    words = set(normalize_name(surface or "").split())
    return bool(words) and any(
        (n := set(normalize_name(name).split())) and (words <= n or n <= words) for name in names
    )
