"""A cell as large as a customer's biggest, built in the database for the
bench: ``rows`` guard segments in a closed loop round the robot, a quarter as
many openings, 15 % as many safety devices, a twentieth as many operator
stations, a signed risk assessment of ``rows`` hazards with 1.5 measures
each, then a draft next revision (the register as it is edited), a
certificate, three safety functions and an organisation's own prices.

At ``rows=200`` this is the issue's large cell: 200 segments, 50 openings,
30 devices, 200 hazards, 300 measures and about 80 cost lines. The loop and
the devices are drawn so that the rules find what a real cell gives them:
passes, a few low fences that fail, openings guarded and not.

The layout's rows are written with ``bulk_create`` (a cell's caps are the
forms' and the import's; the bench goes past them on purpose), the hazards
and measures too; the signing goes through the service, so the revision is
sealed as any other.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db import transaction

from cells.models import (
    Cell,
    CellCertificate,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Project,
)
from compliance.assessment import services as assessment
from compliance.assessment.models import Hazard, Measure

PASSWORD = "bench-password-1"
LONG_MM, SHORT_MM = 1200, 200  # a segment with an opening, and one without
PURPOSES = ("material_entry", "operator_access", "maintenance_door")
HAZARD_KINDS = (
    ("mechanical", "moving_elements", "crushing"),
    ("mechanical", "moving_elements", "impact"),
    ("mechanical", "approach_moving_element_fixed_part", "crushing"),
    ("mechanical", "falling_objects", "impact"),
)
RISK = (("S2", "F1", "P2"), ("S2", "F2", "P1"), ("S1", "F2", "P1"), ("S2", "F1", "P1"))
STEPS = ("safeguarding", "inherently_safe_design", "information_for_use")


def _loop(rows: int) -> list[tuple[tuple[int, int], tuple[int, int], bool]]:
    """A closed square loop of ``rows`` segments centred on (0, 0): on each
    side a long segment (it holds an opening) and three short ones, in turn.
    Returns (start, end, long) per segment."""
    per_side = [rows // 4 + (1 if i < rows % 4 else 0) for i in range(4)]
    lengths = [
        [LONG_MM if j % 4 == 0 else SHORT_MM for j in range(n)] for n in per_side
    ]
    half = max(sum(side) for side in lengths) // 2 + 1000
    # Each side runs from one corner to the next; its last segment takes up
    # whatever is left, so the loop closes exactly.
    corners = [(-half, -half), (half, -half), (half, half), (-half, half)]
    segments = []
    for side, (start, lens) in enumerate(zip(corners, lengths, strict=True)):
        end = corners[(side + 1) % 4]
        dx = (end[0] - start[0]) // (2 * half)
        dy = (end[1] - start[1]) // (2 * half)
        at = 0
        for j, length in enumerate(lens):
            last = j == len(lens) - 1
            nxt = 2 * half if last else at + length
            a = (start[0] + dx * at, start[1] + dy * at)
            b = (start[0] + dx * nxt, start[1] + dy * nxt)
            segments.append((a, b, length == LONG_MM))
            at = nxt
    return segments


def _devices(cell: Cell, openings: list[Opening], count: int) -> list[Device]:
    """``count`` devices: a curtain across each material entry, an interlock
    on each door, then mats, scanners, emergency stops and a controller."""
    devices: list[Device] = []
    for opening in openings:
        if len(devices) >= count * 2 // 3:
            break
        seg = opening.segment
        (x1, y1), (x2, y2) = seg.start, seg.end
        length = max(abs(x2 - x1), abs(y2 - y1))
        ux, uy = (x2 - x1) // length, (y2 - y1) // length
        a = (x1 + ux * opening.offset_mm, y1 + uy * opening.offset_mm)
        b = (a[0] + ux * opening.width_mm, a[1] + uy * opening.width_mm)
        if opening.purpose == "material_entry":
            devices.append(
                Device(
                    cell=cell,
                    kind="light_curtain",
                    label=f"LC {opening.label}",
                    opening=opening,
                    response_time_ms=20,
                    iec61496_type=4 if len(devices) % 3 else 2,
                    detection_capability_mm=14 if len(devices) % 2 else 30,
                    x1_mm=a[0],
                    y1_mm=a[1],
                    x2_mm=b[0],
                    y2_mm=b[1],
                    detection_lower_mm=300,
                    detection_upper_mm=1500,
                    kcs_certified=len(devices) % 4 == 0,
                    kcs_certificate_no="KCs-12-345" if len(devices) % 4 == 0 else "",
                )
            )
        elif opening.purpose == "maintenance_door":
            devices.append(
                Device(
                    cell=cell,
                    kind="interlocked_door",
                    label=f"Door {opening.label}",
                    opening=opening,
                    guard_locking=len(devices) % 2 == 0,
                )
            )
    others = ("safety_mat", "laser_scanner", "emergency_stop", "emergency_stop")
    i = 0
    while len(devices) < count - 1:
        kind = others[i % len(others)]
        fields: dict = {}
        if kind == "safety_mat":
            fields = {"x1_mm": 2000 + i, "y1_mm": -500, "x2_mm": 2800 + i, "y2_mm": 500}
        elif kind == "laser_scanner":
            fields = {
                "x1_mm": -2500,
                "y1_mm": 100 * i,
                "protective_field_mm": 2000,
                "field_height_mm": 300,
                "response_time_ms": 80,
            }
        devices.append(Device(cell=cell, kind=kind, label=f"{kind} {i}", **fields))
        i += 1
    devices.append(
        Device(cell=cell, kind="safety_controller", label="PLC", response_time_ms=15)
    )
    return Device.objects.bulk_create(devices)


def _hazards(revision, rows: int, segments, devices) -> None:
    hazards = []
    for i in range(rows):
        group, origin, consequence = HAZARD_KINDS[i % len(HAZARD_KINDS)]
        s, f, p = RISK[i % len(RISK)]
        segment = segments[i % len(segments)]
        hazards.append(
            Hazard(
                revision=revision,
                order=i + 1,
                group=group,
                origin=origin,
                consequence=consequence,
                phase=("operation", "maintenance", "setting")[i % 3],
                task=f"Clearing a jam at guard {segment.label} ({i})",
                location_key=f"segment:{segment.pk}",
                location_label=segment.label,
                severity=s,
                frequency=f,
                avoidance=p,
                residual_severity=s,
                residual_frequency="F1",
                residual_avoidance="P1",
            )
        )
    hazards = Hazard.objects.bulk_create(hazards)
    measures = []
    for i, hazard in enumerate(hazards):
        device = devices[i % len(devices)]
        measures.append(
            Measure(
                hazard=hazard,
                step="safeguarding",
                description=f"{device.label} stops the robot",
                device=device,
                linked_label=device.label,
            )
        )
        if i % 2 == 0:
            segment = segments[i % len(segments)]
            measures.append(
                Measure(
                    hazard=hazard,
                    step=STEPS[i % 3 or 1],
                    description=f"Guard {segment.label} keeps hands out",
                    segment=segment,
                    linked_label=segment.label,
                )
            )
    Measure.objects.bulk_create(measures)


@transaction.atomic
def build_cell(project: Project, engineer, rows: int, name: str = "") -> Cell:
    """A cell of ``rows`` rows (see the module docstring) in ``project``;
    ``engineer`` is a safety engineer of its organisation whose password is
    ``PASSWORD``."""
    cell = Cell.objects.create(
        project=project,
        name=name or f"Bench cell {rows}",
        robot_manufacturer="Bench Robotics",
        robot_model="BR-20",
        payload_kg=Decimal("20"),
        reach_mm=1700,
        max_tcp_speed_mm_s=2000,
        moving_mass_kg=Decimal("230"),
        stopping_time_ms=300,
        end_effector_mm=200,
        workpiece_mm=300,
        hazard_zone_height_mm=2200,
        robot_base_x_mm=0,
        robot_base_y_mm=0,
        application="palletising",
    )
    loop = _loop(rows)
    segments = GuardSegment.objects.bulk_create(
        GuardSegment(
            cell=cell,
            label=f"F{i + 1}",
            start_x_mm=a[0],
            start_y_mm=a[1],
            end_x_mm=b[0],
            end_y_mm=b[1],
            # Every tenth a low fence (the Korean Art. 223 height fails), every
            # twentieth a wall.
            height_mm=1400 if i % 10 == 5 else 3000 if i % 20 == 0 else 1800,
            kind="wall" if i % 20 == 0 else "fence",
            mesh_opening_mm=None if i % 20 == 0 else 40,
        )
        for i, (a, b, _long) in enumerate(loop)
    )
    long_segments = [
        s for s, (_a, _b, long) in zip(segments, loop, strict=True) if long
    ]
    openings = Opening.objects.bulk_create(
        Opening(
            segment=segment,
            label=f"O{i + 1}",
            offset_mm=200,
            width_mm=800,
            lower_edge_mm=0 if i % 3 else 300,
            upper_edge_mm=2000 if i % 3 else 1500,
            purpose=PURPOSES[i % 3],
        )
        for i, segment in enumerate(long_segments[: max(1, rows // 4)])
    )
    for opening in openings:
        opening.segment = next(s for s in segments if s.pk == opening.segment_id)
    devices = _devices(cell, openings, max(3, rows * 3 // 20))
    OperatorStation.objects.bulk_create(
        OperatorStation(cell=cell, label=f"Station {i + 1}", x_mm=0, y_mm=-3000 - i)
        for i in range(max(1, rows // 20))
    )
    CellCertificate.objects.create(
        cell=cell,
        kind="kiria_cobot_workplace",
        issuing_body="KIRIA",
        number="KIRIA-2026-0001",
        issued_on=datetime.date(2026, 1, 5),
        valid_until=datetime.date(2029, 1, 4),
        scope="Bench cell",
    )
    revision = assessment.assessment_open(cell=cell, actor=engineer)
    revision = assessment.revision_update_limits(
        revision=revision,
        actor=engineer,
        version=revision.version,
        intended_use="Palletising cartons (bench)",
        foreseeable_misuse="Reaching through the infeed (bench)",
        time_limits="20 years (bench)",
        exposed_persons=["operators"],
    )
    _hazards(revision, rows, segments, devices)
    revision = assessment.revision_submit(revision=revision, actor=engineer)
    open_findings = assessment.revision_sign_preview(revision=revision)
    signed = assessment.revision_sign(
        revision=revision,
        actor=engineer,
        password=PASSWORD,
        confirm=True,
        accepted={f.key: "Bench data" for f in open_findings if f.status == "fail"},
    )
    assessment.revision_start_next(revision=signed, actor=engineer)
    _functions(cell, engineer, devices)
    return cell


def _functions(cell: Cell, engineer, devices) -> None:
    """The safety functions of the first curtain, door and emergency stop."""
    from compliance.safety_functions import services

    for kind in ("light_curtain", "interlocked_door", "emergency_stop"):
        device = next((d for d in devices if d.kind == kind), None)
        if device is not None:
            services.function_suggestion_accept(
                cell=cell, actor=engineer, key=f"device:{device.pk}"
            )
