"""``agentic-kgr``: one policy model, six tools and a graph that grows over the documents of a run (paper 004).

The graph the disambiguation tool reads and the storage tool writes is a growing graph held in memory for
the run: empty, or the store's grown graph when the caller attaches it (``extract --grow`` does). The
document's result is the stored extraction as entities and triples; the trajectory goes into ``extra``
(the rewards and GRPO training read it) and the trace.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from graphwright.agents.prompts import load_prompt
from graphwright.errors import LLMError, UserError
from graphwright.growth.episodes import seed_schema
from graphwright.growth.observe import Observer
from graphwright.growth.policy import GrowthPolicy
from graphwright.growth.resolve import Resolver, embedder_function
from graphwright.growth.state import GrowthState
from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, ExtractionResult, TraceStep
from graphwright.model.labelled import read_samples
from graphwright.model.schema import RelationSchema, load_schema
from graphwright.papers.agentic_kgr.config import AgenticKGRConfig
from graphwright.papers.agentic_kgr.environment import Environment
from graphwright.papers.agentic_kgr.graph_tools import as_graph
from graphwright.papers.agentic_kgr.kg_json import KG, KGSchema
from graphwright.papers.agentic_kgr.rollout import ROLLOUTS, Asker
from graphwright.papers.agentic_kgr.screen import screen
from graphwright.papers.agentic_kgr.trajectory import EXTRACT, STORAGE, Trajectory
from graphwright.papers.agentre.pool import SamplePool
from graphwright.systems.datasets import datasets

PROMPTS_PACKAGE = "graphwright.papers.agentic_kgr"
PROMPTS = ("extract", "refine", "policy")
POOL_LIMIT = 1000  # labelled sentences searched for examples (AgentRE's pool size)


def load_kg_schema(config: AgenticKGRConfig) -> KGSchema:
    return KGSchema.from_relation_schema(_relation_schema(config), config.entity_types)


def _relation_schema(config: AgenticKGRConfig) -> RelationSchema:
    if config.schema_file:
        return load_schema(config.schema_file)
    assert config.dataset is not None  # the config requires a dataset or a schema file
    return datasets().relations(config.dataset).schema


def example_pool(config: AgenticKGRConfig) -> SamplePool | None:
    """The labelled sentences the examples are chosen from, when the configuration asks for examples."""
    if not config.demos:
        return None
    if config.pool_file:
        samples = read_samples(Path(config.pool_file), _relation_schema(config))
    elif config.dataset:
        samples = datasets().relations(config.dataset).pool
    else:
        raise UserError("demos need labelled sentences: set dataset=<name> or pool_file=<JSONL>")
    return SamplePool([s for s in samples if s.triples][:POOL_LIMIT], "embedding")


class AgenticKGRSystem:
    def __init__(self, llm: LLM, kb: KnowledgeBase | None, config: AgenticKGRConfig, name: str = "agentic-kgr") -> None:
        self.name, self.llm, self.config = name, llm, config
        self.schema = load_kg_schema(config)
        self.prompts = {p: load_prompt(PROMPTS_PACKAGE, p) for p in PROMPTS}
        self.prompt_version = self.prompts["policy" if config.mode == "agent" else "extract"].id
        self.pool = example_pool(config)
        self._embed = None
        self.attach(GrowthState())

    def attach(self, memory: GrowthState, policy: GrowthPolicy | None = None) -> None:
        """Use ``memory`` (e.g. the store's grown graph) as the graph the tools read and write."""
        self.memory, self.growth = memory, policy or GrowthPolicy(embedder=None)
        seed_schema(memory, *self.schema_terms())
        self.observer = Observer(
            memory,
            self.growth,
            Resolver(memory, self.growth.resolve_threshold, embedder_function(self.growth.embedder)),
        )

    def schema_terms(self) -> tuple[set[str], set[str]]:
        """The relation and entity type IRIs of the schema: what the growing graph allows from the start."""
        return (
            {self.schema.relation_iri(r) for r in self.schema.relation_types},
            {self.schema.type_iri(t) for t in self.schema.entity_types},
        )

    def embed(self):
        if self._embed is None and self.config.disambiguation_strategy == "semantic_similarity":
            self._embed = embedder_function(self.config.embedder)
        return self._embed

    def examples(self, text: str) -> str:
        """The labelled sentences most like ``text``, each with its answer in the extraction format."""
        if self.pool is None:
            return ""
        shown = [
            f"Text: {s.text}\nAnswer: {KG.from_triples(s.triples, self.schema).render()}"
            for s in self.pool.similar(text, self.config.demos)
        ]
        return "Examples:\n" + "\n\n".join(shown) + "\n\n"

    async def rollout(self, document: Document, llm: LLM) -> Trajectory:
        env = Environment(
            document,
            self.schema,
            self.config,
            self.memory,
            self.observer,
            system=self.name,
            embed=self.embed(),
            model=self.llm.name,
            examples=self.examples(document.text),
        )
        return await ROLLOUTS[self.config.mode](env, Asker(llm, self.config), self.prompts)

    async def run(self, document: Document) -> ExtractionResult:
        started = time.perf_counter()
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)
        try:
            trajectory = await self.rollout(document, meter)
        except LLMError as exc:  # backend down, budget spent: the document fails with its reason
            usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
            return ExtractionResult.from_error(document.id, self.name, exc, usage=usage)
        usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
        trace = [
            TraceStep(
                step=i,
                node=s.action,
                kind="agent" if s.action == EXTRACT or s.by_model else "tool",
                input=str(s.arguments) if s.action != EXTRACT else None,
                output=s.raw if s.action == EXTRACT else str(s.observation)[:2000],
                error=s.error,
            )
            for i, s in enumerate(trajectory.steps, 1)
        ]
        if trajectory.kg is None:
            reason = next((s.error for s in trajectory.steps if s.error), "no usable extraction")
            return ExtractionResult.failed(
                document.id, self.name, f"the model never gave a usable extraction: {reason}", usage=usage, trace=trace
            )
        final, refused = screen(trajectory.kg, document.text, self.schema)  # stored extractions were screened already
        refused = [
            r for s in trajectory.steps if s.action == STORAGE and s.success for r in s.observation.get("refused", [])
        ] + refused
        entities, triples, failed = as_graph(final, self.schema, document, self.name, self.llm.name)
        for t in triples:
            t.provenance.prompt_version = self.prompt_version
        tools = Counter(s.action for s in trajectory.tool_calls())
        return ExtractionResult(
            document_id=document.id,
            system=self.name,
            entities=entities,
            triples=triples,
            usage=usage,
            trace=trace,
            output=final.render(),
            warnings=failed + [f"not stored: {r}" for r in refused],
            extra={
                "mode": self.config.mode,
                "trajectory": trajectory.to_json(),
                "tools": {
                    "steps": len(trajectory.steps),
                    "stopped": trajectory.stopped,
                    "extractions": sum(s.action == EXTRACT for s in trajectory.steps),
                    "calls": dict(tools),
                    "failed": sum(not s.success for s in trajectory.tool_calls()),
                },
            },
        )
