"""Multi-hop QA benchmarks from the data directory, as passages and questions.

* ``hotpotqa``, ``musique``: HippoRAG's samples, 100 questions over one shared corpus (about 1,000 and
  1,900 passages): the corpus is indexed once, then every question is asked of all of it.
* ``migres-hotpotqa``, ``migres-2wikimultihopqa``, ``migres-musique``: MIGRES's samples, each question
  with its own 10-20 paragraphs (gold and distractors); retrieval stays within the question's own.

A passage's id is its title (the titles of a corpus are unique; a second passage of a title gets
" (2)"), so supporting facts, which name titles, map onto passages directly.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from graphwright.bench.data.files import data_file, open_text
from graphwright.errors import UnknownNameError


@dataclass(frozen=True)
class Passage:
    id: str
    title: str
    text: str

    @property
    def document_text(self) -> str:
        """What is indexed: the title leads, as the Wikipedia paragraph's subject is often only "it"."""
        return f"{self.title}\n{self.text}"


@dataclass
class Question:
    id: str
    question: str
    answers: list[str]  # the answer and its aliases
    supporting: list[str]  # ids of the passages that hold the answer's facts
    pool: list[str] | None = None  # ids of the passages this question is asked of (None: the whole corpus)
    kind: str | None = None  # bridge, comparison, 2hop, ...


@dataclass
class QADataset:
    name: str
    passages: list[Passage]
    questions: list[Question]
    note: str = ""
    by_id: dict[str, Passage] = field(init=False)

    def __post_init__(self) -> None:
        self.by_id = {p.id: p for p in self.passages}


class _Corpus:
    """Passages in order, one id per distinct (title, text)."""

    def __init__(self) -> None:
        self.passages: list[Passage] = []
        self._ids: dict[tuple[str, str], str] = {}
        self._titles: dict[str, int] = {}

    def add(self, title: str, text: str) -> str:
        title, text = " ".join(title.split()), text.strip()
        key = (title, text)
        if key not in self._ids:
            n = self._titles[title] = self._titles.get(title, 0) + 1
            pid = title if n == 1 else f"{title} ({n})"
            self._ids[key] = pid
            self.passages.append(Passage(pid, title, text))
        return self._ids[key]


def _read(*parts: str):
    with open_text(data_file(*parts)) as f:
        text = f.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:  # MIGRES: one JSON object a line
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def _hotpot_question(q: dict, corpus: _Corpus, pool: bool) -> Question:
    ids = {title: corpus.add(title, "".join(sentences)) for title, sentences in q["context"]}
    return Question(
        id=q["_id"],
        question=q["question"],
        answers=[q["answer"]],
        supporting=list(dict.fromkeys(ids[t] for t, _ in q["supporting_facts"] if t in ids)),
        pool=list(ids.values()) if pool else None,
        kind=q.get("type"),
    )


def _musique_question(q: dict, corpus: _Corpus, pool: bool) -> Question:
    ids = [(corpus.add(p["title"], p["paragraph_text"]), p.get("is_supporting")) for p in q["paragraphs"]]
    return Question(
        id=q["id"],
        question=q["question"],
        answers=[q["answer"], *q.get("answer_aliases", [])],
        supporting=[pid for pid, supporting in ids if supporting],
        pool=[pid for pid, _ in ids] if pool else None,
        kind=q["id"].partition("__")[0],
    )


def load_hotpotqa() -> QADataset:
    corpus = _Corpus()
    for title, sentences in _read("hotpotqa", "hipporag_hotpotqa_train_100_corpus.json.gz").items():
        corpus.add(title, "".join(sentences))
    questions = [
        _hotpot_question(q, corpus, pool=False) for q in _read("hotpotqa", "hipporag_hotpotqa_train_100.json.gz")
    ]
    return QADataset("hotpotqa", corpus.passages, questions, "HippoRAG's HotpotQA sample (train split)")


def load_musique() -> QADataset:
    corpus = _Corpus()
    for p in _read("musique", "hipporag_musique_train_100_corpus.json.gz"):
        corpus.add(p["title"], p["text"])
    questions = [
        _musique_question(q, corpus, pool=False) for q in _read("musique", "hipporag_musique_train_100.json.gz")
    ]
    return QADataset("musique", corpus.passages, questions, "HippoRAG's MuSiQue sample (train split)")


def _migres(folder: str, file: str, question: Callable[[dict, _Corpus, bool], Question]) -> Callable[[], QADataset]:
    def load() -> QADataset:
        corpus = _Corpus()
        records = _read(folder, file)
        # some 2WikiMultihopQA records carry decomposed sub-questions instead of paragraphs: nothing to ask of
        questions = [question(q, corpus, True) for q in records if q.get("context", q.get("paragraphs"))]
        note = f"MIGRES's {folder} sample"
        if len(questions) < len(records):
            note += f" ({len(records) - len(questions)} of {len(records)} records without paragraphs left out)"
        return QADataset(f"migres-{folder}", corpus.passages, questions, note)

    return load


def _two_wiki_question(q: dict, corpus: _Corpus, pool: bool) -> Question:
    found = _hotpot_question(q, corpus, pool)
    found.answers = list(dict.fromkeys([q["answer"], *q.get("answer_aliases", [])]))
    return found


QA_DATASETS: dict[str, Callable[[], QADataset]] = {
    "hotpotqa": load_hotpotqa,
    "musique": load_musique,
    "migres-hotpotqa": _migres("hotpotqa", "migres_hotpotqa_200.json.gz", _hotpot_question),
    "migres-2wikimultihopqa": _migres("2wikimultihopqa", "migres_2wikimultihopqa_200.json.gz", _two_wiki_question),
    "migres-musique": _migres("musique", "migres_musique_200.json.gz", _musique_question),
}


def load_qa_dataset(name: str, questions: int | None = None) -> QADataset:
    """The dataset's passages and its first ``questions`` questions (all by default). A dataset with pools
    keeps only the passages its chosen questions are asked of: only those need indexing."""
    if name not in QA_DATASETS:
        raise UnknownNameError("QA dataset", name, list(QA_DATASETS))
    data = QA_DATASETS[name]()
    if questions is not None:
        data.questions = data.questions[:questions]
        if all(q.pool is not None for q in data.questions):
            wanted = {pid for q in data.questions for pid in q.pool or []}
            data.passages = [p for p in data.passages if p.id in wanted]
            data.by_id = {p.id: p for p in data.passages}
    return data
