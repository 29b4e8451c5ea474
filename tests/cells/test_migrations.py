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
