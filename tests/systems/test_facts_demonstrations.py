"""``facts`` with the user's labelled examples (``pool_file``): the nearest ones to the passage are shown
after the prompt's static part, with and without a schema; a relation outside the schema is an error that
names the line; without examples the prompt is what it was."""

from __future__ import annotations

import json

import pytest

from graphwright.errors import UserError
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.systems.base import make_system
from tests.systems.test_facts_schema import SCHEMA, TEXT

NEAR = {
    "text": "Dr. Aino Kettunen is the director of Saimaa Polytechnic, established in 1992 in Lappeenranta.",
    "triples": [
        ["Saimaa Polytechnic", "director", "Aino Kettunen"],
        ["Saimaa Polytechnic", "established", "1992"],
        ["Saimaa Polytechnic", "city", "Lappeenranta"],
    ],
}
FAR = {"text": "The pasta sauce holds tomatoes, basil and garlic.", "triples": [["pasta sauce", "motto", "basil"]]}
UNLABELLED = {"text": "Saimaa Polytechnic has a director and a motto.", "triples": []}


def write(path, rows) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


@pytest.fixture
def schema_file(tmp_path):
    path = tmp_path / "college.json"
    path.write_text(json.dumps(SCHEMA), encoding="utf-8")
    return str(path)


def recorder(seen: list[list[dict]]) -> ScriptedLLM:
    def reply(messages, schema) -> str:
        seen.append(messages)
        return json.dumps({"triples": [["Nordhavn Technical College", "director", "Ilse Brandvik"]]})

    return ScriptedLLM(reply)


async def extract(kb, settings, text=TEXT) -> tuple[list[list[dict]], object]:
    seen: list[list[dict]] = []
    result = await make_system("facts", recorder(seen), kb, settings).run(Document(id="d1", text=text))
    return seen, result


async def test_the_nearest_example_is_shown_before_the_text_in_the_user_message(default_kb, schema_file, tmp_path):
    pool = write(tmp_path / "pool.jsonl", [FAR, UNLABELLED, NEAR])
    seen, result = await extract(default_kb, {"schema_file": schema_file, "pool_file": pool, "demonstrations": 1})
    system, user = seen[0][0]["content"], seen[0][-1]["content"]
    assert NEAR["text"] not in system, "the static part stays the same for every passage (prefix caching)"
    assert user.index(NEAR["text"]) < user.index(TEXT)
    assert '["Saimaa Polytechnic", "director", "Aino Kettunen"]' in user
    assert FAR["text"] not in user and UNLABELLED["text"] not in user, "one example, and never one without facts"
    assert ("Nordhavn Technical College", "director", "Ilse Brandvik") in {
        (t.subject.surface, t.predicate.label, t.object.surface) for t in result.triples
    }


async def test_examples_work_without_a_schema_and_the_passage_never_demonstrates_itself(default_kb, tmp_path):
    itself = {"text": TEXT, "triples": [["Ilse Brandvik", "studied at", "Lund University"]]}
    pool = write(tmp_path / "pool.jsonl", [itself, NEAR, FAR])
    seen, _ = await extract(default_kb, {"pool_file": pool, "demonstrations": 2, "linking": "open"})
    user = seen[0][-1]["content"]
    assert user.count("Example text:") == 2 and NEAR["text"] in user
    assert user.count(TEXT) == 1, "the passage is not its own example"


async def test_without_examples_the_prompt_is_unchanged(default_kb, schema_file):
    seen, _ = await extract(default_kb, {"schema_file": schema_file})
    assert seen[0][-1]["content"] == "Text:\n" + TEXT


def test_an_example_with_a_relation_outside_the_schema_names_its_line(default_kb, schema_file, tmp_path):
    pool = write(tmp_path / "pool.jsonl", [NEAR, {"text": "x", "triples": [["a", "sponsor", "b"]]}])
    with pytest.raises(UserError, match=r"pool.jsonl:2: relations not in schema .*sponsor"):
        make_system("facts", recorder([]), default_kb, {"schema_file": schema_file, "pool_file": pool})


def test_with_examples_a_name_keeps_the_users_form_where_the_text_holds_its_words():
    from graphwright.systems.facts.arguments import Grounder

    text = (
        "The Train song Mermaid is followed by the John Lennon song Imagine. Elliot See died in St Louis. "
        "Marcolini played for Torino F.C. in 1998 and moved to Washington, D.C. later."
    )
    document = Document(id="d", text=text)
    users = Grounder(document, [], 10, written_forms=True)
    assert users.ground("Mermaid (Train song)").words == "Mermaid (Train song)"
    assert users.ground("Mermaid (Train song)").span.text == "Mermaid"
    assert users.ground("St. Louis").words == "St. Louis"
    assert users.ground("Torino F.C.").words == "Torino F.C."
    assert users.ground("Washington, D.C.").words == "Washington, D.C."
    assert isinstance(users.ground("Mermaid (Arctic song)"), str), "a qualifier the text does not hold"
    assert isinstance(users.ground("Imagine (Beatles song)"), str)
    plain = Grounder(document, [], 10)
    assert isinstance(plain.ground("Mermaid (Train song)"), str), "without examples: only the text's own forms"
    assert isinstance(plain.ground("St. Louis"), str)
    assert plain.ground("Torino F.C.").words == "Torino F.C"


async def test_what_the_examples_put_under_a_relation_overrides_its_declared_range(default_kb, tmp_path):
    schema = tmp_path / "bodies.json"  # DBpedia declares epoch a number; its data holds dates
    schema.write_text(
        json.dumps(
            {
                "name": "bodies",
                "relations": {
                    "epoch": {"head": ["CelestialBody"], "tail": ["number"]},
                    "apoapsis": {"head": ["CelestialBody"], "tail": ["number"]},
                },
            }
        ),
        encoding="utf-8",
    )
    pool = write(
        tmp_path / "pool.jsonl",
        [{"text": "The epoch of 101 Helena is 31 July 2016.", "triples": [["101 Helena", "epoch", "2016-07-31"]]}],
    )
    text = "The epoch of 1089 Tama is 26 November 2005 and its apoapsis is 373513000.0 kilometres."

    def answer(messages, schema) -> str:
        return json.dumps({"triples": [["1089 Tama", "epoch", "2005-11-26"], ["1089 Tama", "apoapsis", "373513000.0"]]})

    async def extracted(settings):
        system = make_system(
            "facts",
            ScriptedLLM(answer),
            default_kb,
            {"schema_file": str(schema), "outside_schema": "drop", "linking": "open", **settings},
        )
        return await system.run(Document(id="d", text=text))

    with_examples, without = await extracted({"pool_file": pool}), await extracted({})
    assert {t.predicate.label for t in with_examples.triples} == {"epoch", "apoapsis"}
    assert {t.predicate.label for t in without.triples} == {"apoapsis"}, "the declared range, without examples"


async def test_a_name_takes_the_spelling_the_examples_give_it(default_kb, schema_file, tmp_path):
    pool = write(
        tmp_path / "pool.jsonl",
        [
            {
                "text": "Inge Solbakken is the director of the N.T.C. Nordhavn (the technical college).",
                "triples": [["N.T.C. Nordhavn (technical college)", "director", "Inge Sølbakken"]],
            },
            NEAR,
        ],
    )
    text = "Ilse Brandvik is the director of NTC Nordhavn, a technical college. Inge Solbakken preceded her."

    def answer(messages, schema) -> str:
        return json.dumps(
            {"triples": [["NTC Nordhavn", "director", "Ilse Brandvik"], ["Ilse Brandvik", "almaMater", "NTC Nordhavn"]]}
        )

    settings = {"schema_file": schema_file, "pool_file": pool, "linking": "open", "outside_schema": "drop"}
    result = await make_system("facts", ScriptedLLM(answer), default_kb, settings).run(Document(id="d", text=text))
    written = {(t.subject.surface, t.predicate.label, t.object.surface) for t in result.triples}
    assert ("N.T.C. Nordhavn (technical college)", "director", "Ilse Brandvik") in written
    assert ("Ilse Brandvik", "almaMater", "N.T.C. Nordhavn (technical college)") in written
    plain = await make_system("facts", ScriptedLLM(answer), default_kb, {**settings, "pool_file": None}).run(
        Document(id="d", text=text)
    )
    assert ("NTC Nordhavn", "director", "Ilse Brandvik") in {
        (t.subject.surface, t.predicate.label, t.object.surface) for t in plain.triples
    }, "without examples the text's spelling stays"
