"""A safety laser scanner guards only where its protective field lies on the
plan (issue 27): every approach to the hazard zone that no guard closes runs
inside a field from S out, or fails at that side, drawn on the plan.

Regression: the SSM rule compared a typed "field depth" with S_p and passed a
scanner whose field, as drawn, left a side of the cell open."""

from __future__ import annotations

from cells import perimeter
from compliance.rules.collaborative import SSM
from compliance.rules.engine import evaluate
from compliance.rules.facts import OpeningFacts
from compliance.rules.findings import Status
from compliance.rules.safeguarding import OPENINGS_GUARDED
from compliance.rules.scanning import APPROACHES
from tests.compliance.rules.cells import (
    CENTRE,
    cell,
    device,
    machine_tending_cobot,
    run,
    segment,
    square_layout,
)

# The zone: a circle of 1,600 mm round (2,500, 2,500); the fence 900 mm out.
ZONE_R = 1600
# S_p = 1,600 x (0.1 + 0.3) + 1,000 x 0.1 + 150 + (1,200 - 0.4 x 300)
#     = 640 + 100 + 150 + 1,080 = 1,970 mm (ISO/TS 15066 5.5.4; C from ISO 13855)
S_P = 1970
# ISO 13855:2010 6.3: S = 1,600 x (0.1 + 0.3) + (1,200 - 0.4 x 300) = 1,720 mm
S_13855 = 1720


def _scanner(at=CENTRE, radius=ZONE_R + S_P, **kw):
    figures = {
        "label": "LS1",
        "response_time_ms": 100,
        "detection_capability_mm": 70,
        "field_height_mm": 300,
        "protective_field_mm": radius,
        "position_mm": at,
    }
    return device("device:1", "laser_scanner", **(figures | kw))


def _ssm_cell(scanner, **kw):
    """A cobot with speed and separation monitoring, fenced on three sides,
    the south side open."""
    fields = {
        "collaborative_modes": ("ssm",),
        "robot_stopping_time_ms": 300,
        "robot_stopping_distance_mm": 150,
        "programmed_speed_mm_s": 1000,
        "layout": square_layout(radius_mm=ZONE_R, drop=("south",)),
        "devices": (scanner,),
    }
    return machine_tending_cobot(**(fields | kw))


def _by_subject(findings):
    return {f.subject_key: f for f in findings}


def test_a_field_reaching_s_p_beyond_the_open_side_covers_it_but_s_p_lacks_terms():
    # Covered all round, but S_p leaves the uncertainties Z_d and Z_r at 0:
    # never a pass on a distance with terms left out.
    (finding,) = run(APPROACHES, _ssm_cell(_scanner()))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert finding.required_mm == S_P
    assert "not complete" in finding.render()


def test_a_field_short_of_s_p_fails_at_the_open_side_only():
    # 3,000 mm round the robot's base reaches 3,000 - 1,600 = 1,400 mm out of
    # the zone, short of S_p = 1,970 mm, where no fence stands (the south).
    found = _by_subject(run(APPROACHES, _ssm_cell(_scanner(radius=3000))))
    assert "approach:S" in found
    south = found["approach:S"]
    assert south.status is Status.FAIL
    assert south.numbers["reach_mm"] == 1400
    assert south.required_mm == S_P
    assert "1,970" in south.render() and "1,400" in south.render()
    # The fenced sides are the fences' business: no finding of this rule.
    assert not {"approach:N", "approach:E", "approach:W"} & set(found)
    # Every south approach lies between 180 and 360 degrees.
    for f in found.values():
        assert 180 <= f.numbers["from_deg"] % 360 <= 360


def test_a_field_that_does_not_face_the_open_side_fails_there():
    # Big enough, but the scanner stands by the north fence: the south is
    # 3,100 mm away at the zone's edge and 5,070 mm at S_p out.
    found = _by_subject(
        run(APPROACHES, _ssm_cell(_scanner(at=(2500.0, 4000.0), radius=3570)))
    )
    assert found["approach:S"].status is Status.FAIL
    assert found["approach:S"].numbers["reach_mm"] < S_P


def test_the_ssm_verdict_is_never_better_than_the_fields_on_the_plan():
    facts = _ssm_cell(_scanner(radius=3000))
    results = evaluate(facts)
    ssm = next(f for r in results if r.rule.id == SSM.id for f in r.findings)
    assert ssm.status is Status.FAIL
    assert "(below)" in ssm.render()


def test_a_scanner_not_on_the_plan_cannot_pass_ssm():
    facts = _ssm_cell(_scanner(at=None))
    (ssm,) = run(SSM, facts)
    assert ssm.status is Status.NEEDS_EVIDENCE
    assert "not drawn on the plan" in ssm.render()
    assert run(APPROACHES, facts) == []


def test_a_fenced_industrial_cell_with_a_scanner_inside_passes():
    # Every approach crosses the fence: the fence's rules judge it. S here is
    # ISO 13855's for a field parallel to the approach.
    facts = cell(
        layout=square_layout(radius_mm=ZONE_R), devices=(_scanner(radius=500),)
    )
    (finding,) = run(APPROACHES, facts)
    assert finding.status is Status.PASS
    assert finding.required_mm == S_13855


def test_an_open_side_of_an_industrial_cell_needs_the_field_too():
    facts = cell(
        layout=square_layout(radius_mm=ZONE_R, drop=("south",)),
        devices=(_scanner(radius=ZONE_R + 1000),),
    )
    found = _by_subject(run(APPROACHES, facts))
    assert found["approach:S"].status is Status.FAIL
    assert found["approach:S"].numbers["reach_mm"] == 1000
    assert found["approach:S"].required_mm == S_13855


def test_an_opening_guarded_by_a_scanner_fails_where_its_field_misses_the_way_in():
    opening = perimeter.Opening(
        key="opening:1",
        segment_key="south",
        offset_mm=1500,
        width_mm=2000,
        upper_edge_mm=1800,
    )
    layout = square_layout(radius_mm=ZONE_R, openings=(opening,))
    facts = cell(
        layout=layout,
        segments=(segment("south"),),
        openings=(
            OpeningFacts(
                key="opening:1",
                label="South door",
                segment_key="south",
                purpose="operator_access",
                width_mm=2000,
                lower_edge_mm=0,
                upper_edge_mm=1800,
                distance_to_hazard_mm=900,
            ),
        ),
        devices=(_scanner(radius=ZONE_R + 600, opening_key="opening:1"),),
    )
    found = _by_subject(run(APPROACHES, facts))
    assert set(found) == {"opening:1"}
    assert found["opening:1"].status is Status.FAIL
    assert "South door" in found["opening:1"].render()
    # The opening's own rule said "closed by LS1": now never better.
    results = evaluate(facts)
    opening_finding = next(
        f for r in results if r.rule.id == OPENINGS_GUARDED.id for f in r.findings
    )
    assert opening_finding.status is Status.FAIL
    # A field that reaches S out past the door covers it.
    covered = facts.model_copy(
        update={
            "devices": (_scanner(radius=ZONE_R + S_13855, opening_key="opening:1"),)
        }
    )
    (finding,) = run(APPROACHES, covered)
    assert finding.status is Status.PASS


def test_missing_figures_need_evidence_and_a_pfl_cell_is_left_alone():
    facts = _ssm_cell(_scanner(response_time_ms=None))
    (finding,) = run(APPROACHES, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "response time of LS1" in " ".join(d.render() for d in finding.details)
    pfl = _ssm_cell(_scanner(), collaborative_modes=("pfl",))
    assert run(APPROACHES, pfl) == []


def test_a_polygon_zone_is_approached_from_each_edge_and_corner():
    zone = perimeter.PolygonZone(
        points=((1000.0, 1000.0), (4000.0, 1000.0), (4000.0, 4000.0), (1000.0, 4000.0))
    )
    layout = perimeter.Layout(zone=zone)
    # A field round the middle reaching S out of the square's edges but not
    # out of its corners (the corner's approaches fan out S from it).
    half_diagonal = 1500 * 2**0.5
    facts = _ssm_cell(_scanner(at=(2500.0, 2500.0), radius=1500 + S_P), layout=layout)
    found = _by_subject(run(APPROACHES, facts))
    assert {"approach:NE", "approach:NW", "approach:SE", "approach:SW"} <= set(found)
    big = _ssm_cell(
        _scanner(at=(2500.0, 2500.0), radius=half_diagonal + S_P + 1), layout=layout
    )
    (finding,) = run(APPROACHES, big)
    assert finding.subject_key == "cell"
    assert finding.status is Status.NEEDS_EVIDENCE  # S_p lacks Z_d and Z_r
