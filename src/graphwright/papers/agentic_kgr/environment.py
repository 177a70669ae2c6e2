"""The tool environment of one rollout: it runs the six tools, enforces the workflow the paper prescribes
(density after every extraction and until adequate, then disambiguation, then storage) and records every
step, successful or not, in the trajectory."""

from __future__ import annotations

from typing import Any

from graphwright.growth.observe import Observer
from graphwright.growth.state import GrowthState
from graphwright.model import Document
from graphwright.papers.agentic_kgr import analysis, graph_tools
from graphwright.papers.agentic_kgr.config import AgenticKGRConfig
from graphwright.papers.agentic_kgr.kg_json import KG, KGSchema, check_format
from graphwright.papers.agentic_kgr.screen import screen
from graphwright.papers.agentic_kgr.trajectory import (
    COVERAGE,
    DENSITY,
    DISAMBIGUATION,
    EXTRACT,
    FEEDBACK,
    FINISH,
    QUALITY,
    STORAGE,
    TOOLS,
    Step,
    Trajectory,
)

# the arguments each tool takes, with their types (anything else is an error the policy is told about)
ARGUMENTS: dict[str, dict[str, type | tuple[type, ...]]] = {
    DENSITY: {"domain": str},
    COVERAGE: {"priority_types": list},
    QUALITY: {"evaluation_aspects": list},
    FEEDBACK: {"max_iterations": int},
    DISAMBIGUATION: {"disambiguation_strategy": str, "similarity_threshold": (int, float), "context": str},
    STORAGE: {},
}


class WorkflowError(Exception):
    """A tool called out of the order the workflow requires, or with bad arguments."""


class Environment:
    def __init__(
        self,
        document: Document,
        schema: KGSchema,
        config: AgenticKGRConfig,
        memory: GrowthState,
        observer: Observer,
        *,
        system: str,
        embed=None,
        model: str | None = None,
        examples: str = "",
    ) -> None:
        self.document, self.text, self.examples = document, document.text, examples
        self.schema, self.config, self.memory, self.observer = schema, config, memory, observer
        self.system, self.embed, self.model = system, embed, model
        self.trajectory = Trajectory()
        self.kg: KG | None = None  # the latest extraction
        self._since_extraction: list[Step] = []  # successful tool steps on the latest extraction

    # ------------------------------------------------------------------ state of the workflow

    def last(self, tool: str) -> Step | None:
        return next((s for s in reversed(self._since_extraction) if s.action == tool), None)

    @property
    def adequate(self) -> bool:
        density = self.last(DENSITY)
        return density is not None and not density.observation["needs_more_extraction"]

    @property
    def stored(self) -> bool:
        return self.last(STORAGE) is not None

    def steps_left(self) -> int:
        return self.config.max_steps - len(self.trajectory.steps)

    # ------------------------------------------------------------------ actions

    def extract(self, kg: KG | None, *, raw: str | None, error: str | None = None, by_model: bool = True) -> Step:
        if kg is None:
            return self.trajectory.add(
                Step(EXTRACT, {}, success=False, error=error, raw=raw, by_model=by_model, format_valid=False)
            )
        valid = check_format(raw).valid if raw is not None else True
        self.kg = kg
        self._since_extraction = []
        return self.trajectory.add(
            Step(EXTRACT, {"kg": kg.model_dump()}, raw=raw, by_model=by_model, format_valid=valid)
        )

    def call(
        self, tool: str, arguments: dict[str, Any] | None = None, *, raw: str | None = None, by_model: bool = True
    ) -> Step:
        arguments = dict(arguments or {})
        step = Step(tool, arguments, raw=raw, by_model=by_model)
        try:
            self._check(tool, arguments, by_model)
            step.observation = self._run(tool, arguments)
            self._since_extraction.append(step)
        except WorkflowError as exc:
            step.success, step.error = False, str(exc)
        return self.trajectory.add(step)

    def finish(self, *, raw: str | None = None, by_model: bool = True) -> Step:
        step = Step(FINISH, raw=raw, by_model=by_model)
        if not self.stored:
            step.success, step.error = False, "store the extraction (query_kg_storage) before finishing"
        return self.trajectory.add(step)

    # ------------------------------------------------------------------ rules

    def _check(self, tool: str, arguments: dict[str, Any], by_model: bool) -> None:
        if tool not in TOOLS:
            raise WorkflowError(f"unknown action {tool!r}; use extract, one of {', '.join(TOOLS)}, or finish")
        wrong = [k for k, v in arguments.items() if k not in ARGUMENTS[tool] or not isinstance(v, ARGUMENTS[tool][k])]
        if wrong:
            allowed = ", ".join(ARGUMENTS[tool]) or "none"
            raise WorkflowError(f"{tool} got unknown or mistyped arguments {wrong}; it takes: {allowed}")
        if self.kg is None:
            raise WorkflowError("extract first: every tool checks an extraction")
        if tool != DENSITY and self.last(DENSITY) is None:
            raise WorkflowError("call query_extraction_density first after every extraction")
        # the system, its step budget spent, may still store an extraction the density tool found thin
        if tool == DISAMBIGUATION and not self.adequate and by_model:
            raise WorkflowError("the density tool asks for more extraction: extract again before disambiguation")
        if tool == STORAGE and self.last(DISAMBIGUATION) is None:
            raise WorkflowError("call query_entity_disambiguation before storing")
        if tool == STORAGE and self.stored:
            raise WorkflowError("this extraction is stored already")

    def _run(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        kg, text, schema = self.kg, self.text, self.schema
        assert kg is not None  # _check refuses every tool before the first extraction
        if tool == DENSITY:
            return analysis.extraction_density(
                text, schema, kg, domain=args.get("domain"), threshold=self.config.density_threshold
            )
        if tool == COVERAGE:
            return analysis.coverage_feedback(text, schema, kg, priority_types=args.get("priority_types", []))
        if tool == QUALITY:
            return analysis.quality_metrics(text, schema, kg, evaluation_aspects=args.get("evaluation_aspects", []))
        if tool == FEEDBACK:
            history = self.trajectory.extractions()  # scored only when the feedback tool is called
            scores = [analysis.quality_metrics(text, schema, k)["overall_score"] for k in history]
            return analysis.iterative_feedback(
                history, scores, max_iterations=args.get("max_iterations", self.config.max_iterations)
            )
        if tool == DISAMBIGUATION:
            observation = graph_tools.entity_disambiguation(
                kg,
                self.memory,
                disambiguation_strategy=args.get("disambiguation_strategy", self.config.disambiguation_strategy),
                similarity_threshold=float(args.get("similarity_threshold", self.config.similarity_threshold)),
                context=args.get("context"),
                embed=self.embed,
            )
            if self.config.standardize:
                sure = [
                    s
                    for s in observation["standardization_suggestions"]
                    if _confidence(observation, s["entity"]) >= 0.9
                ]
                self.kg = graph_tools.standardize(kg, sure)
            return observation
        kg, refused = screen(kg, text, schema)
        observation = graph_tools.kg_storage(
            kg,
            schema,
            self.memory,
            self.observer,
            document=self.document,
            system=self.system,
            episode=self.memory.episode + 1,
            model=self.model,
        )
        observation["refused"] = refused
        self.trajectory.kg = kg
        return observation


def _confidence(observation: dict[str, Any], entity: str) -> float:
    for row in observation["results"]:
        if row["entity"] == entity and row["best_match"]:
            return row["best_match"]["confidence"]
    return 0.0
