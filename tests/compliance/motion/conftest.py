from __future__ import annotations

import pytest

from cells.models import OperatorStation


@pytest.fixture
def cobot(cell):
    """The issue's cobot (33.5 kg moving, 5 kg payload) at the plan's origin,
    collaborating by power and force limiting; an operator loading 600 mm
    from the path's end with the chest exposed."""
    cell.robot_kind = "collaborative"
    cell.collaborative_modes = ["pfl"]
    cell.moving_mass_kg, cell.payload_kg = 33.5, 5
    cell.robot_base_x_mm = cell.robot_base_y_mm = 0
    cell.robot_base_rotation_deg = 0
    cell.save()
    OperatorStation.objects.create(
        cell=cell, label="Load", x_mm=400, y_mm=-900, exposed_regions=["chest"]
    )
    return cell
