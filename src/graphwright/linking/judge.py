"""Is a proposed KB link supported by the text? NIL-aware linking, as entity linkers for real text do.

Evidence for a (mention, KB record) pair:

* name: the mention must be the record's label or an alias, a misspelling of one, or a shorter form
  ("Curie") whose full name is also in the document; a look-alike is no evidence at all;
* type: the record's classes against the property's expected subject or value types;
* context: similarity of the mention's sentence to the record's description;
* popularity: sitelinks, where the KB has them (a tie-break between same-name records, see resolve).

A logistic model turns the evidence into a confidence; weights and threshold are fitted by
``python -m graphwright.bench.fit_link_judge`` on REBEL documents the benchmarks do not score, and shipped as
``judge.json``. Below the threshold, or without a name match, the mention is not linked (NIL).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from graphwright.kb.records import KBRecord
from graphwright.linking.geography import Geography
from graphwright.linking.names import NameMatch, match_name, national_form, normalize
from graphwright.tools.type_constraints import Role, check_type

FEATURES = ("bias", "exact", "spelling", "part", "demonym", "type_fits", "type_conflict", "context")


@dataclass(frozen=True)
class LinkEvidence:
    name: NameMatch
    full_name_in_text: bool  # for a shorter form: the record's full name occurs in the document
    type_fit: bool | None  # None: the property has no expected types or the record no classes
    context: float | None  # cosine(sentence, "label: description"); None without description/embedder

    @property
    def names_it(self) -> bool:
        return self.name.kind in ("exact", "spelling", "demonym") or (
            self.name.kind == "part" and self.full_name_in_text
        )

    def vector(self) -> np.ndarray:
        kind = self.name.kind
        return np.array(
            [
                1.0,
                kind == "exact",
                self.name.score if kind == "spelling" else 0.0,
                kind == "part" and self.full_name_in_text,
                kind == "demonym",
                self.type_fit is True,
                self.type_fit is False,
                self.context or 0.0,
            ],
            dtype=np.float64,
        )


@dataclass(frozen=True)
class LinkDecision:
    linked: bool
    confidence: float
    reason: str


@dataclass(frozen=True)
class JudgeModel:
    weights: tuple[float, ...]
    threshold: float
    note: str = ""

    @classmethod
    def packaged(cls) -> JudgeModel:
        data = json.loads((resources.files("graphwright.linking") / "judge.json").read_text(encoding="utf-8"))
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JudgeModel:
        if tuple(data["features"]) != FEATURES:
            raise ValueError(f"judge weights are for features {data['features']}, this code has {list(FEATURES)}")
        return cls(tuple(float(w) for w in data["weights"]), float(data["threshold"]), data.get("note", ""))

    def confidence(self, evidence: LinkEvidence) -> float:
        z = float(np.dot(self.weights, evidence.vector()))
        return 1.0 / (1.0 + math.exp(-z))


class LinkJudge:
    """Decides links against one KB; ``embedder`` (for context) defaults to the KB's own, if any."""

    def __init__(self, kb, model: JudgeModel | None = None, embedder=None):
        self.kb = kb
        self.model = model or JudgeModel.packaged()
        self.geography = Geography(kb)  # where the KB's entities are, shared by the documents judged
        vectors = None if embedder else _kb_vectors(kb)
        self._embed = embedder.embed if embedder else (vectors.embedder.embed if vectors else None)
        self._memo: dict[str, np.ndarray] = {}

    def evidence(
        self,
        surface: str,
        record: KBRecord,
        *,
        document: str,
        sentence: str,
        prop: KBRecord | None = None,
        role: Role = "subject",
    ) -> LinkEvidence:
        name = match_name(surface, [record.label, *record.aliases])
        if name.kind == "part" and national_form(surface, name.name, document):
            name = NameMatch("exact", 1.0, name.name)  # the text's own short form of the name
        full = name.kind == "part" and normalize(name.name) in normalize(document)
        fit = check_type(self.kb, record.id, prop, role).fits if prop is not None else None
        return LinkEvidence(name, full, fit, self._context(sentence, record))

    def decide(self, evidence: LinkEvidence) -> LinkDecision:
        if not evidence.names_it:
            what = (
                "only part of its name, and the full name is not in the text"
                if evidence.name.kind == "part"
                else "not its name"
            )
            return LinkDecision(False, 0.0, f"the mention is {what}")
        confidence = self.model.confidence(evidence)
        if evidence.type_fit is False:
            return LinkDecision(False, confidence, "its type does not fit the property")
        if confidence < self.model.threshold:
            return LinkDecision(False, confidence, f"confidence {confidence:.2f} below {self.model.threshold:.2f}")
        return LinkDecision(True, confidence, f"{evidence.name.kind} name match")

    def judge(self, surface: str, record: KBRecord, **kw) -> tuple[LinkEvidence, LinkDecision]:
        evidence = self.evidence(surface, record, **kw)
        return evidence, self.decide(evidence)

    def _context(self, sentence: str, record: KBRecord) -> float | None:
        if self._embed is None or not record.description or not sentence:
            return None
        texts = [sentence, f"{record.label}: {record.description}"]
        missing = [t for t in texts if t not in self._memo]
        if missing:
            if len(self._memo) > 20_000:  # a long batch must not grow this without bound
                self._memo = {t: v for t, v in self._memo.items() if t in texts}
            self._memo.update(zip(missing, self._embed(missing)))
        return float(np.dot(self._memo[texts[0]], self._memo[texts[1]]))


def _kb_vectors(kb):
    try:
        return getattr(kb, "vectors", None)
    except Exception:  # noqa: BLE001 - no embedding model installed: the judge works without context
        return None
