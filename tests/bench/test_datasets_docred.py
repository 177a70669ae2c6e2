"""Re-DocRED's gold entities: a date is matched by its words and by its value, as systems type it."""

from graphwright.bench.data.tokens import docred_sentence
from graphwright.bench.eval.datasets import _docred_term


def test_a_gold_date_is_also_its_value():
    term = _docred_term([{"name": "13 March 1921", "type": "TIME"}, {"name": "1921", "type": "TIME"}])
    assert {"13 march 1921", "1921 03 13", "1921"} <= term.all_names()
    assert _docred_term([{"name": "Los Angeles", "type": "LOC"}]).all_names() == {"los angeles"}


def test_a_word_split_at_its_hyphen_is_joined_again():
    assert (
        docred_sentence("She trained in short - track and long - track , 1992 – 2002 .".split())
        == "She trained in short-track and long-track, 1992 – 2002."
    )
