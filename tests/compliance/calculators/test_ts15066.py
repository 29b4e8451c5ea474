"""ISO/TS 15066 calculators: SSM (5.5.4), bad and bounded input of both, the
body model table, the registry.

Power and force limiting for one possible contact is tested in
``test_ts15066_contact.py``. The SSM figures here are arithmetic from the
formula in the reference data ``ts15066_body_regions.json``
("ssm_protective_separation_distance") and, for the intrusion distance of a
horizontal field, ``iso13855.json`` ("parallel_approach"); no published SSM
worked example was found.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.ts15066 import (
    CALCULATORS,
    BodyRegion,
    PflInput,
    SsmInput,
    body_region_table,
    ts15066_pfl,
    ts15066_ssm,
)

ROOT = Path(__file__).resolve().parents[3]


def ssm(**kwargs):
    return ts15066_ssm(SsmInput(**kwargs))


def rendered(lines):
    return " | ".join(line.render() for line in lines)


# Today's inputs of the review's example (and of the calculator's example): the
# app answered S_p = 890 mm, from S_h = 1600 × (0.1 + 0.3) = 640 mm,
# S_r = 1000 × 0.1 = 100 mm and S_s = 150 mm, with C, Z_d and Z_r silently 0.
TODAY = {
    "robot_speed_mm_s": 1000,
    "reaction_time_ms": 100,
    "stopping_time_ms": 300,
    "stopping_distance_mm": 150,
}


# --- Speed and separation monitoring ---


def test_ssm_separation_distance_adds_all_terms():
    # Arithmetic check (no published example): S_h = 1600 × (0.1 + 0.3) = 640 mm,
    # S_r = 1000 × 0.1 = 100 mm, S_s = 150 mm, C = 50, Z_d = 20, Z_r = 10.
    result = ssm(
        human_speed_mm_s=1600,
        **TODAY,
        intrusion_mm=50,
        human_uncertainty_mm=20,
        robot_uncertainty_mm=10,
    )
    assert result.sh_mm == pytest.approx(640)
    assert result.sr_mm == pytest.approx(100)
    assert result.ss_mm == 150
    assert (result.c_mm, result.zd_mm, result.zr_mm) == (50, 20, 10)
    assert result.c_basis == "entered"
    assert result.separation_distance_mm == pytest.approx(970)
    assert result.complete
    assert result.unverified_terms == ()
    assert result.evidence_required == ()
    assert result.warnings == ()
    text = rendered(result.steps)
    assert "T_r = 100 ms / 1,000 = 0.1 s" in text
    assert "S_h = v_h × (T_r + T_s) = 1,600 mm/s × (0.1 s + 0.3 s) = 640 mm" in text
    assert "Protective separation distance: S_p" in text
    assert "= 970 mm" in text


def test_ssm_left_at_zero_is_890_mm_but_not_complete():
    # Corrected: the old test asserted no warnings for this input, i.e. a
    # silently zeroed S_p presented as complete.
    result = ssm(**TODAY)
    assert result.separation_distance_mm == pytest.approx(890)
    assert (result.c_mm, result.zd_mm, result.zr_mm) == (0, 0, 0)
    assert result.c_basis == "missing"
    assert not result.complete
    assert result.unverified_terms == ("C", "Z_d", "Z_r")
    assert len(result.evidence_required) == 3
    evidence = rendered(result.evidence_required)
    assert "the intrusion distance C is not given" in evidence
    assert "Z_d is not given" in evidence
    assert "Z_r is not given" in evidence
    assert evidence in rendered(result.warnings)
    assert "not complete: C, Z_d, Z_r left at 0" in rendered(result.steps)
    assert result.clause.startswith("ISO/TS 15066:2016, 5.5.4")
    assert result.certainty is Certainty.TWO_SOURCES
    assert result.sources


def test_scanner_field_at_300_mm_gives_c_1080_and_sp_1970():
    # The review: a scanner field at 300 mm gives C = 1080 mm and S_p = 1970 mm
    # where the app said 890 mm. Verified: iso13855.json "parallel_approach",
    # C = 1200 − 0.4 × 300 = 1080 mm (≥ C_min 850, H ≤ H_max 1000), and with
    # today's other inputs S_p = 890 + 1080 = 1970 mm: the difference is C.
    result = ssm(**TODAY, detection_height_mm=300)
    assert result.c_from_height_mm == 1080
    assert result.c_mm == 1080
    assert result.c_basis == "detection_height"
    assert result.separation_distance_mm == pytest.approx(1970)
    assert result.unverified_terms == ("Z_d", "Z_r")
    assert not result.complete
    assert result.clause.endswith(
        "C: ISO 13855:2010, 6.3 (detection zone parallel to the approach)"
    )
    assert result.certainty is Certainty.TWO_SOURCES  # parallel_approach: two
    assert any("SICK microScan3" in s for s in result.sources)
    steps = rendered(result.steps)
    assert "C = 1200 − 0.4 × 300 mm = 1,080 mm → C = max(1,080, 850) = 1,080 mm" in (
        steps
    )
    assert "= 640 + 100 + 150 + 1,080 + 0 + 0 = 1,970 mm" in steps
    warnings = rendered(result.warnings)
    # d ≤ H/15 + 50 = 300/15 + 50 = 70 mm ("detection_capability_for_height").
    assert "d ≤ H / 15 + 50 = 70 mm" in warnings
    assert "crawl under" not in warnings  # "above H = 300 mm" only


@pytest.mark.parametrize(
    ("height_mm", "c_mm"),
    [
        (0, 1200),  # 1200 − 0
        (301, 1079.6),  # 1200 − 120.4
        (875, 850),  # 1200 − 350 = 850 = C_min
        (900, 850),  # 1200 − 360 = 840 → C_min 850
        (1000, 850),  # H_max: 1200 − 400 = 800 → C_min 850
    ],
)
def test_c_from_detection_height_keeps_the_iso13855_limits(height_mm, c_mm):
    result = ssm(**TODAY, detection_height_mm=height_mm)
    assert result.c_mm == pytest.approx(c_mm)
    assert result.separation_distance_mm == pytest.approx(890 + c_mm)
    crawl = "crawl under" in rendered(result.warnings)
    assert crawl is (height_mm > 300)


def test_detection_height_above_1000_mm_is_rejected_naming_the_field():
    with pytest.raises(ValidationError) as excinfo:
        SsmInput(**TODAY, detection_height_mm=1000.5)
    assert excinfo.value.errors()[0]["loc"] == ("detection_height_mm",)


@pytest.mark.parametrize(
    ("entered", "c_mm", "basis"),
    [(1200, 1200, "entered"), (500, 1080, "detection_height")],
)
def test_entered_c_and_detection_height_the_larger_governs(entered, c_mm, basis):
    result = ssm(**TODAY, intrusion_mm=entered, detection_height_mm=300)
    assert (result.c_mm, result.c_basis) == (c_mm, basis)
    assert "the larger governs" in rendered(result.steps)


def test_zero_entered_uncertainties_and_intrusion_are_not_verified():
    result = ssm(
        **TODAY, intrusion_mm=0, human_uncertainty_mm=0, robot_uncertainty_mm=0
    )
    assert result.unverified_terms == ("C", "Z_d", "Z_r")
    evidence = rendered(result.evidence_required)
    assert "C is 0 mm" in evidence
    assert "Z_d is 0 mm" in evidence
    assert "Z_r is 0 mm" in evidence


def test_missing_or_zero_stopping_distance_is_not_verified_while_the_robot_moves():
    full = {"intrusion_mm": 100, "human_uncertainty_mm": 20, "robot_uncertainty_mm": 10}
    unset = ssm(
        robot_speed_mm_s=1000, reaction_time_ms=100, stopping_time_ms=300, **full
    )
    assert unset.unverified_terms == ("S_s",)
    assert "no stopping distance S_s is given" in rendered(unset.warnings)
    zero = ssm(**(TODAY | full | {"stopping_distance_mm": 0}))
    assert zero.unverified_terms == ("S_s",)
    assert "stopping distance is 0 mm" in rendered(zero.warnings)
    # A stationary robot has no stopping distance: S_s = 0 is then a figure.
    still = ssm(**(TODAY | full | {"robot_speed_mm_s": 0, "stopping_distance_mm": 0}))
    assert still.complete


def test_zero_reaction_or_stopping_time_is_not_verified():
    full = {"intrusion_mm": 100, "human_uncertainty_mm": 20, "robot_uncertainty_mm": 10}
    result = ssm(**(TODAY | full | {"reaction_time_ms": 0, "stopping_time_ms": 0}))
    assert result.unverified_terms == ("T_r", "T_s")
    assert not result.complete


def test_ssm_warns_on_human_speed_below_1600():
    result = ssm(
        human_speed_mm_s=1000,
        robot_speed_mm_s=500,
        reaction_time_ms=100,
        stopping_time_ms=200,
        stopping_distance_mm=0,
    )
    text = rendered(result.warnings)
    assert "below the usual 1600 mm/s" in text
    assert "stopping distance is 0 mm" in text


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("human_speed_mm_s", 0),
        ("human_speed_mm_s", 5e-324),
        ("human_speed_mm_s", 1.6),  # m/s typed as mm/s
        ("human_speed_mm_s", math.inf),
        ("robot_speed_mm_s", -1),
        ("robot_speed_mm_s", 1e308),
        ("robot_speed_mm_s", math.nan),
        ("reaction_time_ms", -5),
        ("reaction_time_ms", 1e308),
        ("stopping_time_ms", 20_000),
        ("stopping_distance_mm", -1),
        ("stopping_distance_mm", math.inf),
        ("intrusion_mm", -1),
        ("intrusion_mm", 1e308),
        ("detection_height_mm", -1),
        ("detection_height_mm", math.nan),
        ("human_uncertainty_mm", 2000.5),
        ("robot_uncertainty_mm", -0.5),
    ],
)
def test_nonsense_ssm_input_is_rejected_naming_the_field(field, value):
    with pytest.raises(ValidationError) as excinfo:
        SsmInput(**(TODAY | {field: value}))
    assert excinfo.value.errors()[0]["loc"] == (field,)


# --- Properties ---

SSM_FIELDS = (
    "human_speed_mm_s",
    "robot_speed_mm_s",
    "reaction_time_ms",
    "stopping_time_ms",
    "stopping_distance_mm",
    "detection_height_mm",
    "intrusion_mm",
    "human_uncertainty_mm",
    "robot_uncertainty_mm",
)
any_float = st.floats() | st.sampled_from([5e-324, 1e308, 0.0, 1000.0, 20000.0])


@settings(max_examples=300, deadline=None)
@given(values=st.fixed_dictionaries({}, optional=dict.fromkeys(SSM_FIELDS, any_float)))
def test_any_accepted_ssm_input_gives_a_finite_distance(values):
    data = {"robot_speed_mm_s": 1000, "reaction_time_ms": 100, "stopping_time_ms": 0}
    try:
        inp = SsmInput(**(data | values))
    except ValidationError as exc:
        assert {e["loc"][0] for e in exc.errors()} <= set(values)
        return
    result = ts15066_ssm(inp)
    figures = [v for v in result.model_dump().values() if isinstance(v, float)]
    assert all(math.isfinite(v) for v in figures)
    assert result.complete is (result.unverified_terms == ())


ssm_times = st.floats(min_value=0, max_value=5000)


@settings(max_examples=200, deadline=None)
@given(
    human_speed=st.floats(min_value=100, max_value=2500),
    robot_speed=st.floats(min_value=0, max_value=10_000),
    reaction=ssm_times,
    stopping=ssm_times,
    stopping_distance=st.floats(min_value=0, max_value=5000),
    extra_speed=st.floats(min_value=0, max_value=2500),
    extra_time=ssm_times,
)
def test_faster_human_or_longer_times_never_shorten_the_separation_distance(
    human_speed,
    robot_speed,
    reaction,
    stopping,
    stopping_distance,
    extra_speed,
    extra_time,
):
    def distance(v_h, t_r, t_s):
        return ssm(
            human_speed_mm_s=v_h,
            robot_speed_mm_s=robot_speed,
            reaction_time_ms=t_r,
            stopping_time_ms=t_s,
            stopping_distance_mm=stopping_distance,
        ).separation_distance_mm

    base = distance(human_speed, reaction, stopping)
    assert distance(human_speed + extra_speed, reaction, stopping) >= base
    assert distance(human_speed, reaction + extra_time, stopping) >= base
    assert distance(human_speed, reaction, stopping + extra_time) >= base


@settings(max_examples=100, deadline=None)
@given(height=st.floats(min_value=0, max_value=1000))
def test_c_from_any_detection_height_stays_between_850_and_1200(height):
    result = ssm(**TODAY, detection_height_mm=height)
    assert 850 <= result.c_mm <= 1200
    assert "C" not in result.unverified_terms


# --- Power and force limiting: bad and bounded input ---


def test_unknown_body_region_is_rejected_naming_body_region():
    with pytest.raises(ValidationError) as excinfo:
        PflInput(
            body_region="elbow_tip",
            robot_moving_mass_kg=20,
            payload_kg=1,
            contact="transient",
        )
    assert excinfo.value.errors()[0]["loc"] == ("body_region",)


def test_area_outside_the_region_is_rejected_naming_area():
    with pytest.raises(ValidationError, match="area: 'palm_dominant' is not an area"):
        PflInput(
            body_region="chest",
            robot_moving_mass_kg=20,
            payload_kg=1,
            contact="transient",
            area="palm_dominant",
        )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        # 5e-324 kg used to pass (gt=0) and divide by zero: a 500, not a 400.
        ("robot_moving_mass_kg", 5e-324),
        ("robot_moving_mass_kg", 0),
        ("robot_moving_mass_kg", 0.09),
        ("robot_moving_mass_kg", 2000.5),
        ("robot_moving_mass_kg", 1e308),
        ("robot_moving_mass_kg", math.inf),
        ("robot_moving_mass_kg", math.nan),
        ("payload_kg", -1),
        ("payload_kg", 1000.5),
        ("payload_kg", 1e308),
        ("payload_kg", math.nan),
        ("contact_area_cm2", 0),
        ("contact_area_cm2", 5e-324),
        ("contact_area_cm2", 0.009),
        ("contact_area_cm2", 1000.5),
        ("contact_area_cm2", math.inf),
        ("contact", "glancing"),
        ("area", "little_toe"),
    ],
)
def test_nonsense_pfl_input_is_rejected_naming_the_field(field, value):
    data = {
        "body_region": "chest",
        "robot_moving_mass_kg": 20,
        "payload_kg": 1,
        "contact": "transient",
        field: value,
    }
    with pytest.raises(ValidationError) as excinfo:
        PflInput(**data)
    assert excinfo.value.errors()[0]["loc"] == (field,)


@pytest.mark.parametrize(
    ("mass", "payload", "area"), [(0.1, 0, 0.01), (2000, 1000, 1000), (0.1, 1000, 1)]
)
def test_bounds_themselves_are_accepted_and_give_finite_speeds(mass, payload, area):
    result = ts15066_pfl(
        PflInput(
            body_region="neck",
            robot_moving_mass_kg=mass,
            payload_kg=payload,
            contact="transient",
            contact_area_cm2=area,
        )
    )
    assert math.isfinite(result.max_speed_mm_s)
    assert result.max_speed_mm_s > 0


# --- Purity ---


@pytest.mark.parametrize(
    "module",
    [
        "compliance.calculators.ts15066",
        "compliance.calculators.ts15066_contact",
        "compliance.calculators.ts15066_tables",
    ],
)
def test_module_imports_no_django(module):
    code = (
        f"import sys, {module}; print(any(m.startswith('django') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"


# --- Body region table and registry entries ---


def test_transient_limits_are_twice_quasi_static_except_skull_and_face():
    for row in body_region_table():
        if row.region_id in (BodyRegion.SKULL_FOREHEAD, BodyRegion.FACE):
            assert not row.transient_permitted
            assert row.force_transient_n is None
            assert all(a.pressure_transient_n_cm2 is None for a in row.areas)
        else:
            assert row.transient_permitted
            assert row.force_transient_n == 2 * row.force_quasi_static_n
            for area in row.areas:
                assert (
                    area.pressure_transient_n_cm2
                    == 2 * area.pressure_quasi_static_n_cm2
                )


def test_body_region_table_has_12_regions_29_areas_built_once():
    table = body_region_table()
    assert table is body_region_table()
    assert len(table) == 12
    assert sum(len(row.areas) for row in table) == 29
    hands = next(r for r in table if r.region_id == "hands_fingers")
    assert hands.name == "Hands and fingers"
    assert hands.force_quasi_static_n == 140
    assert hands.spring_constant_n_mm == 75
    assert hands.body_effective_mass_kg == 0.6
    assert hands.certainty is Certainty.TWO_SOURCES
    one_source = [a.area_id for a in hands.areas if a.certainty is Certainty.ONE_SOURCE]
    assert one_source == [
        "forefinger_pad_non_dominant",
        "forefinger_end_joint_non_dominant",
        "palm_non_dominant",
        "back_of_hand_non_dominant",
    ]
    assert {a.hand_side for a in hands.areas} == {None, "dominant", "non-dominant"}
    with pytest.raises(ValidationError):
        hands.force_quasi_static_n = 1  # frozen


def test_calculator_entries_run_their_examples():
    by_name = {calc.name: calc for calc in CALCULATORS}
    assert set(by_name) == {"ts15066-pfl", "ts15066-ssm"}
    for calc in CALCULATORS:
        result = calc.run(calc.input_model(**calc.example))
        assert isinstance(result, calc.result_model)
        for field in calc.headline:
            assert field in calc.result_model.model_fields
    pfl_example = by_name["ts15066-pfl"].run(PflInput(**by_name["ts15066-pfl"].example))
    assert pfl_example.max_speed_mm_s == pytest.approx(1355.5, abs=0.05)
    ssm_example = by_name["ts15066-ssm"].run(SsmInput(**by_name["ts15066-ssm"].example))
    assert ssm_example.separation_distance_mm == pytest.approx(1970)  # the review's


def test_the_rules_imports_are_still_offered_here():
    # compliance.rules imports these from ts15066; PFL now lives in ts15066_contact.
    from compliance.calculators import ts15066, ts15066_contact

    for name in ("PflInput", "PflResult", "ts15066_pfl", "body_region_table"):
        assert getattr(ts15066, name) is getattr(ts15066_contact, name)
    assert ts15066.DEFAULT_HUMAN_SPEED_MM_S == 1600
