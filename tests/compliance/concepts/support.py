"""A cell to design concepts from, shared by the concepts' tests and the
proposal's."""

from __future__ import annotations

import itertools

from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory


def fenced_palletiser(cell, height_mm=1800):
    """A square fence round the robot at (2,000, 1,500), reach 1,400 mm, with
    an infeed (material) in its south side and a door in its north side;
    the robot stops in 300 ms, its zone reaches 2,200 mm high."""
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 2200
    cell.save()
    corners = [(-500, -1000), (4500, -1000), (4500, 4000), (-500, 4000), (-500, -1000)]
    segments = [
        GuardSegmentFactory(
            cell=cell,
            label=f"F{i + 1}",
            start_x_mm=a[0],
            start_y_mm=a[1],
            end_x_mm=b[0],
            end_y_mm=b[1],
            height_mm=height_mm,
        )
        for i, (a, b) in enumerate(itertools.pairwise(corners))
    ]
    infeed = OpeningFactory(
        segment=segments[0],
        label="IN",
        purpose="material_entry",
        offset_mm=2000,
        width_mm=1000,
        lower_edge_mm=300,
        upper_edge_mm=1200,
    )
    OpeningFactory(
        segment=segments[2],
        label="D",
        purpose="maintenance_door",
        offset_mm=2000,
        width_mm=900,
        lower_edge_mm=0,
        upper_edge_mm=2000,
    )
    DeviceFactory(
        cell=cell,
        kind="light_curtain",
        label="LC1",
        opening=infeed,
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        detection_lower_mm=300,
        detection_upper_mm=1200,
        x1_mm=1500,
        y1_mm=-1000,
        x2_mm=2500,
        y2_mm=-1000,
    )
    return cell
