"""A demo per jurisdiction (issue 30): seed_demo's German and US projects
show the EU and US rule packs working, and every demo project's proposal
builds."""

from __future__ import annotations

import pytest

from cells.models import Cell, Project
from compliance.plan.legal_selectors import cell_answer
from compliance.rules.results import cell_results
from tests.compliance.proposals.demo import build_demo, seed, text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db):
    seed()


def _cell(country: str) -> Cell:
    return Cell.objects.get(
        project__organisation__slug="demo",
        project__country=country,
        variant_of__isnull=True,
    )


def _findings(cell) -> dict[tuple[str, str], str]:
    return {
        (f.rule_id, f.subject_label): str(f.status)
        for result in cell_results(cell)
        for f in result.findings
    }


def test_the_german_door_without_guard_locking_too_close_for_its_stop_fails(demo):
    cell = _cell("DE")
    assert cell.project.planned_start.isoformat() == "2027-03-01"
    found = _findings(cell)
    # DR-12 (demo) stops in 400 ms: S = 1,600 mm/s × 0.4 s = 640 mm. Door D2
    # opens 600 mm from the hazard zone (F2 at x = 5,000, the robot at 3,000
    # with a reach of 1,400), door D1 1,600 mm.
    assert found[("INTL-13855-interlock", "D2 switch (demo)")] == "fail"
    assert found[("INTL-13855-interlock", "D1 switch (demo)")] == "pass"
    assert found[("INTL-opening-guarded", "F2 / Door D2")] == "fail"
    # Planned after 20 January 2027: the Machinery Regulation, not the Directive.
    rules = {rule for rule, _subject in found}
    assert "EU-MR-risk-assessment" in rules
    assert not any(rule.startswith("EU-MD-") for rule in rules)
    answer = cell_answer(cell)
    assert answer.title == "What the law requires in the EU / EEA"
    assert {d.key: d.status for d in answer.duties}["standards"] == "missing"


def test_the_us_palletiser_cites_r1506_and_the_us_pack(demo):
    found = _findings(_cell("US"))
    rules = {rule for rule, _subject in found}
    assert {"US-R15.06-integration", "US-OSHA-1910.212"} <= rules
    assert not any(rule.startswith("KR-") for rule in rules)
    assert found[("US-OSHA-1910.212", "Cell")] == "pass"
    keys = [d.key for d in cell_answer(_cell("US")).duties]
    assert keys[:2] == ["us_integration", "us_guarding"]


@pytest.mark.parametrize(
    ("country", "cited"),
    [
        ("KR", "OSH Act Art. 36"),
        ("DE", "Regulation (EU) 2023/1230"),
        ("US", "R15.06-2025"),
    ],
)
def test_each_demo_projects_proposal_builds_and_cites_its_law(demo, country, cited):
    cell = Cell.objects.filter(
        project__organisation__slug="demo",
        project__country=country,
        variant_of__isnull=True,
    ).first()
    document = build_demo("en", cell)
    assert document.status == "ready"
    text = " ".join(text_of(bytes(document.pdf)).split())
    assert cited in text
    # In the project's currency.
    assert f"{cell.project.currency} " in text


def test_seeding_again_adds_no_second_project(demo):
    before = Project.objects.filter(organisation__slug="demo").count()
    seed()
    assert Project.objects.filter(organisation__slug="demo").count() == before == 3
