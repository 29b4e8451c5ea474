from __future__ import annotations

import pytest

from tests.cells.motion.support import issue_cobot


@pytest.fixture
def cobot(cell):
    return issue_cobot(cell)
