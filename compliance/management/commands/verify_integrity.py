"""Re-check every audit chain and every signed revision against their seals.

Prints each break, naming the record and what no longer matches, and exits
with status 1 if there is any; otherwise prints what was checked and each
chain's newest entry. Keep those heads somewhere the database owner cannot
reach (a log, a ticket): entries cut off at the end of a chain show only
against a head recorded before (README, "Tamper-evidence").
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from compliance.assessment import audit, integrity
from compliance.assessment.verification import integrity_report


class Command(BaseCommand):
    help = "Check the audit chains and signed revisions against their seals."

    def handle(self, *args, **options) -> None:
        report = integrity_report()
        key_id = integrity.key_id(audit.integrity_key())
        for found in report.breaks:
            self.stderr.write(f"BREAK {found}")
        summary = (
            f"{len(report.heads)} chains, {report.entries} audit entries, "
            f"{report.signed_revisions} signed revisions checked with key {key_id}"
        )
        if report.breaks:
            raise CommandError(f"{len(report.breaks)} breaks; {summary}")
        self.stdout.write(self.style.SUCCESS(f"Intact: {summary}."))
        for organisation_id, (sequence, seal) in sorted(report.heads.items()):
            self.stdout.write(
                f"  organisation {organisation_id}: newest entry #{sequence}, "
                f"seal {seal}"
            )
