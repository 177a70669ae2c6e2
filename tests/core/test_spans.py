"""The spans a model may copy as an argument: every short word run, as written and with its edge
punctuation trimmed, and never a run of punctuation alone."""

from graphwright.agents.spans import copyable_spans


def test_spans_are_the_texts_word_runs_with_and_without_edge_punctuation():
    spans = copyable_spans("Bill Gordon of Upper Marlboro , Md. (AP) said.")
    for wanted in ("Bill Gordon", "Upper Marlboro", "Md.", "AP", "Bill Gordon of Upper Marlboro", "said."):
        assert wanted in spans
    assert "," not in spans and "(AP)" in spans and "Md" not in spans
    assert all(s == s.strip() and any(c.isalnum() for c in s) for s in spans)
    assert "Gordon Bill" not in spans, "only runs the text holds"


def test_long_texts_keep_their_short_runs_first():
    text = " ".join(f"w{i}" for i in range(300))
    spans = copyable_spans(text, max_words=8, limit=400)
    assert len(spans) == 400
    assert all(f"w{i}" in spans for i in range(300)), "every single word survives the cut"
    assert max(len(s.split()) for s in spans) == 2
    assert len(copyable_spans("one two three", max_words=2)) == 5
