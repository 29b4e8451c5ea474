"""What the law requires, on one page (issue 30): each duty of the cell's
jurisdiction judged by the findings of its rules (never by text), cited
once, with what is missing, who closes it, and the cost and weeks of the
plan activity that closes it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from compliance.plan.legal import Cost, Item, legal_answer

KCS = Cost(
    name="Self-declaration and KCs certification (Korea)",
    cost_low=Decimal(1_500_000),
    cost_high=Decimal(2_500_000),
    currency="KRW",
    weeks_low=Decimal(3),
    weeks_high=Decimal(4),
)
RISK = Cost(
    name="Risk assessment", currency="", weeks_low=Decimal(2), weeks_high=Decimal(4)
)
COSTS = {"kcs_certification": KCS, "risk_assessment": RISK}


def _item(rule_id, status="pass", subject="", message=""):
    return Item(rule_id=rule_id, status=status, subject=subject, message=message)


# A fenced Korean cell where everything the app can check passes.
FENCED = [
    _item("INTL-10218-2-risk-assessment"),
    _item("KR-223-fence-height", subject="F1"),
    _item("KR-223-fence-height", subject="F2"),
    _item("INTL-safeguarded-space"),
    _item("KR-223-openings", subject="F1 / Infeed"),
    _item("KR-222-224-procedures"),
    _item("KR-84-kcs", subject="LC1"),
    _item("INTL-13855-distance", subject="LC1"),
]


def _duties(items, jurisdiction="KR", costs=COSTS):
    return {d.key: d for d in legal_answer(jurisdiction, items, costs).duties}


def test_a_korean_cell_answers_every_duty_the_law_names_in_its_order():
    answer = legal_answer("KR", FENCED, COSTS)
    assert [d.key for d in answer.duties] == [
        "kr_36",
        "kr_38",
        "kr_223_fence",
        "kr_223_sensing",
        "kr_222_224",
        "kr_84",
        "kr_89",
        "kr_93",
        "standards",
    ]
    citations = [d.citation for d in answer.duties]
    # Each line cited once, OSH Act Art. 36 (the employer's risk assessment)
    # among them.
    assert len(set(citations)) == len(citations)
    assert citations[0].startswith("산업안전보건법 제36조")
    assert "OSH Act Art. 36" in citations[0]


def test_what_the_findings_pass_is_met_and_costs_nothing_more():
    duties = _duties(FENCED)
    assert duties["kr_223_fence"].status == "met"
    assert duties["kr_223_fence"].met == ("F1", "F2")
    assert duties["kr_223_fence"].cost is None
    assert duties["kr_84"].status == "met"
    assert duties["kr_84"].cost is None  # nothing to close
    # Art. 38 is carried out by Arts. 222-224: as good as the worst of them.
    assert duties["kr_38"].covered and duties["kr_38"].status == "met"


def test_a_low_fence_is_missing_with_the_findings_words_and_fails_art_38():
    items = [
        *FENCED,
        _item(
            "KR-223-fence-height",
            "fail",
            "F3",
            "F3 is 1,400 mm high, below the 1,800 mm fence that Art. 223 requires.",
        ),
    ]
    duties = _duties(items)
    fence = duties["kr_223_fence"]
    assert fence.status == "missing"
    assert fence.met == ("F1", "F2")
    (gap,) = fence.gaps
    assert (gap.subject, gap.status) == ("F3", "fail")
    assert "1,400 mm" in gap.message
    assert duties["kr_38"].status == "missing"


def test_a_device_without_its_kcs_record_is_an_open_point_with_who_and_what_it_costs():
    items = [i for i in FENCED if i.rule_id != "KR-84-kcs"]
    items.append(_item("KR-84-kcs", "needs_evidence", "LC1", "Record whether …"))
    duties = _duties(items)
    kcs = duties["kr_84"]
    assert kcs.status == "open"
    (gap,) = kcs.gaps
    # Said to the customer, not the SA's to-do.
    assert gap.message == "Its KCs certificate is to be on record."
    assert gap.closed_by == "the integrator, with the supplier's certificate"
    assert kcs.cost == KCS and not kcs.cost_above
    # The robot's self-declaration is the same plan activity: its cost is
    # shown once, on the line above.
    assert duties["kr_89"].cost == KCS and duties["kr_89"].cost_above


def test_what_no_rule_can_check_is_never_met():
    duties = _duties(FENCED)
    # No record of the robot's self-declaration: open, not passed.
    assert duties["kr_89"].status == "open"
    assert duties["kr_89"].gaps[0].closed_by == "the robot's manufacturer or importer"
    # The periodic inspection comes after installation.
    assert duties["kr_93"].status == "later"
    assert duties["kr_93"].gaps == ()


def test_an_unsigned_assessment_leaves_art_36_open_with_its_cost():
    items = [i for i in FENCED if i.rule_id != "INTL-10218-2-risk-assessment"]
    items.append(_item("INTL-10218-2-risk-assessment", "needs_evidence"))
    art36 = _duties(items)["kr_36"]
    assert art36.status == "open"
    assert art36.gaps[0].message == "The risk assessment of the cell is to be signed."
    assert art36.cost == RISK


def test_the_kiria_route_is_a_duty_only_where_the_cell_takes_it():
    assert "kr_kiria" not in _duties(FENCED)
    cobot = [*FENCED, _item("KR-cobot-route", "needs_evidence")]
    kiria = _duties(cobot)["kr_kiria"]
    assert kiria.status == "open"
    assert "KIRIA" in kiria.citation


def test_a_duty_with_no_finding_is_left_out_never_passed():
    # A cell with no opening has no finding of the sensing-device rules: the
    # line does not apply, and is not shown as met.
    items = [i for i in FENCED if i.rule_id != "KR-223-openings"]
    assert "kr_223_sensing" not in _duties(items)


def test_the_standards_line_takes_the_findings_no_legal_duty_used():
    items = [
        *FENCED,
        _item("INTL-13849-function", "needs_evidence", "E-stop"),
        _item("INTL-15066-pfl", "fail", "Cell", "1,200 mm/s exceeds 471.8 mm/s."),
    ]
    standards = _duties(items)["standards"]
    assert standards.status == "missing"
    assert [g.status for g in standards.gaps] == ["fail", "needs_evidence"]
    assert standards.gaps[1].message == (
        "Its safety function is still to be verified and validated."
    )
    # Already judged on the fence line: not counted twice.
    assert all(g.subject != "F1" for g in standards.gaps)
    assert "F1" not in standards.met


@pytest.mark.parametrize(
    ("jurisdiction", "rules", "keys"),
    [
        (
            "EU",
            ["EU-MR-risk-assessment", "EU-MR-conformity-route", "EU-MR-technical-file"],
            ["eu_risk", "eu_conformity", "eu_file"],
        ),
        (
            "US",
            ["US-R15.06-integration", "US-OSHA-1910.212", "US-OSHA-1910.147"],
            ["us_integration", "us_guarding", "us_lockout"],
        ),
        ("INTL", ["INTL-10218-2-risk-assessment"], ["intl_risk"]),
    ],
)
def test_each_jurisdiction_answers_with_its_own_duties(jurisdiction, rules, keys):
    items = [
        Item(rule_id=rule, status="pass", subject="", citation=f"{rule} cited")
        for rule in rules
    ]
    answer = legal_answer(jurisdiction, items, {})
    assert [d.key for d in answer.duties] == keys
    # Cited by the rule that judged it.
    assert [d.citation for d in answer.duties] == [f"{rule} cited" for rule in rules]
    assert all(not d.key.startswith("kr_") for d in answer.duties)


def test_an_eu_cell_without_a_ce_route_finding_names_no_ce_duty():
    answer = legal_answer("EU", [_item("EU-MR-risk-assessment")], {})
    assert [d.key for d in answer.duties] == ["eu_risk"]


def test_the_laws_and_standards_cited_read_as_their_reader_reads_them():
    from compliance.plan.legal import bibliography

    korean = bibliography("KR", korean=True)
    assert "산업안전보건기준에 관한 규칙" in korean
    # KS adopts ISO 10218-2 (korea_art223.json): its KS number first.
    assert "KS B ISO 10218-2 (ISO 10218-2)" in korean
    assert "KS B ISO/TS 15066 (ISO/TS 15066)" in korean
    # No KS adoption in the reference set: the number alone, none made up.
    assert "ISO 13855" in korean and not any("KS B ISO 13855" in c for c in korean)
    english = bibliography("KR", korean=False)
    assert "ISO 10218-2 (KS B ISO 10218-2)" in english
    assert (
        "Rules on Occupational Safety and Health Standards (산업안전보건기준에 관한 규칙)"
        in english
    )
    us = bibliography("US", korean=False)
    assert "ISO 10218-2" in us and not any("KS" in c or "산업" in c for c in us)


def test_the_cost_of_closing_a_duty_is_in_whole_units_rounded_outwards(db):
    from django.utils import translation

    from compliance.plan.legal import Answer
    from compliance.plan.legal_selectors import _cost_text

    cost = Cost(
        name="Risk assessment of the whole cell",
        cost_low=Decimal("4186.66"),
        cost_high=Decimal("7200.2"),
        currency="EUR",
        weeks_low=Decimal(2),
        weeks_high=Decimal(4),
    )
    answer = Answer(
        key="eu_risk", requirement="", citation="", status="open", cost=cost
    )
    with translation.override("en"):
        assert _cost_text(answer) == (
            "Risk assessment of the whole cell: EUR 4,186–7,201 · 2–4 weeks"
        )
