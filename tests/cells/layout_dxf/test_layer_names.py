"""Layers mapped by what they are called (issue 31): a customer's drawing in
English, German or Korean has its fence, wall and machine layers suggested
as such, for the user to confirm; any other layer stays underlay."""

from __future__ import annotations

import pytest

from cells.layout_dxf.reading import default_target, suggested_kind, suggested_target


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("FENCE", "fence"),
        ("A-FENCE-01", "fence"),
        ("Safety_Guard", "fence"),
        ("SAFETY", "fence"),
        ("Schutzzaun", "fence"),
        ("ZAUN", "fence"),
        ("펜스", "fence"),
        ("안전펜스", "fence"),
        ("울타리-1", "fence"),
        ("WALL", "wall"),
        ("WALLS", "wall"),
        ("Wand", "wall"),
        ("벽", "wall"),
        ("MACHINE", "machine_body"),
        ("Maschine_2", "machine_body"),
        ("설비", "machine_body"),
        ("기계", "machine_body"),
    ],
)
def test_a_layer_named_as_a_guard_is_suggested_as_one(name, kind):
    assert suggested_kind(name) == kind
    assert suggested_target(name) == kind
    # Only a suggestion: unconfirmed (an API import without a mapping, a
    # form field not sent), the layer stays underlay.
    assert default_target(name) == "underlay"


@pytest.mark.parametrize(
    "name", ["HALL", "0", "COLUMNS", "TEXT", "DIM", "FENCEPOST-DETAIL", "Drywall"]
)
def test_any_other_layer_stays_underlay(name):
    # Whole words only: "FENCEPOST" or "Drywall" is not a fence or a wall.
    assert suggested_kind(name) is None
    assert suggested_target(name) == "underlay"


def test_the_apps_own_layers_read_back_as_before():
    assert default_target("CSP-MACHINE-BODY") == "machine_body"
    assert default_target("CSP-FENCE") == "fence"
    assert default_target("CSP-DEVICES") == "ignore"
    assert suggested_target("CSP-DEVICES") == "ignore"
