"""Where the shared reference data lives: ``../shared/reference`` beside the
checkout (as on a developer's machine and in CI). The one place tests find it:
``reference_file`` / ``load_reference`` here, or the ``reference`` fixture
(tests/conftest.py). A test that compares the app's tables with it fails when
the data is not there: a check that cannot run is not a check that passed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

CHECKOUT = Path(__file__).resolve().parents[1]
REFERENCE_DIR = CHECKOUT.parent / "shared" / "reference"


def reference_file(name: str) -> Path:
    """The path of one reference file; fails the calling test when the shared
    reference folder, or the file in it, is missing."""
    folder = REFERENCE_DIR
    if not folder.is_dir():
        pytest.fail(
            f"the shared reference data is not here: no folder {folder}. "
            f"The shared reference folder must sit beside the checkout "
            f"({CHECKOUT}), as ../shared/reference.",
            pytrace=False,
        )
    path = folder / name
    if not path.is_file():
        pytest.fail(
            f"the shared reference file {name!r} is not in {folder}. "
            f"The shared reference folder must sit beside the checkout "
            f"({CHECKOUT}), as ../shared/reference, and hold {name}.",
            pytrace=False,
        )
    return path


def load_reference(name: str) -> Any:
    """One reference file's JSON, read afresh (tests may change what they get)."""
    return json.loads(reference_file(name).read_text(encoding="utf-8"))
