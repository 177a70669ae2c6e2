"""The kind of place a gloss or a KB description names (issue 61)."""

from __future__ import annotations

from graphwright.linking.place_kinds import grounds, names_a_person, place_kinds


def test_kinds_are_read_from_the_head():
    assert place_kinds("county seat city in Erie County, New York") == {"settlement"}
    assert place_kinds("state of Sudan") == {"region"}
    assert place_kinds("a river in Ethiopia and Sudan") == {"river"}
    assert place_kinds("a man") == frozenset()


def test_only_water_relief_and_land_are_told_apart():
    assert grounds(place_kinds("a river")) != grounds(place_kinds("state of Sudan"))
    assert grounds(place_kinds("a country")) == grounds(place_kinds("autonomous region of China"))


def test_a_gloss_that_calls_a_name_a_person():
    assert names_a_person("a Vietnamese revolutionary leader")
    assert not names_a_person("a city named after a leader")  # the head is the city
