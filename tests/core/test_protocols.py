"""The KB and store types systems and runs are written against: every implementation answers each method
with the protocol's parameters (a renamed or dropped keyword breaks the systems that pass it)."""

from __future__ import annotations

import inspect

import pytest

from graphwright.kb.local import LocalKB
from graphwright.kb.protocol import KnowledgeBase
from graphwright.kb.wikidata import WikidataKB
from graphwright.store.protocol import ResultStore
from graphwright.store.rdf_store import GraphStore


def protocol_methods(protocol: type) -> list[str]:
    return [name for name, value in vars(protocol).items() if inspect.isfunction(value) and not name.startswith("_")]


def parameters(function) -> list[tuple[str, object]]:
    return [(p.name, p.kind) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize(
    "protocol, implementation", [(KnowledgeBase, LocalKB), (KnowledgeBase, WikidataKB), (ResultStore, GraphStore)]
)
def test_each_implementation_takes_the_protocols_parameters(protocol, implementation):
    for name in protocol_methods(protocol):
        theirs = parameters(getattr(implementation, name))
        # an implementation may take more keywords (with defaults), never fewer or others in their place
        assert theirs[: len(parameters(getattr(protocol, name)))] == parameters(getattr(protocol, name)), name


def test_the_embedded_kb_and_the_store_are_what_runs_are_typed_against(default_kb, tmp_path):
    assert isinstance(default_kb, KnowledgeBase)
    store = GraphStore(tmp_path / "store")
    try:
        assert isinstance(store, ResultStore)
    finally:
        store.close()
    assert not isinstance(object(), KnowledgeBase)
