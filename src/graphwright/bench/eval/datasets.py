"""Evaluation datasets: closed IE (rebel-sample, fewrel, re-docred, any file in the generic format),
relation extraction (conll04, scierc, nyt, webnlg, duie2: read by :mod:`graphwright.bench.data.re_data`),
NER (:mod:`graphwright.bench.data.ner_data`) and event extraction (wikievents, casie, rams, genia-event, phee,
mlee: :mod:`graphwright.bench.data.ee_data`), each registered here as an eval dataset of its task.

Benchmark files are read from the data directory (``../shared/data``, or GRAPHWRIGHT_DATA_DIR) and
never copied; a missing file is a clear error naming it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from graphwright.bench.data import ee_data, ner_data, re_data
from graphwright.bench.data.files import data_file, read_json
from graphwright.bench.data.gold import GoldDocument, GoldTerm, GoldTriple, read_gold_jsonl
from graphwright.bench.data.tokens import detokenize, docred_text
from graphwright.linking.literals import parse_date
from graphwright.registry import Registry


@dataclass
class EvalDataset:
    name: str
    documents: list[GoldDocument]
    kb: str = "default"  # the KB a system should link against (a name for graphwright.kb.open_kb, or a path)
    match_names: bool = False  # gold entities that the KB lacks are also matched by name
    note: str = ""
    task: str = "closed-ie"  # which metrics score it: "closed-ie" (paper 000), "re" (001), "ner" (002) or "ee" (003)
    system_settings: dict = field(default_factory=dict)  # what a system needs to know of the data (its schema)


Loader = Callable[[int | None], EvalDataset]
DATASETS: Registry[Loader] = Registry("dataset")


def load_dataset(name_or_path: str, limit: int | None = None) -> EvalDataset:
    """A registered dataset by name, or a generic-format JSONL(.gz) file by path."""
    if name_or_path not in DATASETS and (Path(name_or_path).suffix in {".jsonl", ".gz"} or Path(name_or_path).exists()):
        docs = read_gold_jsonl(name_or_path)
        return EvalDataset(Path(name_or_path).name, docs[:limit] if limit else docs)
    return DATASETS.get(name_or_path)(limit)


def register_task_datasets(task: str, registry: Registry, load: Callable, gold: Callable) -> None:
    """Every dataset of a task's ``registry`` (graphwright.bench.data: RE, NER, EE) as an eval dataset of that
    ``task``: ``gold(load(name), limit)`` are its documents, the data's schema or domain its setting."""
    for name in registry.names():

        def eval_loader(limit: int | None = None, name: str = name) -> EvalDataset:
            data = load(name)
            return EvalDataset(
                name, gold(data, limit), kb="none", task=task, note=data.note, system_settings={"dataset": name}
            )

        eval_loader.__doc__ = registry.get(name).__doc__
        DATASETS.register(name)(eval_loader)


def dataset_names() -> list[str]:
    return DATASETS.names()


# ---- rebel-sample --------------------------------------------------------------------------------------


def rebel_sample(limit: int | None = None) -> EvalDataset:
    """The 1,000-abstract REBEL sample, first documents by docid. Documents without gold triples
    (80 of 1,000) are skipped: nothing could be scored on them. The matching KB (``rebel``) holds
    every entity of the sample, so this is a closed-world benchmark."""
    rows = sorted(read_json(data_file("rebel-sample", "sample.jsonl.gz")), key=lambda r: r["docid"])
    docs = []
    for row in rows:
        if not row["triples"]:
            continue
        docs.append(
            GoldDocument(
                id=str(row["docid"]),
                title=row.get("title"),
                text=row["text"],
                triples=[
                    GoldTriple(
                        subject=_rebel_term(t["subject"]),
                        predicate=GoldTerm(iri=t["predicate"]["uri"], surface=t["predicate"].get("surfaceform")),
                        object=_rebel_term(t["object"]),
                    )
                    for t in row["triples"]
                ],
            )
        )
        if limit and len(docs) >= limit:
            break
    return EvalDataset(
        "rebel-sample",
        docs,
        kb="rebel",
        note="REBEL sample (CC BY-NC-SA 4.0); closed world: the rebel KB holds every entity",
    )


DATASETS.register("rebel-sample")(rebel_sample)  # not as a decorator: that would type it as a Loader (limit required)


def _rebel_term(part: dict) -> GoldTerm:
    uri, bounds = part["uri"], part.get("boundaries") or [None, None]
    surface = part.get("surfaceform")
    if re.fullmatch(r"Q[1-9]\d*", uri):
        return GoldTerm(iri=uri, surface=surface, start=bounds[0], end=bounds[1])
    return GoldTerm(literal=uri, surface=surface, start=bounds[0], end=bounds[1])  # dates and quantities


# ---- fewrel ------------------------------------------------------------------------------------------


@DATASETS.register("fewrel")
def fewrel(limit: int | None = None) -> EvalDataset:
    """FewRel 1.0 validation sentences, one gold triple each, taken round-robin over the 16 relations
    so a small limit still covers them all. Only one relation per sentence is annotated, so precision
    is a lower bound. Its entities are mostly missing from the shipped KBs: they also match by name."""
    data = read_json(data_file("fewrel", "val_wiki.json.gz"))
    relations = sorted(data)
    docs: list[GoldDocument] = []
    for i in range(max(len(v) for v in data.values())):
        for pid in relations:
            if i < len(data[pid]):
                docs.append(_fewrel_doc(pid, i, data[pid][i]))
                if limit and len(docs) >= limit:
                    return EvalDataset("fewrel", docs, match_names=True)
    return EvalDataset("fewrel", docs, match_names=True, note="FewRel 1.0 val (MIT)")


def _fewrel_doc(pid: str, index: int, row: dict) -> GoldDocument:
    text = detokenize(row["tokens"])
    head, tail = row["h"], row["t"]
    return GoldDocument(
        id=f"{pid}-{index}",
        text=text,
        triples=[
            GoldTriple(
                subject=GoldTerm(iri=head[1], surface=_mention(row["tokens"], head[2])),
                predicate=GoldTerm(iri=pid),
                object=GoldTerm(iri=tail[1], surface=_mention(row["tokens"], tail[2])),
            )
        ],
    )


def _mention(tokens: list[str], positions: list[list[int]]) -> str:
    return detokenize([tokens[i] for i in positions[0]]) if positions and positions[0] else ""


# ---- re-docred -----------------------------------------------------------------------------------------


def re_docred(limit: int | None = None, split: str = "test") -> EvalDataset:
    """Re-DocRED documents (test split) with their revised relation labels. The data has no entity ids:
    subjects and objects are matched by any of their mention names."""
    rows = read_json(data_file("re-docred", f"{split}_revised.json.gz"))
    docs = []
    for index, row in enumerate(rows[:limit] if limit else rows):
        text = docred_text(row["sents"])
        entities = [_docred_term(v) for v in row["vertexSet"]]
        triples = [
            GoldTriple(subject=entities[lab["h"]], predicate=GoldTerm(iri=lab["r"]), object=entities[lab["t"]])
            for lab in row.get("labels", [])
        ]
        docs.append(GoldDocument(id=f"{split}-{index}", title=row.get("title"), text=text, triples=triples))
    return EvalDataset("re-docred", docs, note="Re-DocRED (MIT); entities matched by name")


DATASETS.register("re-docred")(re_docred)  # not as a decorator: that would type re_docred as a Loader, without split


def _docred_term(vertex: list[dict]) -> GoldTerm:
    names = sorted({m["name"] for m in vertex}, key=len, reverse=True)
    if vertex[0].get("type") == "TIME":  # a date is also its value: "13 March 1921" is 1921-03-13, as typed
        names += [d.lexical for d in map(parse_date, names) if d is not None and d.lexical not in names]
    return GoldTerm(surface=names[0], names=names[1:])


register_task_datasets("ner", ner_data.NER_DATASETS, ner_data.load_ner_dataset, ner_data.gold_documents)
register_task_datasets("re", re_data.RE_DATASETS, re_data.load_re_dataset, re_data.gold_documents)
register_task_datasets("ee", ee_data.EE_DATASETS, ee_data.load_ee_dataset, ee_data.gold_documents)
