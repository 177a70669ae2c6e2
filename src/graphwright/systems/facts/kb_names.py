"""What the KB says about the names of a run, asked once per name: the grounding, the facts read in passing
and the mapping all ask about the same few names, many times over."""

from __future__ import annotations

from graphwright.kb.protocol import KnowledgeBase
from graphwright.kb.records import KBRecord
from graphwright.linking.names import match_name
from graphwright.systems.facts.types import kb_type

PROPOSALS = 5  # same-name KB entities looked at
CLASS_DEPTH = 6  # superclass levels read to find an entity's broad class
COUNTRY_CLASSES = frozenset({"Q6256", "Q3624078"})  # country, sovereign state
POLITICAL_PARTY = "Q7278"
OCCUPATION_CLASSES = frozenset({"Q28640", "Q12737077", "Q4164871"})  # occupation, profession, position


class KBNames:
    def __init__(self, kb: KnowledgeBase | None):
        self.kb = kb
        self._records: dict[str, KBRecord | None] = {}
        self._types: dict[str, str | None] = {}
        self._occupations: dict[str, bool] = {}

    def record(self, name: str) -> KBRecord | None:
        """The KB entity whose label or alias is this name."""
        if self.kb is None:
            return None
        if name not in self._records:
            named = [
                hit.record
                for hit in self.kb.search(name, kind="entity", mode="label", k=PROPOSALS)
                if match_name(name, [hit.record.label, *hit.record.aliases]).kind in ("exact", "demonym")
            ]
            # a country before the rest ("China" is the state, not the cultural region), then the entity labelled
            # so before one that has the name as an alias ("Mexico" is also Mexico City's)
            named.sort(
                key=lambda record: (not COUNTRY_CLASSES & set(record.types), record.label.casefold() != name.casefold())
            )
            self._records[name] = named[0] if named else None
        return self._records[name]

    def type_of(self, name: str | None) -> str | None:
        """The coarse type of the KB entity of that name; None: no such entity, or no broad class."""
        if not name:
            return None
        if name not in self._types:
            record = self.record(name)
            self._types[name] = self._nearest_type(record.types) if record else None
        return self._types[name]

    def _nearest_type(self, classes: list[str]) -> str | None:
        """The nearest broad class decides: a city is also, further up, a legal person (an organisation)."""
        assert self.kb is not None  # the classes are a record's, and records come from the KB
        seen = frontier = set(classes)
        for _ in range(CLASS_DEPTH + 1):
            found = kb_type(seen)
            if found or not frontier:
                return found
            frontier = {parent for c in frontier for parent in self.kb.superclasses(c, depth=1)} - seen
            seen = seen | frontier
        return None

    def is_country(self, name: str) -> bool:
        record = self.record(name)
        return record is not None and bool(COUNTRY_CLASSES & set(record.types))

    def is_party(self, name: str) -> bool:
        record = self.record(name)
        if record is None:
            return False
        assert self.kb is not None  # records come from the KB
        return any(c == POLITICAL_PARTY or POLITICAL_PARTY in self.kb.superclasses(c, depth=3) for c in record.types)

    def is_occupation(self, words: str) -> bool:
        """Whether the KB has an occupation or profession of this name."""
        if self.kb is None:
            return False
        if words not in self._occupations:
            self._occupations[words] = any(
                OCCUPATION_CLASSES & set(r.types) for r in self.kb.find_label(words, kind="entity")
            )
        return self._occupations[words]
