"""The building blocks of the proposal PDF, shared by the builder and its
sections: the document kit (``compliance.documents.kit``) with the proposal's
data and its fixed labels in the document's language. The sections take a
``Kit``; the builder is one."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from compliance.documents import theme
from compliance.documents.kit import CELL_LEADING, CELL_SIZE, DocumentKit
from compliance.documents.theme import BOLD
from compliance.proposals.pdf.data import (
    MoneyRange,
    ProposalData,
    Row,
    SectionKey,
    Status,
    WeeksRange,
)


def section_titles() -> dict[SectionKey, str]:
    """The sections' titles in the active language."""
    return {
        "summary": _("Executive summary"),
        "legal": _("What the law requires"),
        "cell": _("The cell"),
        "rules": _("Standards and law that apply"),
        "risk": _("Risk assessment summary"),
        "findings": _("Compliance findings"),
        "safety_functions": _("Safety functions"),
        "specification": _("Safety requirements specification"),
        "validation": _("Validation plan"),
        "costs": _("Safeguards and line items"),
        "schedule": _("Schedule"),
        "concepts": _("Guarding concepts"),
        "terms": _("Assumptions, exclusions and disclaimers"),
        "working": _("ISO 13849 working of the safety functions"),
    }


def status_labels() -> dict[Status, str]:
    return {
        "pass": _("Pass"),
        "fail": _("Fail"),
        "warning": _("Warning"),
        "needs_evidence": _("Needs evidence"),
    }


class Kit(DocumentKit):
    """What the sections build with: the data, fresh styles, the fixed labels
    in the proposal's language, and helpers for paragraphs and tables."""

    def __init__(self, data: ProposalData):
        super().__init__()
        self.data = data
        self.titles = section_titles()
        self.statuses = status_labels()

    def status_style(self, statuses: Sequence[Status], column: int) -> list[tuple]:
        """The status column coloured per row (row 0 is the header)."""
        return [
            ("TEXTCOLOR", (column, row), (column, row), theme.STATUS_COLOURS[status])
            for row, status in enumerate(statuses, start=1)
        ] + [("FONT", (column, 1), (column, -1), BOLD, CELL_SIZE, CELL_LEADING)]

    def weeks(self, weeks: WeeksRange) -> str:
        return _("%(weeks)s weeks") % {
            "weeks": theme.weeks_range(weeks.low, weeks.high)
        }

    @staticmethod
    def money(value: MoneyRange) -> str:
        return theme.money_range(value.currency, value.low, value.high)

    @staticmethod
    def items_to_quote(count: int) -> str:
        """ "6 items to be quoted": the count in words."""
        return ngettext(
            "%(count)s item to be quoted", "%(count)s items to be quoted", count
        ) % {"count": theme.number(count)}

    @staticmethod
    def rates_used(rates: Sequence[Row]) -> str:
        """ "Exchange rates: 1 USD = 1,380 KRW (2026-12-01, source).": the
        rates a converted figure used, each with its date and source."""
        return _("Exchange rates: %(rates)s.") % {
            "rates": "; ".join(f"{r.label} = {r.value}" for r in rates)
        }

    @staticmethod
    def other_currency_lines(count: int) -> str:
        """Data stored before issue 29: priced lines a total left out for
        want of a rate, said as the customer reads it."""
        return ngettext(
            "%(count)s priced line in another currency is not in this total.",
            "%(count)s priced lines in other currencies are not in this total.",
            count,
        ) % {"count": theme.number(count)}

    def plan_name(self, key: str | None) -> str:
        if key == "physical_first":
            return _("Physical first")
        if key == "sim_first":
            return _("Simulation first")
        return _("No recommendation")
