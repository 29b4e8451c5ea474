"""The starting device library: makers' devices with their data-sheet safety
figures, as typed, frozen data. Pure Python with pydantic, no Django.

The entries are data, in ``fixtures/device_library.json``, normalised from the
reference data's typical safety data of common devices (30 entries): one entry
per device, or one per function where the data sheet gives figures per
function (the AZM201's interlock and guard locking, the PNOZ e1p's two- and
single-channel operation, ...). Every figure is copied from the reference
entry its ``reference_id`` names; none is estimated, and a figure the entry
does not give is ``None``. Where the reference gives two figures for one field
(the GL-R's two response times) the conservative one is entered and the note
gives both. The reference has no prices and no lead times, so no starting
entry has one: every line priced from them says "price to be quoted" until
the organisation enters its own, with their source and date.

Every starting entry is marked "From the maker's data sheet; check the current
one" (``REFERENCE_STATUS``). Each organisation's library starts as a copy of
these entries (``compliance.safety_functions.library.services.library_seed``)
and adds its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from compliance.calculators.base import gettext_noop

# The kinds of library devices, as ``LibraryKind`` (models.py) names them.
LIBRARY_KINDS: tuple[str, ...] = (
    "light_curtain",
    "multibeam",
    "laser_scanner",
    "safety_mat",
    "interlock_switch",
    "guard_locking",
    "emergency_stop",
    "enabling_device",
    "safety_relay",
    "safety_controller",
    "safety_io",
    "contactor",
    "drive_sto",
    "robot_controller",
    "other",
)
Kind = Literal[
    "light_curtain",
    "multibeam",
    "laser_scanner",
    "safety_mat",
    "interlock_switch",
    "guard_locking",
    "emergency_stop",
    "enabling_device",
    "safety_relay",
    "safety_controller",
    "safety_io",
    "contactor",
    "drive_sto",
    "robot_controller",
    "other",
]
# ISO 13849-1 performance levels, lowest first, and designated categories.
PERFORMANCE_LEVELS: tuple[str, ...] = ("a", "b", "c", "d", "e")
CATEGORIES: tuple[str, ...] = ("B", "1", "2", "3", "4")
IEC61496_TYPES: tuple[int, ...] = (2, 3, 4)
CURRENCIES: tuple[str, ...] = ("KRW", "USD", "EUR")

# Bounds of the figures, as the model's columns and validators hold them.
PFHD_MAX = 1e-4  # strictly below
PFHD_MIN = 1e-12

REFERENCE_STATUS = gettext_noop("From the maker's data sheet; check the current one.")

# The figures that make an entry the maker's: once an organisation changes
# one of them, the entry is its own and no longer the reference's.
SAFETY_FIELDS: tuple[str, ...] = (
    "kind",
    "maker",
    "model",
    "part_number",
    "function",
    "iec61496_type",
    "pl",
    "category",
    "sil",
    "pfhd_per_hour",
    "b10d_cycles",
    "mttfd_years",
    "dcavg_percent",
    "response_time_ms",
    "detection_capability_mm",
    "range_m",
    "protective_height_mm",
    "certificates",
    "kcs_certificate_no",
)


def levels_at_least(level: str) -> tuple[str, ...]:
    """The performance levels at or above ``level`` ("d" -> ("d", "e"))."""
    if level not in PERFORMANCE_LEVELS:
        raise ValueError(f"unknown performance level {level!r}")
    return PERFORMANCE_LEVELS[PERFORMANCE_LEVELS.index(level) :]


class LibraryEntry(BaseModel):
    """One starting entry of the device library: a maker's device (or one
    function of it) with the safety figures its data sheet gives.

    Units are in the field names. ``pfhd_per_hour`` is the probability of a
    dangerous failure per hour; ``range_m`` the protective field range or
    operating range; ``response_time_ms`` the conservative one where two are
    given (the note says so). ``data_source`` names the maker's document and
    how it was read; ``notes`` what the reference notes, and how a figure was
    taken from it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    key: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][\w.-]*$")
    reference_id: str = Field(min_length=1)  # the reference entry it comes from
    kind: Kind
    maker: str = Field(min_length=1, max_length=80)
    model: str = Field(min_length=1, max_length=120)
    part_number: str = Field(default="", max_length=80)
    function: str = Field(default="", max_length=120)
    iec61496_type: Literal[2, 3, 4] | None = None
    pl: Literal["", "a", "b", "c", "d", "e"] = ""
    category: Literal["", "B", "1", "2", "3", "4"] = ""
    sil: int | None = Field(default=None, ge=1, le=3)
    pfhd_per_hour: float | None = Field(default=None, ge=PFHD_MIN, lt=PFHD_MAX)
    b10d_cycles: float | None = Field(default=None, ge=1, le=1e12)
    mttfd_years: float | None = Field(default=None, ge=0.1, le=1_000_000)
    dcavg_percent: float | None = Field(default=None, ge=0, le=100)
    response_time_ms: Decimal | None = Field(
        default=None, ge=0, le=100_000, max_digits=7, decimal_places=1
    )
    detection_capability_mm: int | None = Field(default=None, ge=0, le=2_000)
    range_m: Decimal | None = Field(
        default=None, ge=0, le=1_000, max_digits=6, decimal_places=2
    )
    protective_height_mm: int | None = Field(default=None, ge=0, le=3_000)
    certificates: str = Field(default="", max_length=200)
    kcs_certificate_no: str = Field(default="", max_length=40)
    data_source: str = Field(min_length=1, max_length=300)
    notes: str = Field(default="", max_length=300)

    def as_fields(self) -> dict[str, Any]:
        """The entry as the library model's fields (no prices: none is known)."""
        return self.model_dump(exclude={"reference_id"})


# --- The starting library, from fixtures/device_library.json ----------------

LIBRARY_FILE = Path(__file__).resolve().parents[3] / "fixtures" / "device_library.json"


def load_entries(path: Path = LIBRARY_FILE) -> tuple[LibraryEntry, ...]:
    """The entries of a library fixture, checked; raises ValueError (a
    pydantic ``ValidationError``) on a bad entry or a repeated key."""
    document = json.loads(path.read_text(encoding="utf-8"))
    entries = tuple(LibraryEntry.model_validate(e) for e in document["entries"])
    keys = [e.key for e in entries]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise ValueError(f"repeated library keys: {', '.join(repeated)}")
    return entries


STARTING_ENTRIES: tuple[LibraryEntry, ...] = load_entries()
STARTING_BY_KEY: Mapping[str, LibraryEntry] = MappingProxyType(
    {e.key: e for e in STARTING_ENTRIES}
)


def is_reference_data(key: str, figures: Mapping[str, Any]) -> bool:
    """Whether an entry with ``key`` and these figures is still the starting
    entry's data: the same key and every safety figure as the reference gives
    it. Numbers compare by value (13 == 13.0)."""
    entry = STARTING_BY_KEY.get(key)
    if entry is None:
        return False
    return all(_same(getattr(entry, name), figures.get(name)) for name in SAFETY_FIELDS)


def _same(reference: Any, value: Any) -> bool:
    if reference is None or value is None:
        return reference is None and value is None
    if isinstance(reference, str) or isinstance(value, str):
        return str(reference) == str(value)
    return Decimal(str(reference)) == Decimal(str(value))


def fixture_messages() -> tuple[str, ...]:
    """The starting entries' functions and notes, for the message catalogue
    (``makemessages``): a library page shows an entry the organisation has not
    changed in the reader's language."""
    texts = [e.function for e in STARTING_ENTRIES if e.function]
    texts += [e.notes for e in STARTING_ENTRIES if e.notes]
    return tuple(dict.fromkeys(texts))
