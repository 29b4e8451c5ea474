"""The demo palletiser's risk assessment and safety functions, for
``seed_demo``: a signed assessment with the hazards behind its light curtain,
door interlock and emergency stop, those devices chosen from the device
library, and the three functions with their subsystems, so that each shows
its PLr, the PL it reaches and its verdict with the working.

Everything here is demo data. The hazards' risk parameters, before and
after their measures (the ISO 13849-1 risk graph's S, F and P, as the register
estimates them), and the operating figures (days, hours, time between
operations) are the demo's assumptions;
the devices' safety figures are the library's, from the makers' data sheets.
One validation record set (the light curtain's) shows what a validated
function looks like; the other two functions still need their validation.
"""

from __future__ import annotations

import datetime

from django.db import transaction

from cells.models import Cell, Device
from compliance.assessment import services as assessment
from compliance.safety_functions import selectors, services
from compliance.safety_functions.library.services import (
    device_choose_library_device,
    library_seed,
)
from compliance.safety_functions.models import LibraryDevice, SafetyFunction

DEMO_REASON = (
    "데모 데이터: 서명된 위험성평가를 보여 주기 위한 수용이며 실제 수용이 아닙니다."
)
LIMITS = {
    "intended_use": "투입 컨베이어에서 최대 12 kg의 상자를 팔레타이징(데모)",
    "foreseeable_misuse": "걸림을 풀려고 투입구로 손을 넣는 행위(데모)",
    "time_limits": "20년, 하루 2교대(데모)",
    "exposed_persons": ["operators", "maintenance_staff"],
}
# A designed two-contactor output: the measures against common cause failure
# taken (all but diversity: the two contactors are of one type).
CCF_TAKEN = [
    "separation",
    "overvoltage_protection",
    "well_tried_components",
    "fmea",
    "competence",
    "emc_contamination",
]
# The demo's operating figures: 220 days a year, two 8-hour shifts.
DAYS, HOURS = 220, 16


def _opening_key(cell: Cell, label: str) -> str:
    device = Device.objects.filter(cell=cell, opening__label=label).first()
    return f"opening:{device.opening_id}" if device else ""


def _signed_assessment(cell: Cell, engineer, password: str, devices: dict):
    revision = assessment.assessment_open(cell=cell, actor=engineer)
    revision = assessment.revision_update_limits(
        revision=revision, actor=engineer, version=revision.version, **LIMITS
    )
    # Each hazard: its risk before the measures and its residual risk after
    # them (S, F, P of the risk graph; signing needs both, issue 27), and its
    # measures, each on the device it relies on.
    curtain = ("curtain", "투입구를 가로지르는 라이트 커튼이 로봇을 정지")
    hazards = (
        (
            "투입구를 지나 로봇의 동작 범위로 걸어 들어감",
            _opening_key(cell, "투입구"),
            ("S2", "F1", "P2"),  # PLr d, high
            # The curtain stops the robot before the person reaches it: the
            # harm can be avoided (P1); the injury would be as serious (S2).
            ("S2", "F1", "P1"),  # PLr c, medium
            (curtain,),
        ),
        (
            "로봇 운전 중 정비 도어로 들어감",
            _opening_key(cell, "정비 도어"),
            ("S2", "F1", "P1"),  # PLr c, medium
            ("S2", "F1", "P1"),  # as before: acceptable as it stands
            (
                (
                    "door",
                    "정비 도어를 열면 인터록이 로봇을 정지",
                ),
            ),
        ),
        (
            "투입구에서 걸림을 푸는 중 로봇의 예기치 않은 동작",
            _opening_key(cell, "투입구"),
            ("S2", "F1", "P2"),  # PLr d, high
            # The jam is cleared by reaching through the infeed, across the
            # curtain, which stops the robot as for the first hazard. The
            # emergency stop
            # is a complementary measure and no substitute for safeguarding
            # (ISO 12100:2010, 6.3.5.2): on its own it would lower nothing.
            ("S2", "F1", "P1"),  # PLr c, medium
            (curtain, ("estop", "조작반의 비상정지")),
        ),
    )
    for task, location, (s, f, p), (rs, rf, rp), measures in hazards:
        hazard = assessment.hazard_add(
            revision=revision,
            actor=engineer,
            group="mechanical",
            origin="moving_elements",
            consequence="crushing",
            phase="operation",
            task=task,
            location_key=location,
            severity=s,
            frequency=f,
            avoidance=p,
            residual_severity=rs,
            residual_frequency=rf,
            residual_avoidance=rp,
        )
        for device_key, measure in measures:
            assessment.measure_add(
                hazard=hazard,
                actor=engineer,
                step="safeguarding",
                description=measure,
                device=devices[device_key],
            )
    revision = assessment.revision_submit(revision=revision, actor=engineer)
    # The open fails and the residual risks not acceptable, each with a reason.
    open_findings = assessment.revision_sign_preview(revision=revision)
    return assessment.revision_sign(
        revision=revision,
        actor=engineer,
        password=password,
        confirm=True,
        accepted={f.key: DEMO_REASON for f in open_findings if f.status == "fail"},
    )


def _entry(cell: Cell, key: str) -> LibraryDevice:
    return LibraryDevice.objects.get(
        organisation_id=cell.project.organisation_id, key=key
    )


def _set(
    function: SafetyFunction, role: str, engineer, base: dict | None = None, **values
) -> None:
    """Update the function's subsystem of ``role``: ``base`` (a library
    entry's figures) overridden by ``values``."""
    subsystem = function.subsystems.get(role=role)
    services.subsystem_update(
        subsystem=subsystem, actor=engineer, **{**(base or {}), **values}
    )


@transaction.atomic
def seed_palletiser_safety(cell: Cell, engineer, *, password: str) -> None:
    """The palletiser's signed assessment and its three safety functions."""
    library_seed(organisation=cell.project.organisation)
    devices = {
        "curtain": Device.objects.get(cell=cell, kind="light_curtain"),
        "door": Device.objects.get(cell=cell, kind="interlocked_door"),
        "estop": Device.objects.get(cell=cell, kind="emergency_stop"),
    }
    # The light curtain and the door switch chosen from the library.
    device_choose_library_device(
        device=devices["curtain"], library_device=_entry(cell, "LC-1"), actor=engineer
    )
    device_choose_library_device(
        device=devices["door"], library_device=_entry(cell, "IL-1"), actor=engineer
    )
    _signed_assessment(cell, engineer, password, devices)
    functions = {}
    for name, device in devices.items():
        functions[name] = services.function_suggestion_accept(
            cell=cell, actor=engineer, key=f"device:{device.pk}"
        )
    relay = _entry(cell, "SR-1")
    contactors = _entry(cell, "CT-2")
    for function in functions.values():
        _set(
            function,
            "logic",
            engineer,
            services.library_fields(relay),
            label="안전 릴레이 Pilz PNOZ compact",
        )
        _set(
            function,
            "output",
            engineer,
            services.library_fields(contactors),
            label="로봇 전원의 컨택터 2개",
            category="4",
            route="designed",
            days_per_year=DAYS,
            hours_per_day=HOURS,
            # The contactors switch each time the function stops the robot:
            # the demo assumes every 10 minutes.
            cycle_time_s=600,
            dcavg_percent=99,
            ccf_measures=CCF_TAKEN,
        )
    # The door switch's figures: two channels (Category 3), B10d from the
    # library; the door opened twice an hour (demo assumption).
    _set(
        functions["door"],
        "input",
        engineer,
        route="designed",
        pl="",
        category="3",
        days_per_year=DAYS,
        hours_per_day=HOURS,
        cycle_time_s=1800,
        dcavg_percent=99,
        ccf_measures=CCF_TAKEN,
    )
    # The emergency stop: no library entry; B10d 100,000 is ISO 13849-1
    # Table C.1's typical value for emergency stop devices (one source),
    # pressed about once a day (demo assumption).
    _set(
        functions["estop"],
        "input",
        engineer,
        label="비상정지 푸시버튼, NC 접점 2개",
        route="designed",
        category="3",
        b10d_cycles=100_000,
        days_per_year=DAYS,
        hours_per_day=HOURS,
        cycle_time_s=HOURS * 3600,
        dcavg_percent=99,
        ccf_measures=CCF_TAKEN,
        source="ISO 13849-1:2015 Table C.1 (typical B10d of emergency stop "
        "devices, as reproduced by one public source)",
    )
    services.function_update(
        function=functions["curtain"],
        actor=engineer,
        version=SafetyFunction.objects.get(pk=functions["curtain"].pk).version,
        reset_behaviour="펜스 밖, 셀이 보이는 위치의 리셋 버튼",
        restart_behaviour="리셋 후 시작 버튼으로만 재기동",
    )
    for test in selectors.plan_of(functions["curtain"]):
        services.validation_record_add(
            function=functions["curtain"],
            actor=engineer,
            test=test.kind,
            performed_by="박준호(데모 안전 엔지니어)",
            performed_on=datetime.date(2026, 11, 30),
            instrument=(
                "정지 시간 측정기(데모)" if test.kind == "stopping_time" else ""
            ),
            measured_value="280 ms" if test.kind == "stopping_time" else "",
            outcome="passed",
            notes="데모 기록",
        )
