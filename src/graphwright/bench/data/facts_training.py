"""Training examples for the `facts` adapter (issue 60): a text and every fact it states, as `facts` answers.

Two sources, neither of them a text a benchmark scores:
- Re-DocRED dev (500 Wikipedia lead sections, 96 Wikidata properties, revised to be complete, with evidence
  sentences; ../shared/data). A document is one example; a long one is cut into windows of consecutive
  sentences, each with the facts whose evidence and both names lie inside it. Names are the longest mention
  the example's text holds; dates and numbers are written as the text writes them; relations as `facts`'
  relation table writes the property (so mapping is exact), else as the property's label. Of each inverse
  pair one direction is kept (the other is turned round), and a symmetric fact is written once.
  Re-DocRED's redundancies are left out, as a user would not write them and the model learnt to loop on them:
  a nationality's adjective annotated as a place of its own ("Saverne | located in | French" beside
  "Saverne | country | France"; "Austrian | located in | European") and "located in" a country the fact
  "country" already gives (see ``redundant``).
- Short texts written for graphwright's training (``data/training/*.jsonl`` in the repository, CC0): people,
  companies, places and events the KB mostly lacks, with the relations DocRED does not have (occupation,
  chief executive, employees, product, named after...), a third of the facts users' texts state.

Re-DocRED's dev documents are shuffled with a fixed seed; the last ``DEV_DOCUMENTS`` of that order are never
trained on and give the learning curve its dev slice. The written texts are spread evenly through the
documents from ``WRITTEN_FROM`` on, so that a run stopped at any document has had its share.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from graphwright.bench.data.files import data_file, read_json
from graphwright.bench.data.tokens import docred_sentence, docred_text
from graphwright.errors import UserError
from graphwright.linking.names import DEMONYM_ENDINGS, DEMONYMS, normalize
from graphwright.systems.facts.relations import Mapping, ObjectKind, relation_table
from graphwright.systems.facts.system import TUNED_PROMPT

SEED = 60
DEV_DOCUMENTS = 40
MAX_WORDS = 300  # a longer document is cut into windows of at most WINDOW_WORDS words
WINDOW_WORDS = 200
WRITTEN_FROM = 1  # the document after which the written texts start
#: one direction of each inverse pair: the dropped property -> the kept one, read the other way round
INVERSES = {
    "P150": "P131",
    "P527": "P361",
    "P156": "P155",
    "P1376": "P36",
    "P710": "P1344",
    "P1441": "P674",
    "P1366": "P1365",
    "P355": "P749",
    "P22": "P40",
    "P25": "P40",
}
SYMMETRIC = {"P26", "P3373", "P190"}
LANGUAGES = {"P37", "P103", "P1412", "P364", "P407", "P2936"}  # "French" is the language's own name
#: the properties whose object may be a nationality's adjective ("an American actor": citizen of American)
ADJECTIVE_OBJECTS = {"P27", "P495", "P17", "P1001", "P205", "P172"} | LANGUAGES
_KINDS: dict[str, ObjectKind] = {"TIME": "date", "NUM": "number"}
_VALUE_OBJECTS = {"date": ("date",), "number": ("number", "amount", "quantity")}


@dataclass
class Example:
    source: str  # "re-docred:dev-<index>" or "written:<id>"
    text: str
    triples: list[tuple[str, str, str]]

    def messages(self) -> list[dict]:
        """The conversation `facts` has with the tuned model, answered."""
        system, user = TUNED_PROMPT.render(examples="", text=self.text)
        answer = json.dumps({"triples": [list(t) for t in self.triples]}, ensure_ascii=False)
        return [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
            {"role": "assistant", "content": answer},
        ]

    def row(self) -> dict:
        return {"source": self.source, "messages": self.messages()}


@dataclass
class Counts:
    documents: int = 0
    examples: int = 0
    facts: int = 0
    left_out: Counter = field(default_factory=Counter)  # why gold facts did not become targets


def docred_phrase(pid: str, kind: ObjectKind, labels: dict[str, str]) -> str:
    """How `facts` writes a DocRED property: the relation table's phrase that maps to it as written (one meant
    for this kind of object first: "born on" for a date, not "born in"), else the property's label."""
    fitting = [
        r for phrase, r in relation_table().items() if phrase == r.phrase and r.properties.get(kind) == Mapping(pid)
    ]
    if kind != "item":
        fitting.sort(key=lambda r: r.args.split(">")[-1].strip() not in _VALUE_OBJECTS[kind])
    return fitting[0].phrase if fitting else labels[pid]


def docred_documents(split: str = "dev") -> list[dict]:
    return read_json(data_file("re-docred", f"{split}_revised.json.gz"))


def docred_order(count: int) -> list[int]:
    """The fixed training order of Re-DocRED dev's documents; its last DEV_DOCUMENTS are the dev slice."""
    order = list(range(count))
    random.Random(SEED).shuffle(order)
    return order


def docred_examples(
    doc: dict, source: str, labels: dict[str, str], counts: Counts, is_place: Callable[[str], bool] = bool
) -> list[Example]:
    """``is_place``: whether the KB holds a place of this name (Milan, Japan: not a nationality's adjective); by
    default every name is, and only the known demonyms count as adjectives."""
    sentences = [docred_sentence(s) for s in doc["sents"]]
    windows = _windows([len(s.split()) for s in sentences])
    examples, used = [], set()
    left_out = redundant(doc, is_place)
    for why in left_out.values():
        counts.left_out[why] += 1
    for first, last in windows:
        inside = range(first, last + 1)
        text = " ".join(sentences[first : last + 1])
        names = [_longest_name(vertex, doc["sents"], inside, text) for vertex in doc["vertexSet"]]
        facts: dict[tuple[str, str, str], tuple[int, int, int]] = {}
        for number, label in enumerate(doc["labels"]):
            head, pid, tail = _kept_direction(label)
            if number in left_out:
                continue
            evidence = label.get("evidence") or []
            if len(windows) > 1 and not (evidence and all(i in inside for i in evidence)):
                continue
            subject, obj = names[head], names[tail]
            if subject is None or obj is None:
                continue
            used.add(number)
            kind = _KINDS.get(doc["vertexSet"][tail][0]["type"], "item")
            triple = (subject, docred_phrase(pid, kind, labels), obj)
            if pid in SYMMETRIC and (triple[2], triple[1], triple[0]) in facts:
                continue  # written once: the other way round says the same
            order = (min(evidence, default=first), text.find(triple[0]), text.find(triple[2]))
            facts.setdefault(triple, order)
        triples = sorted(facts, key=facts.__getitem__)
        counts.facts += len(triples)
        examples.append(Example(source if len(windows) == 1 else f"{source}:{first}-{last}", text, triples))
    counts.left_out["Re-DocRED facts in no example (evidence across windows, or a name outside them)"] += (
        len(doc["labels"]) - len(used) - len(left_out)
    )
    return examples


def redundant(doc: dict, is_place: Callable[[str], bool]) -> dict[int, str]:
    """The document's facts (by index) a user would not write, and why: Re-DocRED annotates a nationality's
    adjective as a place of its own and gives it the facts of the country; and it states "located in" a
    country beside "country" of the same two."""
    adjective = [_is_adjective(vertex, is_place) for vertex in doc["vertexSet"]]
    facts = [_kept_direction(label) for label in doc["labels"]]
    stated = set(facts)
    nouns = {(head, pid) for head, pid, tail in facts if not adjective[tail]}
    out = {}
    for number, (head, pid, tail) in enumerate(facts):
        if adjective[head]:
            out[number] = "a nationality's adjective as the subject (Austrian | located in | European)"
        elif adjective[tail] and pid not in ADJECTIVE_OBJECTS:
            out[number] = "a nationality's adjective as a place (Saverne | located in | French)"
        elif adjective[tail] and pid not in LANGUAGES and (head, pid) in nouns:
            out[number] = "a nationality's adjective beside the country's name (country French and France)"
        elif pid == "P131" and (head, "P17", tail) in stated:
            out[number] = "located in a country beside country"
    return out


def _kept_direction(label: dict) -> tuple[int, str, int]:
    """(head, property, tail) of a Re-DocRED fact, an inverse pair's dropped property turned round."""
    head, tail, pid = label["h"], label["t"], label["r"]
    return (tail, INVERSES[pid], head) if pid in INVERSES else (head, pid, tail)


def _is_adjective(vertex: list[dict], is_place: Callable[[str], bool]) -> bool:
    """A place entity named only by one capitalised word that is a nationality's adjective ("French",
    "European"): a known demonym, or a demonym's ending on a word the KB knows no place by."""
    if vertex[0]["type"] != "LOC":
        return False
    names = {m["name"] for m in vertex}
    return all(
        " " not in name
        and name[:1].isupper()
        and (normalize(name) in DEMONYMS or (normalize(name).endswith(DEMONYM_ENDINGS) and not is_place(name)))
        for name in names
    )


def _windows(words: list[int]) -> list[tuple[int, int]]:
    """The whole document, or runs of consecutive sentences of at most WINDOW_WORDS words."""
    if sum(words) <= MAX_WORDS:
        return [(0, len(words) - 1)]
    windows, start, size = [], 0, 0
    for i, count in enumerate(words):
        if size and size + count > WINDOW_WORDS:
            windows.append((start, i - 1))
            start, size = i, 0
        size += count
    windows.append((start, len(words) - 1))
    return windows


def _longest_name(vertex: list[dict], sents: list[list[str]], inside: range, text: str) -> str | None:
    """The entity's longest mention in these sentences, as the detokenised text writes it."""
    names = [docred_sentence(sents[m["sent_id"]][m["pos"][0] : m["pos"][1]]) for m in vertex if m["sent_id"] in inside]
    names = [n for n in names if n and n in text]
    return max(names, key=len) if names else None


# ---- the written texts ---------------------------------------------------------------------------------------


def written_examples(folder: Path) -> list[Example]:
    """The texts written for training (``{"id", "text", "triples"}`` per line), each checked: every name and
    value in the text as written, and no fact twice. A file that breaks this is an error naming the line."""
    examples = []
    for path in sorted(folder.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            problems = check_written(row)
            if problems:
                raise UserError(f"{path.name} line {number} ({row.get('id')}): {'; '.join(problems)}")
            examples.append(Example(f"written:{row['id']}", row["text"], [tuple(t) for t in row["triples"]]))
    return examples


def check_written(row: dict) -> list[str]:
    problems = []
    text, triples = row.get("text", ""), row.get("triples", [])
    if not text or not triples:
        problems.append("a text and its triples are needed")
    for triple in triples:
        if len(triple) != 3 or not all(isinstance(x, str) and x.strip() for x in triple):
            problems.append(f"{triple} is not [subject, relation, object]")
            continue
        subject, relation, obj = triple
        problems += [f"{name!r} is not in the text" for name in (subject, obj) if name not in text]
        if relation != relation.casefold().strip():
            problems.append(f"relation {relation!r} is not in lower case")
    if len({tuple(t) for t in triples}) != len(triples):
        problems.append("a fact is listed twice")
    return problems


# ---- the training file ---------------------------------------------------------------------------------------


def build(out: Path, written: Path, *, written_from: int = WRITTEN_FROM) -> dict:
    """Write the training examples in their training order to ``out`` (JSONL) and the dev slice beside it
    (``<out>.dev.jsonl``); returns what was written and what was left out, and why."""
    labels = json.loads(data_file("re-docred", "rel_info.json").read_text(encoding="utf-8"))
    docs = docred_documents("dev")
    order = docred_order(len(docs))
    train_ids, dev_ids = order[:-DEV_DOCUMENTS], order[-DEV_DOCUMENTS:]
    counts = Counts()
    is_place = kb_places()
    extra = written_examples(written)
    random.Random(SEED).shuffle(extra)
    rows, taken = [], 0
    for n, index in enumerate(train_ids, 1):
        rows += [
            e.row() | {"document": n}
            for e in docred_examples(docs[index], f"re-docred:dev-{index}", labels, counts, is_place)
        ]
        counts.documents += 1
        if n >= written_from:  # spread evenly over the documents left, so that any prefix of the run has its share
            due = round(len(extra) * (n - written_from + 1) / (len(train_ids) - written_from + 1))
            rows += [e.row() | {"document": n} for e in extra[taken:due]]
            counts.facts += sum(len(e.triples) for e in extra[taken:due])
            taken = due
    counts.examples = len(rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    _write(out, rows)
    dev_rows = [{"source": f"re-docred:dev-{i}", "text": docred_text(docs[i]["sents"])} for i in dev_ids]
    _write(out.with_suffix(".dev.jsonl"), dev_rows)
    return {
        "examples": counts.examples,
        "documents": counts.documents,
        "written": taken,
        "facts": counts.facts,
        "left_out": dict(counts.left_out),
        "dev_documents": len(dev_rows),
    }


def kb_places() -> Callable[[str], bool]:
    """Whether the default KB holds a place of a name."""
    from graphwright.kb import open_kb
    from graphwright.linking.geography import Geography

    geography = Geography(open_kb("default"))
    return lambda name: any(geography.is_place(r) for r in geography.kb.find_label(name, kind="entity"))


def _write(path: Path, rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
