"""Migrations of the cells app: the data migrations tested by their conversion
functions, the others by running them."""

from __future__ import annotations

import importlib

import pytest
from django.core.management import call_command
from django.db import connection

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


@pytest.mark.django_db(transaction=True)
def test_the_old_token_table_is_dropped_and_a_database_without_it_migrates():
    # As a database from before knox: DRF's table, full of plain-text tokens.
    call_command("migrate", "cells", "0014", verbosity=0)
    try:
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY)")
            cursor.execute("INSERT INTO authtoken_token VALUES ('0123456789abcdef')")
        call_command("migrate", "cells", "0015", verbosity=0)
        assert "authtoken_token" not in connection.introspection.table_names()

        # Back and forth again, now that there is no such table.
        call_command("migrate", "cells", "0014", verbosity=0)
        call_command("migrate", "cells", "0015", verbosity=0)
    finally:
        call_command("migrate", verbosity=0)
    assert "authtoken_token" not in connection.introspection.table_names()
