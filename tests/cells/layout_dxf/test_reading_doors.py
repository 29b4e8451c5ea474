"""Door layers (issue 31): named as doors in English, German or Korean they
are suggested as doors, and a layer mapped to "door" gives door lines, for
the import to place on the guards they lie on."""

from __future__ import annotations

import pytest

from cells.layout_dxf import reading
from cells.layout_dxf.reading import (
    default_target,
    interpret,
    read_dxf,
    suggested_kind,
    suggested_target,
)
from tests.cells.layout_dxf.support import new_drawing, to_bytes


@pytest.mark.parametrize(
    "name",
    [
        "DOOR",
        "Doors",
        "A-DOOR-01",
        "GATE",
        "FENCE_GATE",  # a gate in the fence is a door, not a fence
        "SAFETY-DOOR",
        "Tür",
        "TUER",
        "Türen",
        "Schutztür",
        "TOR",
        "Tor-2",
        "문",
        "문-1",
        "A-문",
        "도어",
        "출입문",
        "출입문2",
        "안전문",
    ],
)
def test_a_layer_named_as_a_door_is_suggested_as_one(name):
    assert suggested_kind(name) == "door"
    assert suggested_target(name) == "door"
    assert default_target(name) == "underlay"  # only when the user confirms


@pytest.mark.parametrize(
    "name",
    [
        "MOTOR",  # "tor" is a whole word only
        "TORQUE",
        "Korridor",
        "DOORSTEP",
        "창문",  # a window
        "문자",  # text: a common layer name
        "문서",  # a document
        "주문",  # an order
    ],
)
def test_a_name_that_only_holds_a_door_word_is_no_door(name):
    assert suggested_kind(name) != "door"


def test_a_layer_mapped_to_door_gives_door_lines_and_no_guards():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (6000, 0), dxfattribs={"layer": "FENCE"})
    msp.add_line(
        (2000, 0, 0), (2900, 0, 0), dxfattribs={"layer": "TÜR", "thickness": 2000}
    )
    # A door drawn with its swing: the leaf and a quarter arc.
    msp.add_arc((4000, 0), 900, 0, 90, dxfattribs={"layer": "TÜR"})
    plan = interpret(read_dxf(to_bytes(doc)), mapping={"FENCE": "fence", "tür": "door"})
    assert [(s.kind, s.start_x_mm, s.end_x_mm) for s in plan.segments] == [
        ("fence", 0, 6000)
    ]
    leaf, *swing = plan.doors
    assert (
        leaf.kind,
        leaf.start_x_mm,
        leaf.start_y_mm,
        leaf.end_x_mm,
        leaf.end_y_mm,
    ) == (
        "door",
        2000,
        0,
        2900,
        0,
    )
    # A door has no height of its own: the guard it opens has.
    assert (leaf.height_mm, leaf.bottom_gap_mm, leaf.layer) == (None, 0, "TÜR")
    assert swing[0].start_x_mm == 4900 and swing[-1].end_y_mm == 900
    assert {s.kind for s in swing} == {"door"}
    assert plan.segments_by_kind() == {"fence": 1, "wall": 0, "machine_body": 0}
    assert [layer.target for layer in plan.layers] == ["fence", "door"]


def test_a_drawing_of_doors_alone_is_something_to_import():
    doc = new_drawing()
    doc.modelspace().add_line((0, 0), (900, 0), dxfattribs={"layer": "DOOR"})
    plan = interpret(read_dxf(to_bytes(doc)), mapping={"DOOR": "door"})
    assert len(plan.doors) == 1 and plan.segments == [] and plan.underlay == []


def test_door_is_a_target_and_no_guard_kind():
    assert "door" in reading.TARGETS
    assert "door" not in reading.GUARD_KINDS
