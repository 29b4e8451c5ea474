"""Data migrations of the cells app, tested by their conversion functions."""

from __future__ import annotations

import importlib

import pytest

collaborative_modes = importlib.import_module(
    "cells.migrations.0009_cell_collaborative_modes"
)


@pytest.mark.parametrize(
    ("mode", "modes"),
    [("", []), ("pfl", ["pfl"]), ("hand_guiding", ["hand_guiding"])],
)
def test_one_collaborative_mode_becomes_a_list(mode, modes):
    assert collaborative_modes.modes_from_mode(mode) == modes


@pytest.mark.parametrize(
    ("modes", "mode"),
    [([], ""), (["pfl"], "pfl"), (["ssm", "pfl"], "ssm")],
)
def test_back_the_list_becomes_its_first_mode(modes, mode):
    assert collaborative_modes.mode_from_modes(modes) == mode


within_bounds = importlib.import_module("cells.migrations.0012_bring_within_bounds")


@pytest.mark.parametrize(
    ("corners", "past"),
    [
        ([], False),
        ([[0, 0], [100_000, 0], [0, -100_000]], False),
        ([[0, 0], [10**300, 0], [0, 1]], True),
        ([[0, 0]] * 201, True),
        ([[0, 0, 0]], True),
        ({"x": 1}, True),
    ],
)
def test_an_outline_past_the_bounds_is_found_to_be_dropped(corners, past):
    assert within_bounds.outline_past_bounds(corners) is past
