"""A linking system with open-world linking after it: the ``linking`` setting of every system that links.

``linking=open`` (default): the system's links are checked against the text and the KB, and unsupported
ones minted (resolve.py).
``linking=checked``: open, then the model says what each name the text's words leave open is, and the KB
entity must agree (check.py): one more call per document that has any.
``linking=closed``: every mention stays on the KB entity the system chose, as CIExMAS's closed-IE
benchmark assumes (its KB holds every gold entity).
``link_risk=0.05``: under open or checked linking to a Wikidata KB, mint every name whose link has a higher
chance of naming the wrong entity than this (abstain.py; default: the fitted 0.2). Lower it where a wrong link
costs more than a missing one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from graphwright.errors import LLMError, ModelOutputError, UserError
from graphwright.kb.protocol import KnowledgeBase
from graphwright.linking.abstain import Abstention, fitted_for, shipped_abstention
from graphwright.linking.check import open_questions, read_links
from graphwright.linking.judge import LinkJudge
from graphwright.linking.resolve import Resolver
from graphwright.llm.base import LLM
from graphwright.model import Document, ExtractionResult
from graphwright.progress import report

LINKING_MODES = ("open", "checked", "closed")


class OpenWorldLinking:
    """Wraps a system: same name and settings, results resolved against its KB (and read by ``reader``)."""

    def __init__(
        self,
        system: Any,
        kb: KnowledgeBase | None,
        reader: LLM | None = None,
        abstention: Abstention | None | Literal["shipped"] = "shipped",
    ):
        self.system = system
        self.name = system.name
        self.judge = LinkJudge(kb)
        self.reader = reader
        # None: every link the rules and the reader let stand is kept (the rules' own tests, a user's own KB)
        if abstention == "shipped":
            abstention = shipped_abstention() if fitted_for(kb) else None
        self.abstention = abstention
        system.names_judged_after = True  # a system may skip its own, cruder name checks (cie.network's name_check)

    def __getattr__(self, attr: str) -> Any:  # config, prompts, ...: the wrapped system's
        return getattr(self.system, attr)

    async def run(self, document: Document) -> ExtractionResult:
        found = await self.system.run(document)
        report("linking")
        abstention = self.abstention
        resolver = Resolver(self.judge, document, abstention=abstention)
        resolved = resolver.result(found)
        questions = open_questions(resolver.choices) if self.reader is not None and found.status == "ok" else {}
        if not questions:
            return resolved
        assert self.reader is not None  # questions are only asked with a reader
        try:
            reading = await read_links(self.reader, self.judge.geography, document.text, questions)
        except (LLMError, ModelOutputError) as exc:  # the rules' links stand; the user is told they were not read
            return resolved.model_copy(update={"warnings": resolved.warnings + [f"links not checked: {exc}"]})
        reread = Resolver(
            self.judge, document, readings=reading.entities, glosses=reading.glosses, abstention=abstention
        ).result(found)
        return reread.model_copy(
            update={"usage": reread.usage + reading.usage, "extra": {**reread.extra, "link_check": reading.reasons}}
        )


def with_linking(
    system: Any,
    kb: KnowledgeBase | None,
    mode: str,
    links_to_kb: bool,
    llm: LLM | None = None,
    link_risk: Any = None,
) -> Any:
    """``system`` with open-world linking after it when it links to the KB (its ``Capabilities``); with
    ``checked``, ``llm`` reads the links the text leaves open. ``link_risk``: the highest chance of naming the
    wrong entity a kept link may have (default: the fitted threshold)."""
    if mode not in LINKING_MODES:
        raise UserError(f"invalid linking setting {mode!r}: use one of {', '.join(LINKING_MODES)}")
    abstention = _abstention(kb, mode, link_risk)
    if mode == "closed" or kb is None or not links_to_kb:
        return system
    return OpenWorldLinking(system, kb, reader=llm if mode == "checked" else None, abstention=abstention)


def _abstention(kb: KnowledgeBase | None, mode: str, link_risk: Any) -> Abstention | None | Literal["shipped"]:
    if link_risk is None:
        return "shipped"
    try:
        risk = float(link_risk)
    except (TypeError, ValueError):
        risk = -1.0
    if not 0 < risk <= 1:
        raise UserError(f"invalid link_risk {link_risk!r}: a chance above 0 and at most 1 (default 0.2)")
    if mode == "closed" or kb is None or not fitted_for(kb):
        raise UserError(
            "link_risk weighs links to a Wikidata KB under open or checked linking: "
            + ("linking=closed keeps every link" if mode == "closed" else "this KB is not one it was fitted on")
        )
    return replace(shipped_abstention(), threshold=risk)
