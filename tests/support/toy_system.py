"""A system family of a package of its own, registered through the ``graphwright.systems`` entry point in a test."""

from __future__ import annotations

from graphwright.model import Document, ExtractionResult
from graphwright.systems.base import register_system


class Echo:
    name = "toy.echo"

    def __init__(self, llm, kb, config):
        self.config = config or {}

    async def run(self, document: Document) -> ExtractionResult:
        return ExtractionResult(document_id=document.id, system=self.name)


@register_system("toy.echo", role="variant", purpose="Nothing: a plug-in's system for the tests", family="toy")
def make_echo(llm, kb, config=None) -> Echo:
    return Echo(llm, kb, config)
