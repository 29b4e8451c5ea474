"""Domain modules are pure Python: importing them loads no Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "module", ["cells.geometry", "cells.exchange", "cells.drawing"]
)
def test_module_imports_no_django(module):
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
