"""Answer scores as SQuAD and HotpotQA compute them: exact match and token F1 after normalisation
(lower case, no punctuation, no articles "a", "an", "the", single spaces), best over the gold aliases;
and the recall of the supporting passages among those retrieved."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = set(string.punctuation)


def normalize_answer(text: str) -> str:
    text = "".join(c for c in text.lower() if c not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(prediction: str, gold: Iterable[str]) -> float:
    predicted = normalize_answer(prediction)
    return float(any(predicted == normalize_answer(g) for g in gold))


def token_f1(prediction: str, gold: Iterable[str]) -> float:
    return max((_f1(prediction, g) for g in gold), default=0.0)


def _f1(prediction: str, gold: str) -> float:
    predicted, wanted = normalize_answer(prediction), normalize_answer(gold)
    # yes / no / noanswer are scored whole: "no" must not earn credit from a token of "no way"
    if predicted in ("yes", "no", "noanswer") or wanted in ("yes", "no", "noanswer"):
        return float(predicted == wanted)
    common = Counter(predicted.split()) & Counter(wanted.split())
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(predicted.split()), same / len(wanted.split())
    return 2 * precision * recall / (precision + recall)


def support_recall(retrieved: Iterable[str], supporting: Iterable[str]) -> float | None:
    """Share of the supporting passages among the retrieved ones; None when nothing supports the answer."""
    wanted = set(supporting)
    if not wanted:
        return None
    return len(wanted & set(retrieved)) / len(wanted)
