"""The demo organisation's example quotes (``seed_demo``): a fictional
supplier's parts, a fictional consultancy's services and a fictional
distributor's safety controller in USD, each named "(demo example)" wherever
it shows, so that no one takes them for market prices; one older quote has
expired, and the KCs certification is left to be quoted, to show both. The
figures are the demo's own round examples, not prices found anywhere.

Imported through the same service as a user's file: read, matched, stored.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from compliance.costs.quotes import services
from compliance.costs.quotes.models import SupplierQuote
from compliance.costs.quotes.reading import QuoteFile, QuoteRowIn
from compliance.costs.quotes.template import TemplateWords, quote_workbook

PARTS = "Hanbit Safety Supply (demo example)"
SERVICES = "Seoul Safety Engineering (demo example)"
DISTRIBUTOR = "Pacific Controls Distribution (demo example)"
OLD = "Daehan Automation Parts (demo example)"


def _row(n, kind, low, high=None, *, unit="piece", currency="KRW", weeks=None, **more):
    return QuoteRowIn(
        row=7 + n,
        kind=kind,
        unit=unit,
        price_low=Decimal(low),
        price_high=Decimal(high or low),
        currency=currency,
        lead_time_weeks_low=None if weeks is None else Decimal(weeks[0]),
        lead_time_weeks_high=None if weeks is None else Decimal(weeks[1]),
        **more,
    )


def demo_quotes(today: date) -> list[QuoteFile]:
    recent, until = today - timedelta(days=14), today + timedelta(days=76)
    return [
        QuoteFile(
            supplier=PARTS,
            number="DEMO-P-2026-031",
            quoted_on=recent,
            valid_until=until,
            rows=(
                _row(
                    1,
                    "fence",
                    "85000",
                    "95000",
                    unit="m",
                    weeks=("3", "4"),
                    description="Mesh fence panel 1.8 m high, per metre",
                ),
                _row(
                    2,
                    "light_curtain",
                    "1800000",
                    "2200000",
                    weeks=("4", "6"),
                    maker="SICK",
                    part_number="C4C-PA06010A10000",
                    model="deTec4 Core",
                    description="Safety light curtain type 4, 30 mm",
                ),
                _row(
                    3,
                    "interlocked_door",
                    "180000",
                    weeks=("2", "3"),
                    maker="Schmersal",
                    part_number="AZ 16-02ZVRK-ST",
                    model="AZ 16",
                    description="Interlocked access door switch",
                ),
                _row(
                    4,
                    "emergency_stop",
                    "95000",
                    weeks=("1", "2"),
                    description="Emergency stop push-button",
                ),
                _row(
                    5,
                    "signage",
                    "150000",
                    unit="job",
                    weeks=("1", "1"),
                    description="Warning signs and floor marking",
                ),
            ),
        ),
        QuoteFile(
            supplier=SERVICES,
            number="DEMO-S-2026-012",
            quoted_on=recent,
            valid_until=until,
            rows=(
                _row(
                    1,
                    "risk_assessment",
                    "4000000",
                    "6000000",
                    unit="job",
                    weeks=("2", "4"),
                    description="Risk assessment documentation",
                ),
                _row(
                    2,
                    "kr_self_declaration",
                    "1500000",
                    "2500000",
                    unit="job",
                    weeks=("3", "4"),
                    description="Self-declaration (자율안전확인)",
                ),
                _row(
                    3,
                    "kr_safety_inspection",
                    "800000",
                    "1200000",
                    unit="job",
                    weeks=("2", "3"),
                    description="Safety inspection (안전검사)",
                ),
                _row(
                    4,
                    "stopping_time_measurement",
                    "1200000",
                    "1800000",
                    unit="job",
                    weeks=("1", "2"),
                    description="Stopping time and distance measurement",
                ),
                _row(
                    5,
                    "pfl_measurement",
                    "2500000",
                    "3500000",
                    unit="job",
                    weeks=("1", "2"),
                    description="Force and pressure measurement (ISO/TS 15066)",
                ),
                _row(
                    6,
                    "kiria_certification",
                    "6000000",
                    "9000000",
                    unit="job",
                    description="KIRIA collaborative workplace certification: "
                    "document review and on-site audit",
                ),
            ),
        ),
        QuoteFile(
            supplier=DISTRIBUTOR,
            number="DEMO-D-118",
            quoted_on=recent,
            valid_until=until,
            rows=(
                _row(
                    1,
                    "safety_controller",
                    "650",
                    "900",
                    currency="USD",
                    weeks=("6", "8"),
                    description="Safety relay with expansion",
                ),
            ),
        ),
        # An older quote, expired: shown flagged wherever it is named.
        QuoteFile(
            supplier=OLD,
            number="DEMO-O-2026-007",
            quoted_on=today - timedelta(days=150),
            valid_until=today - timedelta(days=60),
            rows=(
                _row(
                    1,
                    "light_curtain",
                    "1600000",
                    weeks=("8", "10"),
                    maker="SICK",
                    part_number="C4C-PA06010A10000",
                    model="deTec4 Core",
                    description="Safety light curtain type 4, 30 mm",
                ),
            ),
        ),
    ]


def seed_demo_quotes(*, organisation, actor, today: date) -> int:
    """Import the demo quotes the organisation lacks; how many were new."""
    made = 0
    words = TemplateWords()
    for quote in demo_quotes(today):
        if SupplierQuote.objects.filter(
            organisation=organisation, supplier=quote.supplier, number=quote.number
        ).exists():
            continue
        services.quote_import(
            organisation=organisation,
            actor=actor,
            data=quote_workbook(quote, words),
            filename=f"{quote.number}.xlsx",
        )
        made += 1
    return made
