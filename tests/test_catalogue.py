"""Korean, complete (issue 15): the shipped catalogue has no untranslated and
no fuzzy message, and it is current: Django's makemessages, run over a copy of
the source, finds no message the catalogue lacks. A new string marked for
translation fails here until it has its Korean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = Path("locale", "ko", "LC_MESSAGES", "django.po")
# What makemessages reads (the code, the templates) and what the settings and
# the apps load when it starts.
SOURCES = ("cells", "compliance", "config", "templates", "fixtures", "manage.py")


def _messages(path: Path) -> list:
    with path.open("rb") as handle:
        return [message for message in read_po(handle) if message.id]


def _untranslated(messages: list) -> list[str]:
    def empty(string) -> bool:
        strings = string if isinstance(string, tuple) else (string,)
        return not all(strings)

    return [str(m.id) for m in messages if empty(m.string)]


def test_every_korean_message_is_translated_and_none_is_fuzzy():
    messages = _messages(ROOT / CATALOGUE)
    assert len(messages) > 1000  # the real catalogue, not an empty one
    assert _untranslated(messages) == []
    assert [str(m.id) for m in messages if m.fuzzy] == []


@pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="GNU gettext is not installed"
)
def test_the_catalogue_holds_every_message_the_source_marks(tmp_path):
    # The source linked (makemessages follows the links with --symlinks),
    # the catalogue copied: the shipped one is left as it is.
    copy = tmp_path / "src"
    copy.mkdir()
    for name in SOURCES:
        (copy / name).symlink_to(ROOT / name)
    (copy / CATALOGUE).parent.mkdir(parents=True)
    shutil.copy2(ROOT / CATALOGUE, copy / CATALOGUE)
    made = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "ko",
            "--no-location",
            "--symlinks",
        ],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    shipped = {str(m.id) for m in _messages(ROOT / CATALOGUE)}
    current = _messages(copy / CATALOGUE)
    missing = sorted({str(m.id) for m in current} - shipped)
    assert missing == [], (
        "run `manage.py makemessages -l ko --no-location` and translate these"
    )
    assert _untranslated(current) == []


def test_the_catalogue_holds_every_text_of_the_fixtures():
    # makemessages collects them through a file it writes beside the settings,
    # which a copy of the source does not see: checked here directly.
    from compliance.management.commands.makemessages import fixture_messages

    translated = {str(m.id): m.string for m in _messages(ROOT / CATALOGUE) if m.string}
    missing = [text for text in fixture_messages() if text not in translated]
    assert missing == [], "translate these texts of fixtures/ in the catalogue"


def test_the_catalogue_compiles_without_errors(tmp_path):
    # `make messages` compiles it with Babel, which refuses a translation whose
    # placeholders do not match its message's (a "% d" in prose counts).
    target = tmp_path / "ko" / "LC_MESSAGES"
    target.mkdir(parents=True)
    made = subprocess.run(
        [
            str(Path(sys.executable).with_name("pybabel")),
            "compile",
            "-i",
            str(ROOT / CATALOGUE),
            "-o",
            str(target / "django.mo"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
