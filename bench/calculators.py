"""How many calculator API calls per second the app answers, beside a trivial
view (/healthz) in the same run, on a real gunicorn over loopback.

Run with `make bench-calculators`. Bounded: each measurement lasts a few
seconds and talks only to 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from server import gunicorn

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SECONDS = float(os.environ.get("BENCH_SECONDS", "4"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "4"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))

CASES = [
    ("GET /healthz (trivial view)", "GET", "/healthz", None),
    (
        "POST plr",
        "POST",
        "/api/v1/calculators/plr/",
        {"severity": "S2", "frequency": "F2", "avoidance": "P1"},
    ),
    (
        "POST iso13855-espe",
        "POST",
        "/api/v1/calculators/iso13855-espe/",
        {
            "detection_capability_mm": 14,
            "response_time_ms": 10,
            "controller_time_ms": 20,
            "stopping_time_ms": 120,
        },
    ),
    (
        "POST ts15066-pfl",
        "POST",
        "/api/v1/calculators/ts15066-pfl/",
        {
            "body_region": "hands_fingers",
            "robot_moving_mass_kg": 25,
            "payload_kg": 5,
            "contact": "transient",
        },
    ),
]


def hammer(
    port: int, method: str, path: str, body, token: str, seconds: float = SECONDS
) -> tuple[int, int]:
    """Requests answered with 200 by CLIENTS keep-alive connections in
    ``seconds``."""
    counts = [0] * CLIENTS
    errors = [0] * CLIENTS
    payload = json.dumps(body) if body is not None else None
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    deadline = time.monotonic() + seconds

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.monotonic() < deadline:
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                counts[i] += 1
            else:
                errors[i] += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts), sum(errors)


def main() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    # The bench measures the app, not the API throttle (one user, thousands of
    # calls a second).
    env.setdefault("API_THROTTLE_USER", "off")
    if not env.get("DATABASE_URL"):
        env["SQLITE_NAME"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    manage = [PYTHON, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [
            *manage,
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model;"
            "get_user_model().objects.get_or_create(username='bench')",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    token = subprocess.run(
        [*manage, "create_api_token", "bench", "--days", "1"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()  # the token alone on stdout
    with gunicorn(env, WORKERS) as port:
        print(
            f"gunicorn {WORKERS} workers, {CLIENTS} keep-alive clients, {SECONDS:g} s each"
        )
        print(f"{'case':34} {'req/s':>8} {'errors':>7}")
        for label, method, path, body in CASES:
            # Untimed first: every worker has answered before the count.
            hammer(port, method, path, body, token, seconds=1)
            answered, failed = hammer(port, method, path, body, token)
            print(f"{label:34} {answered / SECONDS:>8.0f} {failed:>7}")


if __name__ == "__main__":
    main()
