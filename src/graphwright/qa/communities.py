"""The global mode's index: communities of the graph (Louvain, networkx), each summarised once by the
model, as Microsoft GraphRAG and LightRAG summarise theirs.

Summaries are cached on disk under a key of the graph's facts, the model and the prompt, so a second
question (or a second run) over an unchanged graph costs no summary calls; a changed graph gets new
communities and new summaries.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass

from pydantic import BaseModel

from graphwright.agents.call import ask_for
from graphwright.agents.prompts import load_prompt
from graphwright.errors import ModelOutputError
from graphwright.llm.base import LLM
from graphwright.paths import cache_dir
from graphwright.qa.facts import Fact

SUMMARY = load_prompt("graphwright.qa", "community")
MIN_NODES = 3  # smaller communities are one fact or two: the local mode finds those
FACTS_SHOWN = 40  # facts of one community shown to the summariser, the best-connected first


@dataclass
class Community:
    id: str
    nodes: list[str]
    title: str
    summary: str
    documents: list[str]


class SummaryOutput(BaseModel):
    title: str
    summary: str


def detect(facts: list[Fact], seed: int = 0, resolution: float = 1.0) -> list[list[str]]:
    """Louvain communities of the graph the facts make (undirected, an edge per related pair), largest
    first; the seed makes them reproducible."""
    import networkx as nx

    graph = nx.Graph()
    for fact in facts:
        if fact.object_is_node and fact.subject != fact.object:
            graph.add_edge(fact.subject, fact.object)
    found = nx.community.louvain_communities(graph, seed=seed, resolution=resolution) if graph.number_of_edges() else []
    return sorted((sorted(c) for c in found), key=lambda c: (-len(c), c))


def fingerprint(facts: list[Fact], llm_name: str) -> str:
    text = "\n".join(["\t".join(f.key) for f in facts] + [llm_name, SUMMARY.sha])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


async def summarise(
    llm: LLM, facts: list[Fact], *, max_tokens: int = 160, on_progress: Callable[[str], None] | None = None
) -> list[Community]:
    """The communities of ``facts`` with their summaries, from the cache when the graph is unchanged."""
    path = cache_dir() / "communities" / f"{fingerprint(facts, llm.name)}.jsonl"
    done = {}
    if path.is_file():  # resumes: summaries written before an interruption are kept
        for line in path.read_text(encoding="utf-8").splitlines():
            community = Community(**json.loads(line))
            done[community.id] = community
    path.parent.mkdir(parents=True, exist_ok=True)
    out = []
    communities = [c for c in await asyncio.to_thread(detect, facts) if len(c) >= MIN_NODES]
    total = len(communities)
    for i, nodes in enumerate(communities):
        cid = f"c{i}"
        if cid not in done:
            done[cid] = await _summary(llm, cid, nodes, facts, max_tokens)
            with path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(asdict(done[cid]), ensure_ascii=False) + "\n")
        out.append(done[cid])
        if on_progress:
            on_progress(f"{cid} of {total}: {done[cid].title or done[cid].summary[:60]}")
    return out


async def _summary(llm: LLM, cid: str, nodes: list[str], facts: list[Fact], max_tokens: int) -> Community:
    members = set(nodes)
    inside = [f for f in facts if f.subject in members and (not f.object_is_node or f.object in members)]
    degree = {n: sum(n in f.ends() for f in inside) for n in members}
    shown = sorted(inside, key=lambda f: (-max(degree.get(e, 0) for e in f.ends()), f.key))[:FACTS_SHOWN]
    system, user = SUMMARY.render(facts="\n".join(f"- {f.text}" for f in shown))
    documents = sorted({d for f in inside for d in f.evidence if d})
    try:
        reply = await ask_for(
            llm,
            [{"role": "system", "content": system}, {"role": "user", "content": user}],
            SummaryOutput,
            max_tokens=max_tokens,
        )
        title, summary = reply.parsed.title.strip(), reply.parsed.summary.strip()
    except ModelOutputError:  # no summary from the model: the facts themselves stand in for it
        title, summary = "", "; ".join(f.text for f in shown[:8])
    return Community(cid, nodes, title, summary, documents)
