"""The Python API against a scripted OpenAI-compatible server on 127.0.0.1: `graphwright.extract` runs the
default system through the command line's assembly into a store, skips what the store holds, records
failures, and refuses to run inside an event loop."""

from __future__ import annotations

import asyncio
import json

import pytest

import graphwright
from graphwright.errors import UserError
from graphwright.kb.namespaces import WDT
from tests.support.openai_server import FaultPlan, ScriptedOpenAIServer

TEXT = "Maren Solberg founded Tidewater Instruments in Stavanger in 2016."
TRIPLES = [
    ["Tidewater Instruments", "founded by", "Maren Solberg"],
    ["Tidewater Instruments", "founded in", "2016"],
    ["Maren Solberg", "occupation", "physicist"],
]  # the last one the text never states


def reply(messages, schema) -> str:
    return json.dumps({"triples": TRIPLES})


def test_extract_writes_the_default_systems_facts_into_the_store(tmp_path, default_kb):
    with ScriptedOpenAIServer(reply) as server, graphwright.open_store(tmp_path / "store") as store:
        run = graphwright.extract([TEXT], model="scripted", base_url=server.base_url, store=store, cache=False)
        assert len(server.requests) == 1
        again = graphwright.extract(TEXT, model="scripted", base_url=server.base_url, store=store, cache=False)
        assert len(server.requests) == 1, "a document the store holds is not run again"
    assert [r.system for r in run.results] == [graphwright.api.DEFAULT_SYSTEM] and run.results[0].status == "ok"
    facts = {(t.subject.label, t.predicate.value.removeprefix(WDT), t.object.value) for t in run.triples}
    assert any(f[:2] == ("Tidewater Instruments", "P112") for f in facts), facts
    assert any(f[1] == "P571" and f[2].startswith("2016") for f in facts), facts
    assert not any("physicist" in str(f) for f in facts), "a fact the text does not state is dropped"
    assert again.results == [] and again.skipped == [run.results[0].document_id]
    with graphwright.open_store(tmp_path / "store") as store:
        assert store.count() > 0, "the graph is on disk"


def test_a_failed_document_is_recorded_with_its_reason(default_kb):
    with ScriptedOpenAIServer(reply, faults=FaultPlan({"error500": 1.0})) as server:
        run = graphwright.extract(TEXT, model="scripted", base_url=server.base_url, cache=False)
    assert run.results[0].status == "failed" and run.failed[0][1] == run.results[0].reason
    assert "500" in run.results[0].reason


def test_extract_says_what_to_do_inside_an_event_loop():
    async def inside():
        graphwright.extract(TEXT)

    with pytest.raises(UserError, match="extract_async"):
        asyncio.run(inside())


def test_bad_input_and_unknown_names_are_clear_errors(default_kb):
    with pytest.raises(UserError, match="texts"):
        graphwright.extract([b"bytes"])
    with pytest.raises(Exception, match="no-such-system"):
        graphwright.extract(TEXT, system="no-such-system")
    with pytest.raises(AttributeError):
        graphwright.no_such_name  # noqa: B018
