"""The safeguarded space judged from the drawn geometry: a closed perimeter
round the hazard zone, every opening guarded, the gap under each guard."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cells import perimeter
from compliance.rules.baseline import REACH_OVER
from compliance.rules.engine import evaluate, summary
from compliance.rules.findings import Status
from compliance.rules.safeguarding import ENCLOSURE, GAP_UNDER, OPENINGS_GUARDED
from compliance.rules.sensing import MINIMUM_DISTANCE
from tests.compliance.rules.cells import (
    cell,
    device,
    only,
    opening,
    run,
    segment,
    square_layout,
)

SIDES = ("north", "east", "south", "west")


def _square_cell(drop=(), radius_mm=1600, country="KR", **kw):
    layout = square_layout(radius_mm=radius_mm, drop=drop)
    return cell(
        country=country,
        hazard_zone_height_mm=1400,
        segments=tuple(
            segment(key, length_mm=5000, horizontal_distance_to_hazard_mm=900)
            for key in SIDES
            if key not in drop
        ),
        layout=layout,
        **kw,
    )


def test_a_closed_fence_round_the_zone_passes_with_its_clearance():
    finding = only(ENCLOSURE, _square_cell())
    assert finding.status is Status.PASS
    assert finding.numbers == {"clearance_mm": 900}


def test_a_single_short_fence_segment_does_not_enclose_the_zone():
    # Regression: a Korean cell with one 1 m fence segment and nothing else
    # passed the Art. 223 height rule, and no finding mentioned the open sides.
    layout = perimeter.Layout(
        zone=perimeter.CircleZone(centre=(0.0, 0.0), radius_mm=1600, upper_mm=1400),
        segments=(
            perimeter.Segment(
                key="s1", start=(2000.0, -500.0), end=(2000.0, 500.0), height_mm=1800
            ),
        ),
    )
    facts = cell(
        hazard_zone_height_mm=1400,
        segments=(segment(length_mm=1000, horizontal_distance_to_hazard_mm=400),),
        layout=layout,
    )
    findings = run(ENCLOSURE, facts)
    assert [f.status for f in findings] == [Status.FAIL]
    assert "open between the free ends" in findings[0].render()
    counts = summary(evaluate(facts))
    assert counts[Status.FAIL] >= 1


def test_an_open_side_is_an_unguarded_gap_with_its_width():
    findings = run(ENCLOSURE, _square_cell(drop=("west",)))
    assert [f.status for f in findings] == [Status.FAIL]
    assert findings[0].numbers == {"width_mm": 5000, "distance_mm": 900}


def test_nothing_drawn_fails_even_outside_korea():
    # Regression: a US industrial robot with nothing drawn: 1 pass, 0 fail.
    facts = cell(country="US", hazard_zone_height_mm=1400)
    finding = only(ENCLOSURE, facts)
    assert finding.status is Status.FAIL
    assert summary(evaluate(facts))[Status.FAIL] >= 1


def test_a_zone_reaching_past_the_fence_fails_by_how_far():
    # Regression: a hazard zone r = 3,100 mm in a fence 2,500 mm from the
    # robot reaches 600 mm past it and was not flagged.
    finding = only(ENCLOSURE, _square_cell(radius_mm=3100))
    assert finding.status is Status.FAIL
    assert finding.numbers == {"reach_past_mm": 600}


def test_a_cobot_without_collaborative_operation_needs_the_fence_too():
    facts = cell(robot_kind="collaborative", hazard_zone_height_mm=1400)
    assert only(ENCLOSURE, facts).status is Status.FAIL
    with_mode = facts.model_copy(update={"collaborative_modes": ("pfl",)})
    assert only(ENCLOSURE, with_mode).status is Status.WARNING


def test_a_collaborative_cell_fenced_all_round_passes_not_warns():
    facts = _square_cell(robot_kind="collaborative", collaborative_modes=("pfl",))
    finding = only(ENCLOSURE, facts)
    assert finding.status is Status.PASS
    assert finding.numbers == {"clearance_mm": 900}


def test_guards_without_positions_need_evidence():
    facts = cell(segments=(segment(),))
    assert only(ENCLOSURE, facts).status is Status.NEEDS_EVIDENCE


# --- openings ------------------------------------------------------------------------


def _with_opening(distance_mm, *devices, width_mm=800, upper_mm=2000, lower_mm=0):
    return cell(
        country="DE",
        segments=(segment(),),
        openings=(
            opening(
                purpose="operator_access",
                width_mm=width_mm,
                lower_edge_mm=lower_mm,
                upper_edge_mm=upper_mm,
                distance_to_hazard_mm=distance_mm,
            ),
        ),
        devices=devices,
    )


def test_an_unguarded_operator_opening_near_the_zone_fails():
    # Regression: a German cell with an unguarded 2 m high opening 300 mm from
    # the hazard zone: 3 pass, 0 fail.
    finding = only(OPENINGS_GUARDED, _with_opening(300))
    assert finding.status is Status.FAIL
    assert finding.numbers == {"width_mm": 800, "height_mm": 2000, "distance_mm": 300}


def test_a_guarded_opening_passes():
    door = device("d", "interlocked_door", opening_key="o1")
    assert only(OPENINGS_GUARDED, _with_opening(300, door)).status is Status.PASS


def test_a_small_opening_far_enough_is_out_of_reach():
    # A 30 x 60 mm slot is judged as a 30 mm slot: Table 4 asks 850 mm, and a
    # slot no longer than 65 mm may be allowed 200 mm by the thumb stop, which
    # the reference leaves unsettled: between the two it needs evidence.
    near = only(OPENINGS_GUARDED, _with_opening(150, width_mm=30, upper_mm=60))
    assert near.status is Status.FAIL
    assert near.numbers["required_mm"] == 850
    between = only(OPENINGS_GUARDED, _with_opening(500, width_mm=30, upper_mm=60))
    assert between.status is Status.NEEDS_EVIDENCE
    far = only(OPENINGS_GUARDED, _with_opening(900, width_mm=30, upper_mm=60))
    assert far.status is Status.PASS


# --- the gap under a guard -------------------------------------------------------------


def test_the_gap_under_a_fence_is_checked():
    # ISO 13857 Table 7 / Table 4: a 100 mm gap needs 1,100 mm.
    near = cell(
        segments=(segment(bottom_gap_mm=100, horizontal_distance_to_hazard_mm=900),)
    )
    finding = only(GAP_UNDER, near)
    assert finding.status is Status.FAIL
    assert finding.numbers["required_mm"] == 1100
    far = cell(
        segments=(segment(bottom_gap_mm=100, horizontal_distance_to_hazard_mm=1200),)
    )
    assert only(GAP_UNDER, far).status is Status.PASS
    assert run(GAP_UNDER, cell(segments=(segment(),))) == []  # no gap


# --- properties ---------------------------------------------------------------------------

RANK = {
    Status.FAIL: 0,
    Status.NEEDS_EVIDENCE: 1,
    Status.WARNING: 2,
    Status.PASS: 3,
}


@settings(max_examples=60, deadline=None)
@given(
    distance=st.integers(min_value=0, max_value=3000),
    further=st.integers(min_value=0, max_value=2000),
)
def test_moving_a_device_away_never_turns_a_pass_into_a_fail(distance, further):
    def status(d):
        curtain = device(
            "lc",
            "light_curtain",
            response_time_ms=20,
            detection_capability_mm=14,
            detection_upper_mm=1800,
            distance_to_hazard_mm=d,
            placed=True,
        )
        facts = cell(hazard_zone_height_mm=1400, devices=(curtain,))
        return only(MINIMUM_DISTANCE, facts).status

    assert RANK[status(distance + further)] >= RANK[status(distance)]


@settings(max_examples=60, deadline=None)
@given(
    height=st.integers(min_value=1000, max_value=2600),
    raise_by=st.integers(min_value=0, max_value=1000),
    distance=st.integers(min_value=0, max_value=2000),
)
def test_raising_a_guard_never_turns_a_pass_into_a_fail(height, raise_by, distance):
    def status(h):
        facts = cell(
            hazard_zone_height_mm=2200,
            segments=(segment(height_mm=h, horizontal_distance_to_hazard_mm=distance),),
        )
        return only(REACH_OVER, facts).status

    assert RANK[status(height + raise_by)] >= RANK[status(height)]


@settings(max_examples=20, deadline=None)
@given(dropped=st.sets(st.sampled_from(SIDES), max_size=3))
def test_closing_a_gap_never_turns_a_pass_into_a_fail(dropped):
    def worst(drop):
        return min(RANK[f.status] for f in run(ENCLOSURE, _square_cell(drop=drop)))

    for side in dropped:
        closed = tuple(s for s in dropped if s != side)
        assert worst(closed) >= worst(tuple(dropped))


def test_findings_name_the_guards_by_their_labels_not_their_keys():
    # Regression (issue 15): "inside the closed perimeter loop:segment:1" and
    # "the free ends of segment:3 and segment:5" showed the app's keys.
    closed = only(ENCLOSURE, _square_cell()).render()
    assert "NORTH" in closed and "WEST" in closed
    assert "loop:" not in closed
    past = only(ENCLOSURE, _square_cell(radius_mm=3100)).render()
    assert "NORTH" in past and "loop:" not in past
    (gap,) = run(ENCLOSURE, _square_cell(drop=("west",)))
    assert "free ends of SOUTH and NORTH" in gap.render() or (
        "free ends of NORTH and SOUTH" in gap.render()
    )


# --- a gap in a guard is an opening (issue 27) ----------------------------------


def _gapped_cell(gap_mm: float, radius_mm: float = 1600):
    """The square fence (5 m, the zone round its centre) with a gap of
    ``gap_mm`` in the middle of its west side: 2,500 mm from the centre."""
    layout = square_layout(radius_mm=radius_mm, drop=("west",))
    half = gap_mm / 2
    west = (
        perimeter.Segment(
            key="west", start=(0.0, 0.0), end=(0.0, 2500 - half), height_mm=1800
        ),
        perimeter.Segment(
            key="west2", start=(0.0, 2500 + half), end=(0.0, 5000.0), height_mm=1800
        ),
    )
    return cell(
        hazard_zone_height_mm=1400,
        segments=tuple(
            segment(key, length_mm=5000, horizontal_distance_to_hazard_mm=900)
            for key in (*SIDES, "west2")
        ),
        layout=layout.model_copy(update={"segments": (*layout.segments, *west)}),
    )


def test_a_narrow_gap_far_from_the_zone_is_judged_as_an_opening():
    # Regression: a 12 mm gap 1.85 m from the zone failed as an unguarded gap.
    # ISO 13857 Table 4: a slot 10 < e <= 12 mm needs 100 mm; it is 2,500 -
    # 650 = 1,850 mm from the zone, out of reach, and the fence closes round
    # the zone as if it had none.
    findings = run(ENCLOSURE, _gapped_cell(12, radius_mm=650))
    gap, enclosed = findings
    assert gap.status is Status.PASS
    assert gap.numbers == {"width_mm": 12, "distance_mm": 1850}
    assert "ISO 13857 Table 4 asks 100 mm" in gap.render()
    assert enclosed.status is Status.PASS
    assert "inside the closed perimeter" in enclosed.render()


def test_a_narrow_gap_too_close_to_the_zone_fails_by_table_4():
    # A 30 mm gap needs 850 mm (Table 4, 20 < e <= 30 mm, slot); it is
    # 2,500 - 1,900 = 600 mm from the zone.
    gap, *_ = run(ENCLOSURE, _gapped_cell(30, radius_mm=1900))
    assert gap.status is Status.FAIL
    assert gap.numbers == {"width_mm": 30, "distance_mm": 600, "required_mm": 850}
    assert "Table 4 asks 850 mm" in gap.render()


def test_a_gap_a_person_walks_through_still_fails_as_a_gap():
    gap, *_ = run(ENCLOSURE, _gapped_cell(150, radius_mm=650))
    assert gap.status is Status.FAIL
    assert "that is no opening" in gap.render()
