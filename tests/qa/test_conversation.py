"""A chat's follow-ups read with the turns before them, and an answer supported only by a citation that
holds it (issue 62)."""

from __future__ import annotations

import pytest

from graphwright.model.result import Usage
from graphwright.qa.answer import Source
from graphwright.qa.conversation import Conversations, Turn, contains_answer, rewrite, unsupported_answer
from graphwright.qa.engine import QAResult

ABOUT_TIDEWATER = [
    Turn(
        "Who founded Tidewater Instruments?",
        "Who founded Tidewater Instruments?",
        "Maren Solberg",
        True,
        "Tidewater Instruments",
    )
]


@pytest.mark.parametrize(
    "question, asked",
    [
        ("When was it founded?", "When was Tidewater Instruments founded?"),
        ("What does the company make?", "What does Tidewater Instruments make?"),
        ("Where is its headquarters?", "Where is Tidewater Instruments's headquarters?"),
        ("Who runs Brine & Kelp?", "Who runs Brine & Kelp?"),  # a question that names what it asks about
        ("How many people work there?", "How many people work there?"),  # nothing points back
    ],
)
def test_a_follow_up_is_asked_about_the_last_turns_topic(question, asked):
    assert rewrite(question, ABOUT_TIDEWATER) == asked


def test_without_a_topic_the_question_is_asked_as_written():
    assert rewrite("When was it founded?", []) == "When was it founded?"
    assert rewrite("When was it founded?", [Turn("Hello?", "Hello?", "", False, None)]) == "When was it founded?"


def result(answer: str, *cited: str) -> QAResult:
    sources = [Source(f"F{i}", text) for i, text in enumerate(cited, 1)]
    return QAResult("q", "local", answer, sources, sources, Usage())


def test_an_answer_is_supported_only_by_a_citation_that_holds_it_and_its_topic():
    facts = ("Tidewater Instruments | inception | 2016", "Saltmarsh Robotics | inception | 2009")
    assert contains_answer("2016", result("2016", *facts), "Tidewater Instruments")
    assert not contains_answer("2009", result("2009", *facts), "Tidewater Instruments")  # another company's year
    assert not contains_answer("Maren Solberg", result("Maren Solberg", facts[0]), "Tidewater Instruments")
    assert contains_answer("It was founded in 2016.", result("", facts[0]), None)
    said = unsupported_answer("Tidewater Instruments", result("2009", facts[0]))
    assert said == "The graph does not state this. What it holds about Tidewater Instruments: " + facts[0]


def test_a_conversation_is_kept_turn_by_turn_and_its_id_names_no_other_file(tmp_path):
    kept = Conversations(tmp_path)
    conversation = kept.new_id()
    kept.add(conversation, ABOUT_TIDEWATER[0])
    assert Conversations(tmp_path).turns(conversation) == ABOUT_TIDEWATER
    assert kept.turns(kept.new_id()) == []
    with pytest.raises(ValueError):
        kept.turns("../secrets")
