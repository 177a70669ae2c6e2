"""What one system run on one document produces."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from graphwright.errors import LLMUnavailableError
from graphwright.model.events import Event
from graphwright.model.graph import Entity, Triple


class Usage(BaseModel):
    """LLM cost of a run. Adding two usages sums every field.

    ``cached_prompt_tokens`` of the ``prompt_tokens`` were reused from the server's KV cache (a shared
    prefix), not evaluated; ``prompt_seconds`` and ``generation_seconds`` are the server's own split of
    its time, where it reports one (llama.cpp does). ``seconds`` is the wall time around the calls.
    """

    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_calls: int = 0
    seconds: float = 0.0
    cached_prompt_tokens: int = 0
    prompt_seconds: float = 0.0
    generation_seconds: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(**{name: getattr(self, name) + getattr(other, name) for name in Usage.model_fields})


class TraceStep(BaseModel):
    """One agent or tool step of a run, in order."""

    step: int
    node: str
    kind: Literal["agent", "tool", "system"] = "agent"
    input: str | None = None
    output: str | None = None
    error: str | None = None
    goto: str | None = None


class ExtractionResult(BaseModel):
    """Triples, entities and events from one document, or a failure with its reason."""

    document_id: str
    system: str
    status: Literal["ok", "failed"] = "ok"
    reason: str | None = Field(default=None, description="Why the document failed.")
    retryable: bool = Field(
        default=False,
        description="The failure came from outside the system (the model "
        "server unreachable or timing out): a rerun may succeed, and evaluation redoes it.",
    )
    triples: list[Triple] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    usage_by_agent: dict[str, Usage] = Field(
        default_factory=dict,
        description="The usage split by the agent whose calls it was (graphwright.llm.attribution).",
    )
    trace: list[TraceStep] = Field(default_factory=list)
    output: str | None = Field(default=None, description="The system's final raw output (e.g. Turtle).")
    warnings: list[str] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def failed(cls, document_id: str, system: str, reason: str, **kw: Any) -> ExtractionResult:
        return cls(document_id=document_id, system=system, status="failed", reason=reason, **kw)

    @classmethod
    def from_error(
        cls, document_id: str, system: str, exc: Exception, *, prefix: str = "", **kw: Any
    ) -> ExtractionResult:
        """A failure caused by ``exc``; retryable when the model could not be reached."""
        return cls.failed(
            document_id,
            system,
            f"{prefix}{type(exc).__name__}: {exc}",
            retryable=isinstance(exc, LLMUnavailableError),
            **kw,
        )
