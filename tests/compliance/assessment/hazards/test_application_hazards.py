"""The hazards each application brings (issue 15), proposed beside the
robot's own: ISO 12100 Annex B entries, in the catalogue, stable keys."""

from __future__ import annotations

import pytest

from cells.applications import APPLICATION_CODES
from compliance.assessment.hazards import catalogue
from compliance.assessment.hazards.applications import APPLICATION_HAZARDS
from compliance.assessment.hazards.suggestions import CellFacts, suggest_hazards


def proposed(application: str, **changes) -> list:
    facts = CellFacts(
        robot_kind="industrial",
        reach_mm=1400,
        payload_kg=8,
        max_tcp_speed_mm_s=2000,
        application=application,
        **changes,
    )
    return list(suggest_hazards(facts))


def entries(application: str) -> set[tuple[str, str, str]]:
    return {(s.group_id, s.origin_id, s.consequence_id) for s in proposed(application)}


ARC_RADIATION = ("radiation", "optical_radiation", "eye_and_skin_damage")
FUME = ("material_substance", "fume", "breathing_difficulties_suffocation")
BURN = ("thermal", "hot_or_cold_objects", "burn")
FIRE = ("material_substance", "combustible", "fire")
SOLVENT = ("material_substance", "gas", "poisoning")
EXPLOSIVE_ATMOSPHERE = ("material_substance", "explosive", "explosion")
EJECTED_FRAGMENTS = ("mechanical", "rotating_elements", "impact")
DUST = ("material_substance", "dust", "breathing_difficulties_suffocation")
NOISE = ("noise", "manufacturing_process", "permanent_hearing_loss")
PROCESS_HAZARDS = {
    ARC_RADIATION,
    FUME,
    BURN,
    FIRE,
    SOLVENT,
    EXPLOSIVE_ATMOSPHERE,
    EJECTED_FRAGMENTS,
    DUST,
    NOISE,
}


def test_arc_welding_gets_arc_radiation_fume_burns_and_fire():
    assert {ARC_RADIATION, FUME, BURN, FIRE} <= entries("arc_welding")
    texts = " ".join(s.task_text() for s in proposed("arc_welding"))
    for word in ("arc", "fume", "Burns", "Fire"):
        assert word in texts


def test_painting_gets_solvents_and_an_explosive_atmosphere():
    found = {s.key: s for s in proposed("painting")}
    assert {SOLVENT, EXPLOSIVE_ATMOSPHERE} <= entries("painting")
    assert "solvent" in found["painting-solvent-vapour"].task_text()
    assert "explosive atmosphere" in found["painting-explosive-atmosphere"].task_text()


def test_grinding_gets_ejected_fragments_dust_and_noise():
    assert {EJECTED_FRAGMENTS, DUST, NOISE} <= entries("grinding")


def test_a_palletiser_gets_none_of_the_process_hazards():
    assert not entries("palletising") & PROCESS_HAZARDS
    assert "palletising-load-falling" in [s.key for s in proposed("palletising")]


def test_pick_and_place_keeps_the_robot_s_own_hazards_only():
    # The default before applications: the same suggestions as then.
    assert [s.key for s in proposed("pick_and_place")] == [
        "robot-reach-crushing",
        "robot-reach-impact",
        "gripper-trapping",
        "workpiece-falling",
        "unexpected-startup-teaching",
        "unexpected-startup-maintenance",
    ]


def test_the_application_s_hazards_follow_the_robot_s_own_and_keep_their_keys():
    keys = [s.key for s in proposed("arc_welding")]
    assert keys[:6] == [s.key for s in proposed("pick_and_place")]
    assert keys[6:] == [
        "arc_welding-arc-radiation",
        "arc_welding-fume",
        "arc_welding-burns",
        "arc_welding-fire",
        "arc_welding-electric-shock",
    ]
    assert keys == [s.key for s in proposed("arc_welding")]


def test_a_dismissed_application_hazard_is_not_proposed_again():
    facts = CellFacts(
        robot_kind="industrial",
        reach_mm=1400,
        payload_kg=8,
        max_tcp_speed_mm_s=2000,
        application="arc_welding",
    )
    keys = [s.key for s in suggest_hazards(facts, dismissed={"arc_welding-fume"})]
    assert "arc_welding-fume" not in keys
    assert "arc_welding-arc-radiation" in keys


@pytest.mark.parametrize("application", APPLICATION_CODES)
def test_every_application_s_hazard_is_in_the_catalogue_and_fits_a_hazard(
    application,
):
    found = proposed(application)
    keys = [s.key for s in found]
    assert len(keys) == len(set(keys))
    for s in found:
        assert catalogue.consequence(s.group_id, s.consequence_id)
        assert catalogue.origin(s.group_id, s.origin_id)
        assert catalogue.phase(s.phase)
        # The register keeps 200 characters of a task.
        assert len(s.task_text()) <= 200
        assert s.rationale


def test_every_application_has_its_list():
    assert set(APPLICATION_HAZARDS) == set(APPLICATION_CODES)


def test_an_unknown_application_is_refused():
    with pytest.raises(ValueError, match="application"):
        proposed("welding")


def test_no_hazard_is_said_to_come_from_iso_10218_2():
    for hazards in APPLICATION_HAZARDS.values():
        for h in hazards:
            assert "10218" not in h.task + h.rationale


def test_reference_still_has_no_iso_10218_2_task_type_list(reference):
    # If it gains one, the application hazards should cite it too.
    data = reference("iso10218_2025_additions.json")
    assert data["task_types_10218_2"]["list"] is None
