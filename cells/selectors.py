"""Reads shared by pages and the API, always scoped to the user's organisations."""

from __future__ import annotations

from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404

from cells import perimeter
from cells.exchange import (
    FORMAT,
    CellDocument,
    DeviceDoc,
    GuardSegmentDoc,
    HazardZoneDoc,
    OpeningDoc,
    OpeningRef,
    OperatorStationDoc,
    PointDoc,
    RobotDoc,
)
from cells.models import (
    Cell,
    CellCertificate,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Organisation,
    Project,
)
from cells.naming import layout_names


def organisations_for(user) -> QuerySet[Organisation]:
    return Organisation.objects.filter(memberships__user=user)


def projects_for(user) -> QuerySet[Project]:
    return Project.objects.for_user(user).select_related("organisation")


def project_list(user) -> QuerySet[Project]:
    return projects_for(user).annotate(cell_count=Count("cells"))


def project_for(user, pk: int) -> Project:
    return get_object_or_404(projects_for(user), pk=pk)


def cells_for(user) -> QuerySet[Cell]:
    return Cell.objects.for_user(user).select_related("project__organisation")


def cell_for(user, pk: int) -> Cell:
    return get_object_or_404(cells_for(user), pk=pk)


def cell_with_layout(user, pk: int, *, with_underlay: bool = False) -> Cell:
    """A cell with its whole layout loaded in a fixed number of queries; with
    the underlay of its plan too (an imported drawing, and the floor-plan
    image's placement without its bytes), for the pages that draw it (in the
    same query)."""
    queryset = cells_for(user)
    if with_underlay:
        queryset = queryset.select_related("underlay", "underlay_image").defer(
            "underlay_image__data"
        )
    return load_layout(get_object_or_404(queryset, pk=pk))


def _prefetched(model, rows: list) -> QuerySet:
    """A queryset that answers ``rows`` without a query, as a prefetch leaves
    one on each instance (``instance.<name>.all()`` reads it)."""
    queryset = QuerySet(model=model)
    queryset._result_cache = rows
    queryset._prefetch_done = True
    return queryset


def attach(instance, name: str, model, rows: list, back: str) -> None:
    """``rows`` as the prefetched ``instance.<name>``, each row knowing its
    ``back`` (the instance), as ``prefetch_related`` leaves them: without the
    queryset per instance that it clones, which costs a plan of a thousand
    guard segments a fifth of a second."""
    instance.__dict__.setdefault("_prefetched_objects_cache", {})[name] = _prefetched(
        model, rows
    )
    for row in rows:
        row._state.fields_cache[back] = instance


def load_layout(cell: Cell) -> Cell:
    """The layout of a cell: its guard segments (by id) with their openings
    (along each segment), its operator stations and its devices (with the
    opening they guard and the library entry they are priced from), in one
    query each, none of what is loaded already read again."""
    loaded = cell.__dict__.setdefault("_prefetched_objects_cache", {})
    if "segments" not in loaded:
        segments = list(GuardSegment.objects.filter(cell=cell).order_by("id"))
        attach(cell, "segments", GuardSegment, segments, "cell")
        by_segment: dict[int, list[Opening]] = {s.pk: [] for s in segments}
        if segments:
            for opening in Opening.objects.filter(segment__cell=cell).order_by(
                "segment_id", "offset_mm", "id"
            ):
                by_segment[opening.segment_id].append(opening)
        for segment in segments:
            attach(segment, "openings", Opening, by_segment[segment.pk], "segment")
    if "stations" not in loaded:
        stations = list(OperatorStation.objects.filter(cell=cell).order_by("id"))
        attach(cell, "stations", OperatorStation, stations, "cell")
    openings = name_layout(cell)
    if "devices" not in loaded:
        # The library entry too: the bill of materials prices from it. A
        # device's opening is the layout's own (named, with its segment).
        devices = list(
            Device.objects.filter(cell=cell)
            .select_related("library_device")
            .order_by("id")
        )
        for device in devices:
            if device.opening_id in openings:
                device._state.fields_cache["opening"] = openings[device.opening_id]
        attach(cell, "devices", Device, devices, "cell")
    return cell


def name_layout(cell: Cell) -> dict[int, Opening]:
    """Give each guard segment and opening of a loaded layout its name on the
    plan (``cells.naming``: ``plan_label``, which their ``str`` shows). The
    openings by id."""
    segments = list(cell.segments.all())
    names = layout_names(
        (segment.label, [o.label for o in segment.openings.all()])
        for segment in segments
    )
    by_id: dict[int, Opening] = {}
    for segment, (name, opening_names) in zip(segments, names, strict=True):
        segment.plan_label = name
        for opening, opening_name in zip(
            segment.openings.all(), opening_names, strict=True
        ):
            opening.plan_label = opening_name
            by_id[opening.pk] = opening
    return by_id


def zone_of(cell: Cell) -> perimeter.CircleZone | perimeter.PolygonZone:
    """The robot's maximum space on the plan (``perimeter.hazard_zone``): the
    drawn polygon, or the circle its reach, end effector and workpiece sweep
    round its base."""
    return perimeter.hazard_zone(
        shape=cell.hazard_zone_shape,
        polygon_mm=cell.hazard_zone_polygon_mm,
        centre_mm=(cell.robot_base_x_mm, cell.robot_base_y_mm),
        radius_mm=cell.hazard_zone_effective_radius_mm,
        lower_mm=cell.hazard_zone_lower_mm,
        upper_mm=cell.hazard_zone_height_mm,
    )


def plan_of(cell: Cell) -> perimeter.Layout:
    """The plan of a cell loaded by ``load_layout`` as the perimeter analysis
    reads it (``perimeter.plan_layout``), keyed as the findings key them
    (``segment:<id>``, ``opening:<id>``); worked out once per loaded cell."""
    plan = cell.__dict__.get("_plan")
    if plan is None:
        plan = perimeter.plan_layout(
            zone_of(cell),
            (
                perimeter.PlanSegment(
                    key=f"segment:{segment.pk}",
                    start=segment.start,
                    end=segment.end,
                    height_mm=segment.height_mm,
                    bottom_gap_mm=segment.bottom_gap_mm,
                    kind=segment.kind,
                    openings=[
                        perimeter.PlanOpening(
                            key=f"opening:{opening.pk}",
                            offset_mm=opening.offset_mm,
                            width_mm=opening.width_mm,
                            lower_edge_mm=opening.lower_edge_mm,
                            upper_edge_mm=opening.upper_edge_mm,
                        )
                        for opening in segment.openings.all()
                    ],
                )
                for segment in cell.segments.all()
            ),
        )
        cell.__dict__["_plan"] = plan
    return plan


def layout_names_read(
    cell: Cell,
) -> tuple[list[tuple[int, str]], list[tuple[int, str, str, str]]]:
    """The names the plan gives a cell's segments, ``[(pk, name)]``, and
    openings, ``[(pk, name, purpose, segment's name)]``, in the layout's
    order, read without the layout (two queries of plain values): for the
    forms' choices and the hazard form's places."""
    segment_rows = list(
        GuardSegment.objects.filter(cell=cell).order_by("id").values_list("pk", "label")
    )
    by_segment: dict[int, list[tuple[int, str, str]]] = {
        pk: [] for pk, _label in segment_rows
    }
    for pk, label, purpose, segment_pk in (
        Opening.objects.filter(segment__cell=cell)
        .order_by("segment_id", "offset_mm", "id")
        .values_list("pk", "label", "purpose", "segment_id")
    ):
        by_segment[segment_pk].append((pk, label, purpose))
    names = layout_names(
        (label, [o[1] for o in by_segment[pk]]) for pk, label in segment_rows
    )
    segments, openings = [], []
    for (pk, _label), (name, opening_names) in zip(segment_rows, names, strict=True):
        segments.append((pk, name))
        openings += [
            (o_pk, o_name, purpose, name)
            for (o_pk, _o_label, purpose), o_name in zip(
                by_segment[pk], opening_names, strict=True
            )
        ]
    return segments, openings


def segments_for(user) -> QuerySet[GuardSegment]:
    return GuardSegment.objects.filter(
        cell__project__organisation__memberships__user=user
    ).select_related("cell__project")


def openings_for(user) -> QuerySet[Opening]:
    return Opening.objects.filter(
        segment__cell__project__organisation__memberships__user=user
    ).select_related("segment__cell__project")


def stations_for(user) -> QuerySet[OperatorStation]:
    return OperatorStation.objects.filter(
        cell__project__organisation__memberships__user=user
    ).select_related("cell__project")


def devices_for(user) -> QuerySet[Device]:
    # The opening's segment too: Device.clean() checks it is of the same cell.
    return Device.objects.filter(
        cell__project__organisation__memberships__user=user
    ).select_related("cell__project", "opening__segment")


def certificates_for(user) -> QuerySet[CellCertificate]:
    return CellCertificate.objects.filter(
        cell__project__organisation__memberships__user=user
    ).select_related("cell__project")


def cell_certificates(cell: Cell) -> QuerySet[CellCertificate]:
    """The certificates on file for a cell the caller has authorised, the
    longest-running first."""
    return cell.certificates.all()


def segment_doc(segment: GuardSegment, openings) -> GuardSegmentDoc:
    """A guard segment (saved or not) and the openings given as the document
    the plan, the export and the rules read."""
    return GuardSegmentDoc(
        label=segment.label,
        start=PointDoc(x_mm=segment.start_x_mm, y_mm=segment.start_y_mm),
        end=PointDoc(x_mm=segment.end_x_mm, y_mm=segment.end_y_mm),
        height_mm=segment.height_mm,
        bottom_gap_mm=segment.bottom_gap_mm,
        kind=segment.kind,
        mesh_opening_mm=segment.mesh_opening_mm,
        openings=[opening_doc(opening) for opening in openings],
    )


def opening_doc(opening: Opening) -> OpeningDoc:
    return OpeningDoc(
        label=opening.label,
        offset_mm=opening.offset_mm,
        width_mm=opening.width_mm,
        lower_edge_mm=opening.lower_edge_mm,
        upper_edge_mm=opening.upper_edge_mm,
        purpose=opening.purpose,
    )


def cell_document(cell: Cell) -> CellDocument:
    """The exchange document of a cell loaded by ``cell_with_layout``."""
    segments = list(cell.segments.all())
    places = {
        opening.pk: OpeningRef(segment=s_index, opening=o_index)
        for s_index, segment in enumerate(segments)
        for o_index, opening in enumerate(segment.openings.all())
    }
    document = CellDocument(
        format=FORMAT,
        name=cell.name,
        task_description=cell.task_description,
        application=cell.application,
        robot=RobotDoc(
            manufacturer=cell.robot_manufacturer,
            model=cell.robot_model,
            kind=cell.robot_kind,
            payload_kg=cell.payload_kg,
            reach_mm=cell.reach_mm,
            max_tcp_speed_mm_s=cell.max_tcp_speed_mm_s,
            moving_mass_kg=cell.moving_mass_kg,
            end_effector_mm=cell.end_effector_mm,
            workpiece_mm=cell.workpiece_mm,
            stopping_time_ms=cell.stopping_time_ms,
            stopping_distance_mm=cell.stopping_distance_mm,
            programmed_speed_mm_s=cell.programmed_speed_mm_s,
            safety_rated_limits=cell.safety_rated_limits,
            collaborative_modes=list(cell.collaborative_modes),
        ),
        robot_base=PointDoc(x_mm=cell.robot_base_x_mm, y_mm=cell.robot_base_y_mm),
        robot_base_rotation_deg=cell.robot_base_rotation_deg,
        hazard_zone=HazardZoneDoc(
            shape=cell.hazard_zone_shape,
            radius_mm=cell.hazard_zone_radius_mm,
            height_mm=cell.hazard_zone_height_mm,
            lower_mm=cell.hazard_zone_lower_mm,
            polygon_mm=[tuple(p) for p in cell.hazard_zone_polygon_mm],
            reduction_reason=cell.hazard_zone_reduction_reason,
        ),
        guard_segments=[],
        operator_stations=[],
        devices=[],
    )
    # Each element was checked as it was made; the caps on how many a
    # document holds are for what is imported. A cell stored with more
    # (written before the caps, or straight into the database) still draws,
    # exports and goes into its proposal.
    return document.model_copy(
        update={
            "guard_segments": [
                segment_doc(segment, segment.openings.all()) for segment in segments
            ],
            "operator_stations": [
                OperatorStationDoc(
                    label=station.label,
                    x_mm=station.x_mm,
                    y_mm=station.y_mm,
                    exposed_regions=station.exposed_regions,
                    contact_reach_mm=station.contact_reach_mm,
                )
                for station in cell.stations.all()
            ],
            "devices": [
                DeviceDoc(
                    label=device.label,
                    kind=device.kind,
                    opening=places.get(device.opening_id),
                    claimed_pl=device.claimed_pl,
                    response_time_ms=device.response_time_ms,
                    iec61496_type=device.iec61496_type,
                    guard_locking=device.guard_locking,
                    existing=device.existing,
                    kcs_certified=device.kcs_certified,
                    kcs_certificate_no=device.kcs_certificate_no,
                    detection_capability_mm=device.detection_capability_mm,
                    beam_count=device.beam_count,
                    protective_field_mm=device.protective_field_mm,
                    x1_mm=device.x1_mm,
                    y1_mm=device.y1_mm,
                    x2_mm=device.x2_mm,
                    y2_mm=device.y2_mm,
                    detection_lower_mm=device.detection_lower_mm,
                    detection_upper_mm=device.detection_upper_mm,
                    field_height_mm=device.field_height_mm,
                    supplement_z_mm=device.supplement_z_mm,
                    reach_over_ddo_mm=device.reach_over_ddo_mm,
                )
                for device in cell.devices.all()
            ],
        }
    )


def project_cells(project: Project) -> QuerySet[Cell]:
    """The cells of a project with the size of each layout."""
    return project.cells.filter(variant_of__isnull=True).annotate(
        segment_count=Count("segments", distinct=True),
        station_count=Count("stations", distinct=True),
    )


def layout_of(cell: Cell) -> Cell:
    """The cell again with its layout loaded; the caller has authorised it."""
    return Cell.objects.prefetch_related("segments__openings", "stations").get(
        pk=cell.pk
    )
