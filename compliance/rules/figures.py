"""The names of the figures a finding compares (its ``numbers``), for the
reader: a key such as ``required_mm`` is shown as "required 1,800 mm", the
name in the reader's language. Pure Python, no Django: the names are marked
with ``gettext_noop`` and translated where they are shown."""

from __future__ import annotations

from compliance.calculators.base import gettext_noop

# A finding's figure keys, less their unit suffix (``_mm``, ``_ms`` ...).
FIGURE_NAMES = {
    "c": gettext_noop("C"),
    "class_i_speed": gettext_noop("Class I speed limit"),
    "d_ds": gettext_noop("D_DS"),
    "clearance": gettext_noop("clearance"),
    "controller_time": gettext_noop("controller time"),
    "distance": gettext_noop("distance"),
    "gap": gettext_noop("gap"),
    "hazard_height": gettext_noop("hazard height"),
    "hazard_lower": gettext_noop("hazard zone from"),
    "hazard_upper": gettext_noop("hazard zone up to"),
    "height": gettext_noop("height"),
    "iec61496_type": gettext_noop("IEC 61496 type"),
    "lower": gettext_noop("lower edge"),
    "max_speed": gettext_noop("maximum speed"),
    "mesh_opening": gettext_noop("mesh opening"),
    "overall_stopping_time": gettext_noop("overall stopping time"),
    "permissible": gettext_noop("permissible speed"),
    "payload": gettext_noop("payload"),
    "protective_field": gettext_noop("protective field"),
    "reach_past": gettext_noop("reaches past the guard by"),
    "required": gettext_noop("required"),
    "response_time": gettext_noop("response time"),
    "robot_moving_mass": gettext_noop("robot's moving mass"),
    "shortfall": gettext_noop("short by"),
    "speed": gettext_noop("speed"),
    "stopping_time": gettext_noop("stopping time"),
    "t": gettext_noop("T"),
    "tests_failed": gettext_noop("tests failed"),
    "tests_missing": gettext_noop("tests not recorded"),
    "upper": gettext_noop("upper edge"),
    "width": gettext_noop("width"),
    "z": gettext_noop("Z"),
    "zone_radius": gettext_noop("zone radius"),
}
