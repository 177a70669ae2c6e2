"""Open-world linking of a system's result: keep the links the KB supports, mint the rest, type values.

Every triple a linking system produced is checked term by term:

* subject and item value: the mention's words must name the proposed KB entity (see judge.py); if
  they do not, another KB entity of that name may take its place; if none does, the entity is kept
  under a minted IRI with the mention as its label, so its facts are kept without being pinned on
  someone else. "A and B" is two entities. A number or a date is never an item;
* value of a time, quantity, string, identifier or monolingual-text property: a typed literal from
  the words of the text, never an item such as "1910".

A link the rules let stand is last weighed by the abstention (abstain.py, where given): with too little
speaking for it, the name is minted after all.

A triple whose parts cannot be resolved (an entity not named in the text, a value that is not of
the property's datatype, a KB entity of the property's wrong type) is dropped with a warning.
Each decision is recorded in ``result.extra["linking"]``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from graphwright.kb.namespaces import entity_iri, is_unlinked, parse_wikidata_id
from graphwright.kb.records import KBRecord
from graphwright.linking.abstain import Abstention, LinkSupport, features, other_names
from graphwright.linking.check import gloss_kinds
from graphwright.linking.context import Choice, Context
from graphwright.linking.fact_types import FactTypes
from graphwright.linking.judge import LinkJudge
from graphwright.linking.literals import LITERAL_DATATYPES, typed_value
from graphwright.linking.names import full_name, is_function_word, is_number_or_date, normalize, without_title
from graphwright.model import Document, Entity, ExtractionResult, Mention, Term, Triple
from graphwright.model.schema import name_entity_iri
from graphwright.tools.type_constraints import Role, constraint_classes

ALTERNATIVES = 5  # near names from the search considered beside the proposed one
NAMESAKES = 20  # entities of exactly the name: the text may name the county or state of the twelfth Douglas County
_COORDINATED = re.compile(r"^(?P<a>[A-Z].*?)(?:\s+and\s+|\s*&\s*)(?P<b>[A-Z].*)$")


class Drop(Exception):
    """This triple cannot be kept; the message says why."""


@dataclass
class _Outcome:
    terms: list[Term]
    minted: list[Entity] = field(default_factory=list)  # entities the KB lacks, behind some of ``terms``


class Resolver:
    """Resolves the triples of one document against ``judge.kb``."""

    def __init__(
        self,
        judge: LinkJudge,
        document: Document,
        readings: dict[str, KBRecord | None] | None = None,
        glosses: dict[str, str] | None = None,
        abstention: Abstention | None = None,
    ):
        self.judge, self.kb, self.document = judge, judge.kb, document
        self.readings = readings or {}  # normalized name -> the entity a reader of the text chose, None: none
        self.glosses = glosses or {}  # normalized name -> what the reader wrote it is
        self.abstention = abstention  # None: every link the rules and the reader let stand is kept
        self._known: dict[str, bool] = {}  # name -> whether the KB has an entity of it
        self._namesakes: dict[str, int] = {}  # name -> how many KB entities have exactly that name
        self.choices: dict[str, tuple[str, Choice]] = {}  # normalized name -> (name, the context's choice)
        self.decisions: list[dict[str, Any]] = []
        self.warnings: list[str] = []
        self.minted: dict[str, Entity] = {}
        self._memo: dict[tuple[str, str, str, str], _Outcome] = {}
        self.context = Context(self.kb, document.text, judge.geography)

    def result(self, result: ExtractionResult) -> ExtractionResult:
        if result.status != "ok":
            return result
        triples: dict[tuple[str, str, str], Triple] = {}
        for triple in result.triples:
            try:
                for t in self.triple(triple):
                    triples.setdefault(t.key(), t)
            except Drop as why:
                self.warnings.append(f"dropped {_show(triple)}: {why}")
        kept, misfits = FactTypes(self.kb).check(list(triples.values()))
        for triple, reason in misfits:
            self.warnings.append(f"dropped {_show(triple)}: {reason}")
            self.decisions.append({"triple": _show(triple), "decision": "type misfit", "reason": reason})
        # an entity the system named for a fact's argument stays only where a kept fact still links it: the
        # KB namesake a name was minted away from is no entity of this document
        proposed = {term.value for t in result.triples for term in (t.subject, t.object) if term.kind == "iri"}
        linked = {term.value for t in kept for term in (t.subject, t.object) if term.kind == "iri"}
        entities = [e for e in result.entities if e.iri in linked or e.iri not in proposed]
        return result.model_copy(
            update={
                "triples": kept,
                "entities": entities + list(self.minted.values()),
                "warnings": result.warnings + self.warnings,
                "extra": {**result.extra, "linking": self.decisions},
            }
        )

    def triple(self, t: Triple) -> list[Triple]:
        prop = self.kb.get(t.predicate.value) if t.predicate.kind == "iri" else None
        sentence = (t.provenance.evidence.text if t.provenance.evidence else None) or self.document.text
        subjects = self.item(t.subject, prop, "subject", sentence)
        values = self.value(t.object, prop, sentence)
        # a fact relating something to itself ("X place of birth X") is a small model's slip, never news
        pairs = [(s, o) for s, o in itertools.product(subjects, values) if not (o.kind == "iri" and o.value == s.value)]
        if not pairs:
            raise Drop(f"it relates {subjects[0].label or subjects[0].value} to itself")
        return [t.model_copy(update={"subject": s, "object": o}) for s, o in pairs]

    def value(self, term: Term, prop: KBRecord | None, sentence: str) -> list[Term]:
        datatype = prop.datatype if prop else None
        if datatype in LITERAL_DATATYPES:
            text = term.value if term.kind == "literal" else self._surface(term)
            typed = typed_value(datatype, text) if text else None
            if typed is None:
                assert prop is not None  # the datatype is the property's
                raise Drop(f"{text or term.value!r} is not a {datatype} value, which {prop.id} needs")
            return [
                Term.literal(typed.lexical, datatype=typed.datatype, lang=typed.lang, surface=text, unit=typed.unit)
            ]
        if datatype == "wikibase-item" or (datatype is None and term.kind == "iri"):
            return self.item(term, prop, "value", sentence)
        return [term]  # a property, lexeme or a literal of a property whose datatype the KB lacks

    def item(self, term: Term, prop: KBRecord | None, role: Role, sentence: str) -> list[Term]:
        if term.kind == "iri" and is_unlinked(term.value):
            return [term]
        proposed = self.kb.get(term.value) if term.kind == "iri" else None
        if term.kind == "iri" and proposed is None:
            raise Drop(f"{term.value} is not in the KB")
        surface = term.value if term.kind == "literal" else self._surface(term)
        if not surface:
            raise Drop(f"{term.value} ({term.label or '?'}) is not named in the text")
        # "Falls" of "Ridgecrest Falls" names no waterfall; "Dr. Jonas Eide" is Jonas Eide, whatever system wrote it
        surface = without_title(full_name(surface, self.document.text))
        if is_number_or_date(surface):
            raise Drop(f"{surface!r} is a number or date, not an item")
        outcome = self.link_or_mint(surface, proposed, prop, role, sentence)
        for entity in outcome.minted:
            kept = self.minted.setdefault(entity.iri, entity)
            if kept is entity:  # logged once, however often the name comes back
                self.decisions.append(
                    {
                        "surface": entity.label,
                        "role": role,
                        "property": prop.id if prop else None,
                        "decision": "minted",
                        "iri": entity.iri,
                    }
                )
            else:
                kept.mentions += [m for m in entity.mentions if m not in kept.mentions]
        return outcome.terms

    def link_or_mint(
        self, surface: str, proposed: KBRecord | None, prop: KBRecord | None, role: Role, sentence: str
    ) -> _Outcome:
        if is_function_word(surface):
            raise Drop(f"{surface!r} is a function word, not a name")
        key = (normalize(surface), proposed.id if proposed else "", prop.id if prop else "", role)
        if key not in self._memo:
            self._memo[key] = self._link_or_mint(surface, proposed, prop, role, sentence)
        return self._memo[key]

    def _link_or_mint(
        self, surface: str, proposed: KBRecord | None, prop: KBRecord | None, role: Role, sentence: str
    ) -> _Outcome:
        linked, conflict = [], None
        for record in self._candidates(surface, proposed):
            evidence, decision = self.judge.judge(
                surface, record, document=self.document.text, sentence=sentence, prop=prop, role=role
            )
            self._log(surface, role, prop, proposed, record, decision.linked, decision.confidence, decision.reason)
            if decision.linked:
                linked.append((record, decision.confidence, evidence.name.name))
            elif evidence.names_it and evidence.type_fit is False:
                conflict = record
        choice = self.context.choose(surface, proposed, linked)
        for reason in choice.contradicted:
            self.decisions.append(
                {
                    "surface": surface,
                    "role": role,
                    "property": prop.id if prop else None,
                    "decision": "contradicted",
                    "reason": reason,
                }
            )
        best = choice.best
        if best is not None and normalize(surface) in self.readings:  # a reader of the text chose (check.py)
            best = self.readings[normalize(surface)]
            self.decisions.append(
                {
                    "surface": surface,
                    "role": role,
                    "property": prop.id if prop else None,
                    "decision": "read",
                    "candidate": best.id if best else None,
                }
            )
        elif best is not None:
            self.choices.setdefault(normalize(surface), (surface, choice))
        if best is not None and self._abstains(surface, best, choice, linked):
            return self._mint(surface.split(",")[0].strip() or surface, prop, role)
        if best is not None:
            return _Outcome([Term.iri(best.iri, surface=surface, label=best.label)])
        if linked:  # the text (or its reader) places the name where none of the KB's same-name entities is
            return self._mint(surface.split(",")[0].strip() or surface, prop, role)
        if conflict is not None:
            expected = ", ".join(constraint_classes(prop, role)) if prop else "?"
            raise Drop(
                f"{surface!r} names {conflict.id} ({conflict.label}), which is not of a type the {role} of "
                f"{prop.id if prop else '?'} takes ({expected})"
            )
        parts = _COORDINATED.match(surface)
        if parts:  # "Germany and Denmark": two KB entities; "Priya Ramaswamy and Daniel Okafor": two people
            try:
                outcomes = [self.link_or_mint(part.strip(), None, prop, role, sentence) for part in parts.groups()]
            except Drop:  # a part names something else ("Black" in "Black and Decker"): one name after all
                outcomes = []
            if outcomes and (all(not o.minted for o in outcomes) or all(len(p.split()) >= 2 for p in parts.groups())):
                return _Outcome([t for o in outcomes for t in o.terms], [e for o in outcomes for e in o.minted])
        return self._mint(surface.split(",")[0].strip() or surface, prop, role)  # "Ridgecrest Falls, Ohio"

    def _abstains(
        self, surface: str, best: KBRecord, choice: Choice, linked: list[tuple[KBRecord, float, str]]
    ) -> bool:
        """Whether too little speaks for linking ``surface`` to ``best`` (abstain.py); the support is logged
        either way, so that the abstention can be fitted on the decisions."""
        matched = {record.id: (confidence, name) for record, confidence, name in linked}
        confidence, name = matched.get(best.id, (0.0, surface))
        gloss = self.glosses.get(normalize(surface))
        support = LinkSupport(
            settled=choice.settled,
            agreement=self.context.fit(surface, best, name).agreement,
            namesakes=self._namesakes[surface],
            others_left=len({r.id for r in [choice.best, *choice.others] if r is not None} - {best.id}),
            gloss=gloss,
            gloss_kinds=gloss_kinds(self.judge.geography, surface, gloss, best) if gloss is not None else None,
            confidence=confidence,
            names_known=self._names_known(surface),
        )
        values = features(surface, best, self.document.text, support)
        chance = self.abstention.wrong_chance(values) if self.abstention else None
        abstains = self.abstention is not None and self.abstention.abstains(values)
        self.decisions.append(
            {
                "surface": surface,
                "candidate": best.id,
                "decision": "abstained" if abstains else "kept",
                "support": [round(v, 4) for v in values],
                "wrong_chance": None if chance is None else round(chance, 3),
            }
        )
        return abstains

    def _names_known(self, surface: str) -> float:
        """Of the text's other names, the share the KB has an entity of (0.5 when it writes no other)."""
        names = [n for n in other_names(self.document.text, surface) if not is_function_word(n)]
        for name in names:
            if name not in self._known:
                self._known[name] = bool(self.kb.find_label(name, kind="entity"))
        return sum(self._known[n] for n in names) / len(names) if names else 0.5

    def _candidates(self, surface: str, proposed: KBRecord | None) -> Iterator[KBRecord]:
        """The system's choice first, then the KB's other entities of that name."""
        seen = set()
        # every entity of exactly this name, then the search's near names ("Bram Stoker's Dracula")
        named = self.kb.find_label(surface, kind="entity")
        self._namesakes[surface] = len(named)  # the abstention reads it
        named = named[:NAMESAKES]
        searched = [hit.record for hit in self.kb.search(surface, kind="entity", mode="label", k=ALTERNATIVES)]
        for record in [*([proposed] if proposed else []), *named, *searched]:
            if record.id not in seen:
                seen.add(record.id)
                yield record

    def _mint(self, surface: str, prop: KBRecord | None, role: Role) -> _Outcome:
        if not surface.split():  # only spaces or separators: no name to give a node
            raise Drop(f"{surface!r} is not a name")
        iri = name_entity_iri(surface)  # the node any graphwright system gives this name
        expected = constraint_classes(prop, role) if prop else []
        span = self.document.find(surface)
        entity = Entity(
            iri=iri,
            label=surface,
            types=[entity_iri(expected[0])] if len(expected) == 1 else [],
            mentions=[Mention(surface=surface, span=span)],
        )
        return _Outcome([Term.iri(iri, surface=surface, label=surface)], [entity])

    def _surface(self, term: Term) -> str | None:
        """The words of the text behind a term: the system's mention, else the KB label if the text has it."""
        if term.surface:
            return term.surface
        if term.label and self.document.find(term.label) is not None:
            return term.label
        return None

    def _log(
        self,
        surface: str,
        role: Role,
        prop: KBRecord | None,
        proposed: KBRecord | None,
        record: KBRecord,
        linked: bool,
        confidence: float,
        reason: str,
    ) -> None:
        self.decisions.append(
            {
                "surface": surface,
                "role": role,
                "property": prop.id if prop else None,
                "proposed": proposed.id if proposed else None,
                "candidate": record.id,
                "label": record.label,
                "decision": "linked" if linked else "rejected",
                "confidence": round(confidence, 3),
                "reason": reason,
            }
        )


def resolve(result: ExtractionResult, document: Document, judge: LinkJudge) -> ExtractionResult:
    return Resolver(judge, document).result(result)


def _show(t: Triple) -> str:
    return " ".join(
        x.surface or x.label or (parse_wikidata_id(x.value) or x.value) for x in (t.subject, t.predicate, t.object)
    )
