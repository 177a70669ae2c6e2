"""The paths a user takes with their own data, end to end through the CLI against a scripted
OpenAI-compatible server on 127.0.0.1: a gold file and relation schema of their own with no KB
(`eval run`, then `train sft-export`), and a KB built from their own ontology (`extract`, `eval run`)."""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
from typer.testing import CliRunner

from graphwright.bench.eval.runner import read_documents
from graphwright.cli import app
from graphwright.jsonl import read_jsonl
from tests.support.agentre_script import step, triple, write_inputs
from tests.support.openai_server import ScriptedOpenAIServer

runner = CliRunner()
TEXT = "John Smith , a spokesman for Acme Corp , lives in Oslo ."
TRIPLES = [triple("John Smith", "Work_For", "Acme Corp"), triple("John Smith", "Live_In", "Oslo")]


def served(server) -> list[str]:
    return ["--model", "scripted", "--base-url", server.base_url, "--no-cache"]


def user_gold(folder: Path) -> Path:
    """A gold file as a user writes one: names for entities, the schema's relation names as predicates."""
    gold = folder / "my-gold.jsonl"
    gold.write_text(
        json.dumps(
            {
                "id": "g1",
                "text": TEXT,
                "triples": [
                    {
                        "subject": {"surface": t["head"]},
                        "predicate": {"iri": t["relation"]},
                        "object": {"surface": t["tail"]},
                    }
                    for t in TRIPLES
                ],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    return gold


def agent_or_rationale(messages, response_format) -> str:
    if (response_format or {}).get("json_schema", {}).get("name") == "Rationale":
        return json.dumps({"rationale": "Smith speaks for Acme Corp, so he works for it; he lives in Oslo."})
    if "relation extraction agent" in messages[0]["content"]:
        return json.dumps(step("Finish", triples=TRIPLES))
    return json.dumps({"triples": TRIPLES})  # the few-shot single call


def test_eval_run_with_a_user_gold_file_and_schema_and_no_kb_then_sft_export(tmp_path):
    schema, pool = write_inputs(tmp_path)
    gold = user_gold(tmp_path)
    settings = ["--set", f"schema_file={schema}", "--set", f"pool_file={pool}"]
    with ScriptedOpenAIServer(agent_or_rationale) as server:
        for system in ("agentre.fewshot", "agentre.paper"):
            result = runner.invoke(
                app,
                [
                    "eval",
                    "run",
                    "--dataset",
                    str(gold),
                    "--kb",
                    "none",
                    "--system",
                    system,
                    *settings,
                    *served(server),
                    "--out",
                    str(tmp_path / system),
                ],
            )
            assert result.exit_code == 0, result.output
            assert (tmp_path / system / "report.md").is_file() and (tmp_path / system / "report.html").is_file()
            counts = read_documents(tmp_path / system)[0]["counts"]["triples"]
            assert counts == {"matched_pred": 2, "predicted": 2, "matched_gold": 2, "gold": 2}, (
                "a perfect answer in the schema's relations scores perfectly against the user's relation names"
            )

        sft = tmp_path / "sft.jsonl"
        exported = runner.invoke(
            app, ["train", "sft-export", str(tmp_path / "agentre.paper"), "--out", str(sft), *served(server)]
        )
    assert exported.exit_code == 0, exported.output
    (example,) = read_jsonl(sft)
    answer = example["messages"][-1]["content"]
    assert (
        answer.startswith("Rationale: Smith speaks for Acme Corp")
        and '["John Smith", "Work_For", "Acme Corp"]' in answer
    )


ONTOLOGY = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
wd:Q900000001 a rdfs:Class ; rdfs:label "person" .
wd:Q900000002 a rdfs:Class ; rdfs:label "company" .
wdt:P900000001 a rdf:Property ; rdfs:label "employer" ; rdfs:comment "the company a person works for" ;
    rdfs:domain wd:Q900000001 ; rdfs:range wd:Q900000002 .
"""
ENTITIES = [
    {"id": "Q900000011", "label": "John Smith", "description": "a spokesman", "types": ["Q900000001"]},
    {"id": "Q900000012", "label": "Acme Corp", "description": "a maker of anvils", "types": ["Q900000002"]},
]


def candidate_answer(messages, response_format) -> str:
    """cie.single's answer: the employer fact, in the candidate ids the schema offers."""
    schema = response_format["json_schema"]["schema"]
    fields = schema["$defs"][next(iter(schema["$defs"]))]["properties"]
    entities, properties = fields["subject"]["enum"], fields["predicate"]["enum"]
    assert {"wd:Q900000011", "wd:Q900000012"} <= set(entities) and "wdt:P900000001" in properties
    return json.dumps(
        {"triples": [{"subject": "wd:Q900000011", "predicate": "wdt:P900000001", "object": "wd:Q900000012"}]}
    )


def test_extract_and_eval_run_with_a_kb_built_from_a_user_ontology(tmp_path):
    ontology, entities, kb = tmp_path / "hr.ttl", tmp_path / "people.jsonl", tmp_path / "kb"
    ontology.write_text(ONTOLOGY, encoding="utf-8")
    entities.write_text("".join(json.dumps(e) + "\n" for e in ENTITIES), encoding="utf-8")
    built = runner.invoke(
        app, ["kb", "build", str(kb), "--ontology", str(ontology), "--entities", str(entities), "--no-wikidata"]
    )
    assert built.exit_code == 0, built.output
    doc = tmp_path / "news.txt"
    doc.write_text("John Smith is a spokesman for Acme Corp.", encoding="utf-8")
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        json.dumps(
            {
                "id": "n1",
                "text": doc.read_text(encoding="utf-8"),
                "triples": [
                    {
                        "subject": {"iri": "Q900000011"},
                        "predicate": {"iri": "P900000001"},
                        "object": {"iri": "Q900000012"},
                    }
                ],
            }
        )
        + "\n"
    )
    with ScriptedOpenAIServer(candidate_answer) as server:
        extracted = runner.invoke(
            app,
            [
                "extract",
                str(doc),
                "--system",
                "cie.single",
                "--kb",
                str(kb),
                *served(server),
                "--store",
                str(tmp_path / "store"),
                "--out",
                str(tmp_path / "out"),
            ],
        )
        evaluated = runner.invoke(
            app,
            [
                "eval",
                "run",
                "--dataset",
                str(gold),
                "--system",
                "cie.single",
                "--kb",
                str(kb),
                *served(server),
                "--out",
                str(tmp_path / "run"),
            ],
        )
    assert extracted.exit_code == 0 and "1 / 0 / 0" in extracted.output, extracted.output
    ttl = tmp_path / "g.ttl"
    assert runner.invoke(app, ["graph", "export", str(ttl), "--store", str(tmp_path / "store")]).exit_code == 0
    graph = {
        (t.subject.value, t.predicate.value, t.object.value)
        for t in ox.parse(ttl.read_bytes(), format=ox.RdfFormat.TURTLE)
    }
    assert (
        "http://www.wikidata.org/entity/Q900000011",
        "http://www.wikidata.org/prop/direct/P900000001",
        "http://www.wikidata.org/entity/Q900000012",
    ) in graph
    assert evaluated.exit_code == 0, evaluated.output
    assert read_documents(tmp_path / "run")[0]["counts"]["triples"]["matched_gold"] == 1


def test_an_ontology_outside_wikidata_ids_is_a_clear_error(tmp_path):
    ontology = tmp_path / "hr.ttl"
    ontology.write_text(
        "@prefix ex: <https://example.org/hr#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        'ex:Person a rdfs:Class ; rdfs:label "person" .\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["kb", "build", str(tmp_path / "kb"), "--ontology", str(ontology)])
    assert result.exit_code == 1 and "https://example.org/hr#Person is not a Wikidata-style IRI" in " ".join(
        result.output.split()
    )
