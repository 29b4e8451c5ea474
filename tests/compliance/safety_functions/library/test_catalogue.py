"""The starting device library, read from the fixture (pure): faithful to
the reference data, figure for figure, and never inventing one."""

from __future__ import annotations

import re

import pytest

from compliance.safety_functions.library.catalogue import (
    LIBRARY_KINDS,
    REFERENCE_STATUS,
    STARTING_BY_KEY,
    STARTING_ENTRIES,
    is_reference_data,
    levels_at_least,
)


def reference_devices(reference) -> dict[str, dict]:
    """The reference's typical devices by id (devices_typical.json); read in
    the test, so that a missing file fails it."""
    data = reference("devices_typical.json")
    return {device["id"]: device for device in data["devices"]}


def numbers_in(value) -> set[float]:
    """Every number in a reference entry's figures, also those written in a
    text ("< 1E-09", "about 95", "3-8 (as recorded)")."""
    found: set[float] = set()
    if isinstance(value, bool):
        return found
    if isinstance(value, int | float):
        found.add(float(value))
    elif isinstance(value, str):
        found |= {float(n) for n in re.findall(r"\d+(?:\.\d+)?(?:E-?\d+)?", value)}
    elif isinstance(value, dict):
        # Keys too: "resolution_70_mm" gives the resolution of its range.
        for key, inner in value.items():
            found |= numbers_in(key.replace("_", " ")) | numbers_in(inner)
    elif isinstance(value, list):
        for inner in value:
            found |= numbers_in(inner)
    return found


def levels_in(value) -> set[str]:
    """The PLs a reference entry states ("d (two channels, ...)" is d)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "PL" and isinstance(inner, str):
                found.add(inner[0])
            else:
                found |= levels_in(inner)
    return found


NUMERIC_FIELDS = (
    "iec61496_type",
    "sil",
    "pfhd_per_hour",
    "b10d_cycles",
    "mttfd_years",
    "dcavg_percent",
    "response_time_ms",
    "detection_capability_mm",
    "range_m",
    "protective_height_mm",
)


def test_every_reference_device_is_in_the_library(reference):
    devices = reference_devices(reference)
    assert len(devices) == 30
    assert {e.reference_id for e in STARTING_ENTRIES} == set(devices)
    for entry in STARTING_ENTRIES:
        device = devices[entry.reference_id]
        assert (entry.maker, entry.model) == (device["maker"], device["model_family"])
        assert entry.key.startswith(entry.reference_id)


@pytest.mark.parametrize("entry", STARTING_ENTRIES, ids=lambda e: e.key)
def test_no_figure_is_invented(entry, reference):
    figures = reference_devices(reference)[entry.reference_id]["figures"]
    recorded = numbers_in(figures)
    for name in NUMERIC_FIELDS:
        value = getattr(entry, name)
        if value is not None:
            assert float(value) in recorded, (entry.key, name, value)
    if entry.category:
        assert float(entry.category) in recorded
    if entry.pl:
        assert entry.pl in levels_in(figures)


def test_spot_checks_against_the_reference(reference):
    devices = reference_devices(reference)
    lc1 = STARTING_BY_KEY["LC-1"]
    figures = devices["LC-1"]["figures"]
    assert lc1.pfhd_per_hour == figures["PFHd_per_h"]
    assert lc1.detection_capability_mm == figures["detection_capability_mm"]
    assert lc1.protective_height_mm == figures["protective_field_height_mm"]
    assert lc1.response_time_ms == figures["response_time_ms"]
    assert (lc1.pl, lc1.sil, lc1.iec61496_type) == ("e", 3, None)
    assert "Type not recorded in the entry" in lc1.notes

    sc1 = STARTING_BY_KEY["SC-1"]
    figures = devices["SC-1"]["figures"]
    assert sc1.iec61496_type == figures["ESPE_type"] == 3
    assert (sc1.pl, sc1.sil, sc1.pfhd_per_hour) == ("d", 2, figures["PFHd_per_h"])
    assert sc1.range_m == figures["protective_field_range_m"]
    assert sc1.response_time_ms == figures["response_time_ms"]

    # Two response times: the slower is entered, the note gives both.
    lc3 = STARTING_BY_KEY["LC-3"]
    assert float(lc3.response_time_ms) == max(
        devices["LC-3"]["figures"]["response_time_ms"]
    )
    assert "6.9" in lc3.notes and "9.3" in lc3.notes

    # A PL with a condition: the level, the condition in the note.
    il1 = STARTING_BY_KEY["IL-1"]
    assert devices["IL-1"]["figures"]["PL"].startswith("d (two channels")
    assert il1.pl == "d" and "fault exclusion" in il1.notes
    assert il1.b10d_cycles == devices["IL-1"]["figures"]["B10d_NC_contact"]

    # Figures per function: one entry each.
    il2 = devices["IL-2"]["figures"]
    interlock = STARTING_BY_KEY["IL-2-interlock"]
    locking = STARTING_BY_KEY["IL-2-guard-locking"]
    assert (interlock.pl, interlock.pfhd_per_hour) == (
        il2["interlock_function"]["PL"],
        il2["interlock_function"]["PFH_per_h"],
    )
    assert (locking.pl, locking.category, locking.pfhd_per_hour) == (
        il2["guard_locking_function"]["PL"],
        str(il2["guard_locking_function"]["category"]),
        il2["guard_locking_function"]["PFH_per_h"],
    )
    sr2 = devices["SR-2"]["figures"]
    assert (
        STARTING_BY_KEY["SR-2-two-channel"].pfhd_per_hour
        == sr2["two_channel"]["PFH_per_h"]
    )
    assert STARTING_BY_KEY["SR-2-single-channel"].pl == sr2["single_channel"]["PL"]
    rb2 = devices["RB-2"]["figures"]
    assert (
        STARTING_BY_KEY["RB-2-STO-SS1-SBC"].pfhd_per_hour
        == rb2["STO_SS1_SBC"]["PFHd_per_h"]
    )
    assert STARTING_BY_KEY["RB-2-SS2-SOS-SLP-RSM-RPM"].pl == "d"
    dr1 = devices["DR-1"]["figures"]["CU240E-2"]
    cu = STARTING_BY_KEY["DR-1-CU240E-2"]
    assert (cu.pl, cu.sil, cu.pfhd_per_hour) == (
        dr1["PL"],
        dr1["SIL"],
        dr1["PFH_per_h"],
    )
    assert (
        STARTING_BY_KEY["CT-1"].b10d_cycles == devices["CT-1"]["figures"]["B10d_approx"]
    )
    rb1 = devices["RB-1"]["figures"]["all_safety_functions"]
    assert STARTING_BY_KEY["RB-1-all-functions"].certificates == rb1["certificate"]


def test_no_starting_entry_has_a_price_or_a_lead_time():
    for entry in STARTING_ENTRIES:
        fields = entry.as_fields()
        assert not {"price_low", "price_high", "currency"} & set(fields)
        assert entry.data_source  # every figure names where it is from


def test_the_starting_entries_say_to_check_the_current_data_sheet():
    assert REFERENCE_STATUS == "From the maker's data sheet; check the current one."


def test_kinds_are_the_models_kinds():
    from compliance.safety_functions.models import LibraryKind

    assert set(LIBRARY_KINDS) == set(LibraryKind.values)
    assert {e.kind for e in STARTING_ENTRIES} <= set(LIBRARY_KINDS)


def test_an_entry_is_the_references_only_while_its_figures_are():
    fields = STARTING_BY_KEY["LC-1"].as_fields()
    assert is_reference_data("LC-1", fields)
    assert is_reference_data("LC-1", {**fields, "response_time_ms": 13.0})
    assert not is_reference_data("LC-1", {**fields, "pl": "d"})
    assert not is_reference_data("LC-1", {**fields, "response_time_ms": 14})
    assert not is_reference_data("MY-1", fields)


def test_levels_at_least():
    assert levels_at_least("d") == ("d", "e")
    assert levels_at_least("a") == ("a", "b", "c", "d", "e")
    with pytest.raises(ValueError):
        levels_at_least("f")
