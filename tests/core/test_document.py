from graphwright.model import Document


def test_find_prefers_the_exact_surface_over_a_case_variant():
    document = Document(text="PARIS fashion week, then Paris again.")
    span = document.find("Paris")
    assert (span.start, span.text) == (25, "Paris")


def test_find_falls_back_to_case_and_returns_the_text_as_written():
    document = Document(text="She moved to PARIS in 1990.")
    span = document.find("paris")
    assert (span.start, span.end, span.text) == (13, 18, "PARIS")


def test_find_keeps_offsets_after_a_letter_whose_lower_case_is_longer():
    # "İ".lower() is two code points; offsets taken from a lowered copy would land one character late
    document = Document(text="İzmir lies west of ANKARA.")
    span = document.find("Ankara")
    assert (span.start, span.text) == (19, "ANKARA")


def test_find_reads_the_surface_literally_and_reports_absence():
    document = Document(text="Prices rose (a lot) in 2020.")
    assert document.find("(a lot)").text == "(a lot)"
    assert document.find("a.lot") is None
    assert document.find("") is None
