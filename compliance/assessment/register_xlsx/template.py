"""The workbook's fixed layout: sheet names, column keys and their titles.

Row 1 holds the column keys (what the import reads), row 2 their readable
titles; the data starts on row 3. Keys never change; titles are in the
exporter's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The sheets, by their English names; a workbook names them in the language
# it was exported in, and an import finds them in either language.
HAZARDS = "Hazards"
MEASURES = "Measures"
README = "Read me"
SHEET_TITLES = {
    HAZARDS: _("Hazards"),
    MEASURES: _("Measures"),
    README: _("Read me"),
}


def sheet_title(sheet: str) -> str:
    """``sheet`` (its English name) in the active language."""
    return str(SHEET_TITLES[sheet])


def sheet_names(sheet: str) -> tuple[str, ...]:
    """Every name ``sheet`` goes by: English first, then each translation."""
    from django.conf import settings
    from django.utils import translation

    names = [sheet]
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names.append(str(SHEET_TITLES[sheet]))
    return tuple(dict.fromkeys(names))


FIRST_DATA_ROW = 3

# Bounds of an import (issue 15): a register is tens of hazards, not thousands.
MAX_BYTES = 2 * 1024 * 1024
# What the workbook may unpack to: a 2 MB zip of repeated text could be
# hundreds of MB of XML.
MAX_UNPACKED_BYTES = 40 * 1024 * 1024
MAX_HAZARDS = 500
MAX_MEASURES = 2000


@dataclass(frozen=True)
class Column:
    key: str
    title: str | Promise
    width: int = 14
    imported: bool = True  # False: worked out on export, ignored on import


HAZARD_COLUMNS: tuple[Column, ...] = (
    Column("number", _("Hazard number"), 8),
    Column("group", _("Hazard group (key)"), 14),
    Column("origin", _("Origin (key)"), 20),
    Column("consequence", _("Consequence (key)"), 18),
    Column("phase", _("Life-cycle phase (key)"), 18),
    Column("task", _("Task"), 36),
    Column("location_key", _("Place in the layout (key)"), 16),
    Column("description", _("Description"), 36),
    Column("body_region", _("Body region (ISO/TS 15066 key)"), 12),
    Column("contact_type", _("Kind of contact (key)"), 14),
    Column("contact_area_cm2", _("Contact area (cm²)"), 10),
    Column("severity", _("Severity S (S1, S2)"), 9),
    Column("frequency", _("Frequency F (F1, F2)"), 9),
    Column("avoidance", _("Avoidance P (P1, P2)"), 9),
    Column("low_probability", _("Low probability (yes/no)"), 10),
    Column("plr", _("PLr (worked out, not imported)"), 9, imported=False),
    Column("residual_severity", _("Residual S"), 9),
    Column("residual_frequency", _("Residual F"), 9),
    Column("residual_avoidance", _("Residual P"), 9),
    Column("residual_low_probability", _("Residual low probability (yes/no)"), 10),
    Column(
        "residual_plr", _("Residual PLr (worked out, not imported)"), 9, imported=False
    ),
)

MEASURE_COLUMNS: tuple[Column, ...] = (
    Column("hazard_number", _("Hazard number"), 8),
    Column("step", _("Step of the three-step method (key)"), 22),
    Column("description", _("Measure"), 40),
    Column("link", _("Device or guard (device:<id> or segment:<id>)"), 14),
    Column("linked_label", _("Linked to (not imported)"), 20, imported=False),
    Column("collaborative_mode", _("Collaborative mode (key)"), 14),
    Column("is_safety_function", _("Safety function (yes/no)"), 10),
    Column("plr_required", _("PLr required (a-e)"), 9),
    Column("pl_claimed", _("PL claimed (a-e)"), 9),
)

YES = {"yes", "y", "true", "1", "예", "네"}
NO = {"no", "n", "false", "0", "", "아니오", "아니요"}
