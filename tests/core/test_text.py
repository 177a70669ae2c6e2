"""The one text layer: sentences that keep names and abbreviations whole, blocks that end sentences, a PDF's
line wraps that do not, offsets into the original text, and the three cuts of words."""

from __future__ import annotations

import pytest

from graphwright.model import Document
from graphwright.text import (
    name_token_spans,
    occurrences,
    opens_sentence,
    search_terms,
    sentence_at,
    sentence_spans,
    sentences,
    sentences_with,
    tokens,
    words,
)


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "J. R. R. Tolkien wrote The Hobbit. It came out in 1937.",
            ["J. R. R. Tolkien wrote The Hobbit.", "It came out in 1937."],
        ),
        (
            "The abbey in St. Gallen is old. Dr. Maren Solberg visited it.",
            ["The abbey in St. Gallen is old.", "Dr. Maren Solberg visited it."],
        ),
        ("She left on Jan. 5, 2010. Nobody knew.", ["She left on Jan. 5, 2010.", "Nobody knew."]),
        ("Kvam & Co. KG is in Bergen. It sells nets.", ["Kvam & Co. KG is in Bergen.", "It sells nets."]),
        (
            "The capital, i.e. Oslo, hosted it. Fig. 3 shows how.",
            ["The capital, i.e. Oslo, hosted it.", "Fig. 3 shows how."],
        ),
        (
            "He moved to the U.S. In 2010 he founded Tidewater.",
            ["He moved to the U.S.", "In 2010 he founded Tidewater."],
        ),
        ("It was built by Nordvik Corp. The firm is gone.", ["It was built by Nordvik Corp.", "The firm is gone."]),
        ('"Who founded it?" she asked. Nobody answered.', ['"Who founded it?" she asked.', "Nobody answered."]),
        (
            "Tidewater\nInstruments was founded in 1998. It makes sonar.",
            ["Tidewater\nInstruments was founded in 1998.", "It makes sonar."],
        ),
        ("Products\n\nSonar arrays are made in Bergen.", ["Products", "Sonar arrays are made in Bergen."]),
        ("Products:\n- Sonar arrays\n- Depth gauges", ["Products:", "- Sonar arrays", "- Depth gauges"]),
        ("## Early years\nErik Lund founded the firm.", ["## Early years", "Erik Lund founded the firm."]),
        ("公司成立于1998年。总部在卑尔根。", ["公司成立于1998年。", "总部在卑尔根。"]),
        (
            "Curcio ligger i Lombardia. Østlandet er langt unna.",
            ["Curcio ligger i Lombardia.", "Østlandet er langt unna."],
        ),
        ("It cost 3.5 million. that was all", ["It cost 3.5 million. that was all"]),
        ("No full stop at the end", ["No full stop at the end"]),
        ("", []),
    ],
)
def test_sentences_keep_names_and_abbreviations_whole_and_end_at_blocks(text, expected):
    assert sentences(text) == expected
    assert all(text[a:b] == s for (a, b), s in zip(sentence_spans(text), expected))  # offsets into the text


def test_a_long_text_is_split_in_linear_time():
    text = "Mr. " * 50_000 + "Lund founded Tidewater. " * 20_000  # each full stop looks back a few characters only
    assert len(sentence_spans(text)) == 20_000


def test_the_sentence_around_a_span_and_the_run_a_span_crosses():
    text = "Maren Solberg founded Tidewater in 2016. The firm moved to Stavanger. It makes sonar."
    at = text.index("Stavanger")
    assert text[slice(*sentence_at(text, at, at + 9))] == "The firm moved to Stavanger."
    assert text[slice(*sentence_at(text, text.index("2016"), at))] == text[: text.index(" It")]
    document = Document(text=text)
    assert document.sentence_around(document.find("Tidewater")).text == "Maren Solberg founded Tidewater in 2016."


def test_the_cuts_of_words():
    text = "Tidewater's co-founder moved to the U.S. on 2016-05-01 (Q42)."
    assert words(text) == [
        "Tidewater",
        "s",
        "co",
        "founder",
        "moved",
        "to",
        "the",
        "U",
        "S",
        "on",
        "2016",
        "05",
        "01",
        "Q42",
    ]
    assert [text[a:b] for a, b in name_token_spans(text)] == [
        "Tidewater's",
        "co-founder",
        "moved",
        "to",
        "the",
        "U.S",
        "on",
        "2016-05-01",
        "Q42",
    ]
    assert search_terms("Q42 in Bergen") == ["q", "42", "in", "bergen"]
    assert search_terms("卑尔根市") == ["卑尔", "尔根", "根市"]
    assert tokens("Lund, 24.") == ["Lund", ",", "24", "."]


def test_a_phrase_occurs_as_whole_words_and_a_word_may_open_a_sentence():
    text = 'Ian met Ianthe. "Ian left," she said; Ian stayed.'
    assert occurrences("Ian", text) == [(0, 3), (17, 20), (38, 41)]  # not inside "Ianthe"
    assert [opens_sentence(text, start) for start, _ in occurrences("Ian", text)] == [True, True, False]


def test_the_sentences_that_write_a_phrase_are_found_by_whole_words():
    text = "Germany beat Argentina. Ianthe watched. Ian saw Germany lose to no one, and Germany won."
    assert sentences_with("Germany", text) == [
        "Germany beat Argentina.",
        "Ian saw Germany lose to no one, and Germany won.",
        "Ian saw Germany lose to no one, and Germany won.",
    ]
    assert sentences_with("Ian", text) == ["Ian saw Germany lose to no one, and Germany won."]
