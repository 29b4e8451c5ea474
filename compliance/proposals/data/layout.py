"""The cell section of a proposal: the robot and its figures, the task, the
layout as drawn, each device's required minimum distance from the hazard zone
(ISO 13855), the floor-plan image under the plan, and the robot programs'
paths on it (``motion``)."""

from __future__ import annotations

import base64

from django.utils.translation import gettext as _

from cells import selectors as cell_selectors
from cells.layout_image import reading as layout_image_reading
from cells.layout_image import selectors as layout_image_selectors
from compliance.proposals.data.figures import num
from compliance.proposals.data.motion import program_paths
from compliance.proposals.pdf.data import (
    CellSection,
    DeviceDistance,
    Row,
    UnderlayImage,
)
from compliance.rules.plan_marks import (
    DISTANCE_RULES,
    failing_openings,
    uncovered_approaches,
)
from compliance.rules.selectors import config_words


def cell_section(cell, findings, facts=None) -> CellSection:
    """The cell as the proposal shows it; ``facts``: its snapshot
    (``compliance.rules.results.cell_snapshot``), for its robot programs."""
    robot = [
        (_("Robot"), f"{cell.robot_manufacturer} {cell.robot_model}"),
        (_("Kind"), cell.get_robot_kind_display()),
        (_("Payload"), f"{num(cell.payload_kg)} kg"),
        (_("Reach"), f"{num(cell.reach_mm)} mm"),
        (_("Max. TCP speed"), f"{num(cell.max_tcp_speed_mm_s)} mm/s"),
        (_("Moving mass"), f"{num(cell.moving_mass_kg)} kg"),
    ]
    if cell.stopping_time_ms is not None:
        robot.append((_("Stopping time"), f"{num(cell.stopping_time_ms)} ms"))
    if cell.stopping_distance_mm is not None:
        robot.append((_("Stopping distance"), f"{num(cell.stopping_distance_mm)} mm"))
    if cell.hazard_zone_reduced and cell.hazard_zone_reduction_recorded:
        robot.append(
            (
                _("Hazard zone"),
                _(
                    "%(radius)s mm, below the robot's maximum space of %(full)s mm, "
                    "held by its safety-rated limits: %(reason)s"
                )
                % {
                    "radius": num(cell.hazard_zone_effective_radius_mm),
                    "full": num(cell.maximum_space_radius_mm),
                    "reason": cell.hazard_zone_reduction_reason.strip(),
                },
            )
        )
    if cell.safety_configuration is not None:
        robot.append(
            (_("Safety configuration"), config_words(cell.safety_configuration))
        )
    parameters = []
    if cell.collaborative_modes and cell.programmed_speed_mm_s is not None:
        parameters.append(
            (_("Programmed speed"), f"{num(cell.programmed_speed_mm_s)} mm/s")
        )
    devices = list(cell.devices.all())
    index_of = {f"device:{d.pk}": i for i, d in enumerate(devices)}
    distances = tuple(
        DeviceDistance(
            device=f.subject_label,
            device_index=index_of.get(f.subject_key),
            required_mm=int(f.required_mm),
            actual_mm=int(f.distance_mm) if f.distance_mm is not None else None,
            status=str(f.status),
        )
        for f in findings
        if f.rule_id in DISTANCE_RULES and f.required_mm is not None
    )
    task = cell.get_application_display()
    if cell.task_description:
        task = f"{task}: {cell.task_description}"
    return CellSection(
        robot=tuple(Row(label=str(label), value=value) for label, value in robot),
        task=task,
        collaborative_modes=tuple(cell.get_collaborative_modes_display()),
        collaborative_parameters=tuple(
            Row(label=str(label), value=value) for label, value in parameters
        ),
        layout=cell_selectors.cell_document(cell),
        distances=distances,
        failing_openings=failing_openings(cell, findings),
        uncovered=tuple(
            (tuple(points), s) for points, s in uncovered_approaches(cell, findings)
        ),
        underlay_image=_underlay_image(cell),
        **(program_paths(facts) if facts is not None else {}),
    )


def _underlay_image(cell) -> UnderlayImage | None:
    """The cell's floor-plan image when it is to be shown in the PDF: a copy
    small enough for the figure, with its rectangle on the plan."""
    image = layout_image_selectors.image_for_pdf(cell)
    if image is None:
        return None
    rectangle = image.rectangle()
    return UnderlayImage(
        content_base64=base64.b64encode(
            layout_image_reading.shrunk(bytes(image.data))
        ).decode("ascii"),
        min_x_mm=rectangle.min_x_mm,
        max_y_mm=rectangle.max_y_mm,
        width_mm=rectangle.width_mm,
        height_mm=rectangle.height_mm,
        opacity=image.opacity_percent / 100,
    )
