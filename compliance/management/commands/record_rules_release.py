"""Record the rules as they stand in the code as a release of the rule set.

``compliance.rules.history`` keeps each release's rule fingerprints; a test
fails when the code's rules no longer match the newest release. After changing
a rule: ``manage.py record_rules_release <version> <date>``, then add the
release's notes in ``compliance/rules/history.py``.
"""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from compliance.rules.engine import all_rules
from compliance.rules.history import fingerprints, record


class Command(BaseCommand):
    help = "Write the fingerprints of every rule as a release of the rule set."

    def add_arguments(self, parser) -> None:
        parser.add_argument("version", type=int)
        parser.add_argument("released_on", help="the release's date, YYYY-MM-DD")

    def handle(self, *args, version: int, released_on: str, **options) -> None:
        try:
            day = date.fromisoformat(released_on)
        except ValueError as error:
            raise CommandError(f"released_on: {error}") from None
        if version < 1:
            raise CommandError("version: a release is numbered from 1")
        rules = fingerprints(all_rules())
        record(version, day, rules)
        self.stdout.write(f"Release {version} ({day}): {len(rules)} rules recorded.")
