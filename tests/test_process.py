"""A web process sets itself up once as it starts (``config.process``): what
it loaded is set aside from the cycle collector and the youngest objects are
collected less often, as a PDF worker does; nothing a request runs changes
that (issue 26)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from config.process import WEB_GC_THRESHOLD

ROOT = Path(__file__).resolve().parent.parent


def test_the_wsgi_application_freezes_what_it_loaded_and_raises_the_threshold():
    code = (
        "import gc, config.wsgi; "
        "print(gc.get_threshold()); print(gc.get_freeze_count() > 10000)"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
    }
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split("\n")
    assert out[0] == str(WEB_GC_THRESHOLD) and out[1] == "True"
