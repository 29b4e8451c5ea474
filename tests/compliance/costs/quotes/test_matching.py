"""A quote's row is matched by part number, then model, then kind; each
match says how (issue 29)."""

from __future__ import annotations

from compliance.costs.catalogue import CATALOGUE_BY_KEY
from compliance.costs.quotes.matching import LibraryItem, Matcher, RowIdentity

LIBRARY = (
    LibraryItem(
        pk=1,
        kind="light_curtain",
        maker="SICK",
        model="deTec4 Core",
        part_number="C4C-SA06010A10000",
    ),
    LibraryItem(pk=2, kind="safety_relay", maker="Pilz", model="PNOZ s4"),
    LibraryItem(pk=3, kind="contactor", maker="ABB", model="AF09", part_number="X-9"),
)
match = Matcher(LIBRARY, CATALOGUE_BY_KEY)


def test_part_number_beats_kind_and_ignores_case_and_separators():
    found = match(RowIdentity(kind="emergency_stop", part_number="c4c sa06010a10000"))
    assert (found.matched_by, found.catalogue_key, found.library_pk) == (
        "part_number",
        "light_curtain",
        1,
    )


def test_model_with_its_maker_then_kind():
    found = match(RowIdentity(maker="pilz", model="PNOZ-s4"))
    assert (found.matched_by, found.catalogue_key, found.library_pk) == (
        "model",
        "safety_controller",
        2,
    )
    # Another maker's model of the same name is not the library's device.
    other = match(RowIdentity(maker="Omron", model="PNOZ s4", kind="emergency_stop"))
    assert (other.matched_by, other.catalogue_key, other.library_pk) == (
        "kind",
        "emergency_stop",
        None,
    )


def test_an_unknown_part_number_falls_back_to_the_kind_and_else_matches_nothing():
    assert match(RowIdentity(part_number="NOPE", kind="fence")).matched_by == "kind"
    nothing = match(RowIdentity(part_number="NOPE", model="Nothing"))
    assert (nothing.matched_by, nothing.catalogue_key) == ("none", "")


def test_a_library_device_that_prices_no_line_is_matched_but_prices_nothing():
    found = match(RowIdentity(part_number="X-9"))
    assert (found.matched_by, found.library_pk, found.catalogue_key) == (
        "part_number",
        3,
        "",
    )
