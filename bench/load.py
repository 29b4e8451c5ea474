"""Load figures a hosting team can plan with (issue 28): requests per second
and the p50 / p95 latency of a mix of pages and API calls on the demo data,
with 8 and 16 reading clients, and with 8 readers beside 2 writers editing
one guard segment, on a real gunicorn over loopback.

Run with `make bench-load` (or `python bench/load.py`). Give it a scratch
PostgreSQL database in `DATABASE_URL` (it migrates it and loads the demo) and
a Redis in `CACHE_URL` to measure the app as deployed; without them it runs on
a temporary SQLite file and each process's own cache. Bounded: each scenario
lasts `LOAD_SECONDS` (20), the clients talk only to 127.0.0.1, and the server
it starts is stopped by its process id when it ends.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from server import gunicorn

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SECONDS = float(os.environ.get("LOAD_SECONDS", "20"))
WORKERS = int(os.environ.get("LOAD_WORKERS", "2"))
PASSWORD = "cell-safety-demo"  # the demo's (seed_demo)
SCENARIOS = ((8, 0), (16, 0), (8, 2))  # (readers, writers)


class Session:
    """One client's keep-alive connection, signed in to the pages."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.token = token

    def request(self, method: str, path: str, body: str | None = None, **headers):
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, data

    def log_in(self) -> None:
        _status, page = self.request("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, "no login form"
        form = urlencode(
            {
                "username": "sa",
                "password": PASSWORD,
                "csrfmiddlewaretoken": token.group(1).decode(),
            }
        )
        status, _ = self.request(
            "POST",
            "/accounts/login/",
            form,
            **{
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"http://127.0.0.1:{self.conn.port}/accounts/login/",
            },
        )
        assert status == 302, f"login answered {status}"

    def api(self, method: str, path: str, body: dict | None = None):
        return self.request(
            method,
            path,
            json.dumps(body) if body is not None else None,
            **{
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
            },
        )


def run(port: int, token: str, cell: int, segment: int, readers: int, writers: int):
    """(requests answered, errors, latencies in ms) of one scenario."""
    deadline = time.monotonic() + SECONDS
    latencies: list[float] = []
    errors = [0]
    answered = [0]
    lock = threading.Lock()
    reads = [
        ("page", f"/cells/{cell}/"),
        ("page", f"/cells/{cell}/compliance/"),
        ("api", f"/api/v1/cells/{cell}/findings/"),
        ("api", f"/api/v1/cells/{cell}/line-items/"),
    ]

    def reader(i: int) -> None:
        session = Session(port, token)
        session.log_in()
        n = i
        while time.monotonic() < deadline:
            kind, path = reads[n % len(reads)]
            n += 1
            start = time.perf_counter()
            if kind == "page":
                status, _ = session.request("GET", path)
            else:
                status, _ = session.api("GET", path)
            took = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(took)
                if status == 200:
                    answered[0] += 1
                else:
                    errors[0] += 1

    def writer(i: int) -> None:
        session = Session(port, token)
        field = ("height_mm", "mesh_opening_mm")[i % 2]
        base = (1800, 30)[i % 2]
        n = 0
        while time.monotonic() < deadline:
            n += 1
            start = time.perf_counter()
            status, _ = session.api(
                "PATCH",
                f"/api/v1/guard-segments/{segment}/",
                {field: base + n % 50},
            )
            took = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(took)
                if status == 200:
                    answered[0] += 1
                else:
                    errors[0] += 1

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(readers)]
    threads += [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SECONDS + 60)
    return answered[0], errors[0], latencies


def _manage(env, *args, capture: bool = True) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=capture,
        text=True,
    )
    return done.stdout if capture else ""


def main() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.setdefault("API_THROTTLE_USER", "off")  # the app, not the throttle
    if not env.get("DATABASE_URL"):
        env["SQLITE_NAME"] = str(Path(tempfile.mkdtemp()) / "load.sqlite3")
    _manage(env, "migrate", "-v0")
    _manage(env, "seed_demo")
    token = _manage(env, "create_api_token", "sa", "--days", "1").strip()
    found = _manage(
        env,
        "shell",
        "-c",
        "from cells.models import Cell, GuardSegment;"
        "c = Cell.objects.filter(variant_of__isnull=True, "
        "name__startswith='Case palletiser').first();"
        "print(c.pk, GuardSegment.objects.filter(cell=c).first().pk)",
    )
    cell, segment = (int(x) for x in found.split()[-2:])
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - kept for the run
        mode="w", prefix="load-gunicorn-", suffix=".log", delete=False
    )
    with gunicorn(env, WORKERS, log) as port:
        database = "PostgreSQL" if env.get("DATABASE_URL") else "SQLite"
        cache = "Redis" if env.get("CACHE_URL") else "per-process"
        print(
            f"gunicorn {WORKERS} workers on {os.cpu_count()} cores, {database}, "
            f"{cache} cache, {SECONDS:g} s per scenario; mix: cell page, "
            "compliance page, findings API, cost lines API"
        )
        print(f"{'clients':24} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'errors':>7}")
        run(port, token, cell, segment, 2, 0)  # warm: every worker has answered
        for readers, writers in SCENARIOS:
            answered, failed, took = run(port, token, cell, segment, readers, writers)
            label = f"{readers} readers" + (f" + {writers} writers" if writers else "")
            p50 = f"{statistics.median(took):.0f}" if took else "—"
            # Fewer than 20 answers give no 95th percentile.
            p95 = (
                f"{statistics.quantiles(took, n=20)[-1]:.0f}"
                if len(took) >= 20
                else "—"
            )
            print(
                f"{label:24} {answered / SECONDS:>7.1f} {p50:>7} {p95:>7} {failed:>7}"
            )
    log.close()
    print(f"(the server's log: {log.name})")


if __name__ == "__main__":
    main()
