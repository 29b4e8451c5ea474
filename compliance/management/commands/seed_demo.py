from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from cells.exchange import CellDocument
from cells.models import Membership, Organisation, Project, Role
from cells.models.cell import Application
from cells.services import cell_import

DEMO_PASSWORD = "cell-safety-demo"
# Username, role and a made-up Korean name (the demo organisation is Korean;
# written whole as the first name, family name first): what the proposal's
# cover, a signed register, its declaration and the history print (a
# customer read "signed by safety").
DEMO_USERS = [
    ("sa", Role.SOLUTION_ARCHITECT, "서민지"),
    ("safety", Role.SAFETY_ENGINEER, "박준호"),
    ("viewer", Role.VIEWER, "김아라"),
]

# The demo cells are exchange documents (fixtures/demo/, see its README),
# imported through the same service as the API's import: made-up cells whose
# robot figures are illustrative, not any real product's data sheet.
DEMO_DIR = Path(settings.BASE_DIR) / "fixtures" / "demo"
# The demo organisation's exchange rates (units per 1 USD): the figures the
# demo proposals were converted with before rates were the organisation's
# (issue 29), made up for the demo, dated and saying so.
DEMO_RATES_FROM = date(2026, 1, 1)
DEMO_RATES = {"KRW": Decimal("1350"), "EUR": Decimal("0.9")}
DEMO_RATE_SOURCE = "Demo organisation's example figure, not a market rate"
PALLETISER = DEMO_DIR / "palletiser.json"
MACHINE_TENDING = DEMO_DIR / "machine_tending.json"
# The cobot's robot program (issue 32): a URScript tending the lathe, one
# fast move past the lathe door (line 6) among slow or distant ones.
MACHINE_TENDING_PROGRAM = DEMO_DIR / "machine_tending.script"
# What the operator at the lathe door has exposed to the robot (ISO/TS
# 15066 body regions), for a demo seeded before the document recorded them.
MACHINE_TENDING_EXPOSED = ["chest", "hands_fingers"]
GERMANY = DEMO_DIR / "germany_lathe_tending.json"
UNITED_STATES = DEMO_DIR / "us_palletiser.json"
# A demo per jurisdiction (issue 30), so the EU and US rule packs are seen
# working: each project once, by its name.
ABROAD = (
    {
        "name": "Lathe tending PoC (Germany)",
        "customer_name": "Rheinwerk Drehteile GmbH (demo)",
        "site_name": "Duisburg plant (demo)",
        "country": "DE",
        "proposal_language": "en",
        "currency": "EUR",
        # After 20 January 2027: the Machinery Regulation (EU) 2023/1230.
        "planned_start": date(2027, 3, 1),
        "document": GERMANY,
        "application": Application.MACHINE_TENDING,
    },
    {
        "name": "Palletising PoC (United States)",
        "customer_name": "Great Lakes Beverages Inc. (demo)",
        "site_name": "Toledo plant (demo)",
        "country": "US",
        "proposal_language": "en",
        "currency": "USD",
        "planned_start": None,
        "document": UNITED_STATES,
        "application": Application.PALLETISING,
    },
)


def demo_document(path: Path, application: str | None = None) -> CellDocument:
    """The demo cell of ``path``; with ``application``, as that application
    (the documents predate applications: their task type alone would make
    each a pick-and-place cell)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if application is not None:
        data["application"] = application
    return CellDocument.model_validate(data)


def _demo_cobot_assessment(cell, engineer) -> None:
    """A draft risk assessment naming the body regions the cobot may touch."""
    from compliance.assessment import services

    revision = services.assessment_open(cell=cell, actor=engineer)
    for region, task in (
        ("hands_fingers", "그리퍼에서 가공품을 꺼내는 작업"),
        ("lower_arms_wrists", "로봇 옆 선반 도어 안으로 손을 뻗는 작업"),
    ):
        services.hazard_add(
            revision=revision,
            actor=engineer,
            group="mechanical",
            origin="moving_elements",
            consequence="impact",
            phase="operation",
            task=task,
            body_region=region,
            severity="S1",
            frequency="F2",
            avoidance="P1",
        )


def _demo_cobot_program(org, actor) -> None:
    """The cobot's robot program, imported as an SA would import it, once:
    a demo whose cobot has a program already keeps it."""
    from cells.models import Cell, OperatorStation
    from cells.motion.models import MotionProgram
    from cells.motion.services import motion_program_import
    from cells.services import operator_station_save

    name = json.loads(MACHINE_TENDING.read_text(encoding="utf-8"))["name"]
    cobot = (
        Cell.objects.filter(project__organisation=org, name=name).order_by("pk").first()
    )
    if cobot is None or MotionProgram.objects.filter(cell=cobot).exists():
        return
    for station in OperatorStation.objects.filter(cell=cobot):
        if not station.exposed_regions:
            station.exposed_regions = MACHINE_TENDING_EXPOSED
            operator_station_save(station=station, fields=["exposed_regions"])
    motion_program_import(
        cell=cobot,
        actor=actor,
        data=MACHINE_TENDING_PROGRAM.read_bytes(),
        file_name=MACHINE_TENDING_PROGRAM.name,
        format="urscript",
    )


def _abroad(org, spec: dict, actor) -> None:
    """A demo project outside Korea with its one cell and its concepts,
    once."""
    document = spec.pop("document")
    application = spec.pop("application")
    if Project.objects.filter(organisation=org, name=spec["name"]).exists():
        return
    project = Project.objects.create(organisation=org, **spec)
    cell = cell_import(project=project, document=demo_document(document, application))
    from compliance.concepts.services import concepts_generate

    concepts_generate(cell=cell, actor=actor)


class Command(BaseCommand):
    help = "Create the demo organisation, one user of each role, and a demo cell."

    @transaction.atomic
    def handle(self, *args, **options):
        org, _ = Organisation.objects.get_or_create(
            slug="demo", defaults={"name": "Demo Integrator Co."}
        )
        # The library's starting entries (idempotent: only those it lacks).
        from compliance.safety_functions.library.services import library_seed

        library_seed(organisation=org)
        from compliance.costs.models import ExchangeRate

        for currency, units in DEMO_RATES.items():  # idempotent, as above
            ExchangeRate.objects.get_or_create(
                organisation=org,
                currency=currency,
                valid_from=DEMO_RATES_FROM,
                defaults={"units_per_usd": units, "source": DEMO_RATE_SOURCE},
            )
        User = get_user_model()
        for username, role, name in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            named = not (user.first_name or user.last_name)
            if created:
                user.set_password(DEMO_PASSWORD)
            if named:  # a name given since is kept
                user.first_name = name
            if created or named:
                user.save()
            Membership.objects.update_or_create(
                user=user, organisation=org, defaults={"role": role}
            )
        # The demo organisation's example supplier quotes (issue 29), each
        # supplier named "(demo example)": the demo cells' lines priced, the
        # KCs certification left to be quoted, one older quote expired.
        from compliance.costs.quotes.demo import seed_demo_quotes

        seed_demo_quotes(
            organisation=org,
            actor=User.objects.get(username="sa"),
            today=timezone.localdate(),
        )
        # Its example labour rates and default work (issue 29), "(demo
        # example)" too: the plans' work costed in KRW.
        from compliance.plan.labour.demo import seed_demo_labour

        seed_demo_labour(
            organisation=org,
            actor=User.objects.get(username="sa"),
            since=DEMO_RATES_FROM,
        )
        if not Project.objects.filter(organisation=org).exists():
            project = Project.objects.create(
                organisation=org,
                name="팔레타이징 PoC",
                customer_name="한빛식품(데모)",
                site_name="이천 공장(데모)",
                country="KR",
                proposal_language="ko",
            )
            palletiser = cell_import(
                project=project,
                document=demo_document(PALLETISER, Application.PALLETISING),
            )
            from compliance.safety_functions.demo import seed_palletiser_safety

            seed_palletiser_safety(
                palletiser,
                User.objects.get(username="safety"),
                password=DEMO_PASSWORD,
            )
            cobot = cell_import(
                project=project,
                document=demo_document(MACHINE_TENDING, Application.MACHINE_TENDING),
            )
            _demo_cobot_assessment(cobot, User.objects.get(username="safety"))
            # Each cell's guarding concepts side by side (issue 27).
            from compliance.concepts.services import concepts_generate

            for cell in (palletiser, cobot):
                concepts_generate(cell=cell, actor=User.objects.get(username="sa"))
        # Its robot program (issue 32), also into a demo seeded before.
        _demo_cobot_program(org, User.objects.get(username="sa"))
        for spec in ABROAD:
            _abroad(org, dict(spec), User.objects.get(username="sa"))
        self.stdout.write(
            "Demo organisation ready. Sign in at http://127.0.0.1:8000 as:"
        )
        for username, role, _name in DEMO_USERS:
            self.stdout.write(f"  {username:8} / {DEMO_PASSWORD}   ({role.label})")
