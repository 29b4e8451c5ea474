"""The fixtures live in tests/compliance/conftest.py; CRUSHING is re-exported
here for the tests that import it from this module."""

from __future__ import annotations

from tests.compliance.conftest import CRUSHING

__all__ = ["CRUSHING"]
