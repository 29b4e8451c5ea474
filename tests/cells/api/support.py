"""URLs and valid request bodies for the API tests."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from cells.models import (
    Cell,
    CellCertificate,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Project,
)

# Router basename of each resource, in the order a layout is built.
BASENAMES = [
    "project",
    "cell",
    "guard-segment",
    "opening",
    "operator-station",
    "device",
    "certificate",
]
MODELS = {
    "project": Project,
    "cell": Cell,
    "guard-segment": GuardSegment,
    "opening": Opening,
    "operator-station": OperatorStation,
    "device": Device,
    "certificate": CellCertificate,
}
# The body field naming each resource's parent.
PARENT_FIELDS = {
    "project": "organisation",
    "cell": "project",
    "guard-segment": "cell",
    "opening": "segment",
    "operator-station": "cell",
    "device": "cell",
    "certificate": "cell",
}


def list_url(basename: str) -> str:
    return reverse(f"api:{basename}-list")


def detail_url(basename: str, pk: int) -> str:
    return reverse(f"api:{basename}-detail", args=[pk])


def project_body(**overrides: Any) -> dict[str, Any]:
    return {
        "name": "Welding line",
        "customer_name": "Hanil Motors",
        "site_name": "Ulsan",
        "country": "KR",
        "proposal_language": "ko",
        **overrides,
    }


def cell_body(project, /, **overrides: Any) -> dict[str, Any]:
    return {
        "project": project.pk,
        "name": "Welder",
        "robot_manufacturer": "Acme",
        "robot_model": "R-20",
        "robot_kind": "industrial",
        "payload_kg": "20.00",
        "reach_mm": 1800,
        "max_tcp_speed_mm_s": 2000,
        "moving_mass_kg": "150.00",
        **overrides,
    }


def segment_body(cell, /, **overrides: Any) -> dict[str, Any]:
    return {
        "cell": cell.pk,
        "label": "F9",
        "start_x_mm": 0,
        "start_y_mm": 3000,
        "end_x_mm": 3000,
        "end_y_mm": 3000,
        "height_mm": 2000,
        "kind": "fence",
        **overrides,
    }


def opening_body(segment, /, **overrides: Any) -> dict[str, Any]:
    """An opening that fits the ``segment`` fixture (4000 mm long, 1800 mm high)
    beside the ``opening`` fixture (1000–1800 mm)."""
    return {
        "segment": segment.pk,
        "label": "Door",
        "offset_mm": 2500,
        "width_mm": 900,
        "lower_edge_mm": 0,
        "upper_edge_mm": 1500,
        "purpose": "operator_access",
        **overrides,
    }


def station_body(cell, /, **overrides: Any) -> dict[str, Any]:
    return {"cell": cell.pk, "label": "HMI", "x_mm": 100, "y_mm": -500, **overrides}


def device_body(cell, /, **overrides: Any) -> dict[str, Any]:
    return {
        "cell": cell.pk,
        "kind": "light_curtain",
        "label": "LC2",
        "claimed_pl": "d",
        "response_time_ms": 14,
        **overrides,
    }


def certificate_body(cell, /, **overrides: Any) -> dict[str, Any]:
    return {
        "cell": cell.pk,
        "kind": "kiria_cobot_workplace",
        "issuing_body": "한국로봇산업진흥원 (KIRIA)",
        "number": "KIRIA-CW-2026-101",
        "issued_on": "2026-01-15",
        "valid_until": "2029-01-14",
        "scope": "Machine tending at CNC 2 with one PFL collaborative robot.",
        **overrides,
    }
