"""Relation-extraction metrics as AgentRE reports them (paper 001): strict micro P/R/F1.

*triples*: a predicted (head, relation, tail) is right when a gold triple of the same sentence has
exactly the same head text, relation and tail text. Texts are compared after Unicode (NFKC) and
whitespace normalisation only: case and punctuation count. Each side is de-duplicated first.
*boundaries*: the same with the relation ignored: did the system find the right argument pairs?
A failed document counts as predicting nothing.
"""

from __future__ import annotations

from graphwright.bench.data.gold import GoldDocument, iri_key
from graphwright.bench.eval.metrics import Counts, set_counts
from graphwright.model import ExtractionResult, Term
from graphwright.model.labelled import triple_key

RE_CATEGORIES = ("triples", "boundaries")


class REScorer:
    categories = RE_CATEGORIES

    def score_document(self, result: ExtractionResult, doc: GoldDocument) -> dict[str, Counts]:
        predicted = (
            []
            if result.status != "ok"
            else [triple_key(_text(t.subject), iri_key(t.predicate.value), _text(t.object)) for t in result.triples]
        )
        gold = [
            triple_key(t.subject.surface or "", iri_key(t.predicate.iri or ""), t.object.surface or "")
            for t in doc.triples
        ]
        return {
            "triples": set_counts(predicted, gold),
            "boundaries": set_counts(((h, t) for h, _, t in predicted), ((h, t) for h, _, t in gold)),
        }


def _text(term: Term) -> str:
    """The argument as the text wrote it: its surface form, else its label or literal value."""
    return term.surface or term.label or term.value
