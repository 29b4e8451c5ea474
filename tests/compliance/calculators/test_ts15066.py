"""ISO/TS 15066:2016 calculators: PFL (Annex A), SSM (5.5.4), the body model table.

The reference (/work/shared/reference/ts15066_body_regions.json) found no
published worked example ("published_worked_examples": found = []). Its
"computed_check_values" are arithmetic from the Annex A formulas, given to four
significant places in m/s, so speeds are compared in mm/s to ±0.05 mm/s (the
reference's rounding) and other rounded figures to half a unit of their last
printed digit.
"""

from __future__ import annotations

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


def pfl(**kwargs):
    return ts15066_pfl(PflInput(**kwargs))


def ssm(**kwargs):
    return ts15066_ssm(SsmInput(**kwargs))


def rendered(lines):
    return " | ".join(line.render() for line in lines)


# --- Reference "computed_check_values" (arithmetic, not published examples) ---


def test_check_value_hands_fingers_m20_payload1():
    # Reference computed_check_values[0], hands_fingers, M 20 kg, m_L 1 kg.
    qs = pfl(
        body_region="hands_fingers",
        robot_moving_mass_kg=20.0,
        payload_kg=1.0,
        contact="quasi_static",
    )
    tr = pfl(
        body_region="hands_fingers",
        robot_moving_mass_kg=20.0,
        payload_kg=1.0,
        contact="transient",
    )
    assert qs.robot_effective_mass_kg == 11.0
    assert qs.body_effective_mass_kg == 0.6
    assert qs.spring_constant_n_mm == 75
    assert qs.reduced_mass_kg == pytest.approx(0.569, abs=0.0005)
    assert qs.force_limit_n == 140
    assert qs.max_speed_mm_s == pytest.approx(677.7, abs=0.05)  # 0.6777 m/s
    assert qs.max_energy_j == pytest.approx(0.1307, abs=0.00005)
    assert tr.force_limit_n == 280
    assert tr.max_speed_mm_s == pytest.approx(1355.5, abs=0.05)  # 1.3555 m/s
    assert tr.max_energy_j == pytest.approx(0.5227, abs=0.00005)


def test_check_value_lower_arms_wrists_m20_payload1():
    # Reference computed_check_values[1], lower_arms_wrists, M 20 kg, m_L 1 kg.
    qs = pfl(
        body_region="lower_arms_wrists",
        robot_moving_mass_kg=20.0,
        payload_kg=1.0,
        contact="quasi_static",
    )
    tr = pfl(
        body_region="lower_arms_wrists",
        robot_moving_mass_kg=20.0,
        payload_kg=1.0,
        contact="transient",
    )
    assert qs.robot_effective_mass_kg == 11.0
    assert qs.reduced_mass_kg == pytest.approx(1.6923, abs=0.00005)
    assert qs.max_speed_mm_s == pytest.approx(615.0, abs=0.05)  # 0.615 m/s
    assert qs.max_energy_j == pytest.approx(0.32)
    assert tr.max_speed_mm_s == pytest.approx(1229.9, abs=0.05)  # 1.2299 m/s
    assert tr.max_energy_j == pytest.approx(1.28)


def test_check_value_back_shoulders_m33_payload5():
    # Reference computed_check_values[2], back_shoulders, M 33 kg, m_L 5 kg.
    qs = pfl(
        body_region="back_shoulders",
        robot_moving_mass_kg=33.0,
        payload_kg=5.0,
        contact="quasi_static",
    )
    tr = pfl(
        body_region="back_shoulders",
        robot_moving_mass_kg=33.0,
        payload_kg=5.0,
        contact="transient",
    )
    assert qs.robot_effective_mass_kg == 21.5
    assert qs.reduced_mass_kg == pytest.approx(13.9837, abs=0.00005)
    assert qs.max_speed_mm_s == pytest.approx(300.2, abs=0.05)  # 0.3002 m/s
    assert qs.max_energy_j == pytest.approx(0.63)
    assert tr.max_speed_mm_s == pytest.approx(600.3, abs=0.05)  # 0.6003 m/s
    assert tr.max_energy_j == pytest.approx(2.52)


def test_check_value_chest_m20_payload2():
    # Reference computed_check_values[3], chest, M 20 kg, m_L 2 kg.
    qs = pfl(
        body_region="chest",
        robot_moving_mass_kg=20.0,
        payload_kg=2.0,
        contact="quasi_static",
    )
    tr = pfl(
        body_region="chest",
        robot_moving_mass_kg=20.0,
        payload_kg=2.0,
        contact="transient",
    )
    assert qs.robot_effective_mass_kg == 12.0
    assert qs.reduced_mass_kg == pytest.approx(9.2308, abs=0.00005)
    assert qs.max_speed_mm_s == pytest.approx(291.4, abs=0.05)  # 0.2914 m/s
    assert qs.max_energy_j == pytest.approx(0.392)
    assert tr.max_speed_mm_s == pytest.approx(582.9, abs=0.05)  # 0.5829 m/s
    assert tr.max_energy_j == pytest.approx(1.568)


@pytest.mark.parametrize(
    ("region", "energy_j", "tolerance"),
    [
        # Reference regions[].E_transient_max_J_computed = F_T²/(2k).
        ("neck", 0.9, 0),
        ("back_shoulders", 2.52, 0),
        ("chest", 1.568, 0),
        ("abdomen", 2.42, 0),
        ("pelvis", 2.592, 0),
        ("upper_arms_elbows", 1.5, 0),
        ("lower_arms_wrists", 1.28, 0),
        ("hands_fingers", 0.523, 0.0005),  # printed to 3 decimals
        ("thighs_knees", 1.936, 0),
        ("lower_legs", 0.563, 0.0005),  # printed to 3 decimals
    ],
)
def test_transient_energy_matches_reference_per_region(region, energy_j, tolerance):
    result = pfl(
        body_region=region, robot_moving_mass_kg=20, payload_kg=1, contact="transient"
    )
    assert result.max_energy_j == pytest.approx(energy_j, abs=tolerance or 1e-9)


def test_back_transient_energy_is_compared_with_table_a4():
    # Reference table_A4_energy.read_values: back_shoulders 2.5 J (source C only).
    result = pfl(
        body_region="back_shoulders",
        robot_moving_mass_kg=33,
        payload_kg=5,
        contact="transient",
    )
    assert result.table_a4_energy_j == 2.5
    assert "Table A.4" in rendered(result.steps)
    other = pfl(
        body_region="chest", robot_moving_mass_kg=33, payload_kg=5, contact="transient"
    )
    assert other.table_a4_energy_j is None


def test_pfl_warns_no_published_example_and_not_a_validation():
    result = pfl(
        body_region="chest", robot_moving_mass_kg=20, payload_kg=2, contact="transient"
    )
    text = rendered(result.warnings)
    assert "No published worked example" in text
    assert "not a validation" in text
    assert "measured on the real cell" in text


# --- Transient multiplier and its exceptions ---


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


def test_transient_result_doubles_force_and_pressure_limits():
    kwargs = {
        "body_region": "neck",
        "robot_moving_mass_kg": 20,
        "payload_kg": 1,
        "area": "neck_muscle",
    }
    qs = pfl(contact="quasi_static", **kwargs)
    tr = pfl(contact="transient", **kwargs)
    assert (qs.force_limit_n, qs.pressure_limit_n_cm2) == (150, 140)
    assert (tr.force_limit_n, tr.pressure_limit_n_cm2) == (300, 280)
    assert tr.max_speed_mm_s == pytest.approx(2 * qs.max_speed_mm_s)


@pytest.mark.parametrize("region", ["skull_forehead", "face"])
def test_no_transient_contact_with_skull_forehead_or_face(region):
    result = pfl(
        body_region=region, robot_moving_mass_kg=20, payload_kg=1, contact="transient"
    )
    assert result.max_speed_mm_s is None
    assert result.force_limit_n is None
    assert result.pressure_limit_n_cm2 is None
    assert result.max_energy_j is None
    assert "No transient contact is permitted" in result.max_speed_reason
    assert "no transient contact is permitted" in rendered(result.warnings)


@pytest.mark.parametrize(
    ("region", "force_n", "pressure_n_cm2"),
    [("skull_forehead", 130, 110), ("face", 65, 110)],
)
def test_quasi_static_head_contact_gives_limits_but_no_speed(
    region, force_n, pressure_n_cm2
):
    # Reference notes: contact with face, skull and forehead is not permissible.
    result = pfl(
        body_region=region,
        robot_moving_mass_kg=20,
        payload_kg=1,
        contact="quasi_static",
    )
    assert result.force_limit_n == force_n
    assert result.pressure_limit_n_cm2 == pressure_n_cm2
    assert result.max_speed_mm_s is None
    assert "not permissible" in result.max_speed_reason
    assert "not permissible" in rendered(result.warnings)


# --- Masses, areas, pressure ---


@pytest.mark.parametrize(
    ("mass_kg", "payload_kg", "m_r_kg"), [(20, 1, 11), (33, 5, 21.5), (10, 0, 5)]
)
def test_robot_effective_mass_is_half_moving_mass_plus_payload(
    mass_kg, payload_kg, m_r_kg
):
    result = pfl(
        body_region="chest",
        robot_moving_mass_kg=mass_kg,
        payload_kg=payload_kg,
        contact="transient",
    )
    assert result.robot_effective_mass_kg == m_r_kg
    assert "m_R = M/2 + m_L" in rendered(result.steps)


def test_hands_without_area_use_lowest_pressure_which_rests_on_one_source():
    # Lowest hand pressure: back of the non-dominant hand, 190 N/cm² (source B only).
    result = pfl(
        body_region="hands_fingers",
        robot_moving_mass_kg=20,
        payload_kg=1,
        contact="quasi_static",
    )
    assert result.pressure_area == "back_of_hand_non_dominant"
    assert result.pressure_limit_n_cm2 == 190
    assert result.certainty is Certainty.ONE_SOURCE
    assert "rests on one source" in rendered(result.warnings)
    assert "lowest pressure limit" in rendered(result.steps)


def test_dominant_hand_area_is_two_sources():
    result = pfl(
        body_region="hands_fingers",
        robot_moving_mass_kg=20,
        payload_kg=1,
        contact="transient",
        area="palm_dominant",
    )
    assert result.pressure_limit_n_cm2 == 520
    assert result.certainty is Certainty.TWO_SOURCES
    assert "rests on one source" not in rendered(result.warnings)


def test_non_dominant_hand_area_is_one_source():
    result = pfl(
        body_region="hands_fingers",
        robot_moving_mass_kg=20,
        payload_kg=1,
        contact="transient",
        area="forefinger_end_joint_non_dominant",
    )
    assert result.pressure_limit_n_cm2 == 440
    assert result.certainty is Certainty.ONE_SOURCE


def test_small_contact_area_lets_pressure_limit_govern_the_speed():
    # Back, transient: F_T 420 N, governing area shoulder joint p_T 320 N/cm².
    result = pfl(
        body_region="back_shoulders",
        robot_moving_mass_kg=33,
        payload_kg=5,
        contact="transient",
        contact_area_cm2=1.0,
    )
    assert result.speed_from_force_mm_s == pytest.approx(600.3, abs=0.05)
    # v_p / v_F = p·A / F = 320 N / 420 N.
    assert result.speed_from_pressure_mm_s == pytest.approx(
        result.speed_from_force_mm_s * 320 / 420
    )
    assert result.max_speed_mm_s == result.speed_from_pressure_mm_s
    assert result.governing_limit == "pressure"
    assert result.max_energy_j == pytest.approx(320**2 / (2 * 35_000))
    assert "1.4 cm × 1.4 cm" in rendered(result.warnings)


def test_large_contact_area_leaves_force_limit_governing():
    result = pfl(
        body_region="back_shoulders",
        robot_moving_mass_kg=33,
        payload_kg=5,
        contact="transient",
        contact_area_cm2=10.0,
    )
    assert result.governing_limit == "force"
    assert result.max_speed_mm_s == result.speed_from_force_mm_s
    assert result.speed_from_pressure_mm_s > result.speed_from_force_mm_s


def test_pfl_result_carries_clause_steps_certainty_and_sources():
    result = pfl(
        body_region="chest", robot_moving_mass_kg=20, payload_kg=2, contact="transient"
    )
    assert result.clause.startswith("ISO/TS 15066:2016, Annex A")
    assert result.certainty is Certainty.TWO_SOURCES
    assert result.sources
    text = rendered(result.steps)
    assert "k = 25 N/mm × 1,000 = 25,000 N/m" in text
    assert "= 582.9 mm/s" in text


# --- Bad input ---


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
        ("robot_moving_mass_kg", 0),
        ("payload_kg", -1),
        ("contact_area_cm2", 0),
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


# --- Speed and separation monitoring ---


def test_ssm_separation_distance_adds_all_terms():
    # Arithmetic check (no published example): S_h = 1600 × (0.1 + 0.3) = 640 mm,
    # S_r = 1000 × 0.1 = 100 mm, S_s = 150 mm, C = 50, Z_d = 20, Z_r = 10.
    result = ssm(
        human_speed_mm_s=1600,
        robot_speed_mm_s=1000,
        reaction_time_ms=100,
        stopping_time_ms=300,
        stopping_distance_mm=150,
        intrusion_mm=50,
        human_uncertainty_mm=20,
        robot_uncertainty_mm=10,
    )
    assert result.sh_mm == pytest.approx(640)
    assert result.sr_mm == pytest.approx(100)
    assert result.ss_mm == 150
    assert (result.c_mm, result.zd_mm, result.zr_mm) == (50, 20, 10)
    assert result.separation_distance_mm == pytest.approx(970)
    text = rendered(result.steps)
    assert "T_r = 100 ms / 1,000 = 0.1 s" in text
    assert "S_h = v_h × (T_r + T_s) = 1,600 mm/s × (0.1 s + 0.3 s) = 640 mm" in text
    assert "= 970 mm" in text


def test_ssm_defaults_human_speed_1600_and_zero_allowances():
    result = ssm(
        robot_speed_mm_s=1000,
        reaction_time_ms=100,
        stopping_time_ms=300,
        stopping_distance_mm=150,
    )
    assert result.separation_distance_mm == pytest.approx(890)
    assert (result.c_mm, result.zd_mm, result.zr_mm) == (0, 0, 0)
    assert result.clause.startswith("ISO/TS 15066:2016, 5.5.4")
    assert result.certainty is Certainty.TWO_SOURCES
    assert result.sources
    assert result.warnings == ()


def test_ssm_warns_on_human_speed_below_1600_and_zero_stopping_distance():
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
        ("robot_speed_mm_s", -1),
        ("reaction_time_ms", -5),
        ("stopping_time_ms", 20_000),
        ("stopping_distance_mm", -1),
        ("intrusion_mm", -1),
    ],
)
def test_nonsense_ssm_input_is_rejected_naming_the_field(field, value):
    data = {
        "robot_speed_mm_s": 1000,
        "reaction_time_ms": 100,
        "stopping_time_ms": 300,
        "stopping_distance_mm": 150,
        field: value,
    }
    with pytest.raises(ValidationError) as excinfo:
        SsmInput(**data)
    assert excinfo.value.errors()[0]["loc"] == (field,)


# --- Properties ---

regions_with_speed = st.sampled_from(
    [r for r in BodyRegion if r not in (BodyRegion.SKULL_FOREHEAD, BodyRegion.FACE)]
)
masses = st.floats(min_value=0.1, max_value=2000)
payloads = st.floats(min_value=0, max_value=1000)


@settings(max_examples=200, deadline=None)
@given(
    region=regions_with_speed,
    contact=st.sampled_from(["transient", "quasi_static"]),
    contact_area=st.none() | st.floats(min_value=0.1, max_value=1000),
    mass=masses,
    payload=payloads,
    extra_mass=st.floats(min_value=0, max_value=500),
    extra_payload=st.floats(min_value=0, max_value=500),
)
def test_heavier_robot_never_gives_a_higher_permissible_speed(
    region, contact, contact_area, mass, payload, extra_mass, extra_payload
):
    def speed(m, m_l):
        return pfl(
            body_region=region,
            robot_moving_mass_kg=m,
            payload_kg=m_l,
            contact=contact,
            contact_area_cm2=contact_area,
        ).max_speed_mm_s

    base = speed(mass, payload)
    assert speed(min(mass + extra_mass, 2000), payload) <= base
    assert speed(mass, min(payload + extra_payload, 1000)) <= base


ssm_times = st.floats(min_value=0, max_value=5000)


@settings(max_examples=200, deadline=None)
@given(
    human_speed=st.floats(min_value=1, max_value=2500),
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


# --- Body region table and registry entries ---


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
