"""Answer scores on hand-worked cases (SQuAD normalisation, best alias, yes/no whole)."""

from graphwright.qa.metrics import exact_match, normalize_answer, support_recall, token_f1


def test_normalisation_drops_case_punctuation_and_articles():
    assert normalize_answer("The  Eiffel-Tower!") == "eiffeltower"
    assert normalize_answer("a Spirit") == "spirit"


def test_exact_match_takes_the_best_alias():
    assert exact_match("stanley hall", ["G. Stanley Hall", "Stanley Hall"]) == 1.0
    assert exact_match("Hall", ["G. Stanley Hall"]) == 0.0


def test_token_f1_on_a_hand_worked_case():
    # prediction "g stanley hall university" vs gold "g stanley hall": 3 common, P 3/4, R 3/3 -> F1 6/7
    assert abs(token_f1("G. Stanley Hall University", ["G. Stanley Hall"]) - 6 / 7) < 1e-9
    assert token_f1("Paris", ["London"]) == 0.0
    assert token_f1("anything", []) == 0.0


def test_yes_and_no_are_scored_whole():
    assert token_f1("no", ["no way"]) == 0.0
    assert token_f1("yes", ["Yes"]) == 1.0


def test_support_recall():
    assert support_recall(["a", "b", "x"], ["a", "b", "c", "d"]) == 0.5
    assert support_recall(["a"], []) is None
