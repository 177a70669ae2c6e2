"""Linking benchmark (no LLM): recall@1/5/10 and latency of the URI retrieval tool on gold mentions.

Query sets (a text whose gold answer is one Wikidata id):

* ``rebel-sample`` entities: each gold entity surface form -> its QID;
* ``rebel-sample`` properties: the sentence that holds a gold triple -> the triple's PID;
* ``fewrel`` properties: the sentence -> PID, and the phrase between head and tail mention -> PID.

Each set is searched once per mode (``label``, ``description``, ``example`` for properties,
``fused``) and embedding model, against the KB a system would use: the closed-world ``rebel`` KB
(every entity of the 1,000 documents) for rebel-sample, the default KB for FewRel. Latency is
wall-clock time of ``kb.search``, after a warm-up query (so no index building is timed) and
with the in-memory vector memos emptied before each mode (so no mode profits from another).

    from graphwright.bench.eval.linking import run_linking_benchmark
    rows, markdown = run_linking_benchmark(["rebel-sample", "fewrel"], ["minilm", "minilm-static"], limit=300)
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from graphwright.bench.data.files import data_file, read_json
from graphwright.bench.data.tokens import detokenize
from graphwright.kb import LocalKB, get_embedder, open_kb
from graphwright.registry import Registry
from graphwright.text import sentence_spans

MODES = ("label", "description", "example", "fused")
CUTOFFS = (1, 5, 10)
# Warm-up text: it asks for an identifier, so the identifier-property indices get built too
# (a timed sentence with "number" or "code" in it would otherwise build them).
WARM_UP = "warm up identifier"
_QID, _PID = re.compile(r"Q[1-9]\d*"), re.compile(r"P[1-9]\d*")


@dataclass(frozen=True)
class LinkingQuery:
    text: str
    gold: str  # the QID or PID the URI retrieval tool should return
    dataset: str  # "rebel-sample", "fewrel"
    query: str  # what the text is: "surface", "sentence", "phrase"


@dataclass(frozen=True)
class LinkingRow:
    dataset: str
    target: str  # "entity" or "property"
    query: str
    embedder: str
    mode: str
    n: int
    recall: tuple[float | None, ...]  # at CUTOFFS; None for a cutoff above the search depth
    ms_per_query: float
    missing_gold: int = 0  # gold ids the KB does not hold (always misses)


# ---- query sets -----------------------------------------------------------------------------------


def _rebel_docs() -> list[dict]:
    docs = read_json(data_file("rebel-sample", "sample.jsonl.gz"))

    # Numeric docids sort as numbers, so "the first N" does not depend on their digit counts.
    def key(doc: dict) -> tuple:
        docid = str(doc["docid"])
        return (0, int(docid), "") if docid.isdigit() else (1, 0, docid)

    return sorted(docs, key=key)


def _take(pairs: Iterable[LinkingQuery], limit: int | None) -> list[LinkingQuery]:
    """First ``limit`` distinct (text, gold) queries."""
    out, seen = [], set()
    for q in pairs:
        if q.text and (q.text, q.gold) not in seen:
            seen.add((q.text, q.gold))
            out.append(q)
            if limit is not None and len(out) >= limit:
                break
    return out


def rebel_entity_queries(limit: int | None = None) -> list[LinkingQuery]:
    """Gold entity surface forms -> QID, documents by docid, mentions in text order."""

    def pairs():
        for doc in _rebel_docs():
            for ent in sorted(doc.get("entities", []), key=lambda e: (e.get("boundaries") or [0])[0]):
                uri, surface = str(ent.get("uri") or ""), (ent.get("surfaceform") or "").strip()
                if _QID.fullmatch(uri):  # dates and quantities are literals, not KB entities
                    yield LinkingQuery(surface, uri, "rebel-sample", "surface")

    return _take(pairs(), limit)


def triple_sentence(text: str, spans: list[tuple[int, int]], triple: dict) -> str:
    """The sentence holding the triple's object (and its subject, unless the aligner says the subject
    is implicit, as for the article's own topic); REBEL's sentence_id when there are no boundaries."""

    def index(pos: int) -> int:
        return next(i for i, (a, b) in enumerate(spans) if a <= pos < b or i == len(spans) - 1)

    obj = (triple.get("object") or {}).get("boundaries")
    subj = (triple.get("subject") or {}).get("boundaries")
    if not spans:
        return ""
    if not obj:
        sid = triple.get("sentence_id")
        return text[slice(*spans[sid])].strip() if isinstance(sid, int) and 0 <= sid < len(spans) else ""
    first = last = index(obj[0])
    if subj and "NoSubject" not in str(triple.get("annotator", "")):
        first, last = min(first, index(subj[0])), max(last, index(subj[0]))
    return text[spans[first][0] : spans[last][1]].strip()


def rebel_property_queries(limit: int | None = None) -> list[LinkingQuery]:
    """The sentence of each gold triple -> its PID, documents by docid, triples in file order."""

    def pairs():
        for doc in _rebel_docs():
            spans = sentence_spans(doc["text"])
            for triple in doc.get("triples", []):
                pid = str((triple.get("predicate") or {}).get("uri") or "")
                if _PID.fullmatch(pid):
                    yield LinkingQuery(triple_sentence(doc["text"], spans, triple), pid, "rebel-sample", "sentence")

    return _take(pairs(), limit)


def between_mentions(tokens: list[str], head: list[list[int]], tail: list[list[int]]) -> list[str]:
    """Tokens between the closest non-overlapping pair of head and tail mentions ([] if adjacent)."""
    gaps = []
    for h in head:
        for t in tail:
            a, b = (h, t) if h[-1] < t[0] else (t, h)
            if a[-1] < b[0]:
                gaps.append((b[0] - a[-1], a[-1] + 1, b[0]))
    if not gaps:
        return []
    _, start, end = min(gaps)
    return tokens[start:end]


def _phrase(tokens: list[str]) -> str:
    # Mentions often sit in brackets or quotes; a phrase of punctuation alone is no query at all.
    text = detokenize(tokens).strip(" ,;:\"'()")
    return text if any(c.isalpha() for c in text) else ""


def fewrel_property_queries(
    limit: int | None = None, per_relation: int | None = 20, variants: Sequence[str] = ("sentence", "phrase")
) -> list[LinkingQuery]:
    """FewRel 1.0 val -> PID, taken round-robin over the 16 relations (a small limit still covers
    them all): ``per_relation`` instances of each at most, ``limit`` queries per variant at most.
    The ``phrase`` variant skips instances with no word between the mentions ("X and Y", "X, \"Y\"")."""
    data: dict[str, list[dict]] = read_json(data_file("fewrel", "val_wiki.json.gz"))
    relations = sorted(data, key=lambda p: int(p[1:]) if _PID.fullmatch(p) else 0)
    depth = max((len(v) for v in data.values()), default=0)
    depth = min(depth, per_relation) if per_relation is not None else depth
    order = [(pid, data[pid][i]) for i in range(depth) for pid in relations if i < len(data[pid])]
    out: list[LinkingQuery] = []
    for variant in variants:
        if variant not in ("sentence", "phrase"):
            raise ValueError(f"unknown FewRel query variant {variant!r}; use 'sentence' or 'phrase'")
        out += _take(
            (
                LinkingQuery(
                    detokenize(inst["tokens"])
                    if variant == "sentence"
                    else _phrase(between_mentions(inst["tokens"], inst["h"][2], inst["t"][2])),
                    pid,
                    "fewrel",
                    variant,
                )
                for pid, inst in order
            ),
            limit,
        )
    return out


# ---- measuring ------------------------------------------------------------------------------------


def _embedder_label(kb) -> str:
    spec = getattr(kb, "_embedder_spec", None)
    return spec if isinstance(spec, str) else getattr(spec, "name", "-")


def _clear_memos(kb) -> None:
    clear = getattr(getattr(kb, "vectors", None), "clear_memo", None)
    if clear is not None:
        clear()


def run_linking(
    kb,
    queries: Sequence[LinkingQuery],
    *,
    kind: str,
    modes: Sequence[str] = MODES,
    k: int = 10,
    embedder: str | None = None,
) -> list[LinkingRow]:
    """One row per (dataset, query type) group of ``queries`` and per mode ("example" only for
    properties). ``kb`` needs ``search(text, kind=, mode=, k=)`` returning hits with ``.record.id``."""
    groups: dict[tuple[str, str], list[LinkingQuery]] = {}
    for q in queries:
        groups.setdefault((q.dataset, q.query), []).append(q)
    label = embedder or _embedder_label(kb)
    contains: Callable[[str], bool] = getattr(kb, "contains", lambda _id: True)
    rows = []
    for (dataset, query), group in groups.items():
        missing = sum(1 for q in group if not contains(q.gold))
        for mode in modes:
            if mode == "example" and kind != "property":
                continue
            kb.search(WARM_UP, kind=kind, mode=mode, k=k)
            _clear_memos(kb)
            ranks, seconds = [], 0.0
            for q in group:
                t0 = time.perf_counter()
                hits = kb.search(q.text, kind=kind, mode=mode, k=k)
                seconds += time.perf_counter() - t0
                ids = [h.record.id for h in hits]
                ranks.append(ids.index(q.gold) if q.gold in ids else None)
            n = len(group)
            recall = tuple(
                sum(1 for r in ranks if r is not None and r < c) / n if c <= k and n else None for c in CUTOFFS
            )
            rows.append(
                LinkingRow(
                    dataset, kind, query, label, mode, n, recall, round(1000 * seconds / n, 2) if n else 0.0, missing
                )
            )
    return rows


def linking_table(rows: Sequence[LinkingRow]) -> str:
    """Markdown: one line per row, recall as fractions, latency in milliseconds per query."""
    head = ["dataset", "target", "query", "embedder", "mode", "n", *(f"R@{c}" for c in CUTOFFS), "ms/query"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i < 5 else "---:" for i in range(len(head))) + "|"]
    for r in rows:
        cells = [
            r.dataset,
            r.target,
            r.query,
            r.embedder,
            r.mode,
            str(r.n),
            *("–" if x is None else f"{x:.3f}" for x in r.recall),
            f"{r.ms_per_query:.1f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# ---- the benchmark --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinkingSet:
    kb: str  # the KB name for graphwright.kb.open_kb
    kind: str
    load: Callable[[int | None, int | None], list[LinkingQuery]]  # (limit, per_relation) -> queries


LINKING_SETS: Registry[list[LinkingSet]] = Registry("linking dataset")
LINKING_SETS.register("rebel-sample")(
    [
        LinkingSet("rebel", "entity", lambda limit, _: rebel_entity_queries(limit)),
        LinkingSet("rebel", "property", lambda limit, _: rebel_property_queries(limit)),
    ]
)
LINKING_SETS.register("fewrel")(
    [LinkingSet("default", "property", lambda limit, per: fewrel_property_queries(limit, per))]
)


def run_linking_benchmark(
    datasets: Sequence[str] = ("rebel-sample", "fewrel"),
    embedders: Sequence[str] = ("minilm", "minilm-static"),
    modes: Sequence[str] = MODES,
    limit: int | None = 300,
    *,
    per_relation: int | None = None,
    k: int = 10,
) -> tuple[list[LinkingRow], str]:
    """Run the linking benchmark and return (rows, Markdown).

    datasets: names in LINKING_SETS: "rebel-sample" (entity surface forms and triple sentences,
      against the closed-world ``rebel`` KB) and "fewrel" (sentences and between-mention phrases,
      against the ``default`` KB).
    embedders: names in graphwright.kb.EMBEDDERS; each gets its own KB instance (and index cache).
    modes: search modes to compare; "example" is skipped for entities.
    limit: queries per query set (None = all); per_relation: FewRel instances per relation (None = no cap).
    k: search depth; recall is reported at 1, 5 and 10.
    The Markdown is the table, then the seconds spent building embedding indices and the static table.
    """
    sets = [(name, s) for name in datasets for s in LINKING_SETS.get(name)]
    kbs: dict[tuple[str, str], LocalKB] = {}
    rows: list[LinkingRow] = []
    for _, spec in sets:
        queries = spec.load(limit, per_relation)
        for emb in embedders:
            if (spec.kb, emb) not in kbs:
                kbs[(spec.kb, emb)] = LocalKB(open_kb(spec.kb).path, embedder=emb)
            rows += run_linking(kbs[(spec.kb, emb)], queries, kind=spec.kind, modes=modes, k=k, embedder=emb)
    notes = []
    for (kb_name, emb), kb in kbs.items():
        built = kb.vectors.build_seconds
        if built:
            parts = ", ".join(f"{name} {sec:.1f} s" for name, sec in built.items())
            notes.append(f"- index build, {kb_name} KB, {emb}: {parts}")
    for emb in embedders:
        seconds = getattr(get_embedder(emb), "build_seconds", None)
        if seconds is not None:
            notes.append(f"- {emb} token table distilled in {seconds:.1f} s")
    return rows, linking_table(rows) + ("\n" + "\n".join(notes) + "\n" if notes else "")
