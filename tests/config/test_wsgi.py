"""A web process is ready when it starts: its first request (a load
balancer's health check, say) took 3 s while the URLconf and every view
behind it were imported."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wsgi_application_loads_every_view_as_it_starts():
    code = (
        "import sys, config.wsgi; "
        "print(all(m in sys.modules for m in "
        "('config.urls', 'cells.views', 'compliance.proposals.views')))"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "CELERY_BROKER_URL")
    }
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env["SQLITE_NAME"] = str(Path(tempfile.mkdtemp()) / "wsgi.sqlite3")
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip().splitlines()[-1] == "True", done.stderr
