"""Organisations and their people; projects, robot cells and their 2D layouts,
their safety devices and certificate records: one module per kind of thing,
gathered here so that ``cells.models`` is where Django and the code find them.

All lengths are millimetres in the cell's own plan coordinates (x to the right,
y away from the viewer), all heights are above the floor.
"""

from __future__ import annotations

from cells.exchange import COORDINATE_LIMIT_MM
from cells.layout_dxf.models import DxfLayerMapping, LayoutUnderlay
from cells.layout_image.models import LayoutImage
from cells.models.bounds import (
    COORDINATE_VALIDATORS,
    DETECTION_UPPER_LIMIT_MM,
    FIELD_HEIGHT_LIMIT_MM,
    LENGTH_VALIDATORS,
    on_the_plan,
)
from cells.models.cell import (
    Cell,
    CellQuerySet,
    CollaborativeMode,
    HazardZoneShape,
    RobotKind,
    collaborative_modes_problem,
    polygon_problem_message,
)
from cells.models.certificates import (
    CERTIFICATE_SCOPE_MAX_LENGTH,
    CellCertificate,
    CertificateKind,
)
from cells.models.devices import (
    LINE_KINDS,
    PLACEMENT_FIELDS,
    PLACEMENT_NAMES,
    Device,
    DeviceKind,
    PerformanceLevel,
)
from cells.models.layout import (
    GuardKind,
    GuardSegment,
    Opening,
    OpeningPurpose,
    OperatorStation,
)
from cells.models.organisations import (
    EDITOR_ROLES,
    Membership,
    Organisation,
    Role,
)
from cells.models.projects import (
    Country,
    Project,
    ProjectQuerySet,
    ProposalLanguage,
)
from cells.motion.models import MotionProgram, ProgramFormat

__all__ = [
    "CERTIFICATE_SCOPE_MAX_LENGTH",
    "COORDINATE_LIMIT_MM",
    "COORDINATE_VALIDATORS",
    "DETECTION_UPPER_LIMIT_MM",
    "EDITOR_ROLES",
    "FIELD_HEIGHT_LIMIT_MM",
    "LENGTH_VALIDATORS",
    "LINE_KINDS",
    "PLACEMENT_FIELDS",
    "PLACEMENT_NAMES",
    "Cell",
    "CellCertificate",
    "CellQuerySet",
    "CertificateKind",
    "CollaborativeMode",
    "Country",
    "Device",
    "DeviceKind",
    "DxfLayerMapping",
    "GuardKind",
    "GuardSegment",
    "HazardZoneShape",
    "LayoutImage",
    "LayoutUnderlay",
    "Membership",
    "MotionProgram",
    "Opening",
    "OpeningPurpose",
    "OperatorStation",
    "Organisation",
    "PerformanceLevel",
    "ProgramFormat",
    "Project",
    "ProjectQuerySet",
    "ProposalLanguage",
    "RobotKind",
    "Role",
    "collaborative_modes_problem",
    "on_the_plan",
    "polygon_problem_message",
]
