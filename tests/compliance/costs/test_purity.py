"""The costs package is pure Python: importing it loads no Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    "module",
    ["compliance.costs", "compliance.costs.catalogue", "compliance.costs.line_items"],
)
def test_costs_import_no_django(module):
    code = (
        f"import sys, {module}; print(any(m.startswith('django') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"
