"""The user's labelled examples, shown to the extractor as demonstrations (AgentRE's retrieval of similar
samples, in one call): the one to three nearest each passage teach how the user's relations appear in
their kind of sentence, which side is the subject, and how names and dates are written.

They go in the user message, after the prompt's static part, so a server's prefix cache still holds
the instructions and the relation list for every passage.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from graphwright.linking.literals import parse_date, parse_quantity
from graphwright.linking.names import normalize
from graphwright.linking.stated import QUALIFIER, without_stated_qualifier
from graphwright.model.labelled import RESample, read_samples
from graphwright.model.schema import RelationSchema
from graphwright.retrieval import RetrieverKind, make_index

HEADER = "Labelled examples from the user's own data: write names, relations and values as they do.\n"


class Demonstrations:
    """Labelled samples and an index over their texts."""

    def __init__(self, samples: list[RESample], k: int, retriever: RetrieverKind = "bm25") -> None:
        self.samples, self.k = [s for s in samples if s.triples], k
        self.index = make_index(retriever, [s.text for s in self.samples])
        # the examples write a place with the place it lies in as one name ("North Wall, Dublin")
        self.chains_places = any(", " in part for s in self.samples for t in s.triples for part in (t.head, t.tail))
        spellings: dict[str, set[str]] = defaultdict(set)
        for sample in self.samples:
            for triple in sample.triples:
                for name in (triple.head, triple.tail):
                    if name[:1].isalpha() and name.count("(") == name.count(")"):
                        spellings[_spelling_key(name)].add(name.strip())
        self._spellings = {key: names.pop() for key, names in spellings.items() if len(names) == 1}

    @classmethod
    def from_file(
        cls, path: str | Path, schema: RelationSchema | None, k: int, retriever: RetrieverKind = "bm25"
    ) -> Demonstrations:
        """Samples in agentre's JSONL format; with a schema, a relation it lacks is an error naming the line."""
        return cls(read_samples(Path(path), schema), k, retriever)

    def object_kinds(self) -> dict[str, set[str]]:
        """What the examples put under each relation: "date", "number" or "item" (a name). A schema may
        declare a range its data does not keep (DBpedia's ``epoch`` is a number, its values dates)."""
        kinds: dict[str, set[str]] = {}
        for sample in self.samples:
            for triple in sample.triples:
                tail = triple.tail.strip()
                kind = "date" if parse_date(tail) else "number" if parse_quantity(tail) else "item"
                kinds.setdefault(triple.relation, set()).add(kind)
        return kinds

    def spelling(self, name: str, text: str) -> str | None:
        """How the examples write a name the text spells otherwise ("A.C. Lumezzane" for "AC Lumezzane",
        "Ernie Colón" for "Ernie Colon", "Mermaid (Train song)" where the text holds "Train" and "song"):
        the same letters, case, accents, full stops and a bracketed qualifier aside, written one way in
        all the examples. None when they do not name it, or name it as the text does."""
        spelled = self._spellings.get(_spelling_key(name))
        if spelled is None or spelled == name or without_stated_qualifier(spelled, text) is None:
            return None
        return spelled

    def nearest(self, text: str) -> list[RESample]:
        """The ``k`` samples most like ``text``, never ``text`` itself (a pool may hold the passage)."""
        own = text.strip()
        hits = [self.samples[i] for i in self.index.top(text, self.k + 1)]
        return [s for s in hits if s.text.strip() != own][: self.k]

    def render(self, text: str) -> str:
        """The block the prompt shows before the passage: "" when no sample is near."""
        found = self.nearest(text)
        if not found:
            return ""
        shown = [
            f"Example text: {s.text.strip()}\nExample answer: "
            + json.dumps({"triples": [[t.head, t.relation, t.tail] for t in s.triples]}, ensure_ascii=False)
            for s in found
        ]
        return HEADER + "\n".join(shown) + "\n\n"


def _spelling_key(name: str) -> str:
    return re.sub(r"[\s.'’-]+", "", normalize(QUALIFIER.sub("", name)))
