"""Blocks read where they are inserted (issue 31): an INSERT gives its
block's lines placed as it places them, blocks within blocks too, down to a
bounded depth, and a block inserted past the bounds is refused as it is
counted, never expanded first."""

from __future__ import annotations

import time

import pytest

from cells.layout_dxf import reading
from cells.layout_dxf.reading import DxfError, interpret, read_dxf
from tests.cells.layout_dxf.support import new_drawing, to_bytes


def plan_of(doc, **options) -> reading.DxfPlan:
    return interpret(read_dxf(to_bytes(doc)), **options)


def ends(lines) -> list[tuple[int, int, int, int]]:
    return [(s.start_x_mm, s.start_y_mm, s.end_x_mm, s.end_y_mm) for s in lines]


def panel_drawing(block: str = "FENCE_PANEL"):
    """A block of one LINE 0,0 → 1000,0 on layer 0."""
    doc = new_drawing()
    doc.blocks.new(block).add_line((0, 0), (1000, 0))
    return doc


def test_a_block_inserted_eight_times_gives_eight_fence_segments_where_placed():
    doc = panel_drawing()
    msp = doc.modelspace()
    inserts = [
        msp.add_blockref(
            "FENCE_PANEL",
            (5000 * (i - 1), 0),
            dxfattribs={"layer": "FENCE", "rotation": 45 * i},
        )
        for i in range(8)
    ]
    plan = plan_of(doc, mapping={"FENCE": "fence"})
    assert ends(plan.segments) == [
        (-5000, 0, -4000, 0),  # 0°
        (0, 0, 707, 707),  # 45°: 1000 cos 45° = 707.1
        (5000, 0, 5000, 1000),  # 90°
        (10000, 0, 9293, 707),  # 135°
        (15000, 0, 14000, 0),  # 180°
        (20000, 0, 19293, -707),  # 225°
        (25000, 0, 25000, -1000),  # 270°
        (30000, 0, 30707, -707),  # 315°
    ]
    # Layer 0 inside the block is the INSERT's layer; each line is named by
    # its block, numbered in file order, and carries its INSERT's handle.
    assert {s.layer for s in plan.segments} == {"FENCE"}
    assert [s.name for s in plan.segments] == [f"FENCE_PANEL {i}" for i in range(1, 9)]
    assert [s.handle for s in plan.segments] == [i.dxf.handle for i in inserts]
    assert {s.entity for s in plan.segments} == {"LINE"}
    assert [layer.name for layer in plan.layers] == ["FENCE"]
    assert plan.layers[0].entities == {"INSERT": 8, "LINE": 8}
    assert plan.notes == {"block_inserts": 8}
    assert plan.skipped == {}


def test_a_block_inserted_once_is_named_without_a_number():
    doc = panel_drawing("GATE_POST_LINE")
    doc.modelspace().add_blockref("GATE_POST_LINE", (0, 0), dxfattribs={"layer": "F"})
    (segment,) = plan_of(doc, mapping={"F": "fence"}).segments
    assert segment.name == "GATE_POST_LINE"


def test_what_a_block_draws_on_its_own_layer_stays_on_that_layer():
    doc = new_drawing()
    block = doc.blocks.new("BAY")
    block.add_line((0, 0), (2000, 0))  # layer 0: the INSERT's
    block.add_line((0, 500), (2000, 500), dxfattribs={"layer": "HALL"})
    doc.modelspace().add_blockref("BAY", (100, 100), dxfattribs={"layer": "FENCE"})
    plan = plan_of(doc, mapping={"FENCE": "fence"})
    assert ends(plan.segments) == [(100, 100, 2100, 100)]
    assert plan.underlay == [[100, 600, 2100, 600]]
    assert [layer.name for layer in plan.layers] == ["FENCE", "HALL"]


def test_scale_mirror_and_the_blocks_base_point_place_its_lines():
    doc = new_drawing()
    block = doc.blocks.new("PANEL", base_point=(100, 0))
    block.add_line((100, 0), (600, 0))
    block.add_line((100, 0), (100, 300))
    doc.modelspace().add_blockref(
        "PANEL",
        (1000, 1000),
        dxfattribs={"layer": "F", "xscale": -2, "yscale": 3},
    )
    plan = plan_of(doc, mapping={"F": "fence"})
    # The base point sits on the insertion point; x doubled and mirrored.
    assert ends(plan.segments) == [(1000, 1000, 0, 1000), (1000, 1000, 1000, 1900)]


def test_an_arc_in_a_mirrored_block_is_mirrored_and_a_circle_scaled_unevenly_an_ellipse():
    doc = new_drawing()
    block = doc.blocks.new("ROUND")
    block.add_arc((0, 0), 500, 0, 90)
    doc.blocks.new("COLUMN").add_circle((0, 0), 1000)
    msp = doc.modelspace()
    msp.add_blockref("ROUND", (0, 0), dxfattribs={"layer": "F", "xscale": -1})
    msp.add_blockref(
        "COLUMN", (0, 0), dxfattribs={"layer": "HALL", "xscale": 2, "yscale": 1}
    )
    plan = plan_of(doc, mapping={"F": "fence"})
    arc = ends(plan.segments)
    # The quarter from (500, 0) to (0, 500), mirrored: (-500, 0) to (0, 500).
    assert {arc[0][:2], arc[-1][2:]} == {(-500, 0), (0, 500)}
    assert all(
        x <= 0 and y >= 0 for x1, y1, x2, y2 in arc for x, y in ((x1, y1), (x2, y2))
    )
    # The circle of 1000 scaled 2 × 1: an ellipse of half-axes 2000 and 1000.
    points = {(x, y) for line in plan.underlay for x, y in (line[:2], line[2:])}
    for x, y in points:
        assert (x / 2000) ** 2 + (y / 1000) ** 2 == pytest.approx(1, abs=0.002)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    # Its chords reach its ends within the 5 mm tolerance.
    assert min(xs) <= -1995 and max(xs) >= 1995
    assert min(ys) <= -995 and max(ys) >= 995


def test_blocks_within_blocks_are_placed_level_by_level():
    doc = panel_drawing("INNER")
    outer = doc.blocks.new("OUTER")
    outer.add_blockref("INNER", (0, 0), dxfattribs={"rotation": 90})
    outer.add_line((0, 0), (0, -500), dxfattribs={"layer": "WALL"})
    doc.modelspace().add_blockref(
        "OUTER", (10000, 0), dxfattribs={"layer": "FENCE", "rotation": 90}
    )
    plan = plan_of(doc, mapping={"FENCE": "fence", "WALL": "wall"})
    # Turned 90° twice: 180°. Layer 0 of INNER → its INSERT's, 0 → FENCE.
    assert [(s.kind, *ends([s])[0], s.name) for s in plan.segments] == [
        ("fence", 10000, 0, 9000, 0, "INNER"),
        ("wall", 10000, 0, 10500, 0, "OUTER"),
    ]
    assert plan.notes == {"block_inserts": 2}


def test_a_block_within_a_block_scaled_unevenly_is_skewed_exactly():
    # ezdxf's own virtual_entities places the inner block turned but not
    # skewed: (0, 1000) → (192, 1055) for this line, 20 mm off.
    doc = panel_drawing("INNER")
    doc.blocks.new("OUTER").add_blockref(
        "INNER", (0, 1000), dxfattribs={"rotation": 30}
    )
    doc.modelspace().add_blockref(
        "OUTER", (0, 0), dxfattribs={"layer": "F", "xscale": 2, "yscale": 1}
    )
    (segment,) = plan_of(doc, mapping={"F": "fence"}).segments
    # 1000 (cos 30°, sin 30°) = (866, 500), its x doubled: (1732, 500).
    assert ends([segment]) == [(0, 1000, 1732, 1500)]


def test_a_minsert_gives_a_copy_of_its_block_at_each_place_of_its_grid():
    doc = panel_drawing()
    insert = doc.modelspace().add_blockref(
        "FENCE_PANEL", (0, 0), dxfattribs={"layer": "F"}
    )
    insert.grid(size=(2, 3), spacing=(2000, 3000))  # 2 rows, 3 columns
    plan = plan_of(doc, mapping={"F": "fence"})
    assert ends(plan.segments) == [
        (0, 0, 1000, 0),
        (3000, 0, 4000, 0),
        (6000, 0, 7000, 0),
        (0, 2000, 1000, 2000),
        (3000, 2000, 4000, 2000),
        (6000, 2000, 7000, 2000),
    ]


def test_a_minsert_whose_copies_all_fall_in_one_place_is_read_once():
    doc = panel_drawing()
    insert = doc.modelspace().add_blockref(
        "FENCE_PANEL", (0, 0), dxfattribs={"layer": "F"}
    )
    insert.grid(size=(32767, 32767), spacing=(0, 0))
    started = time.monotonic()
    plan = plan_of(doc, mapping={"F": "fence"})
    assert ends(plan.segments) == [(0, 0, 1000, 0)]
    assert time.monotonic() - started < 5


def test_a_block_that_holds_itself_stops_at_the_depth_bound():
    doc = new_drawing()
    block = doc.blocks.new("SELF")
    block.add_line((0, 0), (1000, 0))
    block.add_blockref("SELF", (0, 1000))
    doc.modelspace().add_blockref("SELF", (0, 0), dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence"})
    depth = reading.MAX_BLOCK_DEPTH
    assert ends(plan.segments) == [(0, 1000 * i, 1000, 1000 * i) for i in range(depth)]
    assert plan.skipped == {("block_too_deep", "INSERT"): 1}
    assert plan.notes == {"block_inserts": depth}


def test_a_block_that_holds_itself_skewed_stops_too():
    # Scaled unevenly and turned at each level: ezdxf's virtual_entities
    # would recurse into it on its own, past any bound of ours.
    doc = new_drawing()
    block = doc.blocks.new("SKEW")
    block.add_line((0, 0), (100, 0))
    block.add_blockref("SKEW", (0, 1000), dxfattribs={"rotation": 30})
    doc.modelspace().add_blockref(
        "SKEW", (0, 0), dxfattribs={"layer": "F", "xscale": 2, "yscale": 1}
    )
    plan = plan_of(doc, mapping={"F": "fence"})
    assert len(plan.segments) == reading.MAX_BLOCK_DEPTH
    assert plan.skipped == {("block_too_deep", "INSERT"): 1}


def test_an_insert_of_a_block_the_file_does_not_define_is_skipped():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_blockref("NOWHERE", (0, 0), dxfattribs={"layer": "F"})
    msp.add_line((0, 0), (1000, 0), dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence"})
    assert ends(plan.segments) == [(0, 0, 1000, 0)]
    assert plan.skipped == {("block_missing", "INSERT"): 1}


def test_an_insert_on_a_layer_left_out_is_skipped_as_such():
    doc = panel_drawing()
    doc.modelspace().add_blockref("FENCE_PANEL", (0, 0), dxfattribs={"layer": "OLD"})
    doc.modelspace().add_line((0, 0), (0, 1000), dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence", "OLD": "ignore"})
    assert ends(plan.segments) == [(0, 0, 0, 1000)]
    assert plan.skipped == {
        ("layer_ignored", "INSERT"): 1,
        ("layer_ignored", "LINE"): 1,
    }
    assert plan.notes == {}


def test_what_a_block_holds_that_is_not_read_is_counted_on_its_layer():
    doc = panel_drawing()
    doc.blocks.get("FENCE_PANEL").add_point((0, 0))
    doc.modelspace().add_blockref("FENCE_PANEL", (0, 0), dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence"})
    assert plan.skipped == {("unsupported_entity", "POINT"): 1}


# --- bounds ------------------------------------------------------------------


def test_a_block_of_10000_lines_inserted_10000_times_is_refused_quickly():
    doc = new_drawing()
    block = doc.blocks.new("HALL")
    for i in range(10_000):
        block.add_line((0, i), (100, i))
    msp = doc.modelspace()
    for i in range(10_000):
        msp.add_blockref("HALL", (200 * i, 0))
    data = to_bytes(doc)
    started = time.monotonic()
    with pytest.raises(DxfError) as caught:
        read_dxf(data)
    elapsed = time.monotonic() - started
    assert caught.value.code == "too_many_entities"
    assert caught.value.params == {
        "limit": reading.MAX_ENTITIES,
        "count": reading.MAX_ENTITIES + 1,
        "in_blocks": True,
    }
    # Refused while the first inserts are read (a second or two to parse the
    # file, a fraction to count), not after 10⁸ lines were made: a bound, not
    # a benchmark.
    assert elapsed < 20


def test_blocks_nested_to_a_million_lines_are_refused_as_they_are_counted():
    doc = new_drawing()
    level = doc.blocks.new("L0")
    for i in range(10):
        level.add_line((0, i), (100, i))
    for depth in range(1, 7):  # each level: ten of the one below
        level = doc.blocks.new(f"L{depth}")
        for i in range(10):
            level.add_blockref(f"L{depth - 1}", (0, 100 * i))
    doc.modelspace().add_blockref("L6", (0, 0))
    started = time.monotonic()
    with pytest.raises(DxfError) as caught:
        read_dxf(to_bytes(doc))
    assert caught.value.code == "too_many_entities"
    assert time.monotonic() - started < 10


def test_a_minsert_of_a_million_copies_is_refused_as_they_are_counted():
    doc = panel_drawing()
    insert = doc.modelspace().add_blockref("FENCE_PANEL", (0, 0))
    insert.grid(size=(1000, 1000), spacing=(10, 2000))
    with pytest.raises(DxfError) as caught:
        read_dxf(to_bytes(doc))
    assert caught.value.code == "too_many_entities"


def test_the_pieces_of_a_block_count_at_each_insert(monkeypatch):
    monkeypatch.setattr(reading, "MAX_PIECES", 250)
    doc = new_drawing()
    doc.blocks.new("ZIGZAG").add_lwpolyline([(i * 10, i % 2) for i in range(101)])
    msp = doc.modelspace()
    msp.add_blockref("ZIGZAG", (0, 0))
    msp.add_blockref("ZIGZAG", (0, 100))
    assert len(read_dxf(to_bytes(doc)).layers[0].pieces) == 200
    msp.add_blockref("ZIGZAG", (0, 200))
    with pytest.raises(DxfError) as caught:
        read_dxf(to_bytes(doc))
    assert caught.value.code == "too_many_pieces"


def test_a_blocks_entities_count_at_each_insert(monkeypatch):
    monkeypatch.setattr(reading, "MAX_ENTITIES", 12)
    doc = panel_drawing()
    block = doc.blocks.get("FENCE_PANEL")
    block.add_line((0, 0), (0, 1000))
    msp = doc.modelspace()
    for i in range(4):  # 4 INSERTs and their 2 lines each: 12
        msp.add_blockref("FENCE_PANEL", (2000 * i, 0))
    assert read_dxf(to_bytes(doc)).entity_count == 12
    msp.add_blockref("FENCE_PANEL", (9000, 0))
    with pytest.raises(DxfError) as caught:
        read_dxf(to_bytes(doc))
    assert caught.value.code == "too_many_entities"
