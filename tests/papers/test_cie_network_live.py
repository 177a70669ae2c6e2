"""cie.network end to end with the real embedded 0.5B model on one short document.

Quality is not asserted here (a 0.5B model makes semantic mistakes); what must
hold is that a real model drives the graph to an end within the step limit and
that every triple it keeps is made of IRIs the KB knows.
"""

from __future__ import annotations

import asyncio

import pytest

from graphwright.kb.namespaces import local_id
from graphwright.llm import make_llm
from graphwright.model import Document
from graphwright.systems.base import make_system


@pytest.mark.slow
def test_cie_network_runs_on_the_real_small_model(default_kb, tmp_path):
    llm = make_llm("embedded:qwen2.5-coder-0.5b", cache=False, threads=2)
    system = make_system("cie.network", llm, default_kb, {"max_steps": 4})
    doc = Document(text="Arnold Schwarzenegger was born in Thal. He married Maria Shriver.")
    try:
        result = asyncio.run(system.run(doc))
    finally:
        asyncio.run(llm.aclose())
    assert result.usage.llm_calls >= 1 and result.usage.prompt_tokens > 0
    assert result.status == "ok" or "usable answer" in (result.reason or "")
    assert [s.node for s in result.trace][0] == "extractor"
    for triple in result.triples:
        for term in (triple.subject, triple.predicate, triple.object):
            if term.kind == "iri":
                assert default_kb.contains(local_id(term.value)), term.value
        assert triple.provenance.model == "embedded:qwen2.5-coder-0.5b"
