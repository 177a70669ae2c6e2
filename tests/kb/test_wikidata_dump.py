"""`kb build --wikidata-dump`: a small dump in the real JSON layout (gzip, bzip2, plain) imported into
a KB, with filters, resume after an interruption, and bad input (no model: a hashing embedder)."""

from __future__ import annotations

import bz2
import gzip
import json
import signal
from dataclasses import asdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.errors import UserError
from graphwright.kb import LocalKB, build_kb
from graphwright.kb.wikidata_dump import Filters, build_from_dump, work_dir
from tests.kb.fakes import HashEmbedder

runner = CliRunner()


def _snak(pid: str, value: str, snaktype: str = "value") -> dict:
    kind = "item" if value.startswith("Q") else "property"
    return {
        "snaktype": snaktype,
        "property": pid,
        "datatype": f"wikibase-{kind}",
        "datavalue": {
            "type": "wikibase-entityid",
            "value": {"entity-type": kind, "numeric-id": int(value[1:]), "id": value},
        },
    }


def _claim(pid: str, value: str, rank: str = "normal", qualifiers: dict[str, list[str]] | None = None) -> dict:
    st = {"mainsnak": _snak(pid, value), "type": "statement", "rank": rank, "id": f"X${pid}-{value}"}
    if qualifiers:
        st["qualifiers"] = {q: [_snak(q, v) for v in vals] for q, vals in qualifiers.items()}
        st["qualifiers-order"] = list(qualifiers)
    return st


def _entity(
    eid: str,
    label: str | None,
    *,
    lang: str = "en",
    description: str = "",
    aliases=(),
    claims=(),
    sitelinks: int = 0,
    kind: str = "item",
    **extra,
) -> dict:
    out = {
        "type": kind,
        "id": eid,
        "labels": {lang: {"language": lang, "value": label}} if label else {},
        "descriptions": {"en": {"language": "en", "value": description}} if description else {},
        "aliases": {"en": [{"language": "en", "value": a} for a in aliases]} if aliases else {},
        "claims": {},
        **extra,
    }
    for st in claims:
        out["claims"].setdefault(st["mainsnak"]["property"], []).append(st)
    if kind == "item":
        out["sitelinks"] = {f"wiki{i}": {"site": f"wiki{i}", "title": label, "badges": []} for i in range(sitelinks)}
    return out


ENTITIES = [
    _entity(
        "Q42",
        "Douglas Adams",
        description="English writer and humorist",
        aliases=["Douglas Noël Adams", "DNA"],
        claims=[_claim("P31", "Q5")],
        sitelinks=3,
    ),
    # only a "mul" label; a deprecated P31 must not count
    _entity(
        "Q1001",
        "Mahatma",
        lang="mul",
        claims=[_claim("P31", "Q5"), _claim("P31", "Q7278", rank="deprecated")],
        sitelinks=1,
    ),
    _entity("Q5", "human", aliases=["person", "human being"], claims=[_claim("P279", "Q154954")], sitelinks=5),
    _entity("Q154954", "natural person", claims=[_claim("P279", "Q215627")], sitelinks=1),
    _entity("Q215627", "person", claims=[_claim("P279", "Q35120")], sitelinks=2),
    _entity("Q49762", "Christian Democratic Union", aliases=["CDU"], claims=[_claim("P31", "Q7278")], sitelinks=4),
    _entity("Q7278", "political party", claims=[_claim("P279", "Q43229")], sitelinks=2),
    _entity("Q999", "nur Deutsch", lang="de", claims=[_claim("P31", "Q5")], sitelinks=9),  # no English label
    _entity(
        "P102",
        "member of political party",
        kind="property",
        datatype="wikibase-item",
        description="the political party of which a person is or has been a member",
        aliases=["party"],
        claims=[
            _claim("P1647", "P463"),
            _claim("P1855", "Q42"),
            _claim("P2302", "Q21503250", qualifiers={"P2308": ["Q5", "Q215627"], "P2309": ["Q21503252"]}),
            _claim("P2302", "Q21510865", qualifiers={"P2308": ["Q7278"]}),
            _claim("P2302", "Q19474404"),
        ],
    ),  # single-value constraint: not a type constraint
    _entity(
        "P19", "place of birth", kind="property", datatype="wikibase-item", claims=[_claim("P2302", "Q21503250")]
    ),  # declared without its class
    {"type": "lexeme", "id": "L7", "lemmas": {"en": {"language": "en", "value": "cat"}}, "lexicalCategory": "Q1084"},
]
ITEMS = ["Q42", "Q1001", "Q5", "Q154954", "Q215627", "Q49762", "Q7278"]


def write_dump(path: Path, entities=ENTITIES, *, malformed_at: int | None = None) -> Path:
    """The official layout: '[', one entity per line ending in ',' (not the last), ']'."""
    lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entities]
    if malformed_at is not None:
        lines.insert(malformed_at, '{"type":"item","id":"Q77","labels":{"en":')
    text = "[\n" + ",\n".join(lines) + "\n]\n"
    data = text.encode("utf-8")
    if path.suffix == ".gz":
        data = gzip.compress(data)
    elif path.suffix == ".bz2":
        data = bz2.compress(data)
    path.write_bytes(data)
    return path


def open_kb(path: Path) -> LocalKB:
    return LocalKB(path, embedder=HashEmbedder())


@pytest.mark.parametrize("name", ["latest-all.json.gz", "latest-all.json.bz2", "latest-all.json"])
def test_dump_import_reads_items_properties_and_constraint_classes(tmp_path, name):
    dump = write_dump(tmp_path / name)
    result = build_from_dump(tmp_path / "kb", dump)
    s = result.stats
    assert (s.entities_read, s.items_kept, s.properties_kept, s.unlabelled, s.other_types, s.malformed) == (
        11,
        7,
        2,
        1,
        1,
        0,
    )
    assert not work_dir(tmp_path / "kb").exists()  # the intermediate files go once the KB is built
    with open_kb(result.path) as kb:
        adams = kb.get("Q42")
        assert adams.label == "Douglas Adams" and adams.description == "English writer and humorist"
        assert adams.aliases == ["Douglas Noël Adams", "DNA"] and adams.types == ["Q5"] and adams.sitelinks == 3
        mahatma = kb.get("Q1001")
        assert mahatma.label == "Mahatma" and mahatma.types == ["Q5"] and mahatma.sitelinks == 1
        assert kb.get("Q5").aliases == ["person", "human being"]
        assert kb.superclasses("Q5") == ["Q154954"] and "Q215627" in kb.superclasses("Q5", depth=3)
        assert kb.get("Q999") is None and kb.get("L7") is None
        p102 = kb.get("P102")
        assert p102.label == "member of political party" and p102.aliases == ["party"]
        assert p102.datatype == "wikibase-item" and p102.super_properties == ["P463"]
        assert p102.subject_types == ["Q5", "Q215627"] and p102.value_types == ["Q7278"]
        assert p102.unchecked_constraints == [] and p102.sitelinks is None
        assert p102.examples == ["Douglas Adams member of political party …"]
        assert kb.get("P19").unchecked_constraints == ["subject type"] and kb.get("P19").subject_types == []
        assert kb.find_label("CDU", kind="entity")[0].id == "Q49762"
        assert [s["kind"] for s in kb.manifest["sources"]] == ["wikidata-json-dump"]
        assert kb.manifest["counts"]["entity"] == 7 and kb.manifest["counts"]["property"] == 2


def test_filters_keep_popular_items_of_given_types_and_the_classes_they_name(tmp_path):
    dump = write_dump(tmp_path / "dump.json.gz")
    result = build_from_dump(tmp_path / "kb", dump, filters=Filters(min_sitelinks=2, keep_types=("Q5",)))
    assert (result.stats.items_kept, result.stats.properties_kept, result.stats.filtered) == (1, 2, 6)
    with open_kb(result.path) as kb:
        assert kb.get("Q42").sitelinks == 3
        assert kb.get("Q1001") is None  # one sitelink
        assert kb.get("Q49762") is None  # a political party, not a human
        # kept as the type of Q42 and its superclasses, and as P102's value type, though filtered out
        for cls in ("Q5", "Q154954", "Q215627", "Q7278"):
            assert kb.get(cls) is not None, cls
        assert result.stats.classes_kept == 4
        assert kb.superclasses("Q7278") == ["Q43229"] and kb.get("Q43229") is None  # not in the dump
        assert kb.get("P19") is not None  # properties are always kept


def _stats_without_position(stats) -> dict:
    return {k: v for k, v in asdict(stats).items() if k not in ("resumed_at_line", "bytes_read")}


@pytest.mark.parametrize("name", ["dump.json.gz", "dump.json"])
def test_interrupted_import_resumes_without_loss_or_duplicates(tmp_path, name):
    dump = write_dump(tmp_path / name)
    reference = build_from_dump(tmp_path / "reference", dump)
    out = tmp_path / "kb"

    def interrupt(stats):
        if stats.entities_read == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_from_dump(out, dump, batch_lines=3, progress_every=1, on_progress=interrupt)
    work = work_dir(out)
    state = json.loads((work / "state.json").read_text())
    assert not out.exists() and state["stats"]["entities_read"] == 4 and not state["complete"]
    # lines 4 and 5, read after the batch saved at line 3 and before Ctrl-C, were saved too
    assert [json.loads(x)["id"] for x in (work / "entities.jsonl").read_text().splitlines()] == [
        "Q42",
        "Q1001",
        "Q5",
        "Q154954",
    ]
    with open(work / "entities.jsonl", "ab") as fh:  # as if killed halfway through writing a line
        fh.write(b'{"id":"Q49762","label":"Christ')
    seen = []
    result = build_from_dump(out, dump, batch_lines=3, progress_every=1, on_progress=lambda s: seen.append(s.lines))
    assert result.stats.resumed_at_line == 5 and seen[0] == 6  # lines 1-5 were not read again
    assert _stats_without_position(result.stats) == _stats_without_position(reference.stats)
    with open_kb(result.path) as kb, open_kb(reference.path) as ref:
        assert kb.manifest["counts"] == ref.manifest["counts"]
        for rid in ITEMS + ["P102", "P19"]:
            assert kb.get(rid) == ref.get(rid), rid


def test_ctrl_c_in_the_middle_of_a_line_stops_after_it(tmp_path, monkeypatch):
    from graphwright.kb import wikidata_dump

    dump = write_dump(tmp_path / "dump.json.bz2")
    reference = build_from_dump(tmp_path / "reference", dump)
    classify = wikidata_dump.classify
    handler = signal.getsignal(signal.SIGINT)  # SIG_IGN when the tests run as a background job

    def ctrl_c_while_classifying(entity, filters):
        if entity["id"] == "Q215627":
            signal.raise_signal(signal.SIGINT)  # arrives while the line is half done
        return classify(entity, filters)

    monkeypatch.setattr(wikidata_dump, "classify", ctrl_c_while_classifying)
    with pytest.raises(KeyboardInterrupt):
        build_from_dump(tmp_path / "kb", dump)
    state = json.loads((work_dir(tmp_path / "kb") / "state.json").read_text())
    assert (state["stats"]["lines"], state["stats"]["entities_read"], state["stats"]["items_kept"]) == (6, 5, 5)
    monkeypatch.setattr(wikidata_dump, "classify", classify)
    result = build_from_dump(tmp_path / "kb", dump)
    assert _stats_without_position(result.stats) == _stats_without_position(reference.stats)
    assert signal.getsignal(signal.SIGINT) is handler  # the handler is put back


def test_changed_filters_start_the_import_again(tmp_path):
    dump = write_dump(tmp_path / "dump.json")
    out = tmp_path / "kb"

    def interrupt(stats):
        if stats.entities_read == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_from_dump(out, dump, batch_lines=2, progress_every=1, on_progress=interrupt)
    warnings = []
    result = build_from_dump(out, dump, filters=Filters(min_sitelinks=3), warn=warnings.append)
    assert result.stats.resumed_at_line == 0 and "other filters" in warnings[0]
    assert result.stats.items_kept == 3  # Q42, Q5, Q49762


def test_finished_import_is_kept_on_rerun_unless_overwrite(tmp_path):
    dump = write_dump(tmp_path / "dump.json.bz2")
    first = build_from_dump(tmp_path / "kb", dump)
    again = build_from_dump(tmp_path / "kb", dump, filters=Filters(min_sitelinks=4))
    assert again.existed and again.stats.entities_read == 0
    with open_kb(first.path) as kb:
        assert kb.get("Q42") is not None
    rebuilt = build_from_dump(tmp_path / "kb", dump, filters=Filters(min_sitelinks=4), overwrite=True)
    assert not rebuilt.existed
    with open_kb(rebuilt.path) as kb:
        assert kb.get("Q42") is None and kb.get("Q49762").sitelinks == 4


def test_malformed_line_is_counted_and_skipped(tmp_path):
    dump = write_dump(tmp_path / "dump.json.gz", malformed_at=2)
    warnings = []
    result = build_from_dump(tmp_path / "kb", dump, warn=warnings.append)
    assert result.stats.malformed == 1 and result.stats.items_kept == 7
    assert len(warnings) == 1 and f"{dump}:4: malformed line skipped" in warnings[0]


def test_truncated_gzip_names_the_file_and_line(tmp_path):
    full = gzip.compress(("[\n" + ",\n".join(json.dumps(e) for e in ENTITIES * 40) + "\n]\n").encode())
    dump = tmp_path / "latest-all.json.gz"
    dump.write_bytes(full[: len(full) * 2 // 3])
    with pytest.raises(UserError, match=r"latest-all\.json\.gz: the gzip data breaks off after line \d+"):
        build_from_dump(tmp_path / "kb", dump)
    assert not (tmp_path / "kb").exists()


@pytest.mark.parametrize(
    "content, message",
    [
        (b"id,label\nQ42,Douglas Adams\n", "line 1 starts with b'id,label': not a Wikidata JSON dump"),
        (b"", "is empty: not a Wikidata JSON dump"),
        (b"{no json\n{nor this\n", "none of its 2 entity lines could be read"),
    ],
)
def test_not_a_dump_is_a_clear_error(tmp_path, content, message):
    dump = tmp_path / "dump.json"
    dump.write_bytes(content)
    with pytest.raises(UserError, match=message) as err:
        build_from_dump(tmp_path / "kb", dump)
    assert str(dump) in str(err.value) and not work_dir(tmp_path / "kb").exists()


def test_missing_dump_and_foreign_output_folder_fail_before_reading(tmp_path):
    with pytest.raises(UserError, match="Wikidata dump not found"):
        build_from_dump(tmp_path / "kb", tmp_path / "nope.json.gz")
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not a graphwright KB directory"):
        build_from_dump(tmp_path / "kb", write_dump(tmp_path / "dump.json"))
    assert not work_dir(tmp_path / "kb").exists()


def test_sitelinks_in_entity_jsonl_are_optional(tmp_path):
    path = tmp_path / "entities.jsonl"
    path.write_text(
        json.dumps({"id": "Q1", "label": "Universe", "sitelinks": 250})
        + "\n"
        + json.dumps({"id": "Q2", "label": "Earth"})
        + "\n"
    )
    with open_kb(build_kb(tmp_path / "kb", properties_dir=False, arnold_dir=False, entity_files=[path])) as kb:
        assert kb.get("Q1").sitelinks == 250 and kb.get("Q2").sitelinks is None  # as in KBs built before
        assert kb.sparql("SELECT ?n WHERE { wd:Q1 wikibase:sitelinks ?n }")[0]["n"] == "250"
    path.write_text(json.dumps({"id": "Q1", "label": "Universe", "sitelinks": "many"}) + "\n")
    with pytest.raises(UserError, match=r"entities\.jsonl:1: 'sitelinks' must be a count"):
        build_kb(tmp_path / "kb2", properties_dir=False, arnold_dir=False, entity_files=[path])


def test_cli_builds_from_a_dump_and_keeps_it_on_rerun(tmp_path):
    dump = write_dump(tmp_path / "latest-all.json.gz")
    out = tmp_path / "kb"
    args = ["kb", "build", str(out), "--wikidata-dump", str(dump), "--min-sitelinks", "2", "--keep-types", "Q5, Q7278"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "11 entities read" in result.stdout and f"KB written to {out}" in result.stdout
    with open_kb(out) as kb:
        assert kb.get("Q42").sitelinks == 3 and kb.get("Q49762").types == ["Q7278"] and kb.get("Q1001") is None
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "already exists" in again.stdout and "entities read" not in again.stdout
    rebuilt = runner.invoke(app, ["kb", "build", str(out), "--wikidata-dump", str(dump), "--overwrite"])
    assert rebuilt.exit_code == 0, rebuilt.output
    with open_kb(out) as kb:
        assert kb.get("Q1001").label == "Mahatma"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--wikidata-dump", "DUMP", "--keep-types", "Q5,human"], "--keep-types takes item ids"),
        (["--min-sitelinks", "3", "--properties", "x"], "filter a --wikidata-dump"),
    ],
)
def test_cli_rejects_bad_dump_options(tmp_path, args, message):
    dump = write_dump(tmp_path / "dump.json")
    args = [str(dump) if a == "DUMP" else a for a in args]
    result = runner.invoke(app, ["kb", "build", str(tmp_path / "kb"), *args])
    assert result.exit_code == 1 and message in result.output
    assert not (tmp_path / "kb").exists()
