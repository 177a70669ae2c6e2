"""Benchmark tokens back to text: the datasets that ship tokenised sentences (REBEL, Re-DocRED, CoNLL) are
shown to the model as readable text."""

from __future__ import annotations

import re


def docred_text(sentences: list[list[str]]) -> str:
    return " ".join(docred_sentence(s) for s in sentences)


def docred_sentence(tokens: list[str]) -> str:
    """A Re-DocRED sentence as written: detokenised, and words split at their hyphens joined again
    ("short - track" was "short-track"; a dash between words is "–" in these texts)."""
    return re.sub(r"(?<=\w) - (?=\w)", "-", detokenize(tokens))


def detokenize(tokens: list[str]) -> str:
    """Tokens back to readable text: no space before closing punctuation or after opening brackets."""
    text = " ".join(t for t in tokens if t.strip())
    text = re.sub(r" ([.,;:!?%)\]}])", r"\1", text)
    text = re.sub(r"([(\[{$]) ", r"\1", text)
    text = re.sub(r" (n't|'s|'re|'ve|'ll|'d|'m)\b", r"\1", text)
    return text.replace("`` ", '"').replace(" ''", '"')
