"""Expected subject and value types of properties, derived from how the properties are used.

The offline property dump has Wikidata's type-constraint statements (P2302) but not their classes
(P2308), so a KB built from it cannot check types. This module derives classes instead: for each
property and role (subject, value) it collects observed entities, maps each to the broad classes
(:data:`BROAD_CLASSES`) its P31 types reach through the full P279 hierarchy, and keeps the few broad
classes that cover the observations. The result reads like P2308 classes or ``rdfs:domain``/``range``:
"a subject/value should be an instance of one of these classes (or of a subclass)".

Rule, per property and role:

* only roles that Wikidata declares a type constraint for get classes (the dump has those P2302
  statements, just not their classes): the subjects of "instance of", "part of" or "country" are
  unconstrained by design, and a sample of them says nothing about the rest;
* an observation is one distinct entity. Source "wikidata": REBEL gold entities and P1855 example
  subjects, typed by their P31 in the entity dump (entities it lacks are skipped). Source
  "re-docred": entities typed by Re-DocRED's coarse PER/ORG/LOC, each standing for all the classes in
  DOCRED_TYPES (a coarse type does not say which); a role whose entities are MISC/TIME/NUM more
  than MAX_MISS of the time adds nothing from it;
* a source speaks only with at least MIN_TYPED typed observations. It picks classes greedily, each
  time the one that covers the most observations not yet covered (ties: the class with more
  instances in the dump, the more permissive), until at most MAX_MISS of them are left; an entity
  that reaches no broad class can never be covered. A source that needs more than MAX_CLASSES
  classes for that finds the role "too diverse", which vetoes expected types for it;
* the expected classes are the union over the sources that speak (wider is safer);
* only item-valued properties get value types; a role with no evidence of its own inherits from the
  nearest constrained P1647 super-property that has some (a subproperty's subjects and values are
  also the super-property's).

The thresholds favour few false rejections over many checks: a validator that rejects a right
triple costs an agent a correct answer.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter, defaultdict
from collections.abc import Container, Iterable, Mapping
from pathlib import Path
from typing import Literal

from graphwright.kb.kgtk import require_file

Role = Literal["subject", "value"]
ROLES: tuple[Role, Role] = ("subject", "value")
Kinds = frozenset[str]

#: The broad classes expected types are drawn from: coarse enough that the messy Wikidata hierarchy
#: still puts most entities under one, fine enough that "spouse: a city" conflicts.
BROAD_CLASSES: dict[str, str] = {
    # agents
    "Q5": "human",
    "Q215627": "person",
    "Q95074": "fictional character",
    "Q43229": "organization",
    "Q4830453": "business",
    "Q7278": "political party",
    "Q2385804": "educational institution",
    "Q12973014": "sports team",
    "Q2088357": "musical ensemble",
    # places
    "Q2221906": "geographic location",
    "Q6256": "country",
    "Q486972": "human settlement",
    "Q56061": "administrative territorial entity",
    "Q811979": "architectural structure",
    "Q271669": "landform",
    "Q15324": "body of water",
    # works
    "Q17537576": "creative work",
    "Q11424": "film",
    "Q482994": "album",
    "Q7366": "song",
    "Q5398426": "television series",
    "Q7725634": "literary work",
    "Q1002697": "periodical",
    "Q7397": "software",
    # events
    "Q1656682": "event",
    "Q1190554": "occurrence",
    # abstract things that are common relation values
    "Q4164871": "position",
    "Q12737077": "occupation",
    "Q618779": "award",
    "Q34770": "language",
    "Q16521": "taxon",
    "Q483394": "genre",
    "Q349": "sport",
    "Q31629": "type of sport",
    "Q11862829": "academic discipline",
    "Q9174": "religion",
    "Q2424752": "product",
    "Q12136": "disease",
}

MIN_TYPED = 5
MAX_MISS = 0.05
MAX_CLASSES = 4
#: Re-DocRED's coarse mention types and the broad classes each stands for. Its PER includes fictional
#: characters, its ORG religions ("Catholic", "Christianity"). LOC also tags languages and
#: nationalities ("French", "Kurdish"), but the roles where it does (official language, ethnic group)
#: are MISC too often to speak.
DOCRED_TYPES: dict[str, tuple[str, ...]] = {
    "PER": ("Q215627", "Q95074"),
    "ORG": ("Q43229", "Q9174"),
    "LOC": ("Q2221906",),
}
ITEM_DATATYPES = {"wikibase-item", None}


class Hierarchy:
    """Which broad classes a class reaches through P279 (itself included; cycles cut)."""

    def __init__(self, subclass_of: Mapping[str, Iterable[str]], broad: Iterable[str] = BROAD_CLASSES):
        self.subclass_of, self.broad = subclass_of, frozenset(broad)
        self._memo: dict[str, Kinds] = {}

    def reach(self, cls: str) -> Kinds:
        if cls not in self._memo:
            seen, todo = {cls}, [cls]
            while todo:
                for parent in self.subclass_of.get(todo.pop(), ()):
                    if parent not in seen:
                        seen.add(parent)
                        todo.append(parent)
            self._memo[cls] = frozenset(seen & self.broad)
        return self._memo[cls]

    def kinds(self, types: Iterable[str]) -> Kinds | None:
        """Broad classes of an entity with these P31 types; None when it has no type (unknown)."""
        types = list(types)
        return frozenset().union(*(self.reach(t) for t in types)) if types else None

    def generality(self, types_by_entity: Mapping[str, Iterable[str]]) -> Counter:
        """How many entities reach each broad class: the tie-break towards the more permissive class."""
        out: Counter = Counter()
        for types in types_by_entity.values():
            out.update(self.kinds(types) or ())
        return out


def cover(observations: list[Kinds], generality: Mapping[str, int]) -> list[str] | None:
    """The greedy cover of the module rule; [] when the evidence is too thin, None when too diverse."""
    if len(observations) < MIN_TYPED:
        return []
    left = list(observations)
    picked: list[str] = []
    while len(left) > MAX_MISS * len(observations):
        counts = Counter(c for kinds in left for c in kinds)
        if not counts or len(picked) == MAX_CLASSES:
            return None
        best = min(counts, key=lambda c: (-counts[c], -generality.get(c, 0), c))
        picked.append(best)
        left = [kinds for kinds in left if best not in kinds]
    return picked


class Evidence:
    """Typed observations per (property, role, source), one per distinct entity."""

    def __init__(self) -> None:
        self.obs: dict[tuple[str, Role], dict[str, dict[str, Kinds]]] = defaultdict(lambda: defaultdict(dict))

    def add(self, pid: str, role: Role, source: str, entity: str, kinds: Kinds | None) -> None:
        if kinds is not None:
            self.obs[(pid, role)][source][entity] = kinds

    def expected(self, pid: str, role: Role, generality: Mapping[str, int]) -> list[str] | None:
        """The role's own classes: [] no evidence, None too diverse (see the module rule)."""
        out: list[str] = []
        for source in sorted(self.obs.get((pid, role), {})):
            picked = cover(list(self.obs[(pid, role)][source].values()), generality)
            if picked is None:
                return None
            out += [c for p in picked for c in DOCRED_TYPES.get(p, (p,)) if c not in out]
        return out


def derive(
    evidence: Evidence,
    datatypes: Mapping[str, str | None],
    constrained: Mapping[str, Iterable[Role]],
    super_properties: Mapping[str, list[str]],
    generality: Mapping[str, int],
) -> dict[str, dict[Role, list[str]]]:
    """{pid: {"subject": [...], "value": [...]}} for the properties that get any.

    ``constrained``: the roles Wikidata declares a type constraint for, per property (P2302 with
    Q21503250 / Q21510865; the offline dump has these statements, not their classes).
    """
    own: dict[tuple[str, Role], list[str] | None] = {}
    for pid, datatype in datatypes.items():
        for role in constrained.get(pid, ()):
            if role == "subject" or datatype in ITEM_DATATYPES:  # literal values have no classes
                own[(pid, role)] = evidence.expected(pid, role, generality)
    out: dict[str, dict[Role, list[str]]] = {}
    for (pid, role), classes in own.items():
        if classes == []:
            classes = _inherited(pid, role, own, super_properties)
        if classes:
            out.setdefault(pid, {})[role] = classes
    return {pid: out[pid] for pid in sorted(out, key=lambda p: int(p[1:]))}


def _inherited(pid: str, role: Role, own: Mapping, super_properties: Mapping[str, list[str]]) -> list[str] | None:
    """The classes of the nearest constrained P1647 ancestor with evidence (breadth first; cycles cut).
    Unconstrained ancestors ("part of") are passed over: their samples say nothing about a domain."""
    seen, frontier = {pid}, [pid]
    while frontier:
        frontier = [s for p in frontier for s in super_properties.get(p, []) if s not in seen]
        seen.update(frontier)
        for s in frontier:
            if own.get((s, role), []) != []:
                return own[(s, role)]  # classes, or None: an ancestor too diverse to constrain
    return None


# ---- evidence readers --------------------------------------------------------------------------


def add_rebel(
    evidence: Evidence, path: Path, docs: Container[int], types: Mapping[str, list[str]], hierarchy: Hierarchy
) -> None:
    """Gold triples of REBEL documents ``docs`` (file order); entities typed by their P31 in ``types``."""
    with gzip.open(require_file(path, "REBEL JSONL"), "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i in docs:
                for t in json.loads(line).get("triples", []):
                    pid = t["predicate"]["uri"]
                    ends: tuple[tuple[Role, str], ...] = (
                        ("subject", t["subject"]["uri"]),
                        ("value", t["object"]["uri"]),
                    )
                    for role, ent in ends:
                        if ent.startswith("Q"):  # dates and quantities have no id
                            evidence.add(pid, role, "wikidata", ent, hierarchy.kinds(types.get(ent, ())))


def add_examples(
    evidence: Evidence,
    example_subjects: Mapping[str, list[tuple[str, str | None]]],
    types: Mapping[str, list[str]],
    hierarchy: Hierarchy,
) -> None:
    """P1855 property examples: their subjects (the dump lacks the example values)."""
    for pid, subjects in example_subjects.items():
        for qid, _ in subjects:
            evidence.add(pid, "subject", "wikidata", qid, hierarchy.kinds(types.get(qid, ())))


def add_docred(evidence: Evidence, path: Path) -> None:
    """Re-DocRED relation labels, each entity typed by its mentions' most common coarse type.

    A role adds observations only when at most MAX_MISS of its entities have a type outside
    DOCRED_TYPES (MISC, TIME, NUM): the coarse types then do not describe the role. An observation's
    "kinds" is the coarse type itself, expanded to its classes once picked.
    """
    with gzip.open(require_file(path, "Re-DocRED JSON"), "rt", encoding="utf-8") as fh:
        docs = json.load(fh)
    seen: dict[tuple[str, Role], dict[str, str]] = defaultdict(dict)
    for d, doc in enumerate(docs):
        coarse = [Counter(m["type"] for m in v).most_common(1)[0][0] for v in doc["vertexSet"]]
        for label in doc.get("labels", []):
            ends: tuple[tuple[Role, int], ...] = (("subject", label["h"]), ("value", label["t"]))
            for role, v in ends:
                seen[(label["r"], role)][f"{d}/{v}"] = coarse[v]
    for (pid, role), ents in seen.items():
        if sum(t not in DOCRED_TYPES for t in ents.values()) <= MAX_MISS * len(ents):
            for ent, t in ents.items():
                evidence.add(pid, role, "re-docred", ent, frozenset([t]) if t in DOCRED_TYPES else None)
