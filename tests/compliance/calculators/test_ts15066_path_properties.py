"""Properties of the per-segment check (``ts15066_path``), over generated
programs: slowing a segment never makes it worse; a station moved away from a
segment never turns its pass into a fail; S_p at a segment's speed is always
that of ``ts15066_ssm``; and the plan geometry it rests on.

Example counts are bounded so the file runs in seconds.
"""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.calculators.ts15066 import SsmInput, ts15066_ssm
from compliance.calculators.ts15066_path import (
    VERDICT_RANK,
    PathInput,
    ts15066_path,
)
from compliance.calculators.ts15066_path_geometry import (
    depth_inside_circle,
    depth_inside_polygon,
    point_segment_distance,
    segment_segment_distance,
)
from compliance.calculators.ts15066_tables import BodyRegion

FAST = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

coordinate = st.floats(min_value=-3000, max_value=3000, allow_nan=False)
speed = st.floats(min_value=1, max_value=3000, allow_nan=False)
# Skull, forehead and face fail at any speed: leave them in, they must too.
regions = st.lists(st.sampled_from(list(BodyRegion)), max_size=3, unique=True)


@st.composite
def points(draw):
    return {"x_mm": draw(coordinate), "y_mm": draw(coordinate), "z_mm": 0.0}


@st.composite
def segments(draw, line=1):
    return {
        "index": line - 1,
        "line": line,
        "start": draw(points()),
        "end": draw(points()),
        "speed_mm_s": draw(speed),
    }


@st.composite
def stations(draw, label):
    return {
        "label": label,
        "x_mm": draw(coordinate),
        "y_mm": draw(coordinate),
        "body_regions": draw(regions),
        "contact_reach_mm": draw(st.none() | st.floats(min_value=100, max_value=2000)),
    }


@st.composite
def obstacles(draw, label):
    return {
        "label": label,
        "kind": "fence",
        "x1_mm": draw(coordinate),
        "y1_mm": draw(coordinate),
        "x2_mm": draw(coordinate),
        "y2_mm": draw(coordinate),
    }


ssm_inputs = st.none() | st.fixed_dictionaries(
    {
        "reaction_time_ms": st.floats(min_value=0, max_value=500),
        "stopping_time_ms": st.floats(min_value=0, max_value=800),
        "stopping_distance_mm": st.floats(min_value=0, max_value=500),
        "intrusion_mm": st.floats(min_value=0, max_value=1200),
        "human_uncertainty_mm": st.floats(min_value=0, max_value=200),
        "robot_uncertainty_mm": st.floats(min_value=0, max_value=200),
    }
)


@st.composite
def programs(draw):
    count = draw(st.integers(min_value=1, max_value=4))
    return {
        "segments": [draw(segments(line=i + 1)) for i in range(count)],
        "stations": [
            draw(stations(f"S{i}"))
            for i in range(draw(st.integers(min_value=1, max_value=3)))
        ],
        "obstacles": [
            draw(obstacles(f"O{i}"))
            for i in range(draw(st.integers(min_value=0, max_value=3)))
        ],
        "robot_moving_mass_kg": draw(st.floats(min_value=5, max_value=60)),
        "payload_kg": draw(st.floats(min_value=0, max_value=15)),
        "ssm": draw(ssm_inputs),
    }


def judge(data):
    return ts15066_path(PathInput.model_validate(data))


@FAST
@given(programs(), st.data())
def test_lowering_a_segments_speed_never_makes_it_worse(program, data):
    which = data.draw(st.integers(min_value=0, max_value=len(program["segments"]) - 1))
    factor = data.draw(st.floats(min_value=0.01, max_value=1.0))
    before = judge(program).segments[which]
    slowed = dict(program["segments"][which])
    slowed["speed_mm_s"] = max(slowed["speed_mm_s"] * factor, 0.01)
    segments = list(program["segments"])
    segments[which] = slowed
    after = judge({**program, "segments": segments}).segments[which]
    assert VERDICT_RANK[after.verdict] <= VERDICT_RANK[before.verdict]
    if before.verdict == "pass":
        assert after.verdict == "pass"


@FAST
@given(programs(), st.floats(min_value=1, max_value=5000))
def test_moving_a_station_away_never_turns_a_pass_into_a_fail(program, step):
    # Along the ray from the segment's nearest point through the station: every
    # point of the segment is then at least ``step`` farther from it.
    program = {**program, "segments": program["segments"][:1]}
    s = program["segments"][0]
    st0 = program["stations"][0]
    ax, ay = s["start"]["x_mm"], s["start"]["y_mm"]
    bx, by = s["end"]["x_mm"], s["end"]["y_mm"]
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0
    if length2:
        t = ((st0["x_mm"] - ax) * dx + (st0["y_mm"] - ay) * dy) / length2
        t = min(max(t, 0.0), 1.0)
    qx, qy = ax + t * dx, ay + t * dy
    away = math.hypot(st0["x_mm"] - qx, st0["y_mm"] - qy)
    if away < 1e-6:
        return  # on the segment: no ray
    moved = {
        **st0,
        "x_mm": st0["x_mm"] + step * (st0["x_mm"] - qx) / away,
        "y_mm": st0["y_mm"] + step * (st0["y_mm"] - qy) / away,
    }
    before = judge(program).segments[0]
    after = judge({**program, "stations": [moved, *program["stations"][1:]]})
    if before.verdict == "pass":
        assert after.segments[0].verdict != "fail"
    if not program["obstacles"]:
        # Without obstacles nothing can come into the moved station's zone.
        assert VERDICT_RANK[after.segments[0].verdict] <= VERDICT_RANK[before.verdict]


@FAST
@given(speed, ssm_inputs.filter(lambda s: s is not None))
def test_s_p_at_a_segments_speed_is_that_of_ts15066_ssm(v, ssm):
    program = {
        "segments": [
            {
                "index": 0,
                "line": 1,
                "start": {"x_mm": 0.0, "y_mm": 0.0, "z_mm": 0.0},
                "end": {"x_mm": 100.0, "y_mm": 0.0, "z_mm": 0.0},
                "speed_mm_s": v,
            }
        ],
        "stations": [],
        "robot_moving_mass_kg": 20.0,
        "payload_kg": 1.0,
        "ssm": ssm,
    }
    got = judge(program).segments[0].ssm_separation_mm
    direct = ts15066_ssm(SsmInput(robot_speed_mm_s=v, **ssm)).separation_distance_mm
    assert math.isclose(got, direct, rel_tol=1e-12, abs_tol=1e-9)


# --- The plan geometry ------------------------------------------------------


def test_point_segment_distance_by_hand():
    assert point_segment_distance(0, 5, -10, 0, 10, 0) == 5  # above the middle
    assert point_segment_distance(13, 4, -10, 0, 10, 0) == 5  # past the end (3-4-5)
    assert point_segment_distance(3, 4, 0, 0, 0, 0) == 5  # a point


def test_segment_segment_distance_by_hand():
    assert segment_segment_distance(0, 0, 10, 10, 0, 10, 10, 0) == 0  # crossing
    assert segment_segment_distance(0, 0, 10, 0, 0, 3, 10, 3) == 3  # parallel
    assert segment_segment_distance(0, 0, 10, 0, 10, 0, 20, 5) == 0  # touching


def test_depth_inside_a_polygon_and_a_circle_by_hand():
    square = ((-10.0, -10.0), (10.0, -10.0), (10.0, 10.0), (-10.0, 10.0))
    assert depth_inside_polygon(0, 0, 0, 5, square) == 5  # 5 from the top edge
    assert depth_inside_polygon(0, 0, 0, 15, square) is None  # crosses
    assert depth_inside_polygon(20, 0, 30, 0, square) is None  # outside
    assert depth_inside_circle(0, 0, 3, 4, 0, 0, 10) == 5  # 10 − 5
    assert depth_inside_circle(0, 0, 6, 8, 0, 0, 10) is None  # on the boundary


@FAST
@given(
    st.lists(st.floats(min_value=-100, max_value=100), min_size=6, max_size=6),
)
def test_distance_from_a_segment_to_a_point_is_the_least_over_its_points(xs):
    px, py, ax, ay, bx, by = xs
    got = point_segment_distance(px, py, ax, ay, bx, by)
    sampled = min(
        math.hypot(ax + t / 200 * (bx - ax) - px, ay + t / 200 * (by - ay) - py)
        for t in range(201)
    )
    assert got <= sampled + 1e-9
    assert got >= sampled - math.hypot(bx - ax, by - ay) / 200 - 1e-9
