"""The demo organisation's example labour rates and default work
(``seed_demo``): round figures of a fictional rate card in KRW, each source
naming it "(demo example)" wherever it shows, so that no one takes them for
market rates. Not figures found anywhere; the public reference rates of
``costing`` are apart and say what they are.

Written through the same services as a user's entries."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from compliance.plan.labour import services
from compliance.plan.labour.models import LabourRate, WorkDefault

RATE_CARD = "Demo Integrator Co. rate card 2026 (demo example)"
PAST_PROJECTS = "Demo Integrator Co. past projects (demo example)"

# role: (KRW per hour, low and high)
RATES = {
    "safety_engineering": (95_000, 120_000),
    "electrical_design": (80_000, 80_000),
    "installation": (55_000, 65_000),
    "commissioning": (75_000, 75_000),
    "programming": (85_000, 100_000),
}
# activity: parts, each (role, hours low, hours high, counted per)
WORK = {
    "risk_assessment": [("safety_engineering", 24, 40, "activity")],
    # Mounting guards and devices, and wiring the safety controller.
    "installation": [
        ("installation", 24, 40, "activity"),
        ("electrical_design", 8, 16, "activity"),
    ],
    # The stopping-time measurement, then each safety function tested.
    "validation_stopping_time": [
        ("commissioning", 8, 12, "activity"),
        ("safety_engineering", 2, 4, "safety_function"),
    ],
    "validation_task": [
        ("commissioning", 16, 32, "activity"),
        ("programming", 16, 40, "activity"),
    ],
    "validation_pfl": [("safety_engineering", 8, 16, "activity")],
    "sim_model_cell": [("programming", 16, 32, "activity")],
    "sim_reach_cycle_time": [("programming", 8, 16, "activity")],
    "sim_ssm_fields": [("safety_engineering", 4, 8, "activity")],
    "sim_pfl_speeds": [("safety_engineering", 4, 8, "activity")],
    "real_demonstrations": [("commissioning", 16, 32, "activity")],
    # Preparing the documents and accompanying the audit; the certification
    # body's fee is a line of the demo's services quote.
    "kiria_certification": [("safety_engineering", 16, 24, "activity")],
}


def seed_demo_labour(*, organisation, actor, since: date) -> None:
    """The example rates valid from ``since`` and the default work, where
    the organisation has none yet (idempotent)."""
    if not LabourRate.objects.filter(organisation=organisation).exists():
        for role, (low, high) in RATES.items():
            services.labour_rate_add(
                organisation=organisation,
                actor=actor,
                role=role,
                unit="hour",
                rate_low=Decimal(low),
                rate_high=Decimal(high),
                currency="KRW",
                valid_from=since,
                source=RATE_CARD,
            )
    if WorkDefault.objects.filter(organisation=organisation).exists():
        return
    for activity, parts in WORK.items():
        for role, low, high, per in parts:
            services.work_default_set(
                organisation=organisation,
                actor=actor,
                activity=activity,
                role=role,
                unit="hour",
                per=per,
                effort_low=Decimal(low),
                effort_high=Decimal(high),
                source=PAST_PROJECTS,
            )
