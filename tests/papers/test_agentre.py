"""agentre control flow with a scripted model: the ReAct loop and its tools, the fixed modes, the
baselines, grounding, failures, and memory warm-up and reuse."""

from __future__ import annotations

import json
from types import SimpleNamespace as Answer

import pytest

from graphwright.errors import UserError
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.model.labelled import RESample, RETriple
from graphwright.papers.agentre.learn import warm_up
from graphwright.papers.agentre.pool import known_types
from graphwright.papers.agentre.steps import SentenceRun, ground
from graphwright.systems.base import make_system
from tests.support.agentre_script import SENTENCE, RoleScript, step, triple, write_inputs


@pytest.fixture()
def inputs(tmp_path):
    schema, pool = write_inputs(tmp_path)
    return {"schema_file": str(schema), "pool_file": str(pool), "retriever": "bm25"}


def system(script, settings, name="agentre.paper"):
    llm = ScriptedLLM(script)
    return make_system(name, llm, None, settings), llm


async def run(sys_, text=SENTENCE, doc_id="d1"):
    return await sys_.run(Document(id=doc_id, text=text))


def keys(result):
    return {(t.subject.surface, t.predicate.label, t.object.surface) for t in result.triples}


async def test_react_agent_uses_tools_then_finishes(inputs):
    script = RoleScript(
        agent=[
            step("SearchGuidelines", "Work_For"),
            step("SearchKG", "Oslo"),
            step(
                "Finish",
                triples=[triple("John Smith", "Work_For", "Acme Corp"), triple("John Smith", "Live_In", "Oslo")],
            ),
        ]
    )
    sys_, llm = system(script, inputs)
    result = await run(sys_)
    assert result.status == "ok", result.reason
    assert keys(result) == {("John Smith", "Work_For", "Acme Corp"), ("John Smith", "Live_In", "Oslo")}
    assert len(llm.calls) == 3
    nodes = [s.node for s in result.trace]
    # the first steps are pre-filled without a model call: similar samples, facts on known entities
    assert nodes[:2] == ["SearchSamples", "SearchKG"] and nodes.count("agent") == 3
    first_user = script.prompts["agent"][0][1]
    assert "Anna Berg , a spokeswoman for Acme Corp" in first_user, "the most similar labelled sample is shown"
    assert "Carl Dahl | Live_In | Oslo" in first_user, "facts of the pool about an entity the sentence names"
    # other sentences (samples, memory) never come last: a small model took them for its task
    assert first_user.rstrip().endswith(SENTENCE) and first_user.rindex(SENTENCE) > first_user.index("Anna Berg")
    last_user = script.prompts["agent"][2][1]
    assert "the head person works for the tail organisation" in last_user, "SearchGuidelines observation in view"
    # the schema constrains the actions and the relations
    step_schema = json.dumps(script.schemas["agent"][0])
    assert '"SearchMemory"' not in step_schema, "no memory configured: no memory action"
    assert '"Work_For"' in step_schema and '"Finish"' in step_schema
    triple_rows = result.triples[0]
    assert triple_rows.predicate.value.endswith("/news/Work_For") and triple_rows.provenance.evidence.text == SENTENCE
    assert result.extra["trajectories"][0]["steps"][-1]["action"] == "Finish"


async def test_search_kg_reads_the_entity_and_its_types_from_a_configured_kb(inputs, default_kb):
    script = RoleScript(
        agent=[step("SearchKG", "Oslo"), step("Finish", triples=[triple("John Smith", "Live_In", "Oslo")])]
    )
    settings = {k: v for k, v in inputs.items() if k != "pool_file"}  # the KB alone, no labelled pool
    sys_ = make_system("agentre.paper", ScriptedLLM(script), default_kb, settings)
    result = await run(sys_)
    observation = next(s.output for s in result.trace if s.node == "SearchKG")
    assert "Oslo (Q585): capital city of Norway" in observation
    assert "Oslo | instance of | city" in observation, "the KB's types, as facts in the pool's triple form"
    assert "Sierra Leone" not in observation, "only an exact label or alias match counts as the entity"


async def test_a_repeated_search_is_refused_and_forces_finish(inputs):
    script = RoleScript(
        agent=[
            step("SearchGuidelines", "Live_In"),
            step("SearchKG", "Oslo"),
            step("SearchGuidelines", "Live_In"),
            step("Finish", triples=[triple("John Smith", "Live_In", "Oslo")]),
        ]
    )
    sys_, llm = system(script, {**inputs, "max_iterations": 6})
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Live_In", "Oslo")}
    actions = [s["properties"]["action"] for s in script.schemas["agent"]]
    options = [a.get("enum", [a.get("const")]) for a in actions]
    assert "SearchGuidelines" not in options[1], "the action that just answered is closed for one step"
    assert "SearchGuidelines" in options[2]
    repeat = [s for s in result.trace if s.node == "SearchGuidelines"][1]
    assert "already did this" in repeat.output, "the same call with the same input is not run twice"
    assert options[3] == ["Finish"], "after a repeated search only Finish is allowed, long before the limit"
    assert "You repeated a search" in script.prompts["agent"][-1][1]


async def test_the_step_limit_forces_finish(inputs):
    script = RoleScript(
        agent=[step("SearchKG", "Oslo"), step("Finish", triples=[triple("John Smith", "Live_In", "Oslo")])]
    )
    sys_, llm = system(script, {**inputs, "max_iterations": 1})
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Live_In", "Oslo")}
    options = [a.get("enum", [a.get("const")]) for a in (s["properties"]["action"] for s in script.schemas["agent"])]
    assert options[1] == ["Finish"], "at the limit only Finish is allowed"
    assert "You have used every action" in script.prompts["agent"][-1][1]


async def test_no_actions_finishes_at_once_with_the_prefetched_observations(inputs):
    script = RoleScript(agent=[step("Finish", triples=[triple("John Smith", "Live_In", "Oslo")])])
    sys_, llm = system(script, {**inputs, "max_iterations": 0})
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Live_In", "Oslo")} and result.usage.llm_calls == 1
    options = [a.get("enum", [a.get("const")]) for a in (s["properties"]["action"] for s in script.schemas["agent"])]
    assert options == [["Finish"]]


async def test_malformed_steps_are_fed_back_then_incorporated(inputs):
    script = RoleScript(
        agent=[
            "not json",
            "still not",
            "nope",  # one call's parse retries run out
            step("Finish", triples=[triple("John Smith", "Work_For", "Acme Corp")]),
        ]
    )
    sys_, _ = system(script, inputs)
    result = await run(sys_)
    assert result.status == "ok" and keys(result) == {("John Smith", "Work_For", "Acme Corp")}
    assert "not valid JSON" in script.prompts["agent"][1][1], "the parse error is fed back"
    assert "your answer could not be used" in script.prompts["agent"][3][1], "the failed step is in the history"


async def test_arguments_are_grounded_in_the_sentence(inputs):
    script = RoleScript(
        agent=[
            step(
                "Finish",
                triples=[
                    triple("john smith", "Work_For", "ACME CORP"),  # case changed by the model: snapped to the text
                    triple("John Smith", "Live_In", "Bergen"),  # not in the sentence: dropped with a warning
                ],
            )
        ]
    )
    sys_, _ = system(script, inputs)
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Work_For", "Acme Corp")}
    assert any("Bergen" in w for w in result.warnings)


async def test_a_mention_related_to_itself_is_dropped_two_of_one_name_are_kept(inputs):
    answer = [triple("Acme Corp", "Live_In", "acme corp"), triple("John Smith", "Work_For", "Acme Corp")]
    sys_, _ = system(RoleScript(agent=[step("Finish", triples=answer)]), inputs)
    result = await run(sys_)  # the sentence names Acme Corp once: no fact
    assert keys(result) == {("John Smith", "Work_For", "Acme Corp")}
    assert any("head and tail are one mention" in w for w in result.warnings)
    # two of the name, as DuIE's series adapted from the novel of the same name: kept
    sys_, _ = system(RoleScript(agent=[step("Finish", triples=answer)]), inputs)
    result = await run(sys_, text="John Smith of Acme Corp , Oslo , lives in Oslo near Acme Corp .")
    assert ("Acme Corp", "Live_In", "Acme Corp") in keys(result)


def test_grounding_forgives_the_spacing_of_tokenized_sentences():
    sentence = "ATLANTIC CITY , N.J . ( AP ) _ Judith C. Toth of Maryland 's House of Delegates spoke ."
    run = SentenceRun()
    ground(
        run,
        [
            Answer(head="Atlantic City", relation="Located_In", tail="N.J."),  # joined by the model
            Answer(head="Judith C. Toth", relation="Work_For", tail="Maryland's House of Delegates"),
            Answer(head="Judith C . Toth", relation="Live_In", tail="Maryland"),  # split by the model
            Answer(head="Judith Toth", relation="Live_In", tail="Maryland"),
        ],
        sentence,
    )  # a word missing
    # kept in the sentence's own spelling, which is the gold's
    assert run.triples == [
        RETriple("ATLANTIC CITY", "Located_In", "N.J ."),
        RETriple("Judith C. Toth", "Work_For", "Maryland 's House of Delegates"),
        RETriple("Judith C. Toth", "Live_In", "Maryland"),
    ]
    assert run.dropped == [RETriple("Judith Toth", "Live_In", "Maryland")]


@pytest.mark.parametrize("mode", ["direct", "cot"])
async def test_fixed_modes_put_context_in_one_call(inputs, mode):
    answer = {"triples": [triple("John Smith", "Work_For", "Acme Corp")]}
    if mode == "cot":
        answer = {"reasoning": "John Smith is a spokesman of Acme Corp", **answer}
    script = RoleScript(extract=[answer])
    sys_, llm = system(script, {**inputs, "mode": mode})
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Work_For", "Acme Corp")} and len(llm.calls) == 1
    system_prompt, user = script.prompts["extract"][0]
    assert "the head person works for the tail organisation" in system_prompt, "guidelines in the prompt"
    assert "Anna Berg" in user
    assert ("reasoning" in script.schemas["extract"][0]["properties"]) == (mode == "cot")


async def test_staged_mode_extracts_only_the_chosen_relations(inputs):
    script = RoleScript(
        types=[{"relations": ["Live_In"]}], extract=[{"triples": [triple("John Smith", "Live_In", "Oslo")]}]
    )
    sys_, llm = system(script, {**inputs, "mode": "staged"})
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Live_In", "Oslo")} and len(llm.calls) == 2
    relation_enum = json.dumps(script.schemas["extract"][0])
    assert "Live_In" in relation_enum and "Work_For" not in relation_enum

    nothing = RoleScript(types=[{"relations": []}])
    sys_, llm = system(nothing, {**inputs, "mode": "staged"})
    result = await run(sys_)
    assert result.status == "ok" and not result.triples and len(llm.calls) == 1


async def test_baselines_are_single_calls_with_and_without_samples(inputs):
    answer = {"triples": [triple("John Smith", "Work_For", "Acme Corp")]}
    zero = RoleScript(extract=[answer])
    sys_, llm = system(zero, inputs, "agentre.zeroshot")
    assert keys(await run(sys_)) == {("John Smith", "Work_For", "Acme Corp")} and len(llm.calls) == 1
    assert "Anna Berg" not in zero.prompts["extract"][0][1] and "Similar labelled" not in zero.prompts["extract"][0][1]

    few = RoleScript(extract=[answer])
    sys_, llm = system(few, {**inputs, "k": 2}, "agentre.fewshot")
    await run(sys_)
    user = few.prompts["extract"][0][1]
    assert user.count("Triples:") == 2, "k retrieved samples as examples"

    with pytest.raises(UserError, match="agentre.zeroshot fixes mode"):
        make_system("agentre.zeroshot", ScriptedLLM([]), None, {**inputs, "mode": "react"})


async def test_lean_agent_has_no_memory_and_finishes_from_the_prefetched_observations(inputs, tmp_path):
    script = RoleScript(agent=[step("Finish", triples=[triple("John Smith", "Live_In", "Oslo")])])
    sys_, llm = system(script, {**inputs, "memory_dir": str(tmp_path / "memory")}, "agentre.lean")
    assert sys_.retrieval.tools == ["samples", "guidelines", "kg"] and sys_.memory is None
    assert keys(await run(sys_)) == {("John Smith", "Live_In", "Oslo")} and len(llm.calls) == 1
    first = script.schemas["agent"][0]
    assert "Finish" in json.dumps(first) and "SearchKG" not in json.dumps(first), "only Finish is open"
    assert "SearchSamples" in script.prompts["agent"][0][1], "the prefetched samples are in view"
    with pytest.raises(UserError, match="agentre.lean fixes max_iterations"):
        make_system("agentre.lean", ScriptedLLM([]), None, {**inputs, "max_iterations": 3})


def test_agentre_is_set_up_for_small_models_and_each_setting_can_change(inputs):
    small = make_system("agentre", ScriptedLLM([]), None, inputs).config
    assert (small.mode, small.tools, small.escalate, small.escalate_when, small.pool_types) == (
        "direct",
        ["samples", "guidelines"],
        3,
        "any_dropped",
        True,
    )
    paper = make_system("agentre.paper", ScriptedLLM([]), None, inputs).config
    assert (paper.mode, paper.tools, paper.escalate, paper.pool_types) == (
        "react",
        ["samples", "guidelines", "kg", "memory"],
        0,
        False,
    )
    assert make_system("agentre", ScriptedLLM([]), None, {**inputs, "mode": "react"}).config.mode == "react"


def test_settings_are_checked(inputs):
    with pytest.raises(UserError, match="needs a relation schema"):
        make_system("agentre", ScriptedLLM([]), None, {})
    with pytest.raises(UserError, match="valid settings"):
        make_system("agentre", ScriptedLLM([]), None, {**inputs, "retreiver": "bm25"})


async def test_long_text_is_cut_into_sentence_runs_with_their_evidence(inputs):
    first = "John Smith , a spokesman for Acme Corp , spoke on Monday. " * 12  # 696 characters: two runs
    second = "Carl Dahl lives in Oslo."
    script = RoleScript(
        extract=[
            {"triples": [triple("John Smith", "Work_For", "Acme Corp")]},
            {"triples": [triple("Carl Dahl", "Live_In", "Oslo")]},
        ]
    )
    sys_, llm = system(script, {**inputs, "mode": "direct"})
    result = await run(sys_, text=first + second)
    assert len(llm.calls) == 2
    evidence = {t.object.surface: t.provenance.evidence for t in result.triples}
    assert evidence["Acme Corp"].start == 0 and evidence["Acme Corp"].text == first[: first.index("Monday.") + 7]
    assert evidence["Oslo"].text == second, "the sentence that states it, not the whole run"


async def test_evidence_is_the_sentence_naming_both_arguments_or_the_shortest_run_that_does(inputs):
    text = "The man John Smith works for Acme Corp . He lives in Oslo . Mary Jones was born in Rome . Later , Smith moved ."
    script = RoleScript(
        extract=[
            {
                "triples": [
                    triple("Mary Jones", "Live_In", "Rome"),
                    triple("He", "Live_In", "Oslo"),
                    triple("John Smith", "Live_In", "Oslo"),
                ]
            }
        ]
    )
    sys_, _ = system(script, {**inputs, "mode": "direct"})
    result = await run(sys_, text=text)
    evidence = {(t.subject.surface, t.object.surface): t.provenance.evidence.text for t in result.triples}
    assert evidence[("Mary Jones", "Rome")] == "Mary Jones was born in Rome ."
    assert evidence[("He", "Oslo")] == "He lives in Oslo .", "a name is a whole word: not the 'he' of 'The'"
    assert evidence[("John Smith", "Oslo")] == "The man John Smith works for Acme Corp . He lives in Oslo ."


async def test_unusable_model_fails_the_document_with_the_reason(inputs):
    sys_, _ = system(RoleScript(extract=["x", "y", "z"]), {**inputs, "mode": "direct"})
    result = await run(sys_)
    assert result.status == "failed" and "usable answer" in result.reason

    def down(messages, schema):
        from graphwright.errors import LLMUnavailableError

        raise LLMUnavailableError("server gone")

    sys_, _ = system(down, inputs)
    result = await run(sys_)
    assert result.status == "failed" and "server gone" in result.reason


async def test_memory_warm_up_writes_memory_that_a_new_run_reads(inputs, tmp_path):
    memory_dir = tmp_path / "memory"
    settings = {**inputs, "memory_dir": str(memory_dir), "mode": "direct"}
    samples = [
        RESample(
            id="p2",
            text="Carl Dahl lives in Oslo and works for Nordbank .",
            triples=[RETriple("Carl Dahl", "Live_In", "Oslo"), RETriple("Carl Dahl", "Work_For", "Nordbank")],
        )
    ]
    script = RoleScript(
        extract=[{"triples": [triple("Carl Dahl", "Live_In", "Oslo"), triple("Oslo", "Live_In", "Nordbank")]}],
        summary=[{"summary": "Carl Dahl lives in Oslo."}],
        reflection=[{"lesson": "A place never lives in an organisation; check the head type."}],
    )
    sys_, llm = system(script, settings)
    counts = await warm_up(sys_, samples, llm)
    assert counts == {"learnt": 1, "skipped": 0, "correct": 1, "wrong": 1, "missed": 1}
    learning = script.prompts["extract"][0][1]  # a pool sentence never sees its own labels
    assert "Nordbank" not in learning.replace(samples[0].text, "")
    reflection_prompt = script.prompts["reflection"][0][1]
    assert (
        '["Oslo", "Live_In", "Nordbank"]' in reflection_prompt
        and '["Carl Dahl", "Work_For", "Nordbank"]' in reflection_prompt
    )
    assert {p.name for p in memory_dir.iterdir()} >= {
        "shallow.jsonl",
        "deep.json",
        "reflections.jsonl",
        "manifest.json",
    }

    # a second warm-up skips what memory has seen; a new system reads the memory from disk
    again, llm2 = system(RoleScript(), settings)
    assert (await warm_up(again, samples, llm2))["skipped"] == 1 and not llm2.calls
    reader = RoleScript(extract=[{"triples": []}])
    sys_, _ = system(reader, settings)
    await run(sys_, text="Carl Dahl moved to Oslo last year .")
    user = reader.prompts["extract"][0][1]
    assert "Carl Dahl | Work_For | Nordbank" in user  # another sentence does see the pool's facts
    assert "About Carl Dahl: Carl Dahl lives in Oslo." in user
    assert "Lesson: A place never lives in an organisation" in user
    assert (
        'Past sentence: Carl Dahl lives in Oslo and works for Nordbank .\nright: [["Carl Dahl", "Live_In", "Oslo"]]'
        in user
    )
    assert 'wrong (do not repeat): [["Oslo", "Live_In", "Nordbank"]]' in user


def test_memory_of_another_schema_is_refused(inputs, tmp_path):
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    (memory_dir / "manifest.json").write_text('{"schema": "conll04", "seen": []}')
    with pytest.raises(UserError, match="belongs to schema 'conll04'"):
        make_system("agentre.paper", ScriptedLLM([]), None, {**inputs, "memory_dir": str(memory_dir)})


def test_pool_file_errors_name_the_line(inputs, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "a", "triples": [["x", "Married_To", "y"]]}\n')
    with pytest.raises(UserError, match=r"bad.jsonl:1: relations not in schema 'news': Married_To"):
        make_system("agentre", ScriptedLLM([]), None, {**inputs, "pool_file": str(bad)})


def test_deep_memory_recalls_an_entity_only_where_the_sentence_names_it(tmp_path):
    from graphwright.papers.agentre.memory import AgentMemory

    memory = AgentMemory(tmp_path / "memory", "news", "bm25")
    memory.set_summary("Al", "Al works for Acme Corp.")
    memory.set_summary("Oslo", "Oslo is a city.")
    assert memory.entity_summaries("Alan moved to Oslo .", 3) == [("Oslo", "Oslo is a city.")]
    assert [e for e, _ in memory.entity_summaries("Al met Alan in Oslo .", 3)] == ["Oslo", "Al"]


async def test_copied_arguments_are_an_enum_of_the_sentences_spans(inputs):
    answer = {"triples": [triple("John Smith", "Work_For", "Acme Corp")]}
    script = RoleScript(extract=[answer])
    sys_, llm = system(script, {**inputs, "copy_arguments": True}, "agentre.fewshot")
    assert keys(await run(sys_)) == {("John Smith", "Work_For", "Acme Corp")}
    schema = script.schemas["extract"][0]
    triple_schema = schema["$defs"]["Triple"]["properties"]
    assert "John Smith" in triple_schema["head"]["enum"] and "Acme Corp" in triple_schema["tail"]["enum"]
    assert "Anna Berg" not in triple_schema["head"]["enum"], "an example's entity cannot be named"

    free = RoleScript(extract=[answer])
    sys_, llm = system(free, inputs, "agentre.fewshot")
    await run(sys_)
    assert "enum" not in free.schemas["extract"][0]["$defs"]["Triple"]["properties"]["head"]


async def test_type_check_relabels_or_drops_triples_their_types_rule_out(inputs):
    extracted = {
        "triples": [
            triple("John Smith", "Live_In", "Acme Corp"),  # Person -> Org: only Work_For fits
            triple("Acme Corp", "Live_In", "Oslo"),  # Org -> Loc: no relation fits
            triple("John Smith", "Live_In", "Oslo"),
            triple("spokesman", "Work_For", "Acme Corp"),
        ]
    }  # not a name: Other
    typed = {"e1": "Person", "e2": "Org", "e3": "Loc", "e4": "Other"}
    script = RoleScript(extract=[extracted], typer=[typed])
    sys_, llm = system(script, {**inputs, "mode": "direct", "check": "types"})
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Work_For", "Acme Corp"), ("John Smith", "Live_In", "Oslo")}
    assert len(llm.calls) == 2
    assert result.warnings == [
        f"dropped {t}: its argument types rule the relation out"
        for t in (["Acme Corp", "Live_In", "Oslo"], ["spokesman", "Work_For", "Acme Corp"])
    ]
    system_prompt, user = script.prompts["typer"][0]
    assert "- Person: a person" in system_prompt
    assert "e1: John Smith\ne2: Acme Corp\ne3: Oslo\ne4: spokesman" in user
    assert 'e1: Anna Berg\ne2: Acme Corp\nAnswer: {"e1": "Person", "e2": "Org"}' in user, "a typed sample, worked"
    fields = script.schemas["typer"][0]["properties"]
    assert list(fields) == ["e1", "e2", "e3", "e4"] and fields["e1"]["enum"] == ["Person", "Org", "Loc", "Other"]

    nothing = RoleScript(extract=[{"triples": []}])
    sys_, llm = system(nothing, {**inputs, "mode": "direct", "check": "pairs"})
    assert not (await run(sys_)).triples and len(llm.calls) == 1, "no arguments: nothing to check"


async def test_pair_checklist_decides_every_type_compatible_pair_of_the_arguments(inputs):
    extracted = {"triples": [triple("John Smith", "Work_For", "Acme Corp"), triple("John Smith", "Work_For", "Oslo")]}
    typed = {"e1": "Person", "e2": "Org", "e3": "Loc"}
    # pairs: the linked ones first (Work_For is relabelled Live_In for Person -> Loc), then by distance
    decided = {"p1": "none", "p2": "Live_In"}
    script = RoleScript(extract=[extracted], typer=[typed], checker=[decided])
    sys_, llm = system(script, {**inputs, "mode": "direct", "check": "pairs"})
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Live_In", "Oslo")}, "the checklist's answers replace the extractor's"
    assert len(llm.calls) == 3
    user = script.prompts["checker"][0][1]
    assert "p1: John Smith (Person) -> Acme Corp (Org): Work_For or none" in user
    assert "p2: John Smith (Person) -> Oslo (Loc): Live_In or none" in user
    assert "Anna Berg (Person) -> Acme Corp (Org)" in user and 'Answer: {"p1": "Work_For"}' in user
    checklist = script.schemas["checker"][0]["properties"]
    assert list(checklist) == ["p1", "p2"] and checklist["p2"]["enum"] == ["Live_In", "none"]


async def test_an_answer_naming_what_the_sentence_lacks_is_asked_again_once(inputs):
    copied = {"triples": [triple("Anna Berg", "Work_For", "Acme Corp")]}  # an example's triple
    fixed = {"triples": [triple("John Smith", "Work_For", "Acme Corp")]}
    script = RoleScript(extract=[copied, fixed])
    sys_, llm = system(script, {**inputs, "reask_ungrounded": True}, "agentre.fewshot")
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Work_For", "Acme Corp")} and len(llm.calls) == 2
    first, second = (user for _, user in script.prompts["extract"])
    assert "Your last answer" not in first
    assert second.startswith(first) and 'named "Anna Berg", which this sentence does not contain' in second

    grounded = RoleScript(extract=[fixed])
    sys_, llm = system(grounded, {**inputs, "reask_ungrounded": True}, "agentre.fewshot")
    await run(sys_)
    assert len(llm.calls) == 1, "a grounded answer is not asked again"


async def test_an_answer_that_keeps_nothing_escalates_to_calls_that_vote(inputs):
    copied = {"triples": [triple("Anna Berg", "Work_For", "Acme Corp")]}  # an example's triple: dropped
    works = triple("John Smith", "Work_For", "Acme Corp")
    script = RoleScript(
        extract=[
            copied,
            {"triples": [works, triple("John Smith", "Live_In", "Acme Corp")]},
            {"triples": [works, triple("John Smith", "Live_In", "Oslo")]},
        ]
    )
    sys_, llm = system(script, {**inputs, "k": 2, "escalate": 2}, "agentre.fewshot")
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Work_For", "Acme Corp")}, "only what both escalation answers name"
    assert len(llm.calls) == 3 and result.warnings == [
        "dropped ['Anna Berg', 'Work_For', 'Acme Corp']: an argument is not in the sentence"
    ]
    first, *escalated = (call["messages"] for call in llm.calls)
    assert "Similar labelled sentences" in first[-1]["content"] and len(first) == 2
    for messages in escalated:  # the examples as earlier exchanges, the sentence the last message
        assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
        assert "Similar labelled" not in messages[-1]["content"] and messages[-1]["content"].endswith(SENTENCE)
    assert [s.node for s in result.trace if s.kind == "agent"] == ["extractor", "escalation", "escalation"]

    one = RoleScript(extract=[copied, {"triples": [works]}])
    sys_, llm = system(one, {**inputs, "escalate": 1}, "agentre.fewshot")
    assert keys(await run(sys_)) == {("John Smith", "Work_For", "Acme Corp")} and len(llm.calls) == 2

    kept = RoleScript(extract=[{"triples": [works, triple("Anna Berg", "Work_For", "Acme Corp")]}])
    sys_, llm = system(kept, {**inputs, "escalate": 2}, "agentre.fewshot")
    await run(sys_)
    assert len(llm.calls) == 1, "an answer that keeps a triple is not escalated"
    agreed = RoleScript(extract=[copied, {"triples": [works]}, {"triples": [works]}])
    sys_, llm = system(agreed, {**inputs, "escalate": 3}, "agentre.fewshot")
    assert keys(await run(sys_)) == {("John Smith", "Work_For", "Acme Corp")}
    assert len(llm.calls) == 3, "two of three escalation answers agree: the third could not change the majority"
    partly = RoleScript(
        extract=[
            {"triples": [works, triple("Anna Berg", "Work_For", "Acme Corp")]},
            {"triples": [triple("John Smith", "Live_In", "Oslo")]},
        ]
    )
    sys_, llm = system(partly, {**inputs, "escalate": 1, "escalate_when": "any_dropped"}, "agentre.fewshot")
    assert keys(await run(sys_)) == {("John Smith", "Work_For", "Acme Corp"), ("John Smith", "Live_In", "Oslo")}, (
        "any_dropped: a partly copied answer escalates too, and keeps what it had"
    )
    empty = RoleScript(extract=[{"triples": []}])
    sys_, llm = system(empty, {**inputs, "escalate": 2}, "agentre.fewshot")
    await run(sys_)
    assert len(llm.calls) == 1, "an empty answer may be right: only copying escalates"


async def test_the_pools_entity_types_rule_out_triples_whose_relation_they_break(inputs):
    answer = {
        "triples": [
            triple("John Smith", "Work_For", "Acme Corp"),
            triple("John Smith", "Live_In", "ACME CORP"),
            triple("John Smith", "Live_In", "Oslo"),
        ]
    }  # Oslo: in the pool, untyped
    sys_, llm = system(RoleScript(extract=[answer]), {**inputs, "pool_types": True}, "agentre.fewshot")
    result = await run(sys_)
    assert keys(result) == {("John Smith", "Work_For", "Acme Corp"), ("John Smith", "Live_In", "Oslo")}
    assert result.warnings == [
        "dropped ['John Smith', 'Live_In', 'Acme Corp']: its argument types rule the relation out"
    ]
    assert len(llm.calls) == 1, "no model call: the types come from the labelled pool"


def test_a_name_has_a_known_type_only_where_most_of_its_mentions_agree():
    samples = [
        RESample(id=str(i), text="t", entities=entities)
        for i, entities in enumerate(
            [[("Acme", "Org"), ("Paris", "Loc")], [("Acme", "Org"), ("Paris", "Peop")], [("acme", "Loc")]]
        )
    ]
    assert known_types(samples) == {"acme": "Org"}, "Acme: Org in 2 of 3; Paris: 1 of 2 is no majority"


async def test_examples_can_be_earlier_exchanges_of_the_chat(inputs):
    answer = {"triples": [triple("John Smith", "Work_For", "Acme Corp")]}
    script = RoleScript(extract=[answer])
    sys_, llm = system(script, {**inputs, "k": 2, "examples_as_turns": True}, "agentre.fewshot")
    assert keys(await run(sys_)) == {("John Smith", "Work_For", "Acme Corp")}
    messages = llm.calls[0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[1]["content"].startswith("Sentence: ") and json.loads(messages[2]["content"])["triples"]
    assert "Similar labelled" not in messages[-1]["content"] and messages[-1]["content"].endswith(SENTENCE)
