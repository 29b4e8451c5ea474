"""The starting device and service catalogue: typed, frozen data with sources.

Every figure here is copied from ``/work/shared/reference`` (the file and key
are named beside each) and nothing is estimated: where the reference has no
price or lead time the field is ``None`` and ``basis`` is ``"unknown"``, so the
page shows "price to be quoted" instead of a made-up number.

What the reference holds (``costs.json``: "Very little public price data was
found. Every figure is single-source"):

- Safety fencing: only the product brief's planning range, USD 60-120 per
  metre (``reference/README.md``, "Planning ranges from the product brief",
  marked "rough, unverified"); ``costs.json`` found no public price.
- Safety laser scanners: the brief says only "thousands of USD each", which is
  not a range; ``costs.json`` found no unit price. Unknown here.
- Light curtain, multi-beam grid, safety mat, interlocked gate, safety relay or
  PLC, emergency stop, signage: not found (``costs.json`` items with
  ``"value": null``, or absent).
- Cobot risk-assessment documentation: EUR 3,000-5,000 (``costs.json``, one
  source, mp-is.eu, "~2025/26").
- Korea: KCs safety-certification fee not found (``costs.json``,
  ``korea_art223.json`` ``fees_and_lead_times``); self-declaration
  (자율안전확인) lead time 3-4 weeks, quoted by one consultant (gcnq.co.kr);
  the statutory review periods of safety certification are in days per stage
  (Enforcement Rule Art. 110) and are quoted in the note, not summed into a
  lead time, because which stages apply depends on the route.
- Safety-component delivery lead times: not found (``costs.json``
  ``lead_times``).

Each organisation edits its own copy of the catalogue in the app; this module
is only the starting point. Names and notes are English, marked with
``gettext_noop``. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from compliance.calculators.base import Certainty, gettext_noop

Category = Literal["device", "guarding", "service"]
Unit = Literal["m", "piece", "job"]
Currency = Literal["KRW", "USD", "EUR"]
CURRENCIES: tuple[str, ...] = ("KRW", "USD", "EUR")
# Where a catalogue price comes from. "unknown": no figure in the reference;
# "organisation": the organisation's own figure, replacing the starting one.
PriceBasis = Literal["public_price", "planning_range", "unknown", "organisation"]


def _no_float(value: object) -> object:
    """Money and quantities are Decimal: a float (or a bool) is refused, as
    binary fractions would creep into the totals."""
    if isinstance(value, float | bool):
        raise ValueError(
            "use a Decimal, an int or a numeric string for money and quantities, "
            "never a float"
        )
    return value


# Non-negative, finite, never float. Used for prices, quantities and weeks.
Money = Annotated[Decimal, BeforeValidator(_no_float), Field(ge=0)]
Quantity = Money
Weeks = Money


def check_range(low: Decimal | None, high: Decimal | None, what: str) -> None:
    """Both ends or neither, and low <= high; raises ValueError."""
    if (low is None) != (high is None):
        raise ValueError(f"{what}: give both the low and the high figure, or neither")
    if low is not None and high is not None and low > high:
        raise ValueError(f"{what}: the low figure {low} is above the high {high}")


class CatalogueEntry(BaseModel):
    """One kind of device, guarding or service that a cell's plan may need,
    with its price range per unit and lead time as far as a source gives them.

    ``price_low``/``price_high`` are per ``unit`` in ``currency``; ``None``
    means no price was found (``basis`` is then ``"unknown"``). Lead times are
    in weeks, ``None`` when unknown. ``certainty`` is ``one_source`` when a
    figure rests on a single public source; ``None`` when the entry has no
    figures, or only the product brief's planning range (no public source:
    ``basis`` says ``planning_range``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str  # English, marked with gettext_noop
    category: Category
    unit: Unit
    price_low: Money | None = None
    price_high: Money | None = None
    currency: Currency | None = None
    price_date: str | None = None  # as published, e.g. "~2025/26"
    lead_time_weeks_low: Weeks | None = None
    lead_time_weeks_high: Weeks | None = None
    basis: PriceBasis
    source: str  # where the price comes from, or where it was looked for
    lead_time_source: str | None = None
    certainty: Certainty | None = None
    note: str = ""  # English, marked with gettext_noop

    @model_validator(mode="after")
    def _consistent(self) -> CatalogueEntry:
        check_range(self.price_low, self.price_high, f"{self.key} price")
        check_range(
            self.lead_time_weeks_low, self.lead_time_weeks_high, f"{self.key} lead time"
        )
        priced = self.price_low is not None
        if priced and self.currency is None:
            raise ValueError(f"{self.key}: a price needs a currency")
        if priced == (self.basis == "unknown"):
            raise ValueError(
                f"{self.key}: basis 'unknown' is for entries without a price, and "
                "only for them"
            )
        if self.lead_time_weeks_low is not None and not self.lead_time_source:
            raise ValueError(f"{self.key}: a lead time needs its source")
        return self

    @property
    def price_known(self) -> bool:
        return self.price_low is not None


# --- Sources, as the reference names them ----------------------------------

SRC_BRIEF = (
    "Product brief planning ranges, /work/shared/reference/README.md "
    '"Planning ranges from the product brief (rough, unverified)"'
)
SRC_COSTS = "/work/shared/reference/costs.json"
# costs.json items[4] "Cobot risk assessment documentation (service)".source
SRC_MP_IS = "mp-is.eu (cobot integration cost article)"
# korea_art223.json fees_and_lead_times.self_declaration_lead_time_source
SRC_GCNQ = "gcnq.co.kr (vendor/consultant: 자율안전확인 진행기간 3~4주) - single source"
# korea_art223.json enforcement_rule_periods.source
SRC_ENFORCEMENT_RULE = "9bow/legalize-kr : 산업안전보건법 시행규칙"

NOT_FOUND = gettext_noop(
    "No public price was found (costs.json): ask suppliers for a quote."
)
NO_LEAD_TIME = gettext_noop(
    "Delivery lead times of safety components were not found (costs.json "
    "lead_times): ask the supplier."
)


def _not_found(costs_item: str) -> str:
    return f'{SRC_COSTS}: "{costs_item}" not found'


def _unknown(
    key: str, name: str, category: Category, unit: Unit, source: str, note: str
) -> CatalogueEntry:
    return CatalogueEntry(
        key=key,
        name=name,
        category=category,
        unit=unit,
        basis="unknown",
        source=source,
        note=note,
    )


# --- The starting catalogue --------------------------------------------------

FENCE = CatalogueEntry(
    key="fence",
    name=gettext_noop("Safety fence (mesh panels and posts)"),
    category="guarding",
    unit="m",
    # reference/README.md: "Safety fencing: roughly USD 60-120 per metre, wide
    # vendor and specification variance."
    price_low=Decimal(60),
    price_high=Decimal(120),
    currency="USD",
    price_date=None,  # the brief gives no date
    basis="planning_range",
    source=SRC_BRIEF,
    note=gettext_noop(
        "Rough planning range from the product brief, not verified: wide vendor "
        "and specification variance; no dated public price was found "
        "(costs.json, Safety fencing per metre)."
    ),
)
LASER_SCANNER = _unknown(
    "laser_scanner",
    gettext_noop("Safety laser scanner"),
    "device",
    "piece",
    f"{SRC_BRIEF}; {_not_found('Safety laser scanner (unit price)')}",
    gettext_noop(
        'The product brief says only "thousands of USD each", which gives no '
        "range, and no unit price was found (costs.json): ask suppliers for a "
        "quote."
    ),
)
LIGHT_CURTAIN = _unknown(
    "light_curtain",
    gettext_noop("Safety light curtain (IEC 61496 type 4 or 2)"),
    "device",
    "piece",
    _not_found("Safety light curtain (unit price)"),
    gettext_noop(
        "No unit price was found (costs.json). Vendor claims only, one source "
        "each, no base price: type 4 costs 15-30 per cent more than type 2, and "
        "distributors add 30-50 per cent on Western brands "
        "(industrialsafetysensor.com)."
    ),
)
MULTIBEAM = _unknown(
    "multibeam",
    gettext_noop("Multi-beam safety light grid"),
    "device",
    "piece",
    f"{SRC_COSTS}: no multi-beam grid item",
    NOT_FOUND,
)
SAFETY_MAT = _unknown(
    "safety_mat",
    gettext_noop("Pressure-sensitive safety mat"),
    "device",
    "piece",
    _not_found("Safety mat (per m2 / unit)"),
    NOT_FOUND,
)
INTERLOCKED_DOOR = _unknown(
    "interlocked_door",
    gettext_noop("Guard door with safety interlock switch"),
    "guarding",
    "piece",
    _not_found("Interlocked gate switch"),
    NOT_FOUND,
)
SAFETY_CONTROLLER = _unknown(
    "safety_controller",
    gettext_noop("Safety controller (safety relay or safety PLC)"),
    "device",
    "piece",
    _not_found("Safety relay / safety PLC (unit)"),
    gettext_noop(
        "No unit price was found (costs.json). The only figure, a 2012 example "
        "bill of materials for modular safety-relay logic (USD 4,157.85 list, "
        "designnews.com), is a whole circuit of its year, not a unit price, and "
        "is not used."
    ),
)
EMERGENCY_STOP = _unknown(
    "emergency_stop",
    gettext_noop("Emergency stop push-button station"),
    "device",
    "piece",
    f"{SRC_COSTS}: no emergency-stop item",
    NOT_FOUND,
)
SIGNAGE = _unknown(
    "signage",
    gettext_noop("Safety signs and notices for the cell"),
    "guarding",
    "job",
    f"{SRC_COSTS}: no signage item",
    NOT_FOUND,
)
RISK_ASSESSMENT = CatalogueEntry(
    key="risk_assessment",
    name=gettext_noop("Risk assessment documentation"),
    category="service",
    unit="job",
    # costs.json items[4]: value_range [3000, 5000] EUR, year "~2025/26".
    price_low=Decimal(3000),
    price_high=Decimal(5000),
    currency="EUR",
    price_date="~2025/26",
    basis="public_price",
    source=SRC_MP_IS,
    certainty=Certainty.ONE_SOURCE,
    note=gettext_noop(
        "Published for cobot risk-assessment documentation as a service; one "
        "source (costs.json). A large or fenced industrial cell may cost more."
    ),
)
KCS_CERTIFICATION = _unknown(
    "kcs_certification",
    gettext_noop("KCs safety certification (안전인증) of a protective device"),
    "service",
    "job",
    f'{SRC_COSTS}: "KCs 안전인증 fee (Korea)" not found; korea_art223.json '
    "fees_and_lead_times.KCs_certification_fee_KRW: null",
    gettext_noop(
        "Fee not found. Statutory review periods per stage (OSH Act Enforcement "
        "Rule Art. 110, one source): preliminary 7 days, document 15 (foreign "
        "30), technical capability and production system 30 (foreign 45), "
        "individual product 15, type product 30, extension up to 15 days. Which "
        "stages apply depends on the route, so no total lead time is given. "
        "Certification is the manufacturer's or importer's duty: buying a "
        "certified device is usually the way."
    ),
)
KR_SELF_DECLARATION = CatalogueEntry(
    key="kr_self_declaration",
    name=gettext_noop("Self-declaration of safety (자율안전확인 신고) for the robot"),
    category="service",
    unit="job",
    basis="unknown",
    source=f"{SRC_COSTS}: no self-declaration fee; korea_art223.json "
    "fees_and_lead_times: fee not found",
    # korea_art223.json fees_and_lead_times.self_declaration_lead_time_weeks and
    # costs.json lead_times[0]: [3, 4] weeks, gcnq.co.kr, single source.
    lead_time_weeks_low=Decimal(3),
    lead_time_weeks_high=Decimal(4),
    lead_time_source=SRC_GCNQ,
    certainty=Certainty.ONE_SOURCE,
    note=gettext_noop(
        "Lead time 3-4 weeks as quoted by one consultant (gcnq.co.kr). The "
        "certificate (신고증명서) is issued within 15 days (OSH Act Enforcement "
        "Rule Art. 120, one source). Fee not found."
    ),
)
KR_SAFETY_INSPECTION = _unknown(
    "kr_safety_inspection",
    gettext_noop("Safety inspection (안전검사) of the industrial robot"),
    "service",
    "job",
    f"{SRC_ENFORCEMENT_RULE} (Art. 126 interval); fee not found",
    gettext_noop(
        "First inspection within 3 years of installation, then every 2 years "
        "(OSH Act Enforcement Rule Art. 126, one source). Fee and lead time not "
        "found."
    ),
)
STOPPING_TIME_MEASUREMENT = _unknown(
    "stopping_time_measurement",
    gettext_noop("Stopping-time measurement of the robot"),
    "service",
    "job",
    f"{SRC_COSTS}: no measurement-service item",
    NOT_FOUND,
)
PFL_MEASUREMENT = _unknown(
    "pfl_measurement",
    gettext_noop("Force and pressure measurement (power and force limiting)"),
    "service",
    "job",
    f"{SRC_COSTS}: no measurement-service item",
    NOT_FOUND,
)

CATALOGUE: tuple[CatalogueEntry, ...] = (
    FENCE,
    LASER_SCANNER,
    LIGHT_CURTAIN,
    MULTIBEAM,
    SAFETY_MAT,
    INTERLOCKED_DOOR,
    SAFETY_CONTROLLER,
    EMERGENCY_STOP,
    SIGNAGE,
    RISK_ASSESSMENT,
    KCS_CERTIFICATION,
    KR_SELF_DECLARATION,
    KR_SAFETY_INSPECTION,
    STOPPING_TIME_MEASUREMENT,
    PFL_MEASUREMENT,
)
CATALOGUE_BY_KEY: Mapping[str, CatalogueEntry] = MappingProxyType(
    {e.key: e for e in CATALOGUE}
)
