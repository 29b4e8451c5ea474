"""The shared fixtures live in tests/compliance/conftest.py (``revision``
states the limits of the machine, as a revision must before it can be signed;
``blank_revision`` does not); re-exported here for the tests that import them
from this module."""

from __future__ import annotations

from tests.compliance.conftest import CRUSHING, LIMITS, state_limits

__all__ = ["CRUSHING", "LIMITS", "state_limits"]
