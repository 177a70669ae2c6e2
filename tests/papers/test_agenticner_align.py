"""Tagged output back onto the input: rewritten text, repeated phrases, unicode, nesting."""

from __future__ import annotations

from graphwright.model.labelled import token_offsets
from graphwright.model.tags import to_token_spans
from graphwright.papers.agenticner.align import align, mention_list, parse_tagged

TYPES = ["person", "location", "organisation", "misc", "protein", "DNA"]


def spans(output, source):
    return [(source[s.start : s.end], s.type) for s in align(output, source, TYPES)]


def test_exact_output():
    source = "Angela Merkel visited Paris ."
    assert spans("<person>Angela Merkel</person> visited <location>Paris</location> .", source) == [
        ("Angela Merkel", "person"),
        ("Paris", "location"),
    ]


def test_rewritten_text_keeps_the_input_characters():
    source = "angela merkel , the chancellor , visited paris on monday ."
    output = "<person>Angela Merkel</person>, the Chancellor, visited <location>Paris</location> on Monday."
    assert spans(output, source) == [("angela merkel", "person"), ("paris", "location")]
    # a dropped word and smart quotes
    source = 'He said "Silicon Valley is over" in New York .'
    output = "He said “<location>Silicon Valley</location> over” in <location>New York</location>."
    assert spans(output, source) == [("Silicon Valley", "location"), ("New York", "location")]


def test_repeated_phrase_with_different_types_lands_on_each_occurrence():
    source = "Silicon Valley is a film about Silicon Valley ."
    output = "<misc>Silicon Valley</misc> is a film about <location>Silicon Valley</location>."
    found = align(output, source, TYPES)
    assert [(s.start, s.type) for s in found] == [(0, "misc"), (31, "location")]


def test_unicode_and_accents():
    source = "Jürgen Müller arbeitet bei Siemens in München ."
    output = "<person>Jurgen Muller</person> arbeitet bei <organisation>Siemens</organisation> in <location>Munchen</location>."
    assert spans(output, source) == [("Jürgen Müller", "person"), ("Siemens", "organisation"), ("München", "location")]
    chinese = "李开复在北京工作"
    assert [
        (chinese[s.start : s.end], s.type)
        for s in align("<person>李开复</person>在<location>北京</location>工作", chinese, TYPES)
    ] == [("李开复", "person"), ("北京", "location")]


def test_nested_unknown_and_unclosed_tags():
    plain, found = parse_tagged("<DNA><DNA>SOX9</DNA> coding sequence</DNA> <b>x</b> <protein>p53", TYPES)
    assert plain == "SOX9 coding sequence x p53"
    assert [(plain[s.start : s.end], s.type) for s in found] == [
        ("SOX9 coding sequence", "DNA"),
        ("SOX9", "DNA"),
        ("p53", "protein"),
    ]


def test_invented_entities_are_dropped_and_spans_snap_to_tokens():
    source = "The cat sat ."
    assert align("The <person>dog</person> cat sat.", source, TYPES) == []
    tokens = ["Dr.", "Smith", "arrived"]
    found = align("Dr. <person>Smit</person>h arrived", " ".join(tokens), TYPES)
    assert to_token_spans(found, token_offsets(tokens)) == [(1, 2, "person")]


def test_coverage_tells_a_rewritten_copy_from_other_text():
    from graphwright.papers.agenticner.align import coverage

    source = "SOCCER - JAPAN GET LUCKY WIN , CHINA IN SURPRISE DEFEAT ."
    assert (
        coverage("<location>Japan</location> get lucky win, <location>China</location> in surprise defeat.", source)
        > 0.8
    )
    assert coverage("Soccer is a sport played between two teams of eleven players each, using a ball.", source) < 0.5
    assert coverage("", "") == 1.0 and coverage("", source) == 0.0


def test_a_list_of_mentions_is_placed_where_the_text_writes_them():
    source = "Paris is where Angela Merkel met Macron , and Macron met Merkel in PARIS ."
    assert spans("<person>Angela Merkel</person>", source) == [("Angela Merkel", "person")]
    # out of the text's order, and a repeated mention on its next occurrence
    found = align("<person>Macron</person> <location>Paris</location> <person>Macron</person>", source, TYPES)
    assert [(source[s.start : s.end], s.start, s.type) for s in found] == [
        ("Macron", 33, "person"),
        ("PARIS", 67, "location"),
        ("Macron", 46, "person"),
    ]
    assert [
        (source[s.start : s.end], s.type)
        for s in mention_list("<person>Olaf Scholz</person> <person>Angela Merkel</person>", source, TYPES)
    ] == [("Angela Merkel", "person")]
    assert mention_list("Angela Merkel", source, TYPES) == []  # nothing tagged
    # an invented mention is dropped, not spread over the characters of the text that it shares
    assert align("<person>Olaf Scholz</person>", source, TYPES) == []
