from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from cells.exchange import CellDocument
from cells.models import (
    Device,
    DeviceKind,
    Membership,
    Opening,
    Organisation,
    Project,
    Role,
)
from cells.services import cell_import

DEMO_PASSWORD = "cell-safety-demo"
DEMO_USERS = [
    ("sa", Role.SOLUTION_ARCHITECT),
    ("safety", Role.SAFETY_ENGINEER),
    ("viewer", Role.VIEWER),
]

# A made-up palletising cell to explore the app with. Its robot figures are
# illustrative, not any real product's data sheet. The fence stands 900 mm
# beyond the robot's reach all round, so a 1,800 mm fence answers ISO 13857
# reaching over for a 2,200 mm high hazard zone, and the infeed light curtain
# sits beyond its ISO 13855 minimum distance.
DEMO_CELL = {
    "name": "Case palletiser A",
    "task_description": "Picks cases from the infeed conveyor and stacks them on a pallet.",
    "robot": {
        "manufacturer": "Demo Robotics",
        "model": "DR-20 (demo)",
        "kind": "industrial",
        "payload_kg": Decimal("20"),
        "reach_mm": 1700,
        "max_tcp_speed_mm_s": 2000,
        "moving_mass_kg": Decimal("230"),
        "stopping_time_ms": 300,
    },
    "robot_base": {"x_mm": 2600, "y_mm": 2600},
    "hazard_zone": {"shape": "circle", "radius_mm": None, "height_mm": 2200},
    "guard_segments": [
        {
            "label": "F1",
            "start": {"x_mm": 0, "y_mm": 0},
            "end": {"x_mm": 5200, "y_mm": 0},
            "height_mm": 1800,
            "kind": "fence",
            "mesh_opening_mm": 40,
            "openings": [
                {
                    "label": "Infeed",
                    "offset_mm": 2100,
                    "width_mm": 1000,
                    "lower_edge_mm": 300,
                    "upper_edge_mm": 1500,
                    "purpose": "material_entry",
                }
            ],
        },
        {
            "label": "F2",
            "start": {"x_mm": 5200, "y_mm": 0},
            "end": {"x_mm": 5200, "y_mm": 5200},
            "height_mm": 1800,
            "kind": "fence",
            "mesh_opening_mm": 40,
        },
        {
            "label": "F3",
            "start": {"x_mm": 5200, "y_mm": 5200},
            "end": {"x_mm": 0, "y_mm": 5200},
            "height_mm": 1800,
            "kind": "fence",
            "mesh_opening_mm": 40,
            "openings": [
                {
                    "label": "Door",
                    "offset_mm": 3700,
                    "width_mm": 900,
                    "lower_edge_mm": 0,
                    "upper_edge_mm": 1800,
                    "purpose": "maintenance_door",
                }
            ],
        },
        {
            "label": "W1",
            "start": {"x_mm": 0, "y_mm": 5200},
            "end": {"x_mm": 0, "y_mm": 0},
            "height_mm": 3000,
            "kind": "wall",
        },
    ],
    "operator_stations": [
        {"label": "Pallet change", "x_mm": 2600, "y_mm": 6000},
        {"label": "HMI", "x_mm": 5900, "y_mm": 800},
    ],
}


# A made-up collaborative machine-tending cell using power and force limiting:
# no fence, an operator at the machine door. Figures are illustrative.
DEMO_COBOT_CELL = {
    "name": "Machine tending cobot",
    "task_description": "Loads blanks into a CNC lathe and unloads finished parts.",
    "task_type": "structured_pick_place",
    "robot": {
        "manufacturer": "Demo Robotics",
        "model": "DC-5 (demo)",
        "kind": "collaborative",
        "payload_kg": Decimal("5"),
        "reach_mm": 900,
        "max_tcp_speed_mm_s": 1000,
        "moving_mass_kg": Decimal("20"),
        "stopping_time_ms": 200,
        "programmed_speed_mm_s": 250,
        "collaborative_mode": "pfl",
    },
    "robot_base": {"x_mm": 0, "y_mm": 0},
    "hazard_zone": {"shape": "circle", "radius_mm": None, "height_mm": 1600},
    "operator_stations": [{"label": "Lathe door", "x_mm": 700, "y_mm": -500}],
    "devices": [
        {"label": "E-stop (demo)", "kind": "emergency_stop"},
        {"label": "Safety controller (demo)", "kind": "safety_controller"},
    ],
}


def _demo_cobot_assessment(cell, engineer) -> None:
    """A draft risk assessment naming the body regions the cobot may touch."""
    from compliance.assessment import services

    revision = services.assessment_open(cell=cell, actor=engineer)
    for region, task in (
        ("hands_fingers", "Taking a finished part from the gripper"),
        ("lower_arms_wrists", "Reaching into the lathe door beside the robot"),
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


class Command(BaseCommand):
    help = "Create the demo organisation, one user of each role, and a demo cell."

    @transaction.atomic
    def handle(self, *args, **options):
        org, _ = Organisation.objects.get_or_create(
            slug="demo", defaults={"name": "Demo Integrator Co."}
        )
        User = get_user_model()
        for username, role in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            Membership.objects.update_or_create(
                user=user, organisation=org, defaults={"role": role}
            )
        if not Project.objects.filter(organisation=org).exists():
            project = Project.objects.create(
                organisation=org,
                name="Palletising PoC",
                customer_name="Hanbit Foods (demo)",
                site_name="Icheon plant (demo)",
                country="KR",
                proposal_language="ko",
            )
            cell = cell_import(
                project=project, document=CellDocument.model_validate(DEMO_CELL)
            )
            cobot = cell_import(
                project=project, document=CellDocument.model_validate(DEMO_COBOT_CELL)
            )
            _demo_cobot_assessment(cobot, User.objects.get(username="safety"))
            # Illustrative devices, not any real product's data.
            openings = {o.label: o for o in Opening.objects.filter(segment__cell=cell)}
            Device.objects.bulk_create(
                [
                    Device(
                        cell=cell,
                        kind=DeviceKind.LIGHT_CURTAIN,
                        label="LC1 (demo)",
                        opening=openings["Infeed"],
                        response_time_ms=20,
                        detection_capability_mm=14,
                        iec61496_type=4,
                    ),
                    Device(
                        cell=cell,
                        kind=DeviceKind.INTERLOCKED_DOOR,
                        label="Door switch (demo)",
                        opening=openings["Door"],
                    ),
                    Device(
                        cell=cell, kind=DeviceKind.EMERGENCY_STOP, label="E-stop HMI"
                    ),
                ]
            )
        self.stdout.write(
            "Demo organisation ready. Sign in at http://127.0.0.1:8000 as:"
        )
        for username, role in DEMO_USERS:
            self.stdout.write(f"  {username:8} / {DEMO_PASSWORD}   ({role.label})")
