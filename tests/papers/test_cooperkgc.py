"""cooperkgc's round protocol, simplifier, graph content and baselines, with a scripted model."""

from __future__ import annotations

import asyncio
import json

import pytest

from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.model.schema import name_entity_iri
from graphwright.papers.cooperkgc.answers import EEAnswer, EventItem, NERAnswer, REAnswer
from graphwright.papers.cooperkgc.baselines import majority
from graphwright.systems.base import make_system

TEXT = "Katrin Vogel founded Nordwind Logistics in Hamburg in 2009. Jonas Berg became its chief executive in 2015."


@pytest.fixture
def schemas(tmp_path):
    (tmp_path / "people.yaml").write_text(
        "domain: Short news.\ntypes:\n  person: People.\n  organisation: Companies.\n  location: Places.\n"
    )
    (tmp_path / "jobs.yaml").write_text(
        "relations:\n  works_for: {description: employed by, head: [person], tail: [organisation]}\n"
        "  based_in: {description: seat of, head: [organisation], tail: [location]}\n"
    )
    (tmp_path / "business.yaml").write_text(
        "events:\n  Founding: {roles: [Founder, Company, Place, Time]}\n"
        "  Appointment: {roles: [Person, Company, Position, Time]}\n"
    )
    return {
        "ner": str(tmp_path / "people.yaml"),
        "re": str(tmp_path / "jobs.yaml"),
        "ee": str(tmp_path / "business.yaml"),
    }


def task_of(messages) -> str:
    system = messages[0]["content"]
    return next(
        t
        for t, words in (("ner", "expert in named entity"), ("re", "expert in relation"), ("ee", "expert in event"))
        if words in system
    )


NER_R0 = {
    "entities": [
        ["person", "Katrin Vogel"],
        ["organisation", "Nordwind Logistics"],
        ["person", "Nobody Here"],  # not in the text: the simplifier drops it
        ["animal", "Hamburg"],
    ]
}  # not a type of the schema
RE_R0 = {"triples": [["Jonas Berg", "works_for", "Nordwind Logistics"], ["Katrin Vogel", "likes", "Hamburg"]]}
EE_R0 = {
    "events": [
        {
            "type": "Founding",
            "trigger": "founded",
            "arguments": [["Founder", "katrin vogel"], ["Position", "chief executive"]],
        }
    ]
}


def run(system: str, llm, settings: dict) -> object:
    return asyncio.run(make_system(system, llm, None, settings).run(Document(id="d1", text=TEXT)))


def test_each_expert_reads_its_peers_simplified_answers_from_the_last_round(schemas):
    seen: list[tuple[str, str]] = []

    def reply(messages, schema):
        task = task_of(messages)
        seen.append((task, messages[-1]["content"]))
        answer = {"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task]
        if "last round" in messages[-1]["content"] and task == "ner":  # NER learns Jonas Berg from the RE expert
            answer = {"entities": [*NER_R0["entities"], ["person", "Jonas Berg"]]}
        return json.dumps(answer)

    llm = ScriptedLLM(reply)
    result = run("cooperkgc", llm, {**schemas, "rounds": 1})
    assert result.status == "ok"
    assert len(llm.calls) == 6  # round 0 and one collaboration round, three experts each
    first_round = [user for task, user in seen[:3]]
    assert all("last round" not in u for u in first_round)
    re_round_1 = next(user for task, user in seen[3:] if task == "re")
    # its own last answer and the peers', simplified: the invalid entity, type, relation and role are gone
    assert (
        'Your answer in the last round was: {"triples": [["Jonas Berg", "works_for", "Nordwind Logistics"]]}'
        in re_round_1
    )
    assert '{"entities": [["person", "Katrin Vogel"], ["organisation", "Nordwind Logistics"]]}' in re_round_1
    assert "Nobody Here" not in re_round_1 and "animal" not in re_round_1
    assert '"arguments": [["Founder", "Katrin Vogel"]]' in re_round_1  # the text's own spelling
    assert "Position" not in re_round_1  # not a role of Founding
    # round by round: what each expert said after each round
    assert result.extra["rounds"][0]["ner"]["entities"] == [
        ["person", "Katrin Vogel"],
        ["organisation", "Nordwind Logistics"],
    ]
    assert ["person", "Jonas Berg"] in result.extra["rounds"][1]["ner"]["entities"]


def test_the_number_of_rounds_is_respected_and_a_settled_round_ends_early(schemas):
    counter = {"n": 0}

    def changing(messages, schema):  # every answer differs from the last: no round settles
        counter["n"] += 1
        task = task_of(messages)
        if task == "ner":
            return json.dumps({"entities": [["person", "Katrin Vogel"]] if counter["n"] % 2 else []})
        return json.dumps({"re": {"triples": []}, "ee": {"events": []}}[task])

    llm = ScriptedLLM(changing)
    result = run("cooperkgc", llm, {**schemas, "rounds": 3})
    assert len(llm.calls) == 3 * 4 and len(result.extra["rounds"]) == 4 and result.extra["settled_after"] is None

    steady = ScriptedLLM(lambda m, s: json.dumps({"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task_of(m)]))
    result = run("cooperkgc", steady, {**schemas, "rounds": 4})
    assert len(steady.calls) == 6 and result.extra["settled_after"] == 1  # round 1 repeated round 0

    steady = ScriptedLLM(lambda m, s: json.dumps({"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task_of(m)]))
    run("cooperkgc", steady, {**schemas, "rounds": 2, "settle": False, "target": "ee"})
    # without settling every round runs; in the last one only the target speaks (the others' answers go unread)
    assert [task_of(c["messages"]) for c in steady.calls[6:]] == ["ee"]


def test_an_expert_without_a_valid_answer_keeps_its_last_one(schemas):
    def reply(messages, schema):
        task = task_of(messages)
        if task == "re" and "last round" in messages[1]["content"]:  # a retry adds turns after it
            return "not json"
        return json.dumps({"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task])

    llm = ScriptedLLM(reply)
    result = run("cooperkgc", llm, {**schemas, "rounds": 1, "parse_retries": 1})
    assert result.status == "ok"
    assert any(w.startswith("re: no valid answer") for w in result.warnings)
    assert [t.object.surface for t in result.triples] == ["Nordwind Logistics"]
    # the parse error went back to the model once
    assert sum(task_of(c["messages"]) == "re" for c in llm.calls) == 3


def test_the_graph_holds_typed_entities_relations_and_event_nodes_on_shared_names(schemas):
    llm = ScriptedLLM(lambda m, s: json.dumps({"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task_of(m)]))
    result = run("cooperkgc", llm, {**schemas, "rounds": 0})
    katrin = next(e for e in result.entities if e.label == "Katrin Vogel")
    assert katrin.types == ["https://graphwright.dev/schema/people/person"] and katrin.mentions[0].span.start == 0
    assert [t.predicate.value for t in result.triples] == ["https://graphwright.dev/schema/jobs/works_for"]
    event = result.events[0]
    assert event.type == "https://graphwright.dev/schema/business/event/Founding"
    assert event.trigger == "founded" and TEXT[event.trigger_span.start : event.trigger_span.end] == "founded"
    founder = event.arguments[0]
    assert founder.role == "https://graphwright.dev/schema/business/role/Founder"
    assert founder.entity.value == katrin.iri == name_entity_iri("Katrin Vogel")  # one node for the name
    assert event.provenance.evidence.text == "Katrin Vogel founded Nordwind Logistics in Hamburg in 2009."
    assert event.iri.startswith("urn:graphwright:event:d1:cooperkgc:")


def test_single_call_asks_each_task_once_under_its_schema(schemas):
    llm = ScriptedLLM(lambda m, s: json.dumps({"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task_of(m)]))
    result = run("cooperkgc.single", llm, schemas)
    assert len(llm.calls) == 3 and len(result.events) == 1
    ner_schema = next(c["json_schema"] for c in llm.calls if task_of(c["messages"]) == "ner")
    assert ner_schema["properties"]["entities"]["items"]["prefixItems"][0]["enum"] == [
        "person",
        "organisation",
        "location",
    ]


def test_two_stage_extracts_under_the_labels_it_chose_first(schemas):
    def reply(messages, schema):
        if schema["title"] == "labels":
            return json.dumps({"labels": ["person"] if "named entity" in messages[0]["content"] else []})
        return json.dumps(NER_R0)

    llm = ScriptedLLM(reply)
    result = run("cooperkgc.twostage", llm, schemas)
    # three label questions; only NER chose a label, so only NER is asked to extract
    assert len(llm.calls) == 4
    extraction = next(c for c in llm.calls if c["json_schema"]["title"] == "entities")
    assert extraction["json_schema"]["properties"]["entities"]["items"]["prefixItems"][0]["enum"] == ["person"]
    assert "organisation:" not in extraction["messages"][0]["content"]
    assert [e.label for e in result.entities] == ["Katrin Vogel"]  # the organisation is outside the chosen labels
    assert result.triples == [] and result.events == []


def test_the_vote_keeps_what_most_members_said():
    ner = [
        NERAnswer(entities=[["person", "A"], ["person", "B"]]),
        NERAnswer(entities=[["person", "A"]]),
        NERAnswer(entities=[["person", "C"], ["person", "A"], ["person", "A"]]),
    ]
    assert majority(ner).entities == [["person", "A"]]
    re_ = [REAnswer(triples=[["A", "r", "B"]]), REAnswer(triples=[["A", "r", "B"]]), REAnswer()]
    assert majority(re_).triples == [["A", "r", "B"]]
    e = lambda *args: EventItem(type="Founding", trigger="founded", arguments=[list(a) for a in args])  # noqa: E731
    ee = [
        EEAnswer(events=[e(("Founder", "A"), ("Place", "H"))]),
        EEAnswer(events=[e(("Founder", "A"))]),
        EEAnswer(events=[EventItem(type="Appointment", trigger="became")]),
    ]
    assert majority(ee).events == [e(("Founder", "A"))]


def test_vote_members_see_the_schema_from_different_places(schemas):
    llm = ScriptedLLM(lambda m, s: json.dumps({"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task_of(m)]))
    result = run("cooperkgc.vote", llm, {**schemas, "target": "ner"})
    prompts = [c["messages"][0]["content"] for c in llm.calls]
    assert len(prompts) == 3 and len(set(prompts)) == 3  # three members, three orders of the entity types
    assert {e.label for e in result.entities} == {"Katrin Vogel", "Nordwind Logistics"}


def test_a_bad_team_or_background_is_a_clear_error(schemas):
    from graphwright.errors import UserError

    with pytest.raises(UserError, match="team"):
        make_system("cooperkgc", ScriptedLLM([]), None, {**schemas, "team": ["pos"]})
    with pytest.raises(UserError, match="neither"):
        make_system("cooperkgc", ScriptedLLM([]), None, {**schemas, "ner": "no-such-dataset"})


def test_a_round_is_checked_against_the_ner_experts_types_and_names(schemas):
    answers = {
        "ner": {
            "entities": [["person", "Katrin Vogel"], ["organisation", "Nordwind Logistics"], ["location", "Hamburg"]]
        },
        # works_for takes a person head and an organisation tail: the second triple has them the other way round
        "re": {
            "triples": [
                ["Katrin Vogel", "works_for", "Nordwind Logistics"],
                ["Nordwind Logistics", "works_for", "Katrin Vogel"],
                ["Jonas Berg", "works_for", "Nordwind Logistics"],
            ]
        },  # a head the NER expert did not type stays
        "ee": {
            "events": [
                {"type": "Founding", "trigger": "founded", "arguments": [["Founder", "Katrin Vogel"]]},
                {"type": "Founding", "trigger": "Katrin Vogel", "arguments": []},  # a name is no trigger
                {"type": "Appointment", "trigger": "chief executive", "arguments": [["Position", "chief executive"]]},
            ]
        },
    }
    llm = ScriptedLLM(lambda m, s: json.dumps(answers[task_of(m)]))
    result = run("cooperkgc", llm, {**schemas, "rounds": 0})
    assert [(t.subject.surface, t.object.surface) for t in result.triples] == [
        ("Katrin Vogel", "Nordwind Logistics"),
        ("Jonas Berg", "Nordwind Logistics"),
    ]
    assert [e.trigger for e in result.events] == ["founded"]


def test_a_relation_with_cue_words_needs_one_in_a_sentence_naming_its_arguments():
    from graphwright.papers.cooperkgc.answers import simplify_re

    text = "Kenji Sato is a politician. He was born in Sacramento. His brother Hiro Sato played baseball."
    answer = REAnswer(
        triples=[
            ["Kenji Sato", "born_in", "Sacramento"],
            ["Kenji Sato", "parent_of", "Hiro Sato"],
            ["Kenji Sato", "works_for", "Sacramento"],
        ]
    )
    cues = {"born_in": ["born"], "parent_of": ["son", "daughter", "father", "mother"], "works_for": []}
    kept = simplify_re(answer, text, ["born_in", "parent_of", "works_for"], cues).triples
    # "born" is in the sentence naming Sacramento; no sentence naming the brothers says son or father
    assert kept == [["Kenji Sato", "born_in", "Sacramento"], ["Kenji Sato", "works_for", "Sacramento"]]


def test_events_of_a_long_document_split_into_pieces_are_numbered_over_the_document(schemas):
    from graphwright.pipeline import run_document

    llm = ScriptedLLM(lambda m, s: json.dumps({"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task_of(m)]))
    system = make_system("cooperkgc", llm, None, {**schemas, "rounds": 0})
    text = TEXT + " " + TEXT
    result = asyncio.run(
        run_document(system, Document(id="long", text=text), chunk_chars=len(TEXT) + 1, max_chars=10_000)
    )
    assert [e.iri for e in result.events] == [
        "urn:graphwright:event:long:cooperkgc:0",
        "urn:graphwright:event:long:cooperkgc:1",
    ]
    second = result.events[1].trigger_span
    assert second.start > len(TEXT) and text[second.start : second.end] == "founded"  # offsets in the whole document


def test_demonstrations_are_the_nearest_labelled_texts_and_each_vote_member_gets_another():
    from graphwright.model.domain import EntityDomain
    from graphwright.papers.cooperkgc.backgrounds import Background
    from graphwright.papers.cooperkgc.team import Expert
    from graphwright.retrieval import make_index

    pool = [
        ("Ana Ruiz founded Tallo in Lima.", NERAnswer(entities=[["person", "Ana Ruiz"]])),
        ("The river floods every spring.", NERAnswer()),
        ("Ana Ruiz moved to Lima.", NERAnswer(entities=[["location", "Lima"]])),
    ]
    background = Background(
        "ner", "toy", EntityDomain(name="toy", domain="d", types={"person": "p", "location": "l"}), pool
    )
    background.__dict__["_index"] = make_index("bm25", [t for t, _ in pool])  # no embedding model in a unit test
    system, _ = Expert("ner", background).prompt("Ana Ruiz moved to Lima in May.", demos=1)
    assert 'Example text: Ana Ruiz moved to Lima.\nAnswer: {"entities": [["location", "Lima"]]}' in system
    second, _ = Expert("ner", background, view=1).prompt("Ana Ruiz moved to Lima in May.", demos=1)
    assert "Example text: Ana Ruiz founded Tallo in Lima." in second and "moved to" not in second
    assert "spring" not in system + second


def test_each_task_can_stop_revising_at_its_own_round(schemas):
    asked = {"ner": 0, "re": 0, "ee": 0}

    def changing(messages, schema):  # every expert's answer differs from its last one: nothing settles
        task = task_of(messages)
        asked[task] += 1
        answer = {"ner": NER_R0, "re": RE_R0, "ee": EE_R0}[task]
        return json.dumps(answer if asked[task] % 2 else {k: [] for k in answer})

    llm = ScriptedLLM(changing)
    result = run("cooperkgc", llm, {**schemas, "rounds": 3, "task_rounds": {"ner": 1, "re": 2}})
    assert result.extra["spoke"] == [["ner", "re", "ee"], ["ner", "re", "ee"], ["re", "ee"], ["ee"]]
