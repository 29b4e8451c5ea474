"""Line items for guarding and safety devices: fence metres (net of openings,
at the height the findings require), every device the layout records, a
device for each unguarded opening, the scanner SSM needs, the safety
controller and the emergency stops. Pure Python, no Django."""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal

from compliance.calculators.base import Line, gettext_noop
from compliance.costs.builder import LineBuilder, as_decimal, plain_number
from compliance.costs.line_items import (
    KCS_NEW_DEVICE_NOTE,
    SAFETY_FUNCTION_CITATION,
    LineItem,
)
from compliance.rules import baseline, collaborative, korea
from compliance.rules.facts import SENSING_DEVICE_KINDS, LibraryPrice, SegmentFacts
from compliance.rules.findings import mm

# The catalogue entry that prices a recorded device of each kind.
DEVICE_ENTRIES = {
    kind: kind
    for kind in (
        "light_curtain",
        "multibeam",
        "safety_mat",
        "laser_scanner",
        "interlocked_door",
        "emergency_stop",
        "safety_controller",
    )
}
# The kinds the catalogue has no entry for: their lines are to be quoted.
DEVICE_NAMES = {
    "enabling_device": gettext_noop("Enabling device"),
    "other": gettext_noop("Safety device"),
}
NO_CATALOGUE_ENTRY = gettext_noop(
    "The catalogue has no entry for this kind of device: ask suppliers for a quote."
)
NO_LIBRARY_PRICE = gettext_noop(
    "The device library has no price for this device: ask suppliers for a quote."
)


def fence(b: LineBuilder) -> None:
    # Segments priced at the same height share a line; a segment priced
    # above its recorded height (a failing Art. 223 height) gets a line of
    # its own per recorded height, so the line can say why.
    groups: dict[tuple[Decimal, Decimal | None], list[SegmentFacts]] = {}
    for segment in b.facts.segments:
        if segment.kind != "fence":
            continue
        recorded = as_decimal(segment.height_mm)
        required = b.required_heights.get(segment.key)
        if required is not None and required > recorded:
            groups.setdefault((required, recorded), []).append(segment)
        else:
            groups.setdefault((recorded, None), []).append(segment)
    gaps: dict[str, Decimal] = {}
    for opening in b.facts.openings:
        gaps[opening.segment_key] = gaps.get(
            opening.segment_key, Decimal(0)
        ) + as_decimal(opening.width_mm)
    for (height, raised_from), segments in groups.items():
        gross_mm = sum((as_decimal(s.length_mm) for s in segments), Decimal(0))
        gaps_mm = sum((gaps.get(s.key, Decimal(0)) for s in segments), Decimal(0))
        net_mm = sum(
            (
                max(as_decimal(s.length_mm) - gaps.get(s.key, Decimal(0)), Decimal(0))
                for s in segments
            ),
            Decimal(0),
        )
        metres = (net_mm / 1000).quantize(Decimal("0.1"), rounding=ROUND_CEILING)
        if metres == 0:
            continue
        values: dict[str, str | int | float] = {
            "height": mm(float(height)),
            "segments": ", ".join(s.label for s in segments),
            "metres": plain_number(metres),
            "gross": plain_number(gross_mm / 1000),
            "openings": plain_number(gaps_mm / 1000),
        }
        length = (
            gettext_noop(
                "%(metres)s m of fence: the segments' %(gross)s m less "
                "%(openings)s m of openings, rounded up to 0.1 m. The doors "
                "and sensing devices that fill the openings are priced on "
                "their own lines."
            )
            if gaps_mm
            else gettext_noop(
                "%(metres)s m of fence: the segments' lengths summed and "
                "rounded up to 0.1 m."
            )
        )
        if raised_from is None:
            _fence_line(b, height, metres, segments, values, length)
        else:
            _raised_fence_line(b, height, raised_from, metres, segments, values, length)


def _fence_rules(b: LineBuilder) -> tuple[tuple[str, ...], str]:
    if b.korea:
        return (korea.FENCE_HEIGHT.id,), korea.FENCE_HEIGHT.citation
    return (baseline.REACH_OVER.id, baseline.MESH.id), baseline.REACH_OVER.citation


def _fence_line(
    b,
    height: Decimal,
    metres: Decimal,
    segments: list[SegmentFacts],
    values: dict[str, str | int | float],
    length: str,
) -> None:
    rule_ids, citation = _fence_rules(b)
    b.add(
        "fence",
        key=f"fence:{plain_number(height)}",
        quantity=metres,
        description=Line(
            text=gettext_noop("Safety fence, %(height)s mm high (%(segments)s)"),
            values=values,
        ),
        reason=Line(text=length, values=values),
        citation=citation,
        findings=b.about(rule_ids, (s.key for s in segments)),
    )


def _raised_fence_line(
    b,
    height: Decimal,
    recorded: Decimal,
    metres: Decimal,
    segments: list[SegmentFacts],
    values: dict[str, str | int | float],
    length: str,
) -> None:
    values = values | {"recorded": mm(float(recorded))}
    b.add(
        "fence",
        key=f"fence:{plain_number(height)}:from:{plain_number(recorded)}",
        quantity=metres,
        description=Line(
            text=gettext_noop(
                "Safety fence, %(height)s mm high, the height Art. 223 "
                "requires (%(segments)s, recorded %(recorded)s mm)"
            ),
            values=values,
        ),
        reason=Line(
            text=gettext_noop(
                "%(segments)s: recorded %(recorded)s mm high, below the "
                "%(height)s mm fence that Art. 223 requires (the fence-height "
                "finding fails), so the fence is priced at the required "
                "%(height)s mm. If the risk assessment records why a lower "
                "guard carries no height-related risk and is signed, the "
                "finding changes and so does this line."
            ),
            values=values,
        ),
        citation=korea.FENCE_HEIGHT.citation,
        findings=b.about((korea.FENCE_HEIGHT.id,), (s.key for s in segments)),
        notes=(Line(text=length, values=values),),
    )


def recorded_devices(b: LineBuilder) -> None:
    for device in b.facts.devices:
        entry_key = DEVICE_ENTRIES.get(device.kind)
        entry = b.catalogue.get(entry_key) if entry_key else None
        name = entry.name if entry else DEVICE_NAMES.get(device.kind, device.kind)
        values = {"name": name, "label": device.label}
        description = Line(
            text=gettext_noop("%(name)s: %(label)s, recorded in the layout"),
            values=values,
        )
        if device.existing:
            reason = Line(
                text=gettext_noop(
                    "%(label)s is existing equipment, already at the customer's: "
                    "listed so the plan shows every device the cell relies on, "
                    "not bought."
                ),
                values=values,
            )
        else:
            reason = Line(
                text=gettext_noop(
                    "%(label)s is recorded in the cell's layout: priced so that "
                    "the budget covers every device the cell uses. If it is "
                    "already in place, mark it as existing equipment."
                ),
                values=values,
            )
        quantity = Decimal(0) if device.existing else Decimal(1)
        refs = tuple(r for r in b.refs if r.subject_key == device.key)
        if device.opening_key is not None:
            refs += b.about((korea.OPENINGS.id,), (device.opening_key,))
        key = f"recorded:{device.key}"
        if device.library is not None:
            b.items.append(
                _library_line(
                    device.library,
                    key=key,
                    catalogue_key=entry_key if entry is not None else None,
                    quantity=quantity,
                    description=description,
                    reason=reason,
                    findings=refs,
                )
            )
            continue
        if entry_key is not None and entry is not None:
            b.add(
                entry_key,
                key=key,
                quantity=quantity,
                description=description,
                reason=reason,
                findings=refs,
            )
            continue
        b.items.append(
            LineItem(
                key=key,
                catalogue_key=None,
                category="device",
                description=description,
                quantity=quantity,
                unit="piece",
                reason=reason,
                findings=refs,
                basis="unknown",
                source=NO_CATALOGUE_ENTRY,
            )
        )


def _library_line(
    library: LibraryPrice,
    *,
    key: str,
    catalogue_key: str | None,
    quantity: Decimal,
    description: Line,
    reason: Line,
    findings: tuple,
) -> LineItem:
    """A recorded device chosen from the organisation's device library: priced
    from the library entry (its range, currency, lead time, and the source and
    date of its price), or to be quoted when the entry has no price, never
    from the catalogue's price for the kind."""
    lead = {
        "lead_time_weeks_low": library.lead_time_weeks_low,
        "lead_time_weeks_high": library.lead_time_weeks_high,
    }
    common = {
        "key": key,
        "catalogue_key": catalogue_key,
        "category": "device",
        "description": description,
        "quantity": quantity,
        "unit": "piece",
        "reason": reason,
        "findings": findings,
        **lead,
    }
    if not library.priced:
        return LineItem(
            **common,
            basis="unknown",
            source=NO_LIBRARY_PRICE,
            notes=(
                Line(
                    text=gettext_noop(
                        "Chosen from the device library: %(device)s, which has no "
                        "price yet. Enter the supplier's quote in the library to "
                        "price every cell that uses it."
                    ),
                    values={"device": library.name},
                ),
            ),
        )
    values = {
        "device": library.name,
        "source": library.price_source,
        "date": library.price_date.isoformat() if library.price_date else "",
    }
    note = (
        gettext_noop("Priced from the device library: %(device)s, %(source)s, %(date)s")
        if library.price_date
        else gettext_noop(
            "Priced from the device library: %(device)s, %(source)s (no date given)"
        )
    )
    return LineItem(
        **common,
        price_low=library.price_low,
        price_high=library.price_high,
        currency=library.currency,
        price_date=values["date"] or None,
        basis="organisation",
        source=library.price_source,
        lead_time_source=(
            library.price_source if library.lead_time_weeks_low is not None else None
        ),
        notes=(Line(text=note, values=values),),
    )


def openings(b: LineBuilder) -> None:
    for opening in b.facts.openings:
        linked = b.facts.devices_for(opening.key)
        guarded = any(
            d.kind in SENSING_DEVICE_KINDS or d.kind == "interlocked_door"
            for d in linked
        )
        refs = b.about((korea.OPENINGS.id,), (opening.key,))
        if guarded and not any(r.status == "fail" for r in refs):
            continue
        material = opening.purpose == "material_entry"
        entry_key = "light_curtain" if material else "interlocked_door"
        if any(d.kind == entry_key for d in linked):
            continue  # recorded at the opening: its own line prices it
        values = {"opening": opening.label, "width": mm(opening.width_mm)}
        if material and b.korea:
            reason = gettext_noop(
                "%(opening)s (%(width)s mm wide, material entry) has no "
                "protective device linked to it. Art. 223 requires a "
                "presence-sensing protective device, such as a light curtain "
                "or a safety mat, where a fence cannot be installed."
            )
        elif material:
            reason = gettext_noop(
                "%(opening)s (%(width)s mm wide, material entry) has no "
                "protective device linked to it: a light curtain is planned "
                "so that nobody reaches the hazard through it unnoticed. The "
                "risk assessment decides the final measure."
            )
        elif b.korea:
            reason = gettext_noop(
                "%(opening)s (%(width)s mm wide, an access or maintenance "
                "opening) has no interlocked door or protective device linked "
                "to it: an interlocked guard door is planned, closing the Art. "
                "223 fence."
            )
        else:
            reason = gettext_noop(
                "%(opening)s (%(width)s mm wide, an access or maintenance "
                "opening) has no interlocked door or protective device linked "
                "to it: an interlocked guard door is planned. The risk "
                "assessment decides the final measure."
            )
        description = (
            gettext_noop("Safety light curtain at %(opening)s")
            if material
            else gettext_noop("Interlocked guard door at %(opening)s")
        )
        b.add(
            entry_key,
            key=f"{entry_key}:{opening.key}",
            quantity=Decimal(1),
            description=Line(text=description, values=values),
            reason=Line(text=reason, values=values),
            citation=(
                korea.OPENINGS.citation
                if b.korea
                else baseline.RISK_ASSESSMENT.citation
            ),
            findings=refs,
            notes=((Line(text=KCS_NEW_DEVICE_NOTE),) if b.korea and material else ()),
        )


def laser_scanner(b: LineBuilder) -> None:
    facts = b.facts
    if "ssm" not in facts.collaborative_modes or facts.devices_of("laser_scanner"):
        return
    b.add(
        "laser_scanner",
        key="laser_scanner",
        quantity=Decimal(1),
        reason=Line(
            text=gettext_noop(
                "Speed and separation monitoring keeps the robot at least the "
                "protective separation distance from a person, which a safety "
                "laser scanner's protective field must cover; the cell records "
                "no laser scanner."
            )
        ),
        citation=collaborative.SSM.citation,
        findings=b.about((collaborative.SSM.id,)),
        notes=(Line(text=KCS_NEW_DEVICE_NOTE),) if b.korea else (),
    )


def controller_io_note(b: LineBuilder) -> tuple[Line, ...]:
    """How many safety inputs and outputs the cell's safety functions use,
    counted from their input and output subsystems."""
    if not b.facts.functions:
        return ()
    inputs = sum(f.inputs for f in b.facts.functions)
    outputs = sum(f.outputs for f in b.facts.functions)
    return (
        Line(
            text=gettext_noop(
                "Safety inputs and outputs the cell's safety functions use (one "
                "per input and output subsystem): inputs %(inputs)s, outputs "
                "%(outputs)s (functions: %(count)s). Size the controller for them."
            ),
            values={
                "count": len(b.facts.functions),
                "inputs": inputs,
                "outputs": outputs,
            },
        ),
    )


def safety_controller(b: LineBuilder) -> None:
    recorded = b.facts.devices_of("safety_controller")
    if recorded:
        # The recorded controller's line says what the functions use of it.
        key = f"recorded:{recorded[0].key}"
        for index, item in enumerate(b.items):
            if item.key == key:
                b.items[index] = item.model_copy(
                    update={"notes": (*item.notes, *controller_io_note(b))}
                )
        return
    b.add(
        "safety_controller",
        key="safety_controller",
        quantity=Decimal(1),
        reason=Line(
            text=gettext_noop(
                "No safety controller is recorded: the protective devices and "
                "emergency stops need safety-rated logic to stop the robot, at "
                "the performance level required for each safety function. If "
                "the robot controller's integrated safety functions do this, "
                "set the quantity to 0."
            )
        ),
        citation=SAFETY_FUNCTION_CITATION,
        notes=controller_io_note(b),
    )


def emergency_stops(b: LineBuilder, stations: int | None) -> None:
    required = 1 if stations is None else max(1, stations)
    present = len(b.facts.devices_of("emergency_stop"))
    if present >= required:
        return
    values = {"required": required, "present": present}
    if stations is None:
        reason = gettext_noop(
            "At least one emergency stop per cell (no operator stations are "
            "recorded); the cell records %(present)s."
        )
    else:
        values["stations"] = stations
        reason = gettext_noop(
            "One emergency stop per operator station, at least one: "
            "%(required)s for %(stations)s stations; the cell records "
            "%(present)s."
        )
    b.add(
        "emergency_stop",
        key="emergency_stop",
        quantity=Decimal(required - present),
        reason=Line(text=reason, values=values),
        notes=(
            Line(
                text=gettext_noop(
                    "A planning rule of this application, not taken from a "
                    "cited clause: adjust it to the risk assessment."
                )
            ),
        ),
    )
