"""The cell as the rule packs see it: ``CellFacts`` built from the database.

Distances to the hazard zone are measured on the plan: from each guard segment,
opening and placed device to the zone's circle or polygon (0 where it reaches
into the zone, with the device marked as inside). Whatever relaxes a rule comes
from the latest signed revision of the risk assessment.
"""

from __future__ import annotations

from cells import geometry, perimeter
from cells import selectors as cell_selectors
from cells.models import Cell, Device
from cells.motion.path import rows_on_plan
from cells.naming import layout_names, opening_place
from cells.perimeter.closure import LineClosure, line_closure
from compliance.assessment import selectors
from compliance.assessment.content import PREVIEW_HASH
from compliance.rules.closing import LINE_KINDS
from compliance.rules.facts import (
    AssessmentFacts,
    CellFacts,
    CertificateFacts,
    ConformityFacts,
    ContactFacts,
    DeviceFacts,
    EditionFacts,
    FunctionFacts,
    LibraryPrice,
    OpeningFacts,
    SafetyConfigFacts,
    SegmentFacts,
)
from compliance.rules.inputs import CellInputs, cell_inputs
from compliance.rules.motion_facts import ProgramFacts, StationFacts
from compliance.safety_functions.models import LibraryDevice
from compliance.safety_functions.selectors import cell_functions


def _placed(device, zone) -> perimeter.Distance | None:
    """Where the device is drawn, measured from the zone: a curtain's or grid's
    detection line, a mat's outer edge (the far edge a person steps on first),
    a scanner's position. None when it is not placed."""
    p1 = (device.x1_mm, device.y1_mm)
    p2 = (device.x2_mm, device.y2_mm)
    has1, has2 = None not in p1, None not in p2
    if device.kind in ("light_curtain", "multibeam") and has1 and has2:
        a = (float(p1[0]), float(p1[1]))
        b = (float(p2[0]), float(p2[1]))
        return zone.distance_to_segment(a, b)
    if device.kind == "safety_mat" and has1 and has2:
        corners = perimeter.rectangle(
            (float(p1[0]), float(p1[1])), (float(p2[0]), float(p2[1]))
        )
        if zone.distance_to_polygon(corners).inside_zone:
            return perimeter.Distance(mm=0.0, inside_zone=True)
        edges = [
            zone.distance_to_segment(corners[i], corners[(i + 1) % 4]).mm
            for i in range(4)
        ]
        return perimeter.Distance(mm=max(edges), inside_zone=False)
    if device.kind == "laser_scanner" and has1:
        return zone.distance_to_point((float(p1[0]), float(p1[1])))
    return None


def _closures(cell: Cell) -> dict[int, LineClosure]:
    """How each light curtain or grid drawn on the plan stands to the opening
    it is linked to (``cells.perimeter.closure``), by device id."""
    guards = [(s.start, s.end) for s in cell.segments.all() if s.start != s.end]
    openings = {
        opening.pk: (segment, opening)
        for segment in cell.segments.all()
        for opening in segment.openings.all()
    }
    found = {}
    for device in cell.devices.all():
        ends = (device.x1_mm, device.y1_mm, device.x2_mm, device.y2_mm)
        if device.kind not in LINE_KINDS or None in ends:
            continue
        if device.opening_id not in openings or ends[:2] == ends[2:]:
            continue
        segment, opening = openings[device.opening_id]
        found[device.pk] = line_closure(
            guard=(segment.start, segment.end),
            opening_from_mm=float(opening.offset_mm),
            opening_to_mm=float(opening.offset_mm + opening.width_mm),
            line=(
                (float(ends[0]), float(ends[1])),
                (float(ends[2]), float(ends[3])),
            ),
            guards=guards,
        )
    return found


def _records(revision, hazards) -> dict[str, object]:
    return {
        "low_fence_justification": bool(revision.low_guard_justification.strip()),
        "conformity_route": bool(revision.conformity_route.strip()),
        "contact_regions": tuple(sorted({h.body_region for h in hazards})),
    }


def _contacts(hazards) -> tuple[ContactFacts, ...]:
    return tuple(
        ContactFacts(
            hazard_key=str(h.key),
            hazard_label=h.task,
            body_region=h.body_region,
            contact=h.contact_type or None,
            contact_area_cm2=(
                float(h.contact_area_cm2) if h.contact_area_cm2 is not None else None
            ),
        )
        for h in hazards
    )


def _plr_by_device(revision) -> dict[int, str]:
    """The highest PLr of the hazards whose measures rely on each device
    (the revision loaded with its hazards and measures)."""
    served: dict[int, str] = {}
    for hazard in revision.hazards.all():
        plr = None
        for measure in hazard.measures.all():
            if measure.device_id is None:
                continue
            plr = plr or selectors.hazard_plr(hazard) or ""
            if plr and plr > served.get(measure.device_id, ""):
                served[measure.device_id] = plr
    return served


def _assessment(
    inputs: CellInputs,
) -> tuple[AssessmentFacts, dict[int, str], bool]:
    """What the cell's latest signed revision records for the checks, and what
    a newer draft adds (pending, changing no verdict); the PLr each device
    serves in the signed revision; and whether that revision is the one being
    signed (the signing preview reads the findings as they will stand)."""
    if not inputs.assessment_exists:
        return AssessmentFacts(), {}, False
    signed, draft = inputs.signed, inputs.draft
    hazards = {
        revision.pk: list(revision.hazards.all())
        for revision in (signed, draft)
        if revision is not None
    }
    touching = {
        pk: [h for h in listed if h.body_region] for pk, listed in hazards.items()
    }
    kept = _records(signed, touching[signed.pk]) if signed else {}
    pending = []
    if draft is not None:
        for key, value in _records(draft, touching[draft.pk]).items():
            if value and value != kept.get(key):
                pending.append(key)
    being_signed = signed is not None and signed.content_hash == PREVIEW_HASH
    declaration = selectors.declaration_of(signed) if signed else None
    frozen = declaration.safety_configuration if declaration else None
    facts = AssessmentFacts(
        exists=True,
        signed=signed is not None,
        signed_revision=signed.number if signed else None,
        draft_revision=draft.number if draft else None,
        low_fence_justified=bool(kept.get("low_fence_justification")),
        contact_regions=kept.get("contact_regions", ()),
        contacts=_contacts(touching[signed.pk]) if signed else (),
        conformity_route_recorded=bool(kept.get("conformity_route")),
        pending=tuple(pending),
        phases=(
            tuple(dict.fromkeys(h.phase for h in hazards[signed.pk])) if signed else ()
        ),
        signed_safety_configuration=(
            SafetyConfigFacts(**frozen) if frozen is not None else None
        ),
        signed_cell_fingerprint=(
            declaration.cell_fingerprint if declaration is not None else None
        ),
    )
    return facts, (_plr_by_device(signed) if signed else {}), being_signed


def _certificates(cell: Cell) -> tuple[CertificateFacts, ...]:
    return tuple(
        CertificateFacts(
            kind=certificate.kind,
            number=certificate.number.strip(),
            issuing_body=certificate.issuing_body.strip(),
            issued_on=certificate.issued_on,
            valid_until=certificate.valid_until,
            scope=certificate.scope.strip(),
        )
        for certificate in cell.certificates.all()
    )


def _functions(rows) -> tuple[FunctionFacts, ...]:
    """The cell's safety functions with their computed PL and validation."""
    facts = []
    for row in rows:
        verdict = row.verdict
        result = verdict.result
        facts.append(
            FunctionFacts(
                key=f"function:{row.function.pk}",
                label=row.function.name,
                safeguard=row.function.safeguard,
                device_key=(
                    f"device:{row.function.device_id}"
                    if row.function.device_id
                    else None
                ),
                plr=verdict.plr.plr if verdict.plr.signed else None,
                plr_pending=None if verdict.plr.signed else verdict.plr.plr,
                pl=result.pl if result else None,
                subsystem_count=len(row.subsystems),
                inputs=sum(1 for s in row.subsystems if s.role == "input"),
                outputs=sum(1 for s in row.subsystems if s.role == "output"),
                tests_failed=len(verdict.tests_failed),
                tests_missing=len(verdict.tests_missing),
                one_source=bool(result and result.certainty == "one_source"),
            )
        )
    return tuple(facts)


def _library_entries(devices) -> dict[int, LibraryDevice]:
    """The library entries the devices were chosen from, by id: those the
    caller's query loaded with the devices (``select_related``), and the
    others in one query, never one per device."""
    found: dict[int, LibraryDevice] = {}
    missing = set()
    for device in devices:
        if device.library_device_id is None:
            continue
        if Device.library_device.is_cached(device):
            found[device.library_device_id] = device.library_device
        else:
            missing.add(device.library_device_id)
    if missing:
        found |= LibraryDevice.objects.in_bulk(missing)
    return found


def _library_price(entry: LibraryDevice | None) -> LibraryPrice | None:
    """What the bill of materials prices a device from its library entry
    with. An entry without a whole price (both ends and a currency; the
    library's forms refuse less) counts as not priced: to be quoted."""
    if entry is None:
        return None
    priced = entry.price_low is not None and bool(entry.currency)
    high = entry.price_high if entry.price_high is not None else entry.price_low
    lead_low = entry.lead_time_weeks_low
    lead_high = entry.lead_time_weeks_high if lead_low is not None else None
    return LibraryPrice(
        key=entry.key,
        name=str(entry),
        price_low=entry.price_low if priced else None,
        price_high=high if priced else None,
        currency=entry.currency if priced else None,
        price_source=entry.price_source.strip() if priced else "",
        price_date=entry.price_date if priced else None,
        lead_time_weeks_low=lead_low,
        lead_time_weeks_high=lead_low if lead_high is None else lead_high,
    )


def _program(cell: Cell, program) -> ProgramFacts:
    """A robot program's path on the cell's plan: the robot base's place and
    rotation applied to the stored base-frame segments."""
    return ProgramFacts(
        key=f"program:{program.pk}",
        label=program.file_name,
        format=program.format,
        sha256=program.sha256,
        segments=tuple(
            rows_on_plan(
                program.segments,
                base_x_mm=float(cell.robot_base_x_mm),
                base_y_mm=float(cell.robot_base_y_mm),
                rotation_deg=float(cell.robot_base_rotation_deg),
            )
        ),
        not_checked=tuple(
            (int(line), str(reason)) for line, reason, *_ in program.not_checked
        ),
    )


def cell_facts(cell: Cell, *, functions=None) -> CellFacts:
    """Facts of a cell loaded with its layout (``cells.selectors.cell_with_layout``),
    and with what else they read (``compliance.rules.inputs``), read once.

    Every distance to the hazard zone is measured on the plan, never typed: a
    guard segment or an opening from its line, a device from where it is drawn.
    """
    inputs = cell_inputs(cell).load()
    zone = cell_selectors.plan_of(cell).zone
    segments, openings = [], []
    layout = list(cell.segments.all())
    names = layout_names(
        (segment.label, [o.label for o in segment.openings.all()]) for segment in layout
    )
    for segment, (name, opening_names) in zip(layout, names, strict=True):
        start, end = segment.start, segment.end
        segments.append(
            SegmentFacts(
                key=f"segment:{segment.pk}",
                label=name,
                kind=segment.kind,
                height_mm=segment.height_mm,
                length_mm=segment.length_mm,
                horizontal_distance_to_hazard_mm=zone.distance_to_segment(
                    start, end
                ).mm,
                mesh_opening_mm=segment.mesh_opening_mm,
                start_mm=start,
                end_mm=end,
                bottom_gap_mm=segment.bottom_gap_mm,
            )
        )
        for opening, opening_name in zip(
            segment.openings.all(), opening_names, strict=True
        ):
            a = geometry.point_along(start, end, opening.offset_mm)
            b = geometry.point_along(start, end, opening.offset_mm + opening.width_mm)
            openings.append(
                OpeningFacts(
                    key=f"opening:{opening.pk}",
                    label=opening_place(name, opening_name),
                    segment_key=f"segment:{segment.pk}",
                    purpose=opening.purpose,
                    width_mm=opening.width_mm,
                    lower_edge_mm=opening.lower_edge_mm,
                    upper_edge_mm=opening.upper_edge_mm,
                    distance_to_hazard_mm=zone.distance_to_segment(a, b).mm,
                    start_mm=a,
                    end_mm=b,
                )
            )
    assessment, plr_by_device, being_signed = _assessment(inputs)
    closures = _closures(cell)
    devices = []
    library = _library_entries(cell.devices.all())
    for device in cell.devices.all():
        distance = _placed(device, zone)
        devices.append(
            DeviceFacts(
                key=f"device:{device.pk}",
                label=device.label,
                kind=device.kind,
                opening_key=(
                    f"opening:{device.opening_id}" if device.opening_id else None
                ),
                iec61496_type=device.iec61496_type,
                kcs_certified=device.kcs_certified,
                kcs_certificate_no=device.kcs_certificate_no.strip(),
                response_time_ms=device.response_time_ms or None,
                detection_capability_mm=device.detection_capability_mm or None,
                beam_count=device.beam_count or None,
                protective_field_mm=device.protective_field_mm or None,
                position_mm=(
                    (float(device.x1_mm), float(device.y1_mm))
                    if device.kind == "laser_scanner"
                    and None not in (device.x1_mm, device.y1_mm)
                    else None
                ),
                field_height_mm=device.field_height_mm,
                detection_lower_mm=device.detection_lower_mm,
                detection_upper_mm=device.detection_upper_mm or None,
                guard_locking=device.guard_locking,
                supplement_z_mm=device.supplement_z_mm,
                reach_over_ddo_mm=device.reach_over_ddo_mm,
                existing=device.existing,
                distance_to_hazard_mm=distance.mm if distance else None,
                placed=distance is not None,
                inside_hazard_zone=bool(distance and distance.inside_zone),
                closure=closures.get(device.pk),
                plr_served=plr_by_device.get(device.pk),
                library=_library_price(library.get(device.library_device_id)),
            )
        )
    layout = cell_selectors.plan_of(cell)
    zone_fields = (
        {"zone_polygon_mm": zone.points}
        if isinstance(zone, perimeter.PolygonZone)
        else {"zone_centre_mm": zone.centre, "zone_radius_mm": zone.radius_mm}
    )
    config = cell.safety_configuration
    facts = CellFacts(
        country=cell.project.country,
        robot_kind=cell.robot_kind,
        robot_max_speed_mm_s=cell.max_tcp_speed_mm_s,
        # A time shorter than the recorded stopping distance takes is checked
        # as that shortest time (cells.models.Cell.stopping_time_checked_ms).
        robot_stopping_time_ms=cell.stopping_time_checked_ms,
        robot_stopping_distance_mm=cell.stopping_distance_mm,
        robot_moving_mass_kg=float(cell.moving_mass_kg),
        payload_kg=float(cell.payload_kg),
        hazard_zone_height_mm=cell.hazard_zone_height_mm,
        hazard_zone_lower_mm=zone.lower_mm,
        collaborative_modes=tuple(cell.collaborative_modes),
        programmed_speed_mm_s=cell.programmed_speed_mm_s or None,
        segments=tuple(segments),
        openings=tuple(openings),
        devices=tuple(devices),
        assessment=assessment,
        certificates=_certificates(cell),
        # The caller may pass the rows it has read already (the proposal).
        functions=_functions(
            cell_functions(cell, inputs=inputs) if functions is None else functions
        ),
        # Certificates are judged valid or not on the day of the check.
        checked_on=inputs.checked_on,
        layout=layout,
        editions=EditionFacts(**cell.project.editions),
        planned_start=cell.project.planned_start,
        safety_configuration=SafetyConfigFacts(**config) if config else None,
        safety_rated_limits=cell.safety_rated_limits,
        stations=tuple(
            StationFacts(
                key=f"station:{station.pk}",
                label=station.label,
                position_mm=(float(station.x_mm), float(station.y_mm)),
                exposed_regions=tuple(station.exposed_regions or ()),
                contact_reach_mm=station.contact_reach_mm or None,
            )
            for station in cell.stations.all()
        ),
        programs=tuple(_program(cell, program) for program in inputs.programs),
        conformity=ConformityFacts(
            annex_category=cell.annex_i_category or None,
            procedure=cell.conformity_procedure or None,
            harmonised_standards=cell.harmonised_standards,
        ),
        **zone_fields,
    )
    if being_signed:
        # The revision is being signed: what signing freezes is the cell as
        # it stands, so read the findings as they will stand then.
        frozen = facts.assessment.model_copy(
            update={
                "signed_safety_configuration": facts.safety_configuration,
                "signed_cell_fingerprint": facts.cell_fingerprint(),
            }
        )
        facts = facts.model_copy(update={"assessment": frozen})
    return facts
