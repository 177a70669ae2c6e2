"""Places a text names beside a place, as the KB's descriptions relate them (issue 61).

The KB's towns and counties are described by the county and state they lie in ("city in Mason County,
Illinois"; "county seat of Lyon County, Kansas"). A text about a small town rarely writes its state, but
it often names the county or the town beside it: "Havana ... is the seat of Mason County". The candidate
whose description names such a place, or which such a place's description names within one region
(Emporia, Kansas names the Lyon County of Kansas, not Kentucky's), is the one the text means, as surely as
if the text had written "Havana, Illinois". Two places in one state (Westminster and the Carroll County of
Maryland) only lean towards each other: a name such as "Columbia" has namesakes in many states.
"""

from __future__ import annotations

from functools import cached_property

from graphwright.kb.records import KBRecord
from graphwright.linking.geography import Geography, is_country, names_in, names_place
from graphwright.linking.names import normalize


class Neighbours:
    """The places one text names, against the candidates of one of its names."""

    def __init__(self, kb, geography: Geography, text: str):
        self.kb, self.geography, self.text = kb, geography, text
        self._regions: dict[str, frozenset[str]] = {}

    @cached_property
    def _named(self) -> dict[str, list[KBRecord]]:
        """The text's names (folded) and the KB's places of each."""
        named: dict[str, list[KBRecord]] = {}
        for name, _ in names_in(self.text):
            folded = normalize(name)
            if folded and folded not in named:
                named[folded] = [r for r in self.kb.find_label(folded, kind="entity") if self.geography.is_place(r)]
        return named

    def regions(self, record: KBRecord) -> frozenset[str]:
        """The places below a country that a place's description names ("Mason County", "Illinois")."""
        if record.id not in self._regions:
            self._regions[record.id] = frozenset(
                folded
                for name, _ in names_in(record.description)
                if (folded := normalize(name))
                and (places := [r for r in self.kb.find_label(folded, kind="entity") if self.geography.is_place(r)])
                and not all(is_country(r) for r in places)  # "Georgia": the state, beside the country
            )
        return self._regions[record.id]

    def support(self, surface: str, record: KBRecord) -> tuple[bool, bool]:
        """(named: the text writes a region of the candidate's, or a place whose description names the
        candidate in a region of its own; near: another of the text's places lies in a region of the
        candidate's)."""
        if not self.geography.is_place(record) or is_country(record):
            return False, False
        own = {normalize(n) for n in (surface, record.label, *record.aliases)}
        mine = self.regions(record)
        others = {name: places for name, places in self._named.items() if name not in own}
        if mine & set(others):
            return True, True
        label = normalize(record.label)
        near = False
        for places in others.values():
            for place in places:
                if place.id == record.id:
                    continue
                theirs = self.regions(place)
                if names_place(place, label) and (mine & theirs or not mine):
                    return True, True
                near = near or bool(mine & theirs)
        return False, near
