"""Where the shared reference data lives: ``../shared/reference`` beside the
checkout (as on a developer's machine and in CI). Tests that compare the app's
tables with it skip when it is absent."""

from __future__ import annotations

from pathlib import Path

REFERENCE_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "reference"
