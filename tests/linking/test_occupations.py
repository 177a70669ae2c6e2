"""A person's career as the text and a KB description say it (issue 61): broad families, read only where
the text writes them with the name."""

from __future__ import annotations

from graphwright.linking.occupations import career_fit, later_careers, occupations, written_career


def test_careers_fall_in_broad_families():
    assert occupations("American merchant and statesman") == {"business", "politics"}
    assert {"music", "acting"} <= occupations("American singer-songwriter and actress")
    assert occupations("British film director and video artist") >= {"film", "art"}
    assert "business" not in occupations("New Zealand film director")  # a film director directs no firm
    assert occupations("a man") == frozenset()
    assert occupations("member of U.S. Senate representing South Carolina") == {"politics"}
    assert "golf" in occupations("an athlete")  # sport at large is every sport


def test_the_text_writes_a_career_only_right_with_the_name():
    assert written_career("Tom Watson", "Tom Watson, the golfer from Kansas City, won.").strip() == "the golfer"
    assert written_career("David White", "The potter David White, whose jugs sold out, has a studio.") == "potter"
    assert written_career("John Hancock", "John Hancock, president of the Congress, signed.").strip() == "president"
    assert written_career("Tony Curtis", "Tony Curtis and Jack Lemmon play musicians.") == ""  # a role
    assert written_career("Albert Magnoli", "directed by Albert Magnoli, stars Prince as the Kid") == ""  # a verb
    assert written_career("Howard Beale", "its veteran anchorman, Howard Beale, into a hit") == "anchorman"


def test_careers_clash_only_when_they_share_no_family():
    why, agrees = career_fit("the golfer", "American politician, attorney, newspaper editor and writer")
    assert why and not agrees
    assert career_fit("a filmmaker", "New Zealand film director, screenwriter, and film producer") == (None, True)
    assert career_fit("", "American actor") == (None, False)  # the text names no career: nothing to judge
    assert career_fit("a rancher", "American politician, Governor of Wyoming") == (None, False)  # into politics


def test_a_later_career_the_text_gives_the_person_lifts_the_clash():
    text = "Lech Walesa, an electrician at the shipyard, led the strikes. He was elected president in 1990."
    assert career_fit("an electrician", "Polish politician", later_careers("Lech Walesa", text)) == (None, False)
    text = "George Clinton, a retired bus driver, is often asked whether he is related to the funk musician."
    assert career_fit("a retired bus driver", "American funk musician", later_careers("George Clinton", text))[0]
    text = "Ola Berg, a welder, joined the yard. Kari Lund was elected mayor in 2020."  # someone else's career
    assert career_fit("a welder", "Norwegian politician", later_careers("Ola Berg", text))[0]


def test_a_ferry_captain_is_not_the_production_designer_of_his_name(linker):
    text = "John Barry, a retired ferry captain from Wexford, opened a maritime museum in Dunmore East in 2019."
    assert linker(text, "John Barry") is None  # not Q1600325, the production designer
