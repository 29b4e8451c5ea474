"""The layers of the DXF drawings this app writes, named once: the export
puts each kind of element on its own, and the import reads the guard layers
back as their kind unless told otherwise. And the underlay's cap, which the
model checks without loading ezdxf. Pure constants, no Django."""

from __future__ import annotations

# Guard segments, one layer per kind (``cells.models.GuardKind``).
GUARD_LAYERS: dict[str, str] = {
    "fence": "CSP-FENCE",
    "wall": "CSP-WALL",
    "machine_body": "CSP-MACHINE-BODY",
}
OPENINGS = "CSP-OPENINGS"
DEVICES = "CSP-DEVICES"
HAZARD_ZONE = "CSP-HAZARD-ZONE"
OPERATOR_STATIONS = "CSP-OPERATOR-STATIONS"
# ISO 13855: each device's minimum distance S round the hazard zone.
MINIMUM_DISTANCES = "CSP-MINIMUM-DISTANCES"
LABELS = "CSP-LABELS"

# The export's other layers: drawn from the cell itself, so an import leaves
# them out unless told otherwise (they are not the hall's background).
DERIVED = (OPENINGS, DEVICES, HAZARD_ZONE, OPERATOR_STATIONS, MINIMUM_DISTANCES, LABELS)

# AutoCAD colour index of each layer, close to the colours of the page's plan.
COLOURS: dict[str, int] = {
    GUARD_LAYERS["fence"]: 5,  # blue
    GUARD_LAYERS["wall"]: 8,  # grey
    GUARD_LAYERS["machine_body"]: 6,  # magenta
    OPENINGS: 30,  # orange
    DEVICES: 200,  # purple
    HAZARD_ZONE: 1,  # red
    OPERATOR_STATIONS: 3,  # green
    MINIMUM_DISTANCES: 4,  # cyan
    LABELS: 7,  # black on white, white on black
}

# Lines kept as the underlay of one cell; past it they are skipped, counted.
MAX_UNDERLAY_LINES = 5_000
