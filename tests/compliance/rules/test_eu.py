"""The EU / EEA packs: the Machinery Directive up to 19 January 2027, the
Machinery Regulation from 20 January 2027, chosen by the planned start of
service; each rule with a cell that passes and one that fails."""

from __future__ import annotations

from datetime import date

import pytest

from compliance.rules import eu
from compliance.rules.engine import (
    EU_DIRECTIVE,
    EU_REGULATION,
    evaluate,
    rule_packs_for,
)
from compliance.rules.facts import (
    AssessmentFacts,
    ConformityFacts,
    FunctionFacts,
    SafetyConfigFacts,
)
from compliance.rules.findings import Status
from tests.compliance.rules.cells import device, only, palletising_cell

SIGNED = AssessmentFacts(exists=True, signed=True, signed_revision=2)
UNSIGNED = AssessmentFacts(exists=True, signed=False, draft_revision=1)
UR = SafetyConfigFacts(kind="ur_checksum", value="1A2B3C4D")
TODAY = date(2026, 12, 2)


def german(**kw):
    """The demo palletising cell in Germany, planned for service in 2027."""
    fields = {
        "country": "DE",
        "planned_start": date(2027, 3, 1),
        "checked_on": TODAY,
    }
    return palletising_cell().model_copy(update=fields | kw)


# --- the date switch ------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "pack"),
    [
        (date(2026, 6, 1), EU_DIRECTIVE),
        (date(2027, 1, 19), EU_DIRECTIVE),  # the Directive's last day
        (date(2027, 1, 20), EU_REGULATION),  # the Regulation's first day
        (date(2028, 1, 1), EU_REGULATION),
    ],
)
def test_the_planned_start_chooses_the_directive_or_the_regulation(start, pack):
    facts = german(planned_start=start)
    assert rule_packs_for("DE", facts)[0] is pack
    ids = [rule.id for rule, _ in evaluate(facts)]
    assert ids[0].startswith("EU-MD-" if pack is EU_DIRECTIVE else "EU-MR-")


def test_without_a_planned_start_the_day_of_the_check_decides_and_says_so():
    facts = german(planned_start=None, checked_on=TODAY)
    assert eu.instrument(facts) == "directive"
    finding = only(eu.RISK_ASSESSMENT_DIRECTIVE, facts)
    assert any("No planned start" in n.render() for n in finding.notes)
    assert eu.instrument(german(planned_start=None, checked_on=date(2027, 2, 1))) == (
        "regulation"
    )


def test_every_eea_member_gets_an_eu_pack_and_others_do_not():
    for country in ("DE", "FR", "IT", "ES", "PL", "CZ", "SE", "NL", "NO"):
        assert rule_packs_for(country)[0].jurisdiction == "EU"
    assert rule_packs_for("GB")[0].key == "baseline"  # not in the EEA


def test_a_german_cell_planned_for_2027_cites_the_regulation():
    results = evaluate(german())
    citations = [f.citation for _, found in results for f in found]
    assert any(c.startswith("Regulation (EU) 2023/1230") for c in citations)
    assert not any("2006/42/EC" in c for c in citations)


# --- the integrator as manufacturer: risk assessment ----------------------------


@pytest.mark.parametrize(
    "rule", [eu.RISK_ASSESSMENT_REGULATION, eu.RISK_ASSESSMENT_DIRECTIVE]
)
def test_risk_assessment_passes_signed_and_fails_when_due_without(rule):
    assert only(rule, german(assessment=SIGNED)).status is Status.PASS
    due = german(assessment=UNSIGNED, planned_start=date(2026, 11, 1))
    fail = only(rule, due)
    assert fail.status is Status.FAIL
    assert fail.values["start"] == "2026-11-01"
    # Not yet due: it needs evidence, it does not fail.
    assert only(rule, german(assessment=UNSIGNED)).status is Status.NEEDS_EVIDENCE


# --- the conformity assessment procedure ------------------------------------------


def _route(rule, annex, procedure, harmonised=None):
    conformity = ConformityFacts(
        annex_category=annex, procedure=procedure, harmonised_standards=harmonised
    )
    return only(rule, german(conformity=conformity)).status


def test_regulation_route_by_annex_i_listing():
    rule = eu.ROUTE_REGULATION
    assert _route(rule, "not_listed", "internal_control") is Status.PASS
    assert _route(rule, "part_a", "type_examination") is Status.PASS
    assert _route(rule, "part_a", "internal_control") is Status.FAIL
    assert _route(rule, "part_b", "internal_control", True) is Status.PASS
    assert _route(rule, "part_b", "internal_control", False) is Status.FAIL
    assert _route(rule, "part_b", "internal_control") is Status.NEEDS_EVIDENCE
    assert _route(rule, "not_listed", "unit_verification") is Status.WARNING
    assert only(rule, german()).status is Status.NEEDS_EVIDENCE


def test_directive_route_by_annex_iv_listing():
    rule = eu.ROUTE_DIRECTIVE
    assert _route(rule, "not_listed", "internal_control") is Status.PASS
    assert _route(rule, "part_a", "internal_control", True) is Status.PASS
    assert _route(rule, "part_a", "internal_control", False) is Status.FAIL
    assert _route(rule, "part_b", "full_quality_assurance") is Status.PASS
    # The Directive has no module G.
    assert _route(rule, "not_listed", "unit_verification") is Status.FAIL


# --- technical documentation, declaration, CE marking ---------------------------


def _function(**kw):
    fields = {
        "key": "function:1",
        "label": "Infeed curtain stop",
        "safeguard": "guarded_opening",
        "plr": "d",
        "pl": "d",
    }
    return FunctionFacts(**(fields | kw))


@pytest.mark.parametrize(
    "rule", [eu.TECHNICAL_FILE_REGULATION, eu.TECHNICAL_FILE_DIRECTIVE]
)
def test_technical_file_passes_with_functions_verified_and_fails_short_of_plr(rule):
    ok = german(assessment=SIGNED, functions=(_function(),))
    assert only(rule, ok).status is Status.PASS
    short = german(assessment=SIGNED, functions=(_function(pl="c"),))
    finding = only(rule, short)
    assert finding.status is Status.FAIL
    assert "Infeed curtain stop" in finding.values["functions"]
    failed_test = german(assessment=SIGNED, functions=(_function(tests_failed=1),))
    assert only(rule, failed_test).status is Status.FAIL
    untested = german(assessment=SIGNED, functions=(_function(tests_missing=2),))
    assert only(rule, untested).status is Status.NEEDS_EVIDENCE
    assert only(rule, german(assessment=UNSIGNED)).status is Status.NEEDS_EVIDENCE


# --- harmonised standards ---------------------------------------------------------


@pytest.mark.parametrize("rule", [eu.HARMONISED_REGULATION, eu.HARMONISED_DIRECTIVE])
def test_presumption_passes_when_the_standards_checks_pass_and_fails_when_not(rule):
    claimed = ConformityFacts(harmonised_standards=True)
    assert only(rule, german(conformity=claimed)).status is Status.PASS
    # The same cell with its light curtain drawn inside the hazard zone: it
    # fails ISO 13855, so the presumption cannot rest on it.
    pallet = german(conformity=claimed)
    curtain = pallet.devices[0].model_copy(
        update={"inside_hazard_zone": True, "distance_to_hazard_mm": 0}
    )
    broken = pallet.model_copy(update={"devices": (curtain, *pallet.devices[1:])})
    finding = only(rule, broken)
    assert finding.status is Status.FAIL
    assert "INTL-13855-distance" in finding.values["rules"]
    not_claimed = ConformityFacts(harmonised_standards=False)
    assert only(rule, german(conformity=not_claimed)).status is Status.WARNING
    assert only(rule, german()).status is Status.NEEDS_EVIDENCE


# --- substantial modification (Regulation) ---------------------------------------


def test_a_new_cell_is_no_substantial_modification():
    assert only(eu.MODIFICATION, german()).status is Status.PASS


def test_devices_added_to_machinery_in_service_without_a_signed_assessment_fail():
    pallet = german(assessment=UNSIGNED)
    existing = device("old", "light_curtain", label="Existing curtain", existing=True)
    modified = pallet.model_copy(update={"devices": (*pallet.devices, existing)})
    finding = only(eu.MODIFICATION, modified)
    assert finding.status is Status.FAIL
    assert "Infeed light curtain" in finding.values["added"]
    signed = modified.model_copy(update={"assessment": SIGNED})
    assert only(eu.MODIFICATION, signed).status is Status.WARNING


def test_nothing_added_to_what_is_in_place_passes():
    kept = german().model_copy(
        update={
            "devices": tuple(
                d.model_copy(update={"existing": True}) for d in german().devices
            )
        }
    )
    assert only(eu.MODIFICATION, kept).status is Status.PASS


# --- protection against corruption (Regulation) ---------------------------------


def test_corruption_passes_when_the_assessed_configuration_is_deployed():
    frozen = SIGNED.model_copy(update={"signed_safety_configuration": UR})
    finding = only(eu.CORRUPTION, german(assessment=frozen, safety_configuration=UR))
    assert finding.status is Status.PASS
    assert any("1.2.1" in d.render() for d in finding.details)


def test_corruption_fails_when_the_configuration_differs_from_the_assessed():
    frozen = SIGNED.model_copy(update={"signed_safety_configuration": UR})
    other = SafetyConfigFacts(kind="ur_checksum", value="9F9F0000")
    finding = only(eu.CORRUPTION, german(assessment=frozen, safety_configuration=other))
    assert finding.status is Status.FAIL
    assert finding.values["value"] == "9F9F0000"
    assert finding.values["signed_value"] == "1A2B3C4D"


def test_corruption_needs_evidence_without_a_recorded_configuration():
    finding = only(eu.CORRUPTION, german(assessment=SIGNED))
    assert finding.status is Status.NEEDS_EVIDENCE


def test_every_eu_rule_says_its_text_is_to_be_confirmed_on_eur_lex():
    for rule in (*eu.REGULATION_RULES, *eu.DIRECTIVE_RULES):
        assert "EUR-Lex" in rule.caveat
        assert rule.sources
        assert rule.text
        assert rule.certainty in ("secondary_sources", "to_be_confirmed")
