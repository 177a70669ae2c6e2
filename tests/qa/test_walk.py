"""Passages found through the graph: the walk itself against networkx's PageRank, and the passages mode
of `ask` on a small hand-built graph (scripted model)."""

from __future__ import annotations

import asyncio
import json

import numpy as np
import pyoxigraph as ox
import pytest

from graphwright.llm.fake import ScriptedLLM
from graphwright.qa import ClosedBookQA, GraphQA
from graphwright.qa.walk import personalized_pagerank
from graphwright.store import GraphStore
from graphwright.store import vocab as v

from .test_graph_qa import TEXTS, fill

QUESTION = "Who is the director of the shipyard that built the MV Corra Lynn?"


def test_the_walk_is_personalized_pagerank():
    """Against the closed form: r = (1 - d) p + d M r, where M spreads each node's rank evenly over its
    edges and a node without edges sends its rank to p."""
    edges = [(0, 1), (1, 2), (2, 3), (3, 0), (2, 4)]  # node 5 has none
    both = np.array(edges + [(b, a) for a, b in edges])
    reset = np.array([0.6, 0.0, 0.0, 0.1, 0.0, 0.3])
    mine = personalized_pagerank(6, both[:, 0], both[:, 1], np.ones(len(both)), reset)
    spread = np.zeros((6, 6))
    for a, b in both:
        spread[b, a] = 1.0
    degree = spread.sum(axis=0)
    spread = np.where(degree > 0, spread / np.where(degree > 0, degree, 1), reset[:, None])
    exact = np.linalg.solve(np.eye(6) - 0.5 * spread, 0.5 * reset)
    assert mine == pytest.approx(exact, abs=1e-6)
    assert mine.sum() == pytest.approx(1.0)
    assert mine[5] > mine[4], "a seed without edges keeps its share; a leaf far from the seeds gets little"


@pytest.fixture(scope="module")
def store():
    with fill(GraphStore.in_memory()) as s:
        yield s


def test_passages_mode_gives_the_reader_the_passages_the_facts_lead_to(store):
    llm = ScriptedLLM([json.dumps({"answer": "Solveig Hammerstad", "citations": ["P1"]})])
    qa = GraphQA(store, llm, embedder="minilm")
    result = asyncio.run(qa.ask(QUESTION, mode="passages"))
    passages = [s for s in result.sources if s.id.startswith("P")]
    assert {s.documents[0] for s in passages[:3]} == {"ferries", "ship", "yard"}, "the chain of the MV Corra Lynn"
    assert passages[-1].documents == ["other"], "the passage about another firm in Bergen comes last"
    assert {s.text for s in passages} == set(TEXTS.values()), "the reader reads the stored texts whole"
    facts = [s for s in result.sources if s.id.startswith("F")]
    assert facts and all(set(s.documents) & {p.documents[0] for p in passages} for s in facts)
    assert result.documents == [s.documents[0] for s in passages], "recall counts passages, not fact documents"
    assert result.answer == "Solveig Hammerstad" and result.citations[0].documents == passages[0].documents
    assert result.usage.llm_calls == 1 and result.mode == "passages"
    request = llm.calls[0]["messages"][1]["content"]
    assert f"[{passages[0].id}] {TEXTS[passages[0].documents[0]]}" in request


def test_a_pool_of_documents_narrows_the_walk(store):
    qa = GraphQA(store, ScriptedLLM([]), embedder="minilm")
    found = qa.passages(["ship", "other"]).find(QUESTION)
    assert [f.passage for f in found] == ["ship", "other"]


def test_a_store_without_texts_reads_the_sentences_that_state_its_facts():
    with fill(GraphStore.in_memory()) as old:
        for document in TEXTS:  # as a store written before texts were kept
            old.oxigraph.remove_graph(ox.NamedNode(v.text_graph(document)))
        walk = GraphQA(old, ScriptedLLM([]), embedder="minilm").passages()
        texts = dict(zip(walk.ids, walk.texts))
        assert sorted(texts["yard"].rstrip(".").split(". ")) == sorted(TEXTS["yard"].rstrip(".").split(". "))
        assert texts.keys() == TEXTS.keys()


def test_without_guessing_a_question_about_what_no_passage_mentions_gets_no_model_call(store):
    llm = ScriptedLLM([json.dumps({"answer": "Idris Penhallow", "citations": ["P1"]})])
    qa = GraphQA(store, llm, embedder="minilm")
    for mode in ("passages", "local"):
        honest = asyncio.run(qa.ask("Who founded Tidewater Instruments?", mode=mode, guess=False))
        assert honest.nothing == "Tidewater Instruments" and honest.answer == "" and llm.calls == []
    known = asyncio.run(qa.ask("Who founded Kestrel Ferries?", mode="passages", guess=False))
    assert known.nothing is None and known.answer == "Idris Penhallow" and len(llm.calls) == 1


def test_the_notes_reader_writes_its_notes_before_the_answer_and_the_short_one_none(store):
    """The notes reader: the schema puts the notes before the answer, so the model writes them first; the
    result carries them. The short reader (the default, and always closed book) has no notes field."""
    reply = {
        "notes": "Arnvik Verft: built the MV Corra Lynn; Arnvik Verft: director Solveig Hammerstad",
        "answer": "Solveig Hammerstad",
        "citations": ["P1"],
    }
    llm = ScriptedLLM(
        lambda messages, schema: json.dumps(
            reply if "notes" in schema["properties"] else {k: reply[k] for k in ("answer", "citations")}
        )
    )
    result = asyncio.run(GraphQA(store, llm, embedder="minilm", reader="notes").ask(QUESTION, mode="passages"))
    schema = llm.calls[0]["json_schema"]
    assert list(schema["properties"]) == ["notes", "answer", "citations"] and schema["required"][0] == "notes"
    assert '"notes"' in llm.calls[0]["messages"][0]["content"], "the prompt asks for the notes"
    assert result.notes == reply["notes"] and result.answer == "Solveig Hammerstad"
    assert result.to_dict()["notes"] == reply["notes"]

    default = asyncio.run(GraphQA(store, llm, embedder="minilm").ask(QUESTION, mode="passages"))
    asked = asyncio.run(GraphQA(store, llm, embedder="minilm").ask(QUESTION, reader="notes"))
    closed = asyncio.run(ClosedBookQA(llm).ask(QUESTION))
    assert "notes" not in llm.calls[1]["json_schema"]["properties"] and default.notes == ""
    assert asked.notes == reply["notes"], "one question's reader"
    assert "notes" not in llm.calls[3]["json_schema"]["properties"] and closed.answer == "Solveig Hammerstad"
