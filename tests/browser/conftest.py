"""Browser tests drive Debian's Chromium (no browser downloads are possible)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture
def screenshot_dir(pytestconfig) -> Path:
    folder = Path(pytestconfig.getoption("--output"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
