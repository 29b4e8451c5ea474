"""A robot program judged segment by segment (issue 32, "The check, per
segment"): ISO/TS 15066 Annex A (PFL) and 5.5.4 (SSM) at each segment's own
speed, the clamping flag, the cycle times.

The expected figures are worked by hand in the comments from the reference
data: ``ts15066_body_regions.json`` (Tables A.2 and A.3, the formulas for m_R,
μ and v, and S_p), ``iso13855.json`` (C = 850 mm for d > 40 mm) and
``iso13857_tables.json`` (Table 4; ISO 13854 minimum gaps). No published
worked example of either calculation exists (the reference says so), so these
are arithmetic from the formulas.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from compliance.calculators import ts15066_path as path_module
from compliance.calculators.base import Certainty
from compliance.calculators.ts15066 import SsmInput, ts15066_ssm
from compliance.calculators.ts15066_path import (
    DEFAULT_CONTACT_REACH_MM,
    MAX_SEGMENTS,
    PathInput,
    ts15066_path,
)

ROOT = Path(__file__).resolve().parents[3]

# The SSM figures of the tests below, all terms given so S_p is complete.
SSM = {
    "human_speed_mm_s": 1600.0,
    "reaction_time_ms": 100.0,
    "stopping_time_ms": 300.0,
    "stopping_distance_mm": 150.0,
    "intrusion_mm": 850.0,
    "human_uncertainty_mm": 50.0,
    "robot_uncertainty_mm": 20.0,
}
# S_p at rest = S_h + S_s + C + Z_d + Z_r = 1600 × (0.1 + 0.3) + 150 + 850 + 50
# + 20 = 640 + 1070 = 1710 mm; each mm/s of robot speed adds T_r = 0.1 s.
SSM_AT_REST_MM = 1710.0


def seg(x1, y1, x2, y2, speed, *, line=1, index=None, z=0.0):
    return {
        "index": line - 1 if index is None else index,
        "line": line,
        "start": {"x_mm": x1, "y_mm": y1, "z_mm": z},
        "end": {"x_mm": x2, "y_mm": y2, "z_mm": z},
        "speed_mm_s": speed,
    }


def station(label="Loading", x=0.0, y=0.0, regions=("chest",), **kwargs):
    return {"label": label, "x_mm": x, "y_mm": y, "body_regions": regions, **kwargs}


def fence(label="Fence", x1=600.0, y1=-1000.0, x2=600.0, y2=1000.0):
    return {
        "label": label,
        "kind": "fence",
        "x1_mm": x1,
        "y1_mm": y1,
        "x2_mm": x2,
        "y2_mm": y2,
    }


def run(segments, stations=None, **kwargs):
    data = {
        "segments": segments,
        "stations": [station()] if stations is None else stations,
        "robot_moving_mass_kg": 33.5,
        "payload_kg": 5.0,
        **kwargs,
    }
    return ts15066_path(PathInput.model_validate(data))


def rendered(lines):
    return " | ".join(line.render() for line in lines)


# --- Power and force limiting, per segment -----------------------------------

# The case, by hand from the reference (ts15066_body_regions.json):
#   chest: F_QS = 140 N, transient factor 2 (Table A.2, footnote c): F_T = 280 N;
#   k = 25 N/mm = 25,000 N/m, m_H = 40 kg (Table A.3).
#   m_R = M/2 + m_L = 33.5/2 + 5 = 21.75 kg
#   μ = (1/m_H + 1/m_R)⁻¹ = (1/40 + 1/21.75)⁻¹ = 870/61.75 = 14.0891 kg
#   v = F_T/√(μk) = 280 / √(14.0891 × 25,000) = 280 / 593.487 = 0.47179 m/s
#     = 471.79 mm/s (0.47 m/s). The chest has no Table A.4 value in the
#   reference, so the force route alone gives the speed.
CHEST_M33_5_L5_MM_S = 471.788


def test_a_fast_segment_through_a_chest_station_fails_with_the_speed_it_may_have():
    # Passes 300 mm from the station (within the 850 mm default reach).
    result = run([seg(-500, 300, 500, 300, 1000.0)])
    s = result.segments[0]
    assert s.verdict == "fail" and s.pfl_verdict == "fail"
    assert s.pfl_limit_mm_s == pytest.approx(CHEST_M33_5_L5_MM_S, abs=0.001)
    assert s.permissible_speed_mm_s == s.pfl_limit_mm_s
    assert s.pfl_station == "Loading"
    assert s.nearest_station == "Loading"
    assert s.nearest_station_distance_mm == pytest.approx(300.0)
    assert s.contact_stations == ("Loading",)
    text = rendered(s.lines)
    assert "1,000.0 mm/s within reach of Loading" in text
    assert "the speed it may have there is 471.8 mm/s" in text
    assert result.failing_lines == (1,)
    assert result.worst_verdict == "fail"
    assert result.stations[0].transient_limit_mm_s == s.pfl_limit_mm_s
    assert result.stations[0].governing_region == "chest"


def test_the_same_segment_slowed_to_250_mm_s_passes():
    s = run([seg(-500, 300, 500, 300, 250.0)]).segments[0]
    assert s.verdict == "pass"
    assert s.pfl_limit_mm_s == pytest.approx(CHEST_M33_5_L5_MM_S, abs=0.001)
    assert "within the 471.8 mm/s permissible" in rendered(s.lines)


def test_a_fast_segment_far_from_every_station_passes():
    # 5 m from the station, far beyond its 850 mm reach.
    s = run([seg(-500, 5000, 500, 5000, 1500.0)]).segments[0]
    assert s.verdict == "pass"
    assert s.pfl_limit_mm_s is None and s.permissible_speed_mm_s is None
    assert s.contact_stations == ()
    assert s.nearest_station_distance_mm == pytest.approx(5000.0)
    assert "the speed limit applies only where people are" in rendered(s.lines)


def test_the_default_reach_is_850_mm_from_iso_13855_and_iso_13857(reference):
    # iso13855.json normal_approach_espe.d_gt_40: C = 850 mm; iso13857_tables.json
    # Table 4, 40 < e ≤ 120 mm: 850 mm for every shape. Both two sources.
    espe = reference("iso13855.json")["normal_approach_espe"]["d_gt_40"]
    table4 = reference("iso13857_tables.json")["table4_regular_openings_14plus"]
    last = table4["rows"][-1]
    assert espe["C_mm"] == DEFAULT_CONTACT_REACH_MM == 850
    assert espe["confirmed_two_sources"] and table4["confirmed_two_sources"]
    assert last["e_max_mm"] == 120
    assert last["slot_mm"] == last["square_mm"] == last["round_mm"] == 850
    # At 850 mm the segment is in the zone; at 851 mm it is not.
    inside = run([seg(-500, 850, 500, 850, 1000.0)])
    outside = run([seg(-500, 851, 500, 851, 1000.0)])
    assert inside.segments[0].verdict == "fail"
    assert outside.segments[0].verdict == "pass"
    assert inside.stations[0].reach_basis == "default"
    assert "ISO 13855:2010, 6.2.3" in inside.clause


def test_an_entered_reach_replaces_the_default():
    result = run(
        [seg(-500, 600, 500, 600, 1000.0)],
        stations=[station(contact_reach_mm=500.0)],
    )
    assert result.segments[0].verdict == "pass"
    assert result.stations[0].reach_basis == "entered"
    assert "ISO 13855" not in result.clause


def test_the_lowest_region_of_a_station_governs():
    # Hands (1,355.5 mm/s at M 20/m_L 1 in the reference) are far above the chest
    # here: the chest's 471.8 mm/s governs the station.
    result = run(
        [seg(-500, 300, 500, 300, 500.0)],
        stations=[station(regions=("hands_fingers", "chest"))],
    )
    assert result.stations[0].governing_region == "chest"
    assert result.segments[0].pfl_limit_mm_s == pytest.approx(471.788, abs=0.001)


def test_unknown_speed_is_not_checked_with_a_reason():
    result = run([seg(-500, 300, 500, 300, None, line=7)])
    s = result.segments[0]
    assert s.verdict == "not_checked" and s.pfl_verdict == "not_checked"
    assert "Speed not known, within reach of Loading" in rendered(s.lines)
    # The limit is still given: the speed the segment may have.
    assert s.permissible_speed_mm_s == pytest.approx(471.788, abs=0.001)
    assert result.unknown_speed_lines == (7,)
    assert result.not_checked_lines == (7,)
    assert result.cycle_time_programmed_s == 0
    assert "1 segments have no known speed (lines 7)" in rendered(result.warnings)


def test_unknown_speed_far_from_every_station_still_passes_pfl():
    s = run([seg(-500, 5000, 500, 5000, None)]).segments[0]
    assert s.pfl_verdict == "pass"


def test_a_station_with_no_body_regions_is_not_checked():
    s = run([seg(-500, 300, 500, 300, 100.0)], stations=[station(regions=())])
    assert s.segments[0].verdict == "not_checked"
    assert "no body regions are recorded" in rendered(s.segments[0].lines)


def test_no_station_recorded_is_not_checked():
    s = run([seg(-500, 300, 500, 300, 100.0)], stations=[]).segments[0]
    assert s.verdict == "not_checked"
    assert s.nearest_station is None
    assert "No operator station is recorded" in rendered(s.lines)


def test_a_face_in_reach_fails_at_any_speed_and_cannot_be_slowed():
    # Table A.2: no transient limit for the face (footnote c does not apply);
    # the rule pack fails it too (compliance.rules.collaborative).
    result = run(
        [seg(-500, 300, 500, 300, 10.0, line=3), seg(0, 3000, 0, 4000, 500.0, line=4)],
        stations=[station(regions=("chest", "face"))],
    )
    s = result.segments[0]
    assert s.verdict == "fail"
    assert s.permissible_speed_mm_s == 0.0
    assert "no transient contact is permitted" in rendered(s.lines)
    assert result.stations[0].forbidden_regions == ("face",)
    assert result.cannot_be_slowed_lines == (3,)
    assert result.cycle_time_limited_s is None
    assert result.cycle_time_programmed_s == pytest.approx(100.0 + 2.0)


def test_the_annex_a_calculation_runs_once_per_region(monkeypatch):
    calls = []
    real = path_module.ts15066_pfl

    def counting(inp):
        calls.append(inp.body_region)
        return real(inp)

    monkeypatch.setattr(path_module, "ts15066_pfl", counting)
    segments = [seg(-500, 300 + i, 500, 300 + i, 400.0, line=i + 1) for i in range(500)]
    stations = [
        station("A", 0, 0, ("chest", "hands_fingers")),
        station("B", 2000, 0, ("chest",)),
    ]
    result = run(segments, stations=stations)
    assert sorted(calls) == ["chest", "hands_fingers"]
    assert result.counts["pass"] == 500


def test_a_contact_area_brings_the_pressure_route_in():
    # Chest, lowest pressure: sternum p_T = 240 N/cm² (Table A.2). Over 1 cm²:
    # F_p = 240 N < F_T = 280 N, so v = 240 / 593.487 = 0.40439 m/s.
    without = run([seg(-500, 300, 500, 300, 450.0)])
    with_area = run([seg(-500, 300, 500, 300, 450.0)], contact_area_cm2=1.0)
    assert not without.pressure_checked
    assert "Without it the pressure limit is not checked" in rendered(without.warnings)
    assert with_area.pressure_checked
    assert with_area.segments[0].pfl_limit_mm_s == pytest.approx(404.39, abs=0.01)
    assert with_area.segments[0].verdict == "fail"


# --- Quasi-static contact (clamping) -------------------------------------------

# The station exposes the chest: ISO 13854 "body" gap, 500 mm (iso13857_tables
# .json iso13854_min_gaps_mm, one source). The fence at x = 600 mm is 600 mm from
# the station: inside its 850 mm reach.


def test_moving_toward_a_fence_inside_the_contact_zone_is_to_be_measured():
    result = run([seg(200, 0, 550, 0, 100.0)], obstacles=[fence()])
    s = result.segments[0]
    assert s.clamping_verdict == "measure"
    assert s.verdict == "measure"  # 100 mm/s passes PFL: the clamping decides
    assert s.pfl_verdict == "pass"
    assert s.clamping_obstacle == "Fence" and s.clamping_station == "Loading"
    text = rendered(s.lines)
    assert "Measure force and pressure on the real cell (ISO/PAS 5672)" in text
    assert "to 500 mm or closer" in text
    assert result.measure_lines == (1,)
    assert result.stations[0].clamping_gap_mm == 500
    assert result.stations[0].obstacles_in_zone == ("Fence",)
    assert result.certainty is Certainty.ONE_SOURCE  # the ISO 13854 gaps
    assert "ISO 13854:2017" in result.clause


def test_moving_away_from_the_fence_is_not_flagged():
    s = run([seg(550, 0, 200, 0, 100.0)], obstacles=[fence()]).segments[0]
    assert s.clamping_verdict == "pass" and s.verdict == "pass"


def test_moving_toward_a_fence_outside_the_contact_zone_is_not_flagged():
    # The fence at x = 900 mm is beyond the station's 850 mm reach.
    far = fence(x1=900.0, x2=900.0)
    result = run([seg(200, 0, 800, 0, 100.0)], obstacles=[far])
    assert result.segments[0].clamping_verdict == "pass"
    assert result.stations[0].obstacles_in_zone == ()


def test_approaching_but_staying_beyond_the_gap_is_not_flagged():
    # Hands only: ISO 13854 "hand" gap, 100 mm. The segment stops 150 mm short.
    result = run(
        [seg(200, 0, 450, 0, 100.0)],
        stations=[station(regions=("hands_fingers",))],
        obstacles=[fence()],
    )
    assert result.stations[0].clamping_gap_mm == 100
    assert result.segments[0].clamping_verdict == "pass"
    closer = run(
        [seg(200, 0, 520, 0, 100.0)],
        stations=[station(regions=("hands_fingers",))],
        obstacles=[fence()],
    )
    assert closer.segments[0].clamping_verdict == "measure"


def test_a_failing_speed_toward_a_fence_is_a_fail_first():
    s = run([seg(200, 0, 550, 0, 1000.0)], obstacles=[fence()]).segments[0]
    assert s.clamping_verdict == "measure"
    assert s.verdict == "fail"  # fail > measure


# --- Speed and separation monitoring ------------------------------------------


def test_a_station_too_close_for_the_segments_speed_fails_with_the_shortfall():
    # S_p at 1000 mm/s = 1710 + 1000 × 0.1 = 1810 mm (S_h 640 + S_r 100 + S_s 150
    # + C 850 + Z_d 50 + Z_r 20). The segment passes 1750 mm from "Loading":
    # 60 mm short. The speed that fits: (1750 − 1710) / 0.1 s = 400 mm/s.
    result = run(
        [seg(-500, 1750, 500, 1750, 1000.0)],
        stations=[station(regions=("chest",))],
        ssm=SSM,
    )
    s = result.segments[0]
    assert s.pfl_verdict == "pass"  # 1750 mm: outside the contact zone
    assert s.ssm_verdict == "fail" and s.verdict == "fail"
    assert s.ssm_separation_mm == pytest.approx(1810.0)
    assert s.ssm_target == "Loading" and s.ssm_target_kind == "station"
    assert s.ssm_shortfall_mm == pytest.approx(60.0)
    assert s.ssm_limit_mm_s == pytest.approx(400.0)
    assert s.permissible_speed_mm_s == pytest.approx(400.0)
    assert (
        "At 1,000.0 mm/s S_p is 1,810.0 mm, but the segment comes within 1,750.0 mm "
        "of Loading: 60.0 mm short." in rendered(s.lines)
    )
    assert result.ssm_separation_at_rest_mm == pytest.approx(SSM_AT_REST_MM)
    assert result.ssm_reaction_time_s == pytest.approx(0.1)
    assert result.ssm_complete is True
    assert "5.5.4" in result.clause


def test_s_p_at_the_segments_speed_is_that_of_ts15066_ssm():
    result = run([seg(-500, 5000, 500, 5000, 1234.5)], ssm=SSM)
    direct = ts15066_ssm(SsmInput(robot_speed_mm_s=1234.5, **SSM))
    assert result.segments[0].ssm_separation_mm == pytest.approx(
        direct.separation_distance_mm, abs=1e-9
    )
    assert result.segments[0].ssm_verdict == "pass"


def test_at_400_mm_s_the_same_segment_keeps_s_p():
    s = run([seg(-500, 1750, 500, 1750, 400.0)], ssm=SSM).segments[0]
    assert s.ssm_verdict == "pass"


def test_a_station_nearer_than_s_p_at_rest_cannot_be_slowed():
    # 1500 mm < S_p at rest, 1710 mm: no speed fits.
    result = run([seg(-500, 1500, 500, 1500, 100.0)], ssm=SSM)
    s = result.segments[0]
    assert s.ssm_verdict == "fail"
    assert s.ssm_shortfall_mm == pytest.approx(1710 + 10 - 1500)
    assert s.permissible_speed_mm_s == 0.0
    assert result.cycle_time_limited_s is None


def test_an_incomplete_s_p_is_not_checked_where_the_distance_suffices():
    partial = {k: v for k, v in SSM.items() if k != "robot_uncertainty_mm"}
    far = run([seg(-500, 5000, 500, 5000, 1000.0)], ssm=partial).segments[0]
    assert far.ssm_verdict == "not_checked"
    assert "incomplete: Z_r left at 0" in rendered(far.lines)
    # A shortfall is sure even so: the missing terms only add to S_p.
    near = run([seg(-500, 1600, 500, 1600, 1000.0)], ssm=partial).segments[0]
    assert near.ssm_verdict == "fail"


def test_the_protective_field_must_reach_s_p_beyond_the_segment():
    # Circle of 3,000 mm round the origin; the segment at y = 1000 mm, x ± 500,
    # keeps 3000 − √(500² + 1000²) = 3000 − 1118.03 = 1881.97 mm from the
    # boundary. At 1000 mm/s S_p = 1810 mm: passes; at 2000 mm/s S_p = 1910 mm:
    # 28.03 mm short.
    field = {"center": {"x_mm": 0.0, "y_mm": 0.0}, "radius_mm": 3000.0}
    ssm = {**SSM, "field": field}
    far_station = [station(x=0.0, y=-20000.0)]
    ok = run([seg(-500, 1000, 500, 1000, 1000.0)], stations=far_station, ssm=ssm)
    assert ok.segments[0].ssm_verdict == "pass"
    assert ok.segments[0].ssm_target_kind == "field"
    short = run([seg(-500, 1000, 500, 1000, 2000.0)], stations=far_station, ssm=ssm)
    s = short.segments[0]
    assert s.ssm_verdict == "fail"
    assert s.ssm_target is None and s.ssm_target_kind == "field"
    assert s.ssm_shortfall_mm == pytest.approx(1910 - (3000 - math.hypot(500, 1000)))
    assert "of the protective field's boundary" in rendered(s.lines)


def test_a_polygon_field_is_measured_from_its_nearest_edge():
    # Square ±2500 mm; the segment from (0, 0) to (0, 500) keeps 2000 mm from the
    # top edge: S_p at 1000 mm/s is 1810 mm, so it passes; at 3000 mm/s S_p =
    # 2010 mm, 10 mm short.
    square = [
        {"x_mm": -2500.0, "y_mm": -2500.0},
        {"x_mm": 2500.0, "y_mm": -2500.0},
        {"x_mm": 2500.0, "y_mm": 2500.0},
        {"x_mm": -2500.0, "y_mm": 2500.0},
    ]
    ssm = {**SSM, "field": {"polygon": square}}
    result = run(
        [seg(0, 0, 0, 500, 1000.0, line=1), seg(0, 0, 0, 500, 3000.0, line=2)],
        stations=[],
        ssm=ssm,
    )
    assert result.segments[0].ssm_verdict == "pass"
    assert result.segments[1].ssm_verdict == "fail"
    assert result.segments[1].ssm_shortfall_mm == pytest.approx(10.0)


def test_a_segment_outside_the_field_is_not_judged_by_it():
    field = {"center": {"x_mm": 0.0, "y_mm": 0.0}, "radius_mm": 1000.0}
    s = run(
        [seg(5000, 0, 6000, 0, 500.0)],
        stations=[station(x=0.0, y=-20000.0)],
        ssm={**SSM, "field": field},
    ).segments[0]
    assert s.ssm_verdict == "not_checked"
    assert "outside or across the scanner's protective field" in rendered(s.lines)


def test_ssm_with_unknown_speed_is_not_checked():
    s = run([seg(-500, 5000, 500, 5000, None)], ssm=SSM).segments[0]
    assert s.ssm_verdict == "not_checked"
    assert s.ssm_separation_mm is None
    assert "S_p depends on it" in rendered(s.lines)


def test_without_ssm_inputs_no_ssm_verdict_is_given():
    s = run([seg(-500, 5000, 500, 5000, 1000.0)]).segments[0]
    assert s.ssm_verdict is None and s.ssm_separation_mm is None


# --- Cycle time -------------------------------------------------------------


def test_cycle_time_as_programmed_and_as_limited():
    # 1,000 mm at 500 mm/s + 500 mm at 1000 mm/s = 2 s + 0.5 s = 2.5 s.
    # The first runs 1735 mm from the station: with SSM, the speed that fits is
    # (1735 − 1710) / 0.1 s = 250 mm/s, so it takes 1000 / 250 = 4 s: 4.5 s. The
    # second, 5 m away, keeps S_p at its speed (1810 mm).
    segments = [
        seg(-500, 1735, 500, 1735, 500.0, line=10),
        seg(0, 5000, 0, 5500, 1000.0, line=11),
    ]
    plain = run(segments, stations=[station(regions=("chest",))])
    assert plain.cycle_time_programmed_s == pytest.approx(2.5)
    assert plain.cycle_time_limited_s == pytest.approx(2.5)
    limited = run(segments, stations=[station(regions=("chest",))], ssm=SSM)
    assert limited.segments[0].permissible_speed_mm_s == pytest.approx(250.0)
    assert limited.failing_lines == (10,)
    assert limited.cycle_time_programmed_s == pytest.approx(2.5)
    assert limited.cycle_time_limited_s == pytest.approx(4.5)
    assert "T = Σ L/min(v, v_limit) = 4.500 s" in rendered(limited.steps)


def test_a_segments_length_is_three_dimensional():
    # 300 mm across and 400 mm up: 500 mm at 500 mm/s, 1 s.
    segment = seg(0, 5000, 300, 5000, 500.0)
    segment["end"]["z_mm"] = 400.0
    result = run([segment])
    assert result.segments[0].length_mm == pytest.approx(500.0)
    assert result.cycle_time_programmed_s == pytest.approx(1.0)


# --- The result as a whole ----------------------------------------------------


def test_the_result_explains_itself_and_counts():
    result = run(
        [
            seg(-500, 300, 500, 300, 1000.0, line=1),
            seg(-500, 300, 500, 300, 250.0, line=2),
            seg(-500, 5000, 500, 5000, 1500.0, line=3),
            seg(-500, 300, 500, 300, None, line=4),
        ]
    )
    assert result.counts == {"fail": 1, "measure": 0, "not_checked": 1, "pass": 2}
    assert result.worst_verdict == "fail"
    assert result.failing_lines == (1,)
    steps = rendered(result.steps)
    assert "Loading: contact reach 850 mm" in steps
    assert "v = min(chest 471.8 mm/s) = 471.8 mm/s" in steps
    warnings = rendered(result.warnings)
    assert "acceleration and braking are ignored" in warnings
    assert "Distances are measured on the plan (x, y)" in warnings
    # Each region's warnings once, not once per station or segment.
    assert len(result.warnings) == len({w.render() for w in result.warnings})
    assert result.sources
    assert result.model_dump_json()  # the API can send it


def test_every_verdict_rank_is_ordered_fail_measure_not_checked_pass():
    ranks = path_module.VERDICT_RANK
    assert ranks["fail"] > ranks["measure"] > ranks["not_checked"] > ranks["pass"]


# --- Bounded input ----------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"segments": []},
        {"segments": [seg(0, 0, 1, 1, 0.0)]},
        {"segments": [seg(0, 0, 1, 1, 10_001.0)]},
        {"segments": [seg(0, 0, 100_001.0, 1, 100.0)]},
        {"stations": [station(f"S{i}") for i in range(51)]},
        {"stations": [station("A"), station("A")]},
        {"stations": [station(contact_reach_mm=0.0)]},
        {"obstacles": [fence(f"F{i}") for i in range(501)]},
        {"robot_moving_mass_kg": 0.0},
        {"ssm": {**SSM, "field": {"radius_mm": 100.0}}},
        {"ssm": {**SSM, "reaction_time_ms": -1.0}},
        {"ssm": {**SSM, "robot_speed_mm_s": 100.0}},
    ],
)
def test_input_out_of_bounds_is_refused(change):
    data = {
        "segments": [seg(0, 0, 1, 1, 100.0)],
        "stations": [station()],
        "robot_moving_mass_kg": 33.5,
        "payload_kg": 5.0,
        **change,
    }
    with pytest.raises(ValidationError):
        PathInput.model_validate(data)


def test_at_most_200000_segments():
    bound = [
        m
        for m in PathInput.model_fields["segments"].metadata
        if hasattr(m, "max_length")
    ]
    assert MAX_SEGMENTS == 200_000
    assert bound[0].max_length == MAX_SEGMENTS


@pytest.mark.parametrize(
    "module",
    [
        "compliance.calculators.ts15066_path",
        "compliance.calculators.ts15066_path_models",
        "compliance.calculators.ts15066_path_segment",
        "compliance.calculators.ts15066_path_geometry",
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


def test_the_human_speed_defaults_to_1600_mm_s_as_iso_13855_walks(reference):
    # iso13855.json approach_speeds.walking_K_mm_s = 1600 (two sources); the
    # reference's SSM formula gives the same "default_v_h".
    speeds = reference("iso13855.json")["approach_speeds"]
    assert speeds["walking_K_mm_s"] == 1600 and speeds["confirmed_two_sources"]
    ssm = {k: v for k, v in SSM.items() if k != "human_speed_mm_s"}
    result = run([seg(-500, 5000, 500, 5000, 1000.0)], ssm=ssm)
    # S_p at rest = 1600 × 0.4 + 150 + 850 + 50 + 20 = 1710 mm.
    assert result.ssm_separation_at_rest_mm == pytest.approx(SSM_AT_REST_MM)
