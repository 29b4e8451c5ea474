from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ComplianceConfig(AppConfig):
    name = "compliance"
    verbose_name = _("Compliance")

    def ready(self) -> None:
        # The register's workbook gets the cell's guarding concepts as a
        # sheet: registered here, in the app's shell, as the assessment's
        # room sits below the concepts' and imports nothing of theirs.
        from compliance.assessment.register_xlsx import export
        from compliance.proposals.data.concepts import concepts_sheet

        if concepts_sheet not in export.SHEETS:
            export.SHEETS.append(concepts_sheet)
