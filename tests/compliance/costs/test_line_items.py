"""Deriving a cell's line items from small hand-built cells (no database)."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest

from compliance.costs.derivation import derive_line_items
from compliance.costs.line_items import LineItem
from compliance.rules.engine import evaluate
from compliance.rules.findings import Status
from tests.compliance.rules.cells import cell, device, opening, segment


def by_key(items: tuple[LineItem, ...]) -> dict[str, LineItem]:
    return {item.key: item for item in items}


def rectangle(width_mm: float = 4000, depth_mm: float = 3500, **kw):
    """Four fence segments round a width × depth rectangle."""
    sides = (("n", width_mm), ("e", depth_mm), ("s", width_mm), ("w", depth_mm))
    return tuple(segment(key, length_mm=length, **kw) for key, length in sides)


def test_fence_metres_are_the_perimeter():
    items = by_key(derive_line_items(cell(segments=rectangle())))
    fence = items["fence:1800"]
    assert fence.quantity == Decimal("15.0")
    assert fence.unit == "m"
    assert fence.catalogue_key == "fence"
    assert fence.basis == "planning_range"
    assert (fence.total_low, fence.total_high) == (Decimal(900), Decimal(1800))
    assert fence.currency == "USD"


def test_fence_metres_round_up_to_a_tenth():
    items = by_key(derive_line_items(cell(segments=(segment(length_mm=1234.5),))))
    assert items["fence:1800"].quantity == Decimal("1.3")


def test_fence_is_grouped_by_height_and_skips_walls():
    segments = (
        segment("a", height_mm=1800, length_mm=2000),
        segment("b", height_mm=1400, length_mm=1000),
        segment("c", height_mm=1800, length_mm=500),
        segment("d", kind="wall", height_mm=3000, length_mm=5000),
    )
    items = by_key(derive_line_items(cell(segments=segments)))
    fences = {k: v.quantity for k, v in items.items() if k.startswith("fence")}
    assert fences == {"fence:1800": Decimal("2.5"), "fence:1400": Decimal("1.0")}


def test_no_fence_line_without_fence_segments():
    items = derive_line_items(cell())
    assert not [i for i in items if i.catalogue_key == "fence"]


def test_light_curtain_for_an_unguarded_conveyor_opening():
    facts = cell(segments=(segment(),), openings=(opening(),))
    items = by_key(derive_line_items(facts, evaluate(facts)))
    curtain = items["light_curtain:o1"]
    assert curtain.quantity == 1
    assert curtain.unit == "piece"
    assert curtain.price_low is None
    assert curtain.price_note == "price to be quoted"
    assert "Art. 223" in curtain.reason.render()
    assert "제223조" in curtain.citation
    assert [(r.rule_id, r.status) for r in curtain.findings] == [
        ("KR-223-openings", "fail")
    ]


def test_no_light_curtain_when_the_opening_has_one():
    facts = cell(
        segments=(segment(),),
        openings=(opening(),),
        devices=(device("lc", "light_curtain", opening_key="o1"),),
    )
    keys = {i.key for i in derive_line_items(facts, evaluate(facts))}
    assert "light_curtain:o1" not in keys


def test_light_curtain_outside_korea_without_findings():
    facts = cell(country="DE", segments=(segment(),), openings=(opening(),))
    curtain = by_key(derive_line_items(facts))["light_curtain:o1"]
    assert "Art. 223" not in curtain.reason.render()
    assert curtain.findings == ()


def test_interlocked_door_for_an_unguarded_access_opening():
    facts = cell(
        segments=(segment(),),
        openings=(
            opening("door", purpose="maintenance_door", label="Service door"),
            opening("gate", purpose="operator_access", label="Gate"),
        ),
        devices=(device("il", "interlocked_door", opening_key="gate"),),
    )
    items = by_key(derive_line_items(facts))
    assert "interlocked_door:door" in items
    assert "interlocked_door:gate" not in items
    assert "light_curtain:door" not in items
    assert items["interlocked_door:door"].description.render() == (
        "Interlocked guard door at Service door"
    )


def test_any_iterable_of_finding_like_objects_is_accepted():
    facts = cell(segments=(segment(),), openings=(opening(),))
    fake = SimpleNamespace(
        rule_id="KR-223-openings", status=Status.FAIL, subject_key="o1"
    )
    curtain = by_key(derive_line_items(facts, [fake]))["light_curtain:o1"]
    assert curtain.findings[0].status == "fail"


def test_kcs_certification_only_in_korea_and_only_when_not_certified():
    devices = (
        device("lc1", "light_curtain"),  # not recorded
        device("lc2", "light_curtain", kcs_certified=False),
        device("ls", "laser_scanner", kcs_certified=True),
        device("mat", "safety_mat"),  # not a listed kind
    )
    korean = {i.key for i in derive_line_items(cell(devices=devices))}
    assert {k for k in korean if k.startswith("kcs_")} == {
        "kcs_certification:lc1",
        "kcs_certification:lc2",
    }
    assert {"kr_self_declaration", "kr_safety_inspection"} <= korean
    german = {i.key for i in derive_line_items(cell(country="DE", devices=devices))}
    assert not [k for k in german if k.startswith(("kcs_", "kr_"))]


def test_self_declaration_carries_its_lead_time():
    item = by_key(derive_line_items(cell()))["kr_self_declaration"]
    assert (item.lead_time_weeks_low, item.lead_time_weeks_high) == (
        Decimal(3),
        Decimal(4),
    )
    assert item.price_low is None


@pytest.mark.parametrize(
    ("mode", "expected"),
    [(("pfl",), True), (("ssm",), False), ((), False), (("ssm", "pfl"), True)],
)
def test_pfl_measurement_only_for_pfl(mode, expected):
    facts = cell(robot_kind="collaborative", collaborative_modes=mode)
    keys = {i.key for i in derive_line_items(facts)}
    assert ("pfl_measurement" in keys) is expected
    assert "stopping_time_measurement" in keys


def test_laser_scanner_for_ssm_without_one():
    ssm = cell(robot_kind="collaborative", collaborative_modes=("ssm",))
    assert "laser_scanner" in by_key(derive_line_items(ssm))
    with_scanner = cell(
        robot_kind="collaborative",
        collaborative_modes=("ssm",),
        devices=(device("ls", "laser_scanner", kcs_certified=True),),
    )
    assert "laser_scanner" not in by_key(derive_line_items(with_scanner))


def test_safety_controller_and_emergency_stop_when_missing():
    items = by_key(derive_line_items(cell()))
    assert items["safety_controller"].quantity == 1
    assert items["emergency_stop"].quantity == 1
    equipped = cell(
        devices=(
            device("sc", "safety_controller"),
            device("es", "emergency_stop"),
        )
    )
    keys = by_key(derive_line_items(equipped))
    assert "safety_controller" not in keys
    assert "emergency_stop" not in keys


def test_emergency_stops_per_operator_station():
    facts = cell(devices=(device("es", "emergency_stop"),))
    items = by_key(derive_line_items(facts, operator_station_count=3))
    assert items["emergency_stop"].quantity == 2


def test_services_every_cell_gets():
    keys = {i.key for i in derive_line_items(cell(country="US"))}
    assert {"signage", "risk_assessment", "stopping_time_measurement"} <= keys


def test_risk_assessment_is_priced_in_euro_from_one_source():
    item = by_key(derive_line_items(cell()))["risk_assessment"]
    assert (item.total_low, item.total_high, item.currency) == (
        Decimal(3000),
        Decimal(5000),
        "EUR",
    )
    assert item.certainty == "one_source"
    assert item.citation.startswith("ISO 10218-2:2025")


def test_every_line_has_a_reason_and_a_source():
    facts = cell(
        robot_kind="collaborative",
        collaborative_modes=("pfl",),
        segments=rectangle(),
        openings=(opening(segment_key="n"),),
        devices=(device("lc", "light_curtain"),),
    )
    for item in derive_line_items(facts, evaluate(facts)):
        assert item.reason.render()
        assert item.source
        assert isinstance(item.quantity, Decimal)


# --- fence net of its openings, at the height the findings require -----------


def test_fence_metres_are_net_of_the_openings():
    # 5,200 mm of fence with a 1,000 mm opening: 4.2 m of fence; the opening is
    # filled by the light curtain priced on its own line.
    facts = cell(
        segments=(segment(length_mm=5200),),
        openings=(opening(width_mm=1000),),
    )
    items = by_key(derive_line_items(facts, evaluate(facts)))
    fence = items["fence:1800"]
    assert fence.quantity == Decimal("4.2")
    # At the brief's USD 60–120 per metre: 252–504, not 312–624 for 5.2 m.
    assert (fence.total_low, fence.total_high) == (Decimal(252), Decimal(504))
    assert "5.2 m less 1 m of openings" in fence.reason.render()
    assert "light_curtain:o1" in items


def test_openings_are_subtracted_per_segment_of_each_height():
    segments = (
        segment("a", length_mm=3000),
        segment("b", length_mm=2500),
        segment("c", height_mm=1400, length_mm=900),
    )
    openings = (
        opening("oa", segment_key="a", width_mm=800),
        opening("ob", segment_key="b", width_mm=1200),
        opening("oc", segment_key="c", width_mm=900),  # all of segment c
    )
    items = by_key(
        derive_line_items(cell(country="DE", segments=segments, openings=openings))
    )
    # (3000 − 800) + (2500 − 1200) = 3,500 mm; segment c is all opening.
    assert items["fence:1800"].quantity == Decimal("3.5")
    assert "fence:1400" not in items


def test_a_failing_korean_fence_is_priced_at_the_required_height():
    # A 1,500 mm fence in Korea fails Art. 223 (at least 1,800 mm): priced as
    # 1,800 mm fence, on a line that says why and cites the article.
    facts = cell(segments=(segment("low", label="Low", height_mm=1500),))
    items = by_key(derive_line_items(facts, evaluate(facts)))
    assert "fence:1500" not in items
    fence = items["fence:1800:from:1500"]
    assert fence.quantity == Decimal("3.0")
    assert fence.description.render() == (
        "Safety fence, 1,800 mm high, the height Art. 223 requires "
        "(Low, recorded 1,500 mm)"
    )
    assert "below the 1,800 mm fence that Art. 223 requires" in fence.reason.render()
    assert "제223조" in fence.citation
    assert [(r.rule_id, r.status, r.subject_key) for r in fence.findings] == [
        ("KR-223-fence-height", "fail", "low")
    ]


def test_a_low_fence_is_priced_as_recorded_where_no_finding_asks_more():
    from compliance.rules.facts import AssessmentFacts

    low = (segment("low", height_mm=1500),)
    justified = cell(
        segments=low,
        assessment=AssessmentFacts(exists=True, signed=True, low_fence_justified=True),
    )
    german = cell(country="DE", segments=low)
    for facts in (justified, german):
        keys = {i.key for i in derive_line_items(facts, evaluate(facts))}
        assert "fence:1500" in keys
        assert not [k for k in keys if k.startswith("fence:1800")]


# --- every recorded device is a line --------------------------------------------

RECORDED_KINDS = (
    "light_curtain",
    "multibeam",
    "safety_mat",
    "laser_scanner",
    "interlocked_door",
    "emergency_stop",
    "enabling_device",
    "safety_controller",
)


def test_every_recorded_device_is_a_line_of_its_own():
    devices = tuple(device(kind, kind, label=f"My {kind}") for kind in RECORDED_KINDS)
    items = by_key(derive_line_items(cell(country="DE", devices=devices)))
    recorded = {k: v for k, v in items.items() if k.startswith("recorded:")}
    assert set(recorded) == {f"recorded:{kind}" for kind in RECORDED_KINDS}
    for key, item in recorded.items():
        assert item.quantity == 1
        assert item.unit == "piece"
        assert "recorded in the layout" in item.description.render()
        if key != "recorded:safety_controller":
            assert item.price_note == "price to be quoted"  # no public figure
    # The safety controller has the starting catalogue's article estimate.
    controller = recorded["recorded:safety_controller"]
    assert (controller.price_low, controller.price_high, controller.currency) == (
        Decimal(500),
        Decimal(5000),
        "USD",
    )
    assert controller.basis == "public_price"
    curtain = recorded["recorded:light_curtain"]
    assert curtain.catalogue_key == "light_curtain"
    assert curtain.description.render() == (
        "Safety light curtain (IEC 61496 type 4 or 2): My light_curtain, "
        "recorded in the layout"
    )
    assert recorded["recorded:interlocked_door"].category == "guarding"
    # The catalogue has no enabling device: to be quoted, saying so.
    enabling = recorded["recorded:enabling_device"]
    assert (enabling.catalogue_key, enabling.basis) == (None, "unknown")
    assert "no entry for this kind of device" in enabling.source
    # Recorded ones are not asked for again.
    assert "safety_controller" not in items
    assert "emergency_stop" not in items


def test_a_recorded_device_is_priced_from_the_catalogue_entry_of_its_kind():
    from compliance.costs.organisation import EntryEdit, organisation_catalogue

    catalogue = organisation_catalogue(
        {
            "light_curtain": EntryEdit(
                price_low=Decimal(2_100_000),
                price_high=Decimal(2_600_000),
                currency="KRW",
                source="Supplier quote Q-2611-07",
            )
        }
    )
    facts = cell(devices=(device("lc", "light_curtain", kcs_certified=True),))
    curtain = by_key(derive_line_items(facts, catalogue=catalogue))["recorded:lc"]
    assert (curtain.total_low, curtain.total_high, curtain.currency) == (
        Decimal(2_100_000),
        Decimal(2_600_000),
        "KRW",
    )
    assert curtain.basis == "organisation"


def test_a_light_curtain_recorded_at_a_failing_opening_is_not_counted_twice():
    # Whatever makes the opening fail, the curtain the layout records there is
    # priced once, on its own line, which carries the failing finding.
    facts = cell(
        segments=(segment(),),
        openings=(opening(),),
        devices=(device("lc", "light_curtain", opening_key="o1"),),
    )
    fail = SimpleNamespace(
        rule_id="KR-223-openings", status=Status.FAIL, subject_key="o1"
    )
    items = derive_line_items(facts, [fail])
    curtains = [i for i in items if i.catalogue_key == "light_curtain"]
    assert [i.key for i in curtains] == ["recorded:lc"]
    assert [(r.rule_id, r.status) for r in curtains[0].findings] == [
        ("KR-223-openings", "fail")
    ]


def test_a_recorded_device_is_bought_unless_it_is_existing_equipment():
    new = device("lc", "light_curtain", label="LC1")
    kept = device("door", "interlocked_door", label="Door switch", existing=True)
    items = {i.key: i for i in derive_line_items(cell(devices=(new, kept)))}
    assert items["recorded:lc"].quantity == Decimal(1)
    assert items["recorded:door"].quantity == Decimal(0)
    assert "existing equipment" in items["recorded:door"].reason.render()


def _functions(*io: tuple[int, int]):
    from compliance.rules.facts import FunctionFacts

    return tuple(
        FunctionFacts(
            key=f"function:{i}",
            label=f"F{i}",
            safeguard="guarded_opening",
            inputs=inputs,
            outputs=outputs,
        )
        for i, (inputs, outputs) in enumerate(io, start=1)
    )


def test_the_safety_controller_line_counts_the_functions_inputs_and_outputs():
    facts = cell(functions=_functions((1, 1), (2, 1), (1, 0)))
    note = by_key(derive_line_items(facts))["safety_controller"].notes[-1].render()
    assert "inputs 4, outputs 2 (functions: 3)" in note


def test_a_recorded_controller_gets_the_count_and_no_second_controller():
    facts = cell(
        devices=(device("device:9", kind="safety_controller", label="PNOZ"),),
        functions=_functions((1, 1)),
    )
    items = by_key(derive_line_items(facts))
    assert "safety_controller" not in items
    note = items["recorded:device:9"].notes[-1].render()
    assert "inputs 1, outputs 1 (functions: 1)" in note


def test_no_count_without_safety_functions():
    items = by_key(derive_line_items(cell()))
    assert not any(
        "safety inputs" in n.render() for n in items["safety_controller"].notes
    )


# --- the KIRIA workplace certification (issue 29) -----------------------------


def _kiria_certificate(**kw):
    from datetime import date

    from compliance.rules.facts import CertificateFacts

    fields = {
        "kind": "kiria_cobot_workplace",
        "number": "KIRIA-2026-031",
        "issuing_body": "KIRIA",
        "issued_on": date(2026, 3, 2),
        "valid_until": date(2029, 3, 1),  # valid 3 years
    }
    return CertificateFacts(**(fields | kw))


def _fenceless_cobot(**kw):
    from datetime import date

    from tests.compliance.rules.cells import machine_tending_cobot

    return machine_tending_cobot(**({"checked_on": date(2026, 12, 5)} | kw))


def test_a_fenceless_korean_cobot_cell_gets_the_kiria_line_to_be_quoted():
    from compliance.rules import korea

    facts = _fenceless_cobot()
    item = by_key(derive_line_items(facts, evaluate(facts)))["kiria_certification"]
    assert item.catalogue_key == "kiria_certification"
    assert (item.quantity, item.unit, item.category) == (Decimal(1), "job", "service")
    # No public fee: counted as to be quoted, never left out.
    assert item.price_low is None and item.basis == "unknown"
    assert item.price_note == "price to be quoted"
    # It names the rule that asks for it, and that rule's finding.
    assert item.citation == korea.COBOT_ROUTE.citation
    assert [(r.rule_id, r.status) for r in item.findings] == [
        ("KR-cobot-route", "needs_evidence")
    ]
    assert "KIRIA" in item.reason.render()


def test_a_low_fence_still_needs_the_kiria_certification():
    # Fenced below the Art. 223 height is not fenced, as the rule judges it.
    facts = _fenceless_cobot(segments=rectangle(height_mm=1400))
    assert "kiria_certification" in by_key(derive_line_items(facts))


def test_no_kiria_line_for_a_cobot_fenced_to_the_article_223_height():
    facts = _fenceless_cobot(segments=rectangle(height_mm=1800))
    assert "kiria_certification" not in by_key(derive_line_items(facts))


def test_no_kiria_line_outside_korea():
    facts = _fenceless_cobot(country="DE")
    assert "kiria_certification" not in by_key(derive_line_items(facts))


def test_no_kiria_line_for_an_industrial_robot():
    # An unfenced industrial robot fails the fence rule: no route to certify.
    facts = cell(robot_kind="industrial")
    assert "kiria_certification" not in by_key(derive_line_items(facts))


def test_no_kiria_line_while_a_kiria_certificate_is_in_force():
    facts = _fenceless_cobot(certificates=(_kiria_certificate(),))
    assert "kiria_certification" not in by_key(derive_line_items(facts))


@pytest.mark.parametrize(
    "fields",
    [
        # Expired on the day of the check: renew it.
        {"certificates": ("expired",)},
        # The day of the check unknown: whether it is in force cannot be told.
        {"certificates": ("valid",), "checked_on": None},
    ],
)
def test_the_kiria_line_stays_without_a_certificate_in_force(fields):
    from datetime import date

    certificates = {
        "expired": _kiria_certificate(
            issued_on=date(2022, 1, 3), valid_until=date(2025, 1, 2)
        ),
        "valid": _kiria_certificate(),
    }
    kw = dict(fields)
    kw["certificates"] = tuple(certificates[c] for c in fields["certificates"])
    facts = _fenceless_cobot(**kw)
    assert "kiria_certification" in by_key(derive_line_items(facts))
