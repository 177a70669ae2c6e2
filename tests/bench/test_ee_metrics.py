"""Event-extraction metrics: triggers and arguments matched by text, with and without type and role, and
EE runs through the eval harness (rows, aggregate, reports, comparison)."""

from __future__ import annotations

import asyncio
import json

import pytest

from graphwright.bench.data.gold import GoldArgument, GoldDocument, GoldEvent
from graphwright.bench.eval.datasets import EvalDataset
from graphwright.bench.eval.ee_metrics import EE_CATEGORIES, EEScorer, iri_name
from graphwright.bench.eval.report import comparison_rows, html_report, markdown_report
from graphwright.bench.eval.runner import RunInfo, make_scorer, read_documents, run_eval
from graphwright.model import Event, EventArgument, EventSchema, EventType, ExtractionResult, Provenance, Term

SCHEMA = EventSchema(
    name="news",
    events=[
        EventType(name="Attack", roles=["Attacker", "Target", "Place"]),
        EventType(name="Die", roles=["Victim", "Place"]),
        EventType(name="Injure", roles=["Victim"]),
        EventType(name="government.vote.n/a", roles=["voter"]),
    ],
)
TEXT = "Rebels bombed the bridge in Kabul and killed two soldiers."


def event(kind: str, trigger: str, *arguments: tuple[str, str]) -> Event:
    return Event(
        iri=f"urn:event:{kind}:{trigger}",
        type=SCHEMA.type_iri(kind),
        trigger=trigger,
        arguments=[
            EventArgument(role=SCHEMA.role_iri(role), entity=Term.iri(f"urn:entity:{text}", surface=text))
            for role, text in arguments
        ],
        provenance=Provenance(system="s"),
    )


def result(*events: Event, status: str = "ok") -> ExtractionResult:
    return ExtractionResult(document_id="d", system="s", status=status, events=list(events))


def gold(*events: tuple) -> GoldDocument:
    return GoldDocument(
        id="d",
        text=TEXT,
        events=[
            GoldEvent(type=kind, trigger=trigger, arguments=[GoldArgument(role=r, surface=t) for r, t in arguments])
            for kind, trigger, *arguments in events
        ],
    )


def counts(predicted: ExtractionResult, doc: GoldDocument) -> dict[str, tuple[int, int, int, int]]:
    scored = EEScorer().score_document(predicted, doc)
    assert tuple(scored) == EE_CATEGORIES
    return {c: (n.matched_pred, n.predicted, n.matched_gold, n.gold) for c, n in scored.items()}


GOLD = gold(
    ("Attack", "bombed", ("Attacker", "Rebels"), ("Target", "the bridge")),
    ("Die", "killed", ("Victim", "two soldiers"), ("Place", "Kabul")),
)


def test_wrong_type_and_wrong_role_and_wrong_event_type():
    got = counts(
        result(
            event(
                "Attack",
                "bombed",
                ("Attacker", "Rebels"),  # right
                ("Attacker", "the bridge"),
            ),  # right argument, wrong role
            event(
                "Injure",
                "killed",  # right trigger, wrong type
                ("Victim", "two soldiers"),
            ),  # right text and role, but of the wrong event type
        ),
        GOLD,
    )
    assert got == {
        "triggers": (2, 2, 2, 2),
        "trigger_types": (1, 2, 1, 2),
        "arguments": (2, 3, 2, 4),  # (Attack, Rebels), (Attack, the bridge); not (Injure, two soldiers)
        "argument_roles": (1, 3, 1, 4),  # only (Attack, Attacker, Rebels)
    }


def test_duplicates_collapse_and_only_whitespace_is_normalised():
    got = counts(
        result(
            event("Attack", "bombed", ("Attacker", "Rebels")),
            event("Attack", " bombed", ("Attacker", "Rebels  ")),  # the same after whitespace normalisation
            event("Attack", "bombed", ("Attacker", "rebels")),  # case counts
            event("Attack", "Bombed"),  # a different trigger text
        ),
        gold(("Attack", "bombed", ("Attacker", "Rebels")), ("Attack", "bombed", ("Attacker", "Rebels"))),
    )
    assert got == {
        "triggers": (1, 2, 1, 1),
        "trigger_types": (1, 2, 1, 1),
        "arguments": (1, 2, 1, 1),
        "argument_roles": (1, 2, 1, 1),
    }


def test_a_failed_result_predicts_nothing():
    failed = result(event("Attack", "bombed", ("Attacker", "Rebels")), status="failed")
    got = counts(failed, GOLD)
    assert got == {
        "triggers": (0, 0, 0, 2),
        "trigger_types": (0, 0, 0, 2),
        "arguments": (0, 0, 0, 4),
        "argument_roles": (0, 0, 0, 4),
    }
    assert EEScorer().score_document(failed, GOLD)["argument_roles"].recall == 0.0


def test_names_come_from_the_iris_and_plain_names_keep_their_slashes():
    assert iri_name(SCHEMA.type_iri("government.vote.n/a")) == "government.vote.n/a"
    assert iri_name(SCHEMA.role_iri("Attacker")) == "Attacker"
    assert iri_name("government.vote.n/a") == "government.vote.n/a"
    got = counts(
        result(event("government.vote.n/a", "voted", ("voter", "MPs"))),
        gold(("government.vote.n/a", "voted", ("voter", "MPs"))),
    )
    assert all(c == (1, 1, 1, 1) for c in got.values())


class EventSystem:
    name = "events"

    def __init__(self, answers: dict[str, list[Event]], failing: frozenset[str] = frozenset()):
        self.answers, self.failing = answers, failing

    async def run(self, document):
        if document.id in self.failing:
            return ExtractionResult.failed(document.id, self.name, "garbage")
        return ExtractionResult(document_id=document.id, system=self.name, events=self.answers.get(document.id, []))


def test_an_ee_run_records_events_and_reports_the_four_levels(tmp_path):
    docs = [GOLD.model_copy(update={"id": "a"}), GOLD.model_copy(update={"id": "b"})]
    dataset = EvalDataset("toy-ee", docs, kb="none", task="ee", system_settings={"dataset": "toy-ee"})
    assert isinstance(make_scorer(dataset, None), EEScorer)
    system = EventSystem({"a": [event("Attack", "bombed", ("Attacker", "Rebels"))]}, failing=frozenset({"b"}))
    info = RunInfo(system="events", dataset="toy-ee", model="m", kb="none")
    agg = asyncio.run(run_eval(system, dataset, None, info, tmp_path))
    assert agg["categories"] == list(EE_CATEGORIES) and agg["failed"] == 1
    assert agg["micro"]["triggers"] == {"precision": 1.0, "recall": 0.25, "f1": 0.4}
    rows = {r["id"]: r for r in read_documents(tmp_path)}
    assert rows["a"]["events"] == [
        {"type": "Attack", "trigger": "bombed", "arguments": [{"role": "Attacker", "text": "Rebels"}]}
    ]
    assert rows["a"]["gold_events"][1] == {
        "type": "Die",
        "trigger": "killed",
        "arguments": [{"role": "Victim", "text": "two soldiers"}, {"role": "Place", "text": "Kabul"}],
    }
    assert rows["b"]["events"] == [] and len(rows["b"]["gold_events"]) == 2
    assert rows["a"]["counts"]["argument_roles"] == {"matched_pred": 1, "predicted": 1, "matched_gold": 1, "gold": 4}
    json.dumps(rows)  # the rows are plain JSON
    report = markdown_report(agg)
    for name in (
        "Trigger identification",
        "Trigger classification",
        "Argument identification",
        "Argument classification",
    ):
        assert name in report and name in html_report(agg, list(rows.values()))
    table = dict(comparison_rows([agg, agg], "micro"))
    assert table["Trigger identification precision"] == ["1.000", "1.000"]
    assert table["Argument classification F1"] == [f"{agg['micro']['argument_roles']['f1']:.3f}"] * 2


@pytest.mark.parametrize("category", EE_CATEGORIES)
def test_no_gold_and_no_prediction_is_perfect(category):
    scored = EEScorer().score_document(result(), gold())[category]
    assert (scored.precision, scored.recall) == (1.0, 1.0)
