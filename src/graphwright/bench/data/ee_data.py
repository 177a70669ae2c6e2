"""Event-extraction (EE) datasets: short texts with gold events (type, trigger, role-labelled arguments).

wikievents, casie, rams, genia-event, phee and mlee are read from the data directory. Each gives a test
split to score on, a labelled pool for few-shot demonstrations (never a test item) and an
:class:`EventSchema` with the event types and their roles.

An item is one sentence (WikiEvents, CASIE) or the dataset's own window (RAMS: five sentences; the
TextEE files of GENIA, PHEE and MLEE: one sentence or so), and only items with at least one event are
kept: an item without events tests nothing an event scorer can see. Every gold trigger and argument is
written in the item's text with its character offsets (``text[start:end]`` is the trigger or argument):
where the data keeps the original text and the tokens' place in it (WikiEvents, CASIE, the TextEE
files), that text is used; where it has only tokens (RAMS), the text is the tokens joined by one space.
Arguments outside the item (WikiEvents and CASIE annotate across sentences) are dropped, and each
dataset's note says how many. Exact duplicate events (same type, trigger and arguments) are merged.
"""

from __future__ import annotations

import json
import re
import tarfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import IO

from pydantic import BaseModel, Field

from graphwright.bench.data.files import data_file, open_text, read_json
from graphwright.bench.data.gold import GoldArgument, GoldDocument, GoldEvent
from graphwright.model.events import EventSchema, EventType
from graphwright.registry import Registry
from graphwright.text import sentence_spans


class EESample(BaseModel):
    id: str
    text: str
    events: list[GoldEvent] = Field(default_factory=list)


@dataclass
class EEDataset:
    name: str
    schema: EventSchema
    test: list[EESample]
    pool: list[EESample]  # labelled samples for few-shot demonstrations; never the test items
    note: str = ""


EE_DATASETS: Registry[Callable[[], EEDataset]] = Registry("event extraction dataset")


@lru_cache(maxsize=8)
def load_ee_dataset(name: str) -> EEDataset:
    """A registered EE dataset, read once per process."""
    return EE_DATASETS.get(name)()


def gold_documents(dataset: EEDataset, limit: int | None = None) -> list[GoldDocument]:
    """Test items as gold documents with their events (types and roles by name, as in the schema)."""
    return [
        GoldDocument(id=s.id, text=s.text, events=s.events) for s in (dataset.test[:limit] if limit else dataset.test)
    ]


def _register(name: str):
    """Register a loader (graphwright.bench.eval.datasets makes each an eval dataset scored by the EE metrics)."""
    return EE_DATASETS.register(name)


# ---- building items ----------------------------------------------------------------------------------------


class _Tally:
    """What a reader dropped or repaired, for the dataset's note."""

    def __init__(self) -> None:
        self.dropped: Counter[str] = Counter()
        self.repaired: Counter[str] = Counter()

    def add(self, what: str, n: int = 1) -> None:
        self.dropped[what] += n

    def repair(self, what: str, n: int = 1) -> None:
        self.repaired[what] += n

    def text(self) -> str:
        def listed(counts: Counter[str]) -> str:
            return ", ".join(f"{n:,} {what}" for what, n in sorted(counts.items()) if n)

        parts = [f"dropped: {listed(self.dropped)}" if +self.dropped else "nothing dropped"]
        if +self.repaired:
            parts.append(f"merged or repaired: {listed(self.repaired)}")
        return "; ".join(parts)


def _argument(text: str, role: str, start: int | None, end: int | None) -> GoldArgument:
    return GoldArgument(role=role, surface=text[start:end], start=start, end=end)


def _event(text: str, kind: str, start: int, end: int, arguments: Iterable[GoldArgument]) -> GoldEvent:
    unique = list(dict.fromkeys((a.role, a.start, a.end) for a in arguments))
    return GoldEvent(
        type=kind,
        trigger=text[start:end],
        start=start,
        end=end,
        arguments=[_argument(text, r, s, e) for r, s, e in unique],
    )


def _sample(sample_id: str, text: str, events: list[GoldEvent], tally: _Tally) -> EESample:
    distinct = list({e.model_dump_json(): e for e in events}.values())
    tally.repair("exact duplicate events merged", len(events) - len(distinct))
    return EESample(id=sample_id, text=text, events=distinct)


def _apart(test: list[EESample], pool: list[EESample], tally: _Tally) -> list[EESample]:
    """The pool without items whose text is also a test item's (a repeated boilerplate sentence): a
    demonstration must never be a test item."""
    seen = {s.text for s in test}
    kept = [s for s in pool if s.text not in seen]
    tally.add("pool items whose text is also a test item's", len(pool) - len(kept))
    return kept


def token_offsets(tokens: list[str]) -> list[tuple[int, int]]:
    """Character offsets of each token in ``" ".join(tokens)``."""
    offsets, at = [], 0
    for token in tokens:
        offsets.append((at, at + len(token)))
        at += len(token) + 1
    return offsets


def align_tokens(text: str, tokens: list[str]) -> list[tuple[int, int]] | None:
    """Character offsets of each token in ``text``, read left to right with only whitespace between
    tokens; None when the tokens are not the text's words in order."""
    offsets, at = [], 0
    for token in tokens:
        found = text.find(token, at)
        if found < 0 or text[at:found].strip():
            return None
        offsets.append((found, found + len(token)))
        at = found + len(token)
    return offsets


def _schema(
    name: str, roles: Mapping[str, Iterable[str]], descriptions: dict[str, str] | None = None, note: str = ""
) -> EventSchema:
    descriptions = descriptions or {}
    return EventSchema(
        name=name,
        note=note,
        events=[
            EventType(name=kind, description=descriptions.get(kind, ""), roles=list(r)) for kind, r in roles.items()
        ],
    )


def _observed_roles(samples: Iterable[EESample]) -> dict[str, list[str]]:
    """Event types seen in the data with the roles seen for each, sorted."""
    roles: dict[str, set[str]] = defaultdict(set)
    for sample in samples:
        for event in sample.events:
            roles[event.type].update(a.role for a in event.arguments)
    return {kind: sorted(r) for kind, r in sorted(roles.items())}


def _declared_and_observed(
    declared: dict[str, list[str]], samples: Iterable[EESample], tally: _Tally
) -> dict[str, list[str]]:
    """The ontology's types and roles, with any type or role the annotation uses beyond it added (after the
    declared ones), so the schema covers every gold event."""
    roles = {kind: list(r) for kind, r in declared.items()}
    added = []
    for kind, seen in _observed_roles(samples).items():
        extra = [r for r in seen if r not in roles.setdefault(kind, [])]
        roles[kind] += extra
        added += [f"{kind} {r}" for r in extra]
    if added:
        tally.repair(f"roles the data uses beyond meta.json, added to the schema ({', '.join(added)})", len(added))
    return roles


SCHEMA_NOTE = "Triggers and arguments are copied word for word from the text."


# ---- wikievents (document-level KAIROS annotation; items are its sentences) -------------------------------


def _wikievents_items(split: str, tally: _Tally) -> list[EESample]:
    samples = []
    for doc in read_json(data_file("wikievents", f"{split}.jsonl.gz")):
        # token index -> (sentence, start, end) with offsets into the sentence's own text
        where: list[tuple[int, int, int]] = []
        for index, (tokens, _) in enumerate(doc["sentences"]):
            first = tokens[0][1]
            where.extend((index, start - first, end - first) for _, start, end in tokens)
        entities = {e["id"]: e for e in doc["entity_mentions"]}
        by_sentence: dict[int, list[GoldEvent]] = defaultdict(list)
        for mention in doc["event_mentions"]:
            trigger = mention["trigger"]
            sentence, start, _ = where[trigger["start"]]
            last, _, end = where[trigger["end"] - 1]
            text = doc["sentences"][sentence][1].rstrip()
            if last != sentence or text[start:end] != trigger["text"]:
                tally.add("events whose trigger crosses a sentence end or differs from the sentence")
                continue
            arguments = []
            for argument in mention["arguments"]:
                entity = entities.get(argument["entity_id"])
                if entity is None:
                    tally.add("arguments naming no entity mention")
                    continue
                first, last = where[entity["start"]], where[entity["end"] - 1]
                if first[0] != sentence or last[0] != sentence:
                    tally.add("arguments outside the trigger's sentence")
                    continue
                arguments.append(_argument(text, argument["role"], first[1], last[2]))
            by_sentence[sentence].append(_event(text, mention["event_type"], start, end, arguments))
        for sentence in sorted(by_sentence):
            samples.append(
                _sample(
                    f"{doc['doc_id']}-s{sentence}", doc["sentences"][sentence][1].rstrip(), by_sentence[sentence], tally
                )
            )
    return samples


@_register("wikievents")
def wikievents() -> EEDataset:
    """WikiEvents (KAIROS ontology, 49 event types): sentences of the 20 test documents with at least one event.

    Arguments (annotated document-wide) are kept when they lie in the trigger's sentence; the pool is the
    same from the 20 dev documents."""
    meta = read_json(data_file("wikievents", "meta.json"))
    tally = _Tally()
    test = _wikievents_items("test", tally)
    pool = _apart(test, _wikievents_items("dev", tally), tally)
    schema = _schema("wikievents", _declared_and_observed(dict(meta), test + pool, tally), note=SCHEMA_NOTE)
    return EEDataset(
        "wikievents",
        schema,
        test,
        pool,
        note=(
            f"WikiEvents (gen-arg release, MIT), test documents split into sentences; items: the {len(test):,} "
            f"sentences with at least one event trigger; arguments kept when inside the trigger's sentence; "
            f"pool: the same from dev ({len(pool):,}); {tally.text()}"
        ),
    )


# ---- casie (cybersecurity news articles with character offsets) ---------------------------------------------

CASIE_DESCRIPTIONS = {
    "Databreach": "personal or confidential data is accessed, stolen or exposed without authorisation",
    "Phishing": "attackers pose as a trusted party to trick victims, e.g. into giving away credentials or money",
    "Ransom": "attackers demand a payment, e.g. to give back data that ransomware has encrypted",
    "DiscoverVulnerability": "someone finds or reports a security vulnerability in a system",
    "PatchVulnerability": "a vendor releases a fix (patch, update) for a vulnerability",
}
CASIE_TEST_EVERY = 20  # sorted by number, articles at positions i % 20 < 3 are test: 150 of 1,000
CASIE_TEST_SHARE = 3


def _casie_shift(content: str, marks: list[dict]) -> int:
    """The shift under which most of an article's annotations match their text: in a few dozen articles all
    offsets are off by the same 1, 2 or 12 characters."""

    def hits(shift: int) -> int:
        return sum(content[m["startOffset"] + shift : m["endOffset"] + shift] == m["text"] for m in marks)

    if not marks or hits(0) == len(marks):
        return 0
    return max(range(-20, 21), key=lambda s: (hits(s), -abs(s)))


def _member_file(tar: tarfile.TarFile, member: tarfile.TarInfo) -> IO[bytes]:
    file = tar.extractfile(member)
    assert file is not None  # only regular files are read, and a regular file's member has one
    return file


def _casie_articles() -> list[tuple[str, dict]]:
    with tarfile.open(data_file("casie", "casie_annotation.tar.gz")) as tar:
        articles = [
            (member.name.rsplit("/", 1)[-1], json.load(_member_file(tar, member)))
            for member in tar.getmembers()
            if member.isfile() and member.name.endswith(".json")
        ]
    return sorted(articles, key=lambda item: int(item[0].removesuffix(".json")))


def _casie_items(name: str, article: dict, tally: _Tally) -> list[EESample]:
    content = article["content"]
    content = content[: content.index("</text>")] if "</text>" in content else content  # markup left in 2 files
    mentions = [e for hopper in (article.get("cyberevent") or {}).get("hopper", []) for e in hopper.get("events", [])]
    marks = [m for e in mentions for m in [e["nugget"], *e.get("argument", [])]]
    shift = _casie_shift(content, marks)
    if shift:
        tally.repair(f"articles whose offsets all moved by {shift} to fit the text")

    def span(mark: dict) -> tuple[int, int] | None:
        start, end = mark["startOffset"] + shift, mark["endOffset"] + shift
        return (start, end) if 0 <= start < end and content[start:end] == mark["text"] else None

    sentences = sentence_spans(content)
    by_sentence: dict[int, list[GoldEvent]] = defaultdict(list)
    for mention in mentions:
        trigger = span(mention["nugget"])
        inside = [i for i, (a, b) in enumerate(sentences) if trigger and a <= trigger[0] and trigger[1] <= b]
        if trigger is None or not inside:
            tally.add("events whose trigger does not match the text or crosses a sentence end")
            continue
        index = inside[0]
        first = sentences[index][0]
        text = content[slice(*sentences[index])]
        arguments = []
        for argument in mention.get("argument", []):
            where = span(argument)
            if where is None:
                tally.add("arguments whose offsets do not match their text")
            elif not (sentences[index][0] <= where[0] and where[1] <= sentences[index][1]):
                tally.add("arguments outside the trigger's sentence")
            else:
                arguments.append(_argument(text, argument["role"]["type"], where[0] - first, where[1] - first))
        by_sentence[index].append(_event(text, mention["subtype"], trigger[0] - first, trigger[1] - first, arguments))
    stem = name.removesuffix(".json")
    return [_sample(f"{stem}-s{i}", content[slice(*sentences[i])], by_sentence[i], tally) for i in sorted(by_sentence)]


@_register("casie")
def casie() -> EEDataset:
    """CASIE (cybersecurity news, 5 event types): sentences with at least one event, of 150 held-out articles.

    No official split: sorted by file number, every article at a position i with i % 20 < 3 is test, the
    rest the pool. Event types are the subtypes (Databreach, Phishing, Ransom, DiscoverVulnerability,
    PatchVulnerability); arguments outside the trigger's sentence are dropped."""
    tally = _Tally()
    test: list[EESample] = []
    pool: list[EESample] = []
    for position, (name, article) in enumerate(_casie_articles()):
        items = _casie_items(name, article, tally)
        (test if position % CASIE_TEST_EVERY < CASIE_TEST_SHARE else pool).extend(items)
    pool = _apart(test, pool, tally)
    schema = _schema("casie", _observed_roles(test + pool), CASIE_DESCRIPTIONS, note=SCHEMA_NOTE)
    return EEDataset(
        "casie",
        schema,
        test,
        pool,
        note=(
            "CASIE (Ebiquity; no official split): articles sorted by file number, those at positions i with "
            f"i % {CASIE_TEST_EVERY} < {CASIE_TEST_SHARE} (150) are test, the other 850 the pool; items: sentences "
            f"(split at . ! ? before a capital, not after abbreviations) with at least one event nugget: "
            f"{len(test):,} test, {len(pool):,} pool; event type = subtype; {tally.text()}"
        ),
    )


# ---- rams (five-sentence windows, one event each) ---------------------------------------------------------


def _rams_role(role: str) -> str:
    """``evt002arg01damager`` -> ``damager``."""
    return re.sub(r"^evt\d+arg\d+", "", role)


def _rams_items(split: str, tally: _Tally) -> list[EESample]:
    samples = []
    with open_text(data_file("rams", f"{split}.jsonlines.gz")) as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    for row in rows:
        tokens = [t for sentence in row["sentences"] for t in sentence]
        text, offsets = " ".join(tokens), token_offsets(tokens)
        events = []
        for start, end, labels in row["evt_triggers"]:  # token spans are inclusive
            trigger = (offsets[start][0], offsets[end][1])
            arguments = [
                _argument(text, _rams_role(role), offsets[a][0], offsets[b][1])
                for (t_start, t_end), (a, b), role in row["gold_evt_links"]
                if (t_start, t_end) == (start, end)
            ]
            events.append(_event(text, labels[0][0], *trigger, arguments))
        if events:
            samples.append(_sample(row["doc_key"], text, events, tally))
    return _merge_same_text(samples, tally)


def _merge_same_text(samples: list[EESample], tally: _Tally) -> list[EESample]:
    """One item per text: a window annotated for several events (one record each) becomes one item with
    all of them, under the first record's id, so that finding the other events is not a false positive."""
    by_text: dict[str, EESample] = {}
    for sample in samples:
        if sample.text in by_text:
            kept = by_text[sample.text]
            by_text[sample.text] = _sample(kept.id, kept.text, kept.events + sample.events, tally)
            tally.repair("records of an already seen window merged into it")
        else:
            by_text[sample.text] = sample
    return list(by_text.values())


@_register("rams")
def rams() -> EEDataset:
    """RAMS 1.0 (AIDA ontology, 139 event types): 5-sentence news windows with their annotated event(s).

    Each RAMS record annotates one event of a window (arguments may be in any of its sentences); records
    of the same window are merged into one item. Other events of a window are not annotated, so what a
    system finds of them counts as a false positive: precision is a lower bound. Pool: dev."""
    meta = read_json(data_file("rams", "meta.json"))
    tally = _Tally()
    test = _rams_items("test", tally)
    pool = _apart(test, _rams_items("dev", tally), tally)
    declared = {kind: [_rams_role(r) for r in roles] for kind, roles in meta}
    schema = _schema("rams", _declared_and_observed(declared, test + pool, tally), note=SCHEMA_NOTE)
    return EEDataset(
        "rams",
        schema,
        test,
        pool,
        note=(
            f"RAMS 1.0 (JHU, CC BY-SA 4.0): test windows ({len(test):,}), text = tokens joined by spaces; roles "
            f"without their evtNNNargNN prefix; only the records' events are annotated (about one per window), so "
            f"precision is a lower bound; pool: dev ({len(pool):,}); {tally.text()}"
        ),
    )


# ---- genia-event, phee, mlee (TextEE JSON of GenBEE) ---------------------------------------------------------

BIO_DESCRIPTIONS = {
    "Gene_expression": "a gene or protein is expressed (transcribed or translated)",
    "Transcription": "a gene is transcribed into RNA",
    "Protein_catabolism": "a protein is broken down",
    "Phosphorylation": "a phosphate group is added to a molecule",
    "Dephosphorylation": "a phosphate group is removed from a molecule",
    "Localization": "a molecule or cell moves to, or is found at, a place",
    "Binding": "molecules bind to each other or form a complex",
    "Dissociation": "a complex of molecules comes apart",
    "Regulation": "something affects a process or the amount of a molecule",
    "Positive_regulation": "something increases, activates or causes a process or the amount of a molecule",
    "Negative_regulation": "something decreases, inhibits or prevents a process or the amount of a molecule",
    "Cell_proliferation": "cells multiply",
    "Cell_division": "a cell divides",
    "Development": "a cell, tissue or organism develops or forms",
    "Blood_vessel_development": "blood vessels form (angiogenesis, vascularisation)",
    "Growth": "a cell, tissue, organ or tumour grows",
    "Death": "cells or organisms die",
    "Breakdown": "a cell, tissue or structure breaks down or is destroyed",
    "Remodeling": "a tissue is restructured",
    "Synthesis": "a substance is produced",
    "Catabolism": "a substance is broken down",
    "Metabolism": "a substance is metabolised",
    "Protein_processing": "a protein is processed, e.g. cleaved into its active form",
    "Pathway": "a signalling or molecular pathway acts",
    "Reproduction": "an organism reproduces",
    "Planned_process": "a deliberate action by people, e.g. a treatment, an administered drug or an experiment",
    "Adverse_event": "a treatment (a drug) causes a harmful or unwanted effect in a patient",
    "Potential_therapeutic_event": "a treatment (a drug) has, or may have, a beneficial effect on a patient",
}


def _textee_items(folder: str, split: str, tally: _Tally) -> list[tuple[str, EESample]]:
    """(document id, item) of every window with at least one event."""
    samples = []
    for row in read_json(data_file("genia-event", folder, f"{split}.jsonl.gz")):
        text, offsets = row["text"], align_tokens(row["text"], row["tokens"])
        if offsets is None:  # never in the shipped files; kept so any other TextEE file still reads exactly
            text, offsets = " ".join(row["tokens"]), token_offsets(row["tokens"])
        entities = {e["id"] for e in row.get("entity_mentions", [])}
        events = []
        for mention in row["event_mentions"]:
            trigger = mention["trigger"]
            arguments = []
            for argument in mention["arguments"]:
                if argument.get("entity_id") not in entities:  # an event as argument (nested): not a text span
                    tally.add("arguments that are events, not entities")
                    continue
                arguments.append(
                    _argument(text, argument["role"], offsets[argument["start"]][0], offsets[argument["end"] - 1][1])
                )
            events.append(
                _event(
                    text, mention["event_type"], offsets[trigger["start"]][0], offsets[trigger["end"] - 1][1], arguments
                )
            )
        if events:
            samples.append((row["doc_id"], _sample(row["wnd_id"], text, events, tally)))
    return samples


def _textee_dataset(name: str, test: list[EESample], pool: list[EESample], note: str, tally: _Tally) -> EEDataset:
    schema = _schema(name, _observed_roles(test + pool), BIO_DESCRIPTIONS, note=SCHEMA_NOTE)
    return EEDataset(name, schema, test, pool, note=f"{note}; {tally.text()}")


NESTED_NOTE = (
    "arguments are entity spans only: the GenBEE/TextEE files leave out the arguments that are other "
    "events (nested events), so a regulation of an event may have no arguments"
)


@_register("genia-event")
def genia_event() -> EEDataset:
    """GENIA 2011 (BioNLP-ST GE, 9 event types): PubMed sentences with at least one event, from the dev documents.

    Only dev is here (test labels are not public): its documents sorted by PMID, every third is the pool and
    the others are test. Arguments are entity spans only (arguments that are events are not in the files)."""
    tally = _Tally()
    items = _textee_items("genia2011", "dev", tally)
    in_pool = {d for i, d in enumerate(sorted({d for d, _ in items})) if i % 3 == 2}
    test = [s for d, s in items if d not in in_pool]
    pool = _apart(test, [s for d, s in items if d in in_pool], tally)
    return _textee_dataset(
        "genia-event",
        test,
        pool,
        (
            f"GENIA 2011 GE (GENIA Project License), the dev split only (test labels are not public): its documents "
            f"sorted by PMID, every third one (positions 2, 5, 8, ...) is the pool ({len(pool):,} items), the others "
            f"test ({len(test):,} items); items: sentences with at least one event; {NESTED_NOTE}"
        ),
        tally,
    )


@_register("phee")
def phee() -> EEDataset:
    """PHEE (pharmacovigilance, 2 event types, 16 roles): sentences of case reports on drug effects.

    Test sentences with at least one event; pool: dev."""
    tally = _Tally()
    test = [s for _, s in _textee_items("phee", "test", tally)]
    pool = _apart(test, [s for _, s in _textee_items("phee", "dev", tally)], tally)
    return _textee_dataset(
        "phee",
        test,
        pool,
        (f"PHEE (MIT): test sentences with at least one event ({len(test):,}); pool: dev ({len(pool):,})"),
        tally,
    )


@_register("mlee")
def mlee() -> EEDataset:
    """MLEE (multi-level biomedical events, PubMed abstracts on angiogenesis): sentences with at least one event.

    Pool: dev. Arguments are entity spans only (arguments that are events are not in the files)."""
    tally = _Tally()
    test = [s for _, s in _textee_items("mlee", "test", tally)]
    pool = _apart(test, [s for _, s in _textee_items("mlee", "dev", tally)], tally)
    return _textee_dataset(
        "mlee",
        test,
        pool,
        (f"MLEE: test sentences with at least one event ({len(test):,}); pool: dev ({len(pool):,}); {NESTED_NOTE}"),
        tally,
    )
