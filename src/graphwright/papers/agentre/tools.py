"""The agent's tools: AgentRE's retrieval module (similar samples, relation guidelines, KG facts) and
its memory, each a function from the action input to the observation text."""

from __future__ import annotations

from dataclasses import dataclass

from graphwright.kb.protocol import KnowledgeBase
from graphwright.kb.records import KBRecord
from graphwright.model.schema import RelationSchema
from graphwright.papers.agentre.memory import AgentMemory
from graphwright.papers.agentre.pool import SamplePool, render_samples
from graphwright.text import search_terms

#: setting name -> the action the agent calls, and what the prompt tells it the action does
ACTIONS = {
    "samples": (
        "SearchSamples",
        'labelled sentences similar to the input, with their triples (input: text to search for; "" = the sentence)',
    ),
    "guidelines": (
        "SearchGuidelines",
        "definitions of relations with their head and tail types (input: relation names or words)",
    ),
    "kg": ("SearchKG", "known facts about an entity (input: the entity name)"),
    "memory": (
        "SearchMemory",
        "checked extractions, entity summaries and lessons from earlier sentences like this "
        'one (input: text to search for; "" = the sentence)',
    ),
}


@dataclass
class Observation:
    action: str
    input: str
    text: str


class Retrieval:
    """Everything the agent can look up for one schema; which parts exist depends on the settings."""

    def __init__(
        self,
        schema: RelationSchema,
        *,
        pool: SamplePool | None,
        memory: AgentMemory | None,
        kb: KnowledgeBase | None,
        tools: list[str],
        k: int,
        memory_k: int,
        memory_kinds: list[str],
    ):
        self.schema, self.pool, self.memory, self.kb = schema, pool, memory, kb
        self.k, self.memory_k, self.memory_kinds = k, memory_k, memory_kinds
        self.tools = [t for t in tools if self._available(t)]

    def _available(self, tool: str) -> bool:
        return {
            "samples": self.pool is not None,
            "kg": self.pool is not None or self.kb is not None,
            "memory": self.memory is not None,
        }.get(tool, True)

    @property
    def actions(self) -> list[str]:
        return [ACTIONS[t][0] for t in self.tools]

    def describe_actions(self) -> str:
        return "\n".join(f"- {ACTIONS[t][0]}: {ACTIONS[t][1]}" for t in self.tools)

    def call(self, action: str, query: str, sentence: str) -> Observation:
        tool = next((t for t in self.tools if ACTIONS[t][0] == action), None)
        if tool is None:
            text = f"unknown action {action!r}; available: {', '.join(self.actions + ['Finish'])}"
        else:
            text = getattr(self, f"search_{tool}")(query.strip() or sentence, sentence)
        return Observation(action, query, text)

    # ---- the tools ------------------------------------------------------------------------------------------

    # each tool takes the action input and the sentence being extracted (which must not find itself)

    def search_samples(self, query: str, sentence: str) -> str:
        found = self.pool.similar(query, self.k, sentence=sentence) if self.pool else []
        return render_samples(found) if found else "no similar labelled sentences"

    def search_guidelines(self, query: str, sentence: str) -> str:
        """Relations whose name or definition shares a word with the query; all of them when none does."""
        wanted = set(search_terms(query))
        names = [r.name for r in self.schema.relations if wanted & set(search_terms(f"{r.name} {r.description}"))]
        text = self.schema.guidelines(names or None)
        return f"{text}\nNote: {self.schema.note}" if self.schema.note else text

    def search_kg(self, entity: str, sentence: str) -> str:
        facts = self.pool.facts(entity, sentence=sentence) if self.pool else []
        lines = [f"{t.head} | {t.relation} | {t.tail}" for t in facts]
        if self.kb is not None:
            for hit in self.kb.search(entity, kind="entity", mode="label", k=2):
                if hit.matched in ("exact", "alias"):
                    lines += kb_facts(self.kb, hit.record)
        return "\n".join(lines) if lines else f"nothing known about {entity!r}"

    def search_memory(self, query: str, sentence: str) -> str:
        if self.memory is None:
            return "no memory"
        parts = []
        if "shallow" in self.memory_kinds:
            parts += [c.render() for c in self.memory.similar_checked(query, self.memory_k)]
        if "deep" in self.memory_kinds:
            parts += [f"About {e}: {s}" for e, s in self.memory.entity_summaries(query, self.memory_k)]
        if "reflection" in self.memory_kinds:
            parts += [f"Lesson: {x}" for x in self.memory.similar_lessons(query, self.memory_k)]
        return "\n".join(parts) if parts else "nothing in memory yet"

    # ---- context for the fixed modes and the first agent steps ---------------------------------------------

    def prefetch(self, sentence: str) -> list[Observation]:
        """What the fixed modes put in the prompt, and what the agent starts with: similar samples, the
        facts about entities the sentence names, and memory (no LLM call)."""
        out = []
        if "samples" in self.tools:
            out.append(self.call(ACTIONS["samples"][0], "", sentence))
        if "kg" in self.tools and self.pool is not None:
            for entity in self.pool.entities_in(sentence, limit=3):
                observation = self.call(ACTIONS["kg"][0], entity, sentence)
                if not observation.text.startswith("nothing known"):
                    out.append(observation)
        if "memory" in self.tools:
            out.append(self.call(ACTIONS["memory"][0], "", sentence))
        return out

    def relation_lines(self, definitions: bool, names: list[str] | None = None) -> str:
        """The relation list of a prompt: with definitions, or only names and argument types (the agent
        looks definitions up with SearchGuidelines)."""
        if definitions:
            return self.schema.guidelines(names)
        wanted = [r for r in self.schema.relations if names is None or r.name in set(names)]
        return "\n".join(
            f"- {r.name}"
            + (f" ({'/'.join(r.head) or 'entity'} -> {'/'.join(r.tail) or 'entity'})" if r.head or r.tail else "")
            for r in wanted
        )


def kb_facts(kb: KnowledgeBase, record: KBRecord, max_types: int = 5) -> list[str]:
    """A KB entity as the agent sees it: its one-line description, then its types as facts in the triple
    form of the pool's (``Oslo | instance of | city``), which tell the agent the entity's argument type."""
    types = [kb.label(t) or t for t in record.types[:max_types]]
    return [record.short()] + [f"{record.label or record.id} | instance of | {t}" for t in types]


def render_context(observations: list[Observation]) -> str:
    """Prefetched observations as prompt sections."""
    titles = {
        ACTIONS["samples"][0]: "Similar labelled sentences",
        ACTIONS["kg"][0]: "Known facts about {input}",
        ACTIONS["memory"][0]: "From memory",
    }
    return "\n\n".join(f"{titles.get(o.action, o.action).format(input=o.input)}:\n{o.text}" for o in observations)
