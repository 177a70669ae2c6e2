"""Text2KGBench, DBpedia-WebNLG part (Mihindukulasooriya et al., ISWC 2023): 19 DBpedia ontologies, each
with test sentences and their triples; a system is given the ontology and writes triples in its terms.

Scored as the benchmark's evaluation defines it (src/evaluation/run_eval.py of cenguix/Text2KGBench,
reimplemented here):

- a triple is its subject, relation and object with underscores and white space removed, in lower case,
  joined; per sentence, only the system's triples whose relation is among the gold triples' relations are
  compared: precision, recall and F1 over those (all 0 when there are none);
- ontology conformance: the share of all the system's triples whose relation is the ontology's
  (1 when it wrote none); relation hallucination is 1 minus that;
- subject (object) hallucination: the share of its triples whose subject (object), Porter-stemmed word by
  word and written without spaces, is not a substring of the sentence followed by the ontology's concept
  labels, stemmed and written alike (0 when it wrote none);
- each metric is averaged over an ontology's sentences, then over the ontologies.

Words are split with NLTK's Treebank-style word tokenizer (the benchmark's ``word_tokenize`` without its
sentence splitter, which needs a data download): it differs only on a full stop inside a text of several
sentences, which the stemmed text keeps either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from graphwright.bench.data.files import data_file, read_json
from graphwright.linking.literals import XSD
from graphwright.model import ExtractionResult, Term
from graphwright.model.schema import RelationSchema, RelationType

FOLDER = ("webnlg", "text2kgbench_dbpedia_webnlg")
DBPEDIA_ONTOLOGY = "http://dbpedia.org/ontology/"
METRICS = (
    "precision",
    "recall",
    "f1",
    "conformance",
    "subject_hallucination",
    "relation_hallucination",
    "object_hallucination",
)


@dataclass(frozen=True)
class Ontology:
    id: str  # "ont_1_university"
    title: str
    concepts: tuple[str, ...]  # concept labels
    relations: tuple[dict, ...]  # {"label", "domain", "range"} as the benchmark gives them

    def schema(self) -> RelationSchema:
        """The ontology as a user's relation schema: each relation with its domain and range as the types of
        its subject and object, and its DBpedia IRI."""
        relations: dict[str, RelationType] = {}
        for r in self.relations:
            name = r["label"].replace(" ", "_")
            relations.setdefault(
                name,
                RelationType(
                    name=name,
                    head=[r["domain"]] if r.get("domain") else [],
                    tail=[r["range"]] if r.get("range") else [],
                    iri=DBPEDIA_ONTOLOGY + r["pid"],
                ),
            )
        return RelationSchema(name=self.id, relations=list(relations.values()))


@dataclass(frozen=True)
class Text2KGSentence:
    id: str
    text: str
    ontology: str
    triples: tuple[tuple[str, str, str], ...]  # gold (subject, relation, object)


def ontology_ids() -> list[str]:
    """The ontologies in benchmark order (ont_1 ... ont_19)."""
    folder = data_file(*FOLDER, "ontologies", "1_university_ontology.json").parent
    ids = [f"ont_{p.name.removesuffix('_ontology.json')}" for p in folder.glob("*_ontology.json")]
    return sorted(ids, key=lambda i: int(i.split("_")[1]))


def load_ontology(ontology_id: str) -> Ontology:
    path = data_file(*FOLDER, "ontologies", f"{ontology_id.removeprefix('ont_')}_ontology.json")
    data = read_json(path)
    return Ontology(
        ontology_id,
        data.get("title", ontology_id),
        tuple(c["label"] for c in data["concepts"]),
        tuple(data["relations"]),
    )


def load_sentences(ontology_id: str, start: int = 0, count: int | None = None) -> list[Text2KGSentence]:
    """The ontology's ground-truth sentences ``start`` .. ``start + count`` in file order."""
    path = data_file(*FOLDER, "ground_truth", f"{ontology_id}_ground_truth.jsonl")
    rows = read_json(path)[start : None if count is None else start + count]
    return [
        Text2KGSentence(
            row["id"], row["sent"], ontology_id, tuple((t["sub"], t["rel"], t["obj"]) for t in row["triples"])
        )
        for row in rows
    ]


@dataclass
class SentenceScore:
    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    conformance: float = 1.0
    subject_hallucination: float = 0.0
    relation_hallucination: float = 0.0
    object_hallucination: float = 0.0
    right: int = 0  # compared triples that match a gold triple
    compared: int = 0  # the system's triples with a gold relation of the sentence
    written: int = 0  # all the system's triples
    gold: int = 0
    missed: list[str] = field(default_factory=list)


# WebNLG train as CasRel tokenised it: the labelled sentences an ontology's user would bring as examples
TRAIN = ("webnlg", "casrel_exact", "train.json.gz")
_SPACED_PUNCTUATION = re.compile(r" (?=[,.;:)!?]|'s\b|n't\b)|(?<=\() ")


def detokenised(text: str) -> str:
    """CasRel's "Paris , France ." as written: "Paris, France."."""
    return _SPACED_PUNCTUATION.sub("", text).strip()


def train_pool(ontology: Ontology, held_out: list[Text2KGSentence]) -> tuple[list[dict], int]:
    """WebNLG train sentences whose triples are all in the ontology's relations, as labelled samples
    (``{"text", "triples"}``), and how many were left out because they state a fact of a held-out (scored)
    sentence: WebNLG writes one set of facts in several sentences, and a copy would be the answer. A
    sample whose argument the sentence does not hold whole (CasRel cut "Peter Stöger" to "Peter") is left
    out too."""
    relations = {r["label"] for r in ontology.relations}
    scored = {triple_key(*t) for sentence in held_out for t in sentence.triples}
    samples, overlapping = [], 0
    for row in read_json(data_file(*TRAIN)):
        triples = [tuple(detokenised(part) for part in t) for t in row["triple_list"]]
        text = detokenised(row["text"])
        if not triples or any(r not in relations for _, r, _ in triples):
            continue
        if not all(_whole(argument, text) for h, _, t in triples for argument in (h, t)):
            continue
        if any(triple_key(*t) in scored for t in triples):
            overlapping += 1
            continue
        samples.append({"text": text, "triples": [list(t) for t in dict.fromkeys(triples)]})
    return samples, overlapping


def unscored_pool(ontology_id: str, scored: int) -> tuple[list[dict], int]:
    """The ontology's ground-truth sentences after the first ``scored`` (which a benchmark scores) as
    labelled samples, with their names written with spaces; less, and counted, those stating a fact of a
    scored sentence (WebNLG writes one set of facts in several sentences: a copy would be the answer)."""
    sentences = load_sentences(ontology_id)
    held_out = {triple_key(*t) for sentence in sentences[:scored] for t in sentence.triples}
    samples, overlapping = [], 0
    for sentence in sentences[scored:]:
        if any(triple_key(*t) in held_out for t in sentence.triples):
            overlapping += 1
            continue
        samples.append(
            {"text": sentence.text, "triples": [[part.replace("_", " ") for part in t] for t in sentence.triples]}
        )
    return samples, overlapping


def _whole(argument: str, text: str) -> bool:
    """Whether ``text`` holds ``argument`` and the words around it do not continue the name."""
    at = text.find(argument)
    if len(argument) < 2 or at < 0:
        return False
    before, after = text[:at], text[at + len(argument) :]
    return not re.search(r"[A-Z][\w.]*\s$", before) and not re.match(r"\s[A-Z0-9]", after)


def triple_key(subject: str, relation: str, obj: str) -> str:
    return "".join(re.sub(r"(_|\s+)", "", part).lower() for part in (subject, relation, obj))


def score_sentence(sentence: Text2KGSentence, written: list[tuple[str, str, str]], ontology: Ontology) -> SentenceScore:
    score = SentenceScore(written=len(written), gold=len(sentence.triples))
    gold = {triple_key(*t) for t in sentence.triples}
    gold_relations = {t[1].replace(" ", "_") for t in sentence.triples}
    compared = {triple_key(*t) for t in written if t[1] in gold_relations}
    right = gold & compared
    score.right, score.compared = len(right), len(compared)
    score.missed = [" | ".join(t) for t in sentence.triples if triple_key(*t) not in right]
    if compared:
        score.precision, score.recall = len(right) / len(compared), len(right) / len(gold)
        if right:
            score.f1 = 2 * score.precision * score.recall / (score.precision + score.recall)
    if written:
        relations = {r["label"].replace(" ", "_") for r in ontology.relations}
        score.conformance = sum(t[1] in relations for t in written) / len(written)
        score.relation_hallucination = 1 - score.conformance
        context = stemmed(sentence.text + " ".join(ontology.concepts))  # as the benchmark joins them: no space
        score.subject_hallucination = sum(entity_stem(t[0]) not in context for t in written) / len(written)
        score.object_hallucination = sum(entity_stem(t[2]) not in context for t in written) / len(written)
    return score


def stemmed(text: str) -> str:
    stemmer, tokenizer = _nltk()
    joined = "".join(stemmer.stem(word) for word in tokenizer.tokenize(text))
    return re.sub(r"(_|\s+)", "", joined).lower()


def entity_stem(words: str) -> str:
    return stemmed(words).replace("01januari", "")  # the benchmark's own allowance for dates written as years


@lru_cache(maxsize=1)
def _nltk():
    try:
        from nltk.stem import PorterStemmer
        from nltk.tokenize import NLTKWordTokenizer
    except ImportError as exc:  # pragma: no cover - the dev extra installs it
        raise RuntimeError("the Text2KGBench hallucination metrics need NLTK: pip install nltk") from exc
    return PorterStemmer(), NLTKWordTokenizer()


def averaged(scores: list[SentenceScore]) -> dict[str, float]:
    """Each metric's mean over sentences (an ontology) or over ontologies' means."""
    return {m: sum(getattr(s, m) for s in scores) / len(scores) if scores else 0.0 for m in METRICS}


def benchmark_triples(result: ExtractionResult) -> list[tuple[str, str, str]]:
    """A result's triples as the benchmark writes them (its form on the dev split): names as the text writes
    them, relations by their schema name (a kept phrase by its phrase), plain strings in quotes as DBpedia's
    literals, dates in ISO form and numbers bare (a number as the text writes its digits), a quantity's unit
    in brackets after it ("253260.0 (millimetres)")."""
    return [
        (_written(t.subject), t.predicate.label or t.predicate.surface or t.predicate.value, _written(t.object))
        for t in result.triples
    ]


def _written(term: Term) -> str:
    if term.kind == "iri":
        return term.surface or term.label or term.value
    if term.datatype in (None, XSD + "string"):
        return f'"{term.value}"'
    if term.datatype != XSD + "decimal":
        return term.value
    digits = re.match(r"\d[\d,]*(?:\.\d+)?", term.surface or "")
    written = digits.group(0).replace(",", "") if digits else term.value
    number = written if Decimal(written) == Decimal(term.value) else term.value  # "497.0" as written
    return f"{number} ({term.unit})" if term.unit else number
