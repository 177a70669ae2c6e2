"""A linking system with open-world linking after it: the ``linking`` setting of every system that links.

``linking=open`` (default): the system's links are checked and unsupported ones minted (resolve.py).
``linking=closed``: every mention stays on the KB entity the system chose, as CIExMAS's closed-IE
benchmark assumes (its KB holds every gold entity).
"""

from __future__ import annotations

from typing import Any

from graphwright.errors import UserError
from graphwright.linking.judge import LinkJudge
from graphwright.linking.resolve import resolve
from graphwright.model import Document, ExtractionResult
from graphwright.kb.protocol import KnowledgeBase

LINKING_MODES = ("open", "closed")


class OpenWorldLinking:
    """Wraps a system: same name and settings, results resolved against its KB."""

    def __init__(self, system: Any, kb: KnowledgeBase | None):
        self.system = system
        self.name = system.name
        self.judge = LinkJudge(kb)
        system.names_judged_after = True  # a system may skip its own, cruder name checks (cie.network's name_check)

    def __getattr__(self, attr: str) -> Any:  # config, prompts, ...: the wrapped system's
        return getattr(self.system, attr)

    async def run(self, document: Document) -> ExtractionResult:
        return resolve(await self.system.run(document), document, self.judge)


def with_linking(system: Any, kb: KnowledgeBase | None, mode: str, links_to_kb: bool) -> Any:
    """``system`` with open-world linking after it when it links to the KB (its ``Capabilities``)."""
    if mode not in LINKING_MODES:
        raise UserError(f"invalid linking setting {mode!r}: use one of {', '.join(LINKING_MODES)}")
    if mode == "closed" or kb is None or not links_to_kb:
        return system
    return OpenWorldLinking(system, kb)
