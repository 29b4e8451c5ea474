"""The KIRIA collaborative-robot workplace certification in the plans (issue
29): for a Korean collaborative cell without the Art. 223 fence it is an
activity of both plans, after the validation on the real cell and before the
PoC start, costed from its cost line (no public fee: to be quoted, counted
as unknown) and with a duration that is an assumption (no public lead time:
korea_art223.json cobot_exemption_route has lead_time_weeks null)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError
from rest_framework.test import APIClient

from compliance.plan.comparison import compare
from compliance.plan.inputs import (
    KIRIA_CERTIFICATION,
    CostRange,
    PlanInputs,
    WeeksRange,
)
from compliance.plan.physical import physical_first_activities
from compliance.plan.schedule import (
    ASSUMPTION_NOTE,
    POC_START,
    VALIDATION_PFL,
    schedule,
)
from compliance.plan.sim_first import sim_first_activities

NAME = "KIRIA collaborative-workplace certification"
# The assumption default: no public figure, a starting value to edit.
ASSUMED_WEEKS = (Decimal(4), Decimal(8))


def _inputs(**kw) -> PlanInputs:
    fields = {
        "country": "KR",
        "collaborative_modes": ("pfl",),
        "task_type": "structured_pick_place",
        "kiria_certification": True,
    }
    return PlanInputs(**(fields | kw))


def _by_key(activities):
    return {a.key: a for a in activities}


@pytest.mark.parametrize("plan", [physical_first_activities, sim_first_activities])
def test_both_plans_certify_the_installed_cell_before_the_poc(plan):
    activities = _by_key(plan(_inputs()))
    kiria = activities[KIRIA_CERTIFICATION]
    assert kiria.name == NAME
    assert kiria.phase == "certification"
    # After the last stage of the validation on the real cell (force and
    # pressure, for power and force limiting), and the PoC waits for it.
    assert kiria.depends_on == (VALIDATION_PFL,)
    assert activities[POC_START].depends_on == (KIRIA_CERTIFICATION,)
    assert "KIRIA" in activities[POC_START].basis
    # Its duration is an assumption, never a sourced figure.
    assert (kiria.duration_weeks_low, kiria.duration_weeks_high) == ASSUMED_WEEKS
    assert kiria.assumption is True
    assert kiria.certainty is None and kiria.source == ""
    assert kiria.note == ASSUMPTION_NOTE
    # No public fee: no cost, to be quoted.
    assert not kiria.cost_known


def test_the_certification_lengthens_the_way_to_the_poc():
    without = schedule(physical_first_activities(_inputs(kiria_certification=False)))
    with_it = schedule(physical_first_activities(_inputs()))
    assert with_it.total_weeks_low == without.total_weeks_low + ASSUMED_WEEKS[0]
    assert with_it.total_weeks_high == without.total_weeks_high + ASSUMED_WEEKS[1]
    assert KIRIA_CERTIFICATION in with_it.critical_path_high


def test_its_unknown_fee_is_counted_and_named_in_both_plans():
    result = compare(_inputs())
    for plan in (result.physical_first, result.sim_first):
        assert KIRIA_CERTIFICATION in plan.unknown_cost_keys
    assert result.verdict[2].outcome == "not_comparable"
    assumptions = [line.render() for line in result.assumptions]
    assert f"{NAME}: 4–8 weeks, an assumption: edit to your project." in assumptions
    assert (
        f"No cost entered for {NAME}: counted as unknown in the totals." in assumptions
    )
    notes = " ".join(line.render() for line in result.notes)
    assert "after the validation on the real cell and before the PoC starts" in notes
    assert (
        "No public fee or lead time was found for the KIRIA certification: its "
        "4–8 weeks are an assumption and its fee is to be quoted." in notes
    )


def test_a_priced_kiria_line_gives_the_activity_its_cost():
    line = CostRange(low=Decimal(3_000_000), high=Decimal(5_000_000), currency="KRW")
    result = compare(_inputs(kiria_cost=line))
    kiria = result.physical_first.schedule.get(KIRIA_CERTIFICATION).activity
    assert (kiria.cost_low, kiria.cost_high, kiria.currency) == (
        Decimal(3_000_000),
        Decimal(5_000_000),
        "KRW",
    )
    assert KIRIA_CERTIFICATION not in result.physical_first.unknown_cost_keys
    notes = " ".join(line.render() for line in result.notes)
    assert "its fee is to be quoted" not in notes
    assert "No public lead time was found for the KIRIA certification" in notes


def test_the_projects_own_figures_replace_the_assumption_and_the_line():
    entered = _inputs(
        durations={
            KIRIA_CERTIFICATION: WeeksRange(
                low=Decimal(6), high=Decimal(10), source="KIRIA's reply"
            )
        },
        costs={
            KIRIA_CERTIFICATION: CostRange(
                low=Decimal(4_000_000), high=Decimal(4_000_000), currency="KRW"
            )
        },
        kiria_cost=CostRange(low=Decimal(1), high=Decimal(2), currency="KRW"),
    )
    kiria = _by_key(physical_first_activities(entered))[KIRIA_CERTIFICATION]
    assert (kiria.duration_weeks_low, kiria.duration_weeks_high) == (6, 10)
    assert kiria.assumption is False and kiria.source == "KIRIA's reply"
    assert (kiria.cost_low, kiria.cost_high) == (4_000_000, 4_000_000)
    notes = " ".join(line.render() for line in compare(entered).notes)
    assert "No public" not in notes


def test_no_kiria_activity_where_the_cost_lines_ask_for_none():
    # A fenced Korean cobot cell, or one whose certificate is in force.
    activities = _by_key(physical_first_activities(_inputs(kiria_certification=False)))
    assert KIRIA_CERTIFICATION not in activities
    notes = " ".join(
        line.render() for line in compare(_inputs(kiria_certification=False)).notes
    )
    assert "KIRIA" not in notes


def test_a_kiria_cost_without_the_certification_is_refused():
    line = CostRange(low=Decimal(1), high=Decimal(2), currency="KRW")
    with pytest.raises(ValidationError, match="no KIRIA certification"):
        _inputs(kiria_certification=False, kiria_cost=line)


# --- from the cell --------------------------------------------------------------


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def fenceless_cobot(cell):
    # Korea is the project's country by default; no fence is drawn.
    cell.robot_kind = "collaborative"
    cell.collaborative_modes = ["pfl"]
    cell.save()
    return cell


def test_the_cells_cost_lines_hold_the_kiria_line_to_be_quoted(owner, fenceless_cobot):
    data = _api(owner).get(f"/api/v1/cells/{fenceless_cobot.pk}/line-items/").json()
    (kiria,) = [i for i in data["items"] if i["catalogue_key"] == "kiria_certification"]
    assert Decimal(kiria["quantity"]) == 1
    assert kiria["price_low"] is None


def test_the_cells_plan_schedules_the_kiria_certification(owner, fenceless_cobot):
    # Needs compliance.plan.selectors.plan_inputs to pass the KIRIA line on
    # (``kiria_certification``, ``kiria_cost``).
    plan = _api(owner).get(f"/api/v1/cells/{fenceless_cobot.pk}/plan/").json()
    for name in ("physical_first", "sim_first"):
        keys = [a["activity"]["key"] for a in plan[name]["schedule"]["activities"]]
        assert KIRIA_CERTIFICATION in keys
        assert KIRIA_CERTIFICATION in plan[name]["unknown_cost_keys"]
