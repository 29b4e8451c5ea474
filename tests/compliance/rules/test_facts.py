"""The cell facts reject inconsistent cells before any rule runs."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from compliance.rules.facts import AssessmentFacts
from tests.compliance.rules.cells import cell, device, opening, segment


def test_keys_must_be_unique_across_the_cell():
    with pytest.raises(ValidationError, match="unique"):
        cell(segments=(segment("a"),), devices=(device("a", "emergency_stop"),))


def test_opening_must_belong_to_a_recorded_segment():
    with pytest.raises(ValidationError, match="unknown segment_key"):
        cell(segments=(segment("s1"),), openings=(opening(segment_key="s9"),))


def test_device_must_guard_a_recorded_opening():
    with pytest.raises(ValidationError, match="unknown opening_key"):
        cell(devices=(device("lc", "light_curtain", opening_key="o9"),))


def test_contact_regions_must_be_ts15066_regions():
    with pytest.raises(ValidationError, match="unknown ISO/TS 15066 body region"):
        AssessmentFacts(contact_regions=("fingertips",))


def test_facts_are_frozen():
    facts = cell()
    with pytest.raises(ValidationError):
        facts.country = "DE"


def test_speed_checked_is_the_programmed_one_if_recorded():
    assert cell().robot_speed_mm_s == 2000
    assert cell(programmed_speed_mm_s=500).robot_speed_mm_s == 500
