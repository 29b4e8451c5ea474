"""The names a drawing gives its guards (issue 31): the text beside a line,
else the block it was drawn in, numbered when several share it; and a
drawing with nothing to import says what it holds instead."""

from __future__ import annotations

import time

import pytest

from cells.layout_dxf import reading
from cells.layout_dxf.reading import DxfError, interpret, names, read_dxf
from tests.cells.layout_dxf.support import new_drawing, to_bytes


def plan_of(doc, **options) -> reading.DxfPlan:
    return interpret(read_dxf(to_bytes(doc)), **options)


def named(doc, **options) -> list[str]:
    return [s.name for s in plan_of(doc, **options).segments]


def three_fences(insunits: int = 4, scale: float = 1):
    doc = new_drawing(insunits)
    msp = doc.modelspace()
    for start, end in [
        ((0, 0), (4000, 0)),
        ((4000, 0), (4000, 3000)),
        ((4000, 3000), (0, 3000)),
    ]:
        msp.add_line(
            [c * scale for c in start],
            [c * scale for c in end],
            dxfattribs={"layer": "FENCE"},
        )
    return doc


def test_a_text_beside_a_guard_names_it():
    doc = three_fences()
    msp = doc.modelspace()
    msp.add_text("F-SOUTH", dxfattribs={"layer": "TEXT", "insert": (2000, -150)})
    msp.add_text("F-EAST", dxfattribs={"layer": "TEXT", "insert": (4150, 1500)})
    plan = plan_of(doc, mapping={"FENCE": "fence"})
    assert [s.name for s in plan.segments] == ["F-SOUTH", "F-EAST", ""]
    # Read as names only: counted as skipped for what they are.
    assert plan.skipped == {("text", "TEXT"): 2}


def test_the_nearest_text_names_a_guard_and_a_far_one_none():
    doc = three_fences()
    msp = doc.modelspace()
    msp.add_text("SECOND", dxfattribs={"insert": (2000, 300)})
    msp.add_text("FIRST", dxfattribs={"insert": (2000, -100)})
    msp.add_text("TOO FAR", dxfattribs={"insert": (4600, 1500)})  # 600 mm off
    assert named(doc, mapping={"FENCE": "fence"}) == ["FIRST", "", ""]


def test_a_text_names_only_the_guard_it_is_nearest_to():
    # Beside the corner of the first two, nearer the second: it names that
    # one, and the first is left for another text or none.
    doc = three_fences()
    doc.modelspace().add_text("EAST", dxfattribs={"insert": (3900, 200)})
    assert named(doc, mapping={"FENCE": "fence"}) == ["", "EAST", ""]


def test_the_distance_to_a_name_is_in_millimetres_after_the_units():
    doc = three_fences(insunits=6, scale=0.001)  # metres
    msp = doc.modelspace()
    msp.add_text("NEAR", dxfattribs={"insert": (2, 0.4)})  # 400 mm
    msp.add_text("FAR", dxfattribs={"insert": (4.6, 1.5)})  # 600 mm
    assert named(doc, mapping={"FENCE": "fence"}) == ["NEAR", "", ""]
    # Read as millimetres, both are within half a millimetre.
    assert named(doc, mapping={"FENCE": "fence"}, units="mm") == ["NEAR", "FAR", ""]


def test_an_mtext_names_a_guard_in_its_plain_words_on_one_line():
    doc = three_fences()
    msp = doc.modelspace()
    msp.add_mtext(
        "{\\fArial|b1;Gate}\\PNorth  side", dxfattribs={"insert": (2000, 200)}
    )
    msp.add_text("   ", dxfattribs={"insert": (4100, 1500)})  # empty: no name
    msp.add_text("X" * 80, dxfattribs={"insert": (2000, 3100)})
    plan = plan_of(doc, mapping={"FENCE": "fence"})
    assert [s.name for s in plan.segments] == ["Gate North side", "", "X" * 60]
    assert plan.skipped == {("text", "MTEXT"): 1, ("text", "TEXT"): 2}


def test_a_text_on_a_layer_left_out_names_nothing():
    doc = three_fences()
    doc.modelspace().add_text("OLD", dxfattribs={"layer": "OLD", "insert": (2000, 100)})
    plan = plan_of(doc, mapping={"FENCE": "fence", "OLD": "ignore"})
    assert [s.name for s in plan.segments] == ["", "", ""]
    assert plan.skipped == {("layer_ignored", "TEXT"): 1}


def test_a_text_beside_a_door_drawn_over_a_fence_names_the_door():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (6000, 0), dxfattribs={"layer": "FENCE"})
    msp.add_line((2000, 0), (2900, 0), dxfattribs={"layer": "DOOR"})
    msp.add_text("D1", dxfattribs={"insert": (2450, 150)})
    plan = plan_of(doc, mapping={"FENCE": "fence", "DOOR": "door"})
    assert [d.name for d in plan.doors] == ["D1"]
    assert [s.name for s in plan.segments] == [""]


def test_a_guard_drawn_in_a_block_takes_its_name_unless_a_text_names_it():
    doc = new_drawing()
    doc.blocks.new("PANEL").add_line((0, 0), (1000, 0))
    msp = doc.modelspace()
    for x in (0, 2000, 4000):
        msp.add_blockref("PANEL", (x, 0), dxfattribs={"layer": "FENCE"})
    msp.add_line((0, 5000), (1000, 5000), dxfattribs={"layer": "FENCE"})
    msp.add_text("Gate panel", dxfattribs={"insert": (2500, 100)})
    # Numbered among those the block names, in file order.
    assert named(doc, mapping={"FENCE": "fence"}) == [
        "PANEL 1",
        "Gate panel",
        "PANEL 2",
        "",
    ]


def test_a_long_block_name_is_cut_to_leave_room_for_its_number():
    name = "FENCE_PANEL_" + "W" * 70
    doc = new_drawing()
    doc.blocks.new(name).add_line((0, 0), (1000, 0))
    for x in (0, 2000):
        doc.modelspace().add_blockref(name, (x, 0), dxfattribs={"layer": "F"})
    assert named(doc, mapping={"F": "fence"}) == [name[:58] + " 1", name[:58] + " 2"]


def test_an_anonymous_block_gives_no_name():
    doc = new_drawing()
    block = doc.blocks.new_anonymous_block()
    block.add_line((0, 0), (1000, 0))
    doc.modelspace().add_blockref(block.name, (0, 0), dxfattribs={"layer": "F"})
    assert block.name.startswith("*")
    assert named(doc, mapping={"F": "fence"}) == [""]


def test_a_visible_attribute_of_a_block_names_its_guard():
    doc = new_drawing()
    block = doc.blocks.new("PANEL")
    block.add_line((0, 0), (2000, 0))
    block.add_attdef("NAME", (1000, 150))
    block.add_attdef("PART_NO", (1000, -100), dxfattribs={"flags": 1})  # invisible
    msp = doc.modelspace()
    first = msp.add_blockref("PANEL", (0, 0), dxfattribs={"layer": "F"})
    first.add_auto_attribs({"NAME": "North panel", "PART_NO": "X-1"})
    second = msp.add_blockref("PANEL", (0, 3000), dxfattribs={"layer": "F"})
    second.add_auto_attribs({"NAME": "", "PART_NO": "X-2"})
    plan = plan_of(doc, mapping={"F": "fence"})
    assert [s.name for s in plan.segments] == ["North panel", "PANEL"]
    assert plan.skipped == {("text", "ATTRIB"): 4}


def test_the_texts_of_a_block_name_each_copy_of_it():
    doc = new_drawing()
    block = doc.blocks.new("BAY")
    block.add_line((0, 0), (3000, 0))
    block.add_text("Bay", dxfattribs={"insert": (1500, 100)})
    for y in (0, 4000):
        doc.modelspace().add_blockref("BAY", (0, y), dxfattribs={"layer": "F"})
    assert named(doc, mapping={"F": "fence"}) == ["Bay", "Bay"]


def test_naming_many_texts_against_many_lines_is_quick():
    lines = [
        (i * 10.0, 0.0, i * 10.0 + 5, 1000.0) for i in range(reading.MAX_NAMED_LINES)
    ]
    texts = [(i * 1.0, 500.0, f"T{i}") for i in range(reading.MAX_ENTITIES)]
    started = time.monotonic()
    result = names.text_names(lines, texts, reading.NAME_DISTANCE_MM)
    assert time.monotonic() - started < 5
    assert all(result)


def test_past_the_lines_a_cell_could_hold_texts_name_none(monkeypatch):
    monkeypatch.setattr(reading, "MAX_NAMED_LINES", 2)
    doc = three_fences()
    doc.modelspace().add_text("F-SOUTH", dxfattribs={"insert": (2000, -150)})
    assert named(doc, mapping={"FENCE": "fence"}) == ["", "", ""]


# --- nothing usable ------------------------------------------------------------


def test_a_drawing_with_nothing_to_import_names_what_it_holds():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_text("Hall 3")
    msp.add_text("North")
    msp.add_point((0, 0))
    msp.add_line((0, 0), (0.2, 0.1), dxfattribs={"layer": "HALL"})  # no length
    msp.add_line((0, 0), (200_001, 0), dxfattribs={"layer": "HALL"})  # off the plan
    with pytest.raises(DxfError) as caught:
        plan_of(doc)
    assert caught.value.code == "nothing_usable"
    assert caught.value.params == {"kinds": "LINE 2, TEXT 2, POINT 1"}


def test_an_empty_drawing_holds_none():
    with pytest.raises(DxfError) as caught:
        plan_of(new_drawing())
    assert caught.value.params == {"kinds": "none"}


def test_a_drawing_whose_every_layer_is_left_out_has_nothing_to_import():
    doc = three_fences()
    doc.modelspace().add_circle((0, 0), 100, dxfattribs={"layer": "FENCE"})
    with pytest.raises(DxfError) as caught:
        plan_of(doc, mapping={"FENCE": "ignore"})
    assert caught.value.params == {"kinds": "LINE 3, CIRCLE 1"}
