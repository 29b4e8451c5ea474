"""Settings come from the environment; production refuses unsafe defaults."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "INTEGRITY_KEY"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_the_deploy_check():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY="x7#kq2!v9" * 8,
        ALLOWED_HOSTS="planner.example.com",
        INTEGRITY_KEY="m4#tz8!q" * 6,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_debug_off_without_secret_key_refuses_to_start():
    result = manage("check", DEBUG="0", ALLOWED_HOSTS="planner.example.com")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_debug_off_without_an_integrity_key_refuses_to_start():
    # Tamper-evidence (issue 13): the seals need a key of the server's own.
    for key in ("", "too-short", "development-integrity-key-do-not-use-in-production"):
        result = manage(
            "check",
            DEBUG="0",
            SECRET_KEY="y" * 60,
            ALLOWED_HOSTS="planner.example.com",
            INTEGRITY_KEY=key,
        )
        assert result.returncode != 0
        assert "INTEGRITY_KEY must be set" in result.stderr


def test_debug_off_without_allowed_hosts_refuses_to_start():
    result = manage("check", DEBUG="0", SECRET_KEY="y" * 60, ALLOWED_HOSTS="")
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set" in result.stderr


def test_embedded_default_is_sqlite_and_in_process_celery():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DEBUG"}
    }
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True"]


def test_database_url_selects_postgresql_and_broker_url_real_workers():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://u@db.example:5432/csp",
        "CELERY_BROKER_URL": "redis://cache.example:6379/0",
    }
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.stdout.split() == ["django.db.backends.postgresql", "False"]


def test_the_readme_lists_every_variable_the_settings_read():
    settings = (ROOT / "config" / "settings.py").read_text(encoding="utf-8")
    read = set(
        re.findall(r"env_(?:str|bool|int|list|rate)\(\s*\"([A-Z0-9_]+)\"", settings)
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    listed = {
        name
        for row in rows
        for name in re.findall(r"`([A-Z0-9_]+)`", row.split("|")[1])
    }

    assert read, "no env_* reads found: the pattern no longer fits settings.py"
    assert read <= listed, f"missing from the README's table: {sorted(read - listed)}"
