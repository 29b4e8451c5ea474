"""The safeguarded space, judged from the drawn geometry (every rule pack).

- ISO 10218-2:2025 safeguarding and ISO 14120 guards: the hazard zone of a
  robot without collaborative operation lies inside a closed perimeter of
  guards; an open perimeter, an unguarded gap, or a zone that touches or
  crosses the perimeter fails (``cells.perimeter`` works out the loops, gaps
  and crossings, with a stated join tolerance);
- every opening in the perimeter is guarded (an interlocked door or a sensing
  device linked to it) or shown by ISO 13857 Table 4 to be out of reach for
  its size at its distance;
- ISO 13857 Table 7: the gap under a guard keeps feet and legs away.

A verdict rests on the plan: a cell without a plan, or with guards whose
positions are not recorded, needs evidence; nothing here passes on text.
Pure Python, no Django.
"""

from __future__ import annotations

from cells.perimeter import Gap, Layout, PerimeterResult, Segment, analysed
from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13857_gaps import (
    CLAUSE_GAP,
    GapUnderGuardInput,
    gap_under_guard,
)
from compliance.calculators.iso13857_openings import (
    CLAUSE_OPENING,
    OpeningInput,
    opening,
)
from compliance.calculators.iso13857_tables import TABLE4_OPENINGS
from compliance.rules.closing import not_closing
from compliance.rules.facts import CELL_SUBJECT, CellFacts
from compliance.rules.findings import (
    OUTSIDE_COVERAGE,
    REFERENCE_SET_DATE,
    Finding,
    Rule,
    RuleCertainty,
    Status,
    calculate,
    mm,
    number,
)

_CELL = (CELL_SUBJECT, gettext_noop("Cell"))
# The widest opening ISO 13857 Table 4 covers (120 mm): a wider gap lets a
# person through.
TABLE4_MAX_MM = TABLE4_OPENINGS.rows[-1].e_max_mm
# iso10218_2025.json changes[6] ("whole-cell risk assessment") and the
# product brief: guarding of the robot's maximum space; ISO 14120 for guards.
SAFEGUARDING_SOURCES = (
    "https://www.robolist.ai/guides/industrial-arm/safety-zones-scanners-fencing",
    "https://industrialsafetysensor.com/?p=2172",
)
GUARDING_KINDS = (
    "interlocked_door",
    "light_curtain",
    "multibeam",
    "safety_mat",
    "laser_scanner",
)


def needs_perimeter(facts: CellFacts) -> bool:
    """A robot without collaborative operation needs its whole maximum space
    guarded, whatever kind of robot it is: "collaborative robot, therefore no
    fence" is never automatic."""
    return not facts.collaborative_modes


def perimeter_of(facts: CellFacts) -> PerimeterResult | None:
    """The perimeter worked out from the plan, or None without a plan: once
    for a plan, however many rules and the proposal's summary ask."""
    if facts.layout is None:
        return None
    return analysed(facts.layout)


# --- the hazard zone inside a closed perimeter -------------------------------


def _check_enclosure(facts: CellFacts) -> list[Finding]:
    rule = ENCLOSURE
    if not needs_perimeter(facts):
        result = perimeter_of(facts) if facts.segments else None
        if result is None or not result.enclosure.enclosed:
            return [
                rule.finding(
                    Status.WARNING,
                    _CELL,
                    gettext_noop(
                        "The cell relies on collaborative operation instead of a "
                        "closed perimeter guard: every collaborative rule below "
                        "must pass, and any part of the robot's space outside the "
                        "collaborative workspace still needs safeguarding."
                    ),
                )
            ]
        # A collaborative cell that is fenced all round as well: judged as
        # any fenced cell below.
    if not facts.segments:
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "No guard is drawn: nothing keeps a person out of the robot's "
                    "hazard zone. Draw the perimeter guarding (fence, walls, "
                    "machine bodies) with its openings."
                ),
            )
        ]
    result = perimeter_of(facts)
    if result is None:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "The positions of the guards are not recorded, so whether they "
                    "enclose the hazard zone cannot be checked: draw them on the "
                    "plan."
                ),
            )
        ]
    findings: list[Finding] = []
    tolerance = {"tolerance": mm(result.join_tolerance_mm)}
    # The guards by their labels, as the plan shows them; a loop by the
    # guards it runs along.
    names = {segment.key: segment.label or segment.key for segment in facts.segments}
    loops = {
        loop.key: "–".join(names[key] for key in loop.segment_keys if key in names)
        for loop in result.loops
    }
    heights = {segment.key: segment.height_mm for segment in facts.segments}
    closed = []
    for gap in result.gaps:
        a, b = gap.ends
        values = {
            **tolerance,
            "a": names.get(a.segment_key, a.segment_key),
            "b": names.get(b.segment_key, b.segment_key),
            "width": mm(gap.width_mm),
            "distance": mm(gap.distance.mm),
        }
        subject = (gap.key, gettext_noop("Unguarded gap"))
        numbers = {
            "width_mm": number(gap.width_mm),
            "distance_mm": number(gap.distance.mm),
        }
        # A gap in a guard is an opening: one narrow enough for ISO 13857
        # Table 4 is judged by its width and distance, as an opening is.
        judged = (
            None
            if gap.ambiguous or gap.distance.inside_zone
            else _gap_judged(rule, gap, subject, values, numbers, heights)
        )
        if judged is not None:
            findings.append(judged)
            if judged.status is Status.PASS:
                closed.append(gap)
            continue
        message = (
            gettext_noop(
                "The perimeter is open between the free ends of %(a)s and %(b)s: "
                "an unguarded gap about %(width)s mm wide (which ends face each "
                "other is uncertain), %(distance)s mm from the hazard zone. Close "
                "it with guarding, or make it an opening and guard that."
            )
            if gap.ambiguous
            else gettext_noop(
                "The perimeter is open between the free ends of %(a)s and %(b)s: "
                "an unguarded gap %(width)s mm wide, %(distance)s mm from the "
                "hazard zone, that is no opening. Close it with guarding, or make "
                "it an opening and guard that."
            )
        )
        findings.append(
            rule.finding(Status.FAIL, subject, message, values=values, numbers=numbers)
        )
    if closed and facts.layout is not None:
        # Gaps out of reach close the perimeter as guarding does: whether it
        # encloses the zone is judged with them closed.
        result = analysed(_with_closed(facts.layout, closed, heights))
    enclosure = result.enclosure
    notes = tuple(
        Line(
            text=n.text,
            values={
                k: loops.get(v, names.get(v, v)) if isinstance(v, str) else v
                for k, v in n.values.items()
            },
        )
        for n in result.notes
    )
    if enclosure.enclosed:
        findings.append(
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop(
                    "The hazard zone lies inside the closed perimeter %(loop)s, "
                    "%(clearance)s mm from it at the nearest point (ends closer "
                    "than %(tolerance)s mm count as joined)."
                ),
                values={
                    **tolerance,
                    "loop": loops.get(enclosure.loop_key or "", ""),
                    "clearance": mm(enclosure.clearance_mm or 0),
                },
                numbers={"clearance_mm": number(enclosure.clearance_mm or 0)},
                notes=notes,
            )
        )
    elif enclosure.reason == "zone_crosses_perimeter":
        reach = enclosure.reach_past_mm or 0
        findings.append(
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The hazard zone reaches %(reach)s mm past the perimeter "
                    "%(loop)s: the robot, its tool or its workpiece can reach "
                    "beyond the guarding. Move the guards out, or limit the "
                    "robot's space with safety-rated soft axis and space limiting."
                )
                if reach > 0
                else gettext_noop(
                    "The hazard zone touches the perimeter %(loop)s: the robot, "
                    "its tool or its workpiece reaches the guarding itself. Move "
                    "the guards out."
                ),
                values={
                    "reach": mm(reach),
                    "loop": loops.get(enclosure.loop_key or "", ""),
                },
                numbers={"reach_past_mm": number(reach)},
                notes=notes,
            )
        )
    elif enclosure.reason == "zone_outside_every_loop":
        findings.append(
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The guards drawn close a perimeter, but the hazard zone lies "
                    "outside it: nothing guards the robot's space."
                ),
                notes=notes,
            )
        )
    elif not result.gaps:
        findings.append(
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The guards drawn do not close a perimeter round the hazard zone."
                ),
                notes=notes,
            )
        )
    return findings


def _gap_judged(
    rule: Rule,
    gap: Gap,
    subject: tuple[str, str],
    values: dict[str, str | int | float],
    numbers: dict[str, int | float],
    heights: dict[str, float],
) -> Finding | None:
    """A gap narrow enough for ISO 13857 Table 4, judged as a slot as high as
    the lower of the guards either side, at its distance from the zone; None
    for a wider gap (a person walks through)."""
    if gap.width_mm > TABLE4_MAX_MM:
        return None
    height = min(heights.get(end.segment_key, 0.0) for end in gap.ends)
    result, error = calculate(
        opening,
        OpeningInput,
        opening_shape="slot",
        opening_size_mm=gap.width_mm,
        opening_length_mm=height if height > 0 else None,
        distance_to_hazard_mm=gap.distance.mm,
    )
    if result is None:
        return rule.outside_coverage(subject, values, error, numbers=numbers)
    if result.verdict == "pass":
        values = {**values, "required": mm(result.safety_distance_mm or 0)}
        return rule.from_result(
            Status.PASS,
            subject,
            gettext_noop(
                "The %(width)s mm gap between %(a)s and %(b)s is %(distance)s mm "
                "from the hazard zone: out of reach for its width, as ISO 13857 "
                "Table 4 asks %(required)s mm. It closes the perimeter as guarding "
                "does."
            ),
            result,
            values=values,
            numbers=numbers,
            citation=CLAUSE_OPENING,
        )
    if result.verdict == "fail" and result.safety_distance_mm is not None:
        values = {**values, "required": mm(result.safety_distance_mm)}
        return rule.from_result(
            Status.FAIL,
            subject,
            gettext_noop(
                "The %(width)s mm gap between %(a)s and %(b)s is only %(distance)s "
                "mm from the hazard zone; ISO 13857 Table 4 asks %(required)s mm "
                "for a gap of its width. Close it, or move the guards so that it "
                "is far enough."
            ),
            result,
            values=values,
            numbers={**numbers, "required_mm": result.safety_distance_mm},
            citation=CLAUSE_OPENING,
        )
    return rule.from_result(
        Status.NEEDS_EVIDENCE,
        subject,
        result.undetermined_reason or result.reason or OUTSIDE_COVERAGE,
        result,
        values=values,
        numbers=numbers,
        citation=CLAUSE_OPENING,
    )


def _with_closed(layout: Layout, gaps: list[Gap], heights: dict[str, float]) -> Layout:
    """The plan with each of ``gaps`` closed by a guard between its ends."""
    return layout.model_copy(
        update={
            "segments": (
                *layout.segments,
                *(
                    Segment(
                        key=f"{gap.key}:closed",
                        start=gap.ends[0].point,
                        end=gap.ends[1].point,
                        height_mm=min(
                            heights.get(end.segment_key, 0.0) or 1.0 for end in gap.ends
                        ),
                    )
                    for gap in gaps
                ),
            )
        }
    )


ENCLOSURE = Rule(
    id="INTL-safeguarded-space",
    jurisdiction="INTL",
    citation=(
        "ISO 10218-2:2025 (safeguarding of the robot cell); ISO 14120 (guards); "
        "ISO 12100:2010, 6.3"
    ),
    text=gettext_noop(
        "Without collaborative operation the robot's maximum space (its reach plus the "
        "end effector and the workpiece) must lie inside a closed perimeter of guards, "
        "with every opening in it guarded. Checked on the plan: the guard segments "
        "must join end to end into a closed loop round the hazard zone without "
        "touching it; a gap that is no opening, or a zone reaching past the guarding, "
        "fails. A robot built for collaborative applications needs this too unless the "
        "cell is a collaborative application (uses a collaborative operation mode)."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",  # ISO 10218-2:2025 details not read
    sources=SAFEGUARDING_SOURCES,
    check=_check_enclosure,
    # Raised when the check changes (issue 27).
    revision=2,
)


# --- every opening guarded, or out of reach for its size -----------------------


def _check_openings(facts: CellFacts) -> list[Finding]:
    rule = OPENINGS_GUARDED
    if not needs_perimeter(facts):
        return []
    findings = []
    for o in facts.openings:
        subject = (o.key, o.label)
        height = o.upper_edge_mm - o.lower_edge_mm
        values: dict[str, str | int | float] = {
            "label": o.label,
            "width": mm(o.width_mm),
            "height": mm(height),
        }
        linked = [d for d in facts.devices_for(o.key) if d.kind in GUARDING_KINDS]
        open_by = [(d, why) for d in linked if (why := not_closing(d, o))]
        guards = [d for d in linked if d not in {d for d, _ in open_by}]
        # A device that does not close its opening leaves it unguarded: what
        # each leaves open goes into the working of the verdict below.
        unclosed = tuple(line for _, why in open_by for line in why)
        if guards:
            values["devices"] = ", ".join(d.label for d in guards)
            findings.append(
                rule.finding(
                    Status.PASS,
                    subject,
                    gettext_noop(
                        "%(label)s is closed by %(devices)s; the device's own "
                        "distance and type are checked by their rules, and the "
                        "opening is no better guarded than they are."
                    ),
                    values=values,
                    details=unclosed,
                    # A scanner guards the opening only where its field
                    # covers the way in (``scanning``: findings on the opening).
                    relies_on=tuple(d.key for d in guards)
                    + (
                        (o.key,)
                        if any(d.kind == "laser_scanner" for d in guards)
                        else ()
                    ),
                )
            )
            continue
        if o.distance_to_hazard_mm is None:
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    gettext_noop(
                        "%(label)s is not guarded and its distance from the hazard "
                        "zone is not known: guard it, or draw it on the plan."
                    ),
                    values=values,
                    details=unclosed,
                )
            )
            continue
        values["distance"] = mm(o.distance_to_hazard_mm)
        numbers: dict[str, int | float] = {
            "width_mm": number(o.width_mm),
            "height_mm": number(height),
            "distance_mm": number(o.distance_to_hazard_mm),
        }
        result, error = calculate(
            opening,
            OpeningInput,
            opening_shape="rectangle",
            opening_size_mm=min(o.width_mm, height),
            opening_length_mm=max(o.width_mm, height),
            distance_to_hazard_mm=o.distance_to_hazard_mm,
        )
        if result is None:
            found = rule.outside_coverage(subject, values, error, numbers=numbers)
            findings.append(found.model_copy(update={"details": unclosed}))
            continue
        if result.verdict == "pass":
            values["required"] = mm(result.safety_distance_mm or 0)
            status, message = (
                Status.PASS,
                gettext_noop(
                    "%(label)s (%(width)s × %(height)s mm) is not guarded, but at "
                    "%(distance)s mm from the hazard zone it is out of reach for "
                    "its size: Table 4 asks %(required)s mm."
                ),
            )
        elif result.safety_distance_mm is not None and result.verdict == "fail":
            values["required"] = mm(result.safety_distance_mm)
            numbers["required_mm"] = result.safety_distance_mm
            status, message = (
                Status.FAIL,
                gettext_noop(
                    "%(label)s (%(width)s × %(height)s mm) is not guarded and only "
                    "%(distance)s mm from the hazard zone; Table 4 asks "
                    "%(required)s mm for an opening of its size. Guard it with an "
                    "interlocked door or a sensing device, or make it smaller."
                ),
            )
        elif result.safety_distance_mm is None and min(o.width_mm, height) > 120:
            status, message = (
                Status.FAIL,
                gettext_noop(
                    "%(label)s (%(width)s × %(height)s mm) is not guarded and large "
                    "enough for a person to reach or walk through, %(distance)s mm "
                    "from the hazard zone. Guard it with an interlocked door or a "
                    "sensing device (light curtain, grid, mat)."
                ),
            )
        else:
            status = Status.NEEDS_EVIDENCE
            message = result.undetermined_reason or result.reason or ""
        findings.append(
            rule.from_result(
                status,
                subject,
                message,
                result,
                values=values,
                numbers=numbers,
                details=unclosed,
            )
        )
    return findings


OPENINGS_GUARDED = Rule(
    id="INTL-opening-guarded",
    jurisdiction="INTL",
    citation=f"ISO 10218-2:2025 (safeguarding); {CLAUSE_OPENING}",
    text=gettext_noop(
        "Every opening in the perimeter guard (an infeed, a door) is guarded by an "
        "interlocked door or a presence-sensing device, or is shown to be out of reach "
        "for its size at its distance from the hazard zone (ISO 13857 Table 4, "
        "openings up to 120 mm)."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,  # Table 4: two sources
    checked_on=REFERENCE_SET_DATE,
    volatility="low",
    sources=TABLE4_OPENINGS.sources,
    check=_check_openings,
    # Raised when the check changes (issue 27; 3: a scanner guards an opening
    # only where its field covers the way in).
    revision=3,
)


# --- the gap under a guard ------------------------------------------------------


def _check_gap_under(facts: CellFacts) -> list[Finding]:
    rule = GAP_UNDER
    findings = []
    for segment in facts.segments:
        gap = segment.bottom_gap_mm
        if gap <= 0 or segment.kind != "fence":
            continue
        subject = (segment.key, segment.label)
        c = segment.horizontal_distance_to_hazard_mm
        values: dict[str, str | int | float] = {"label": segment.label, "gap": mm(gap)}
        numbers: dict[str, int | float] = {"gap_mm": number(gap)}
        result, error = calculate(
            gap_under_guard,
            GapUnderGuardInput,
            gap_height_mm=gap,
            distance_to_hazard_mm=c,
        )
        if result is None:
            findings.append(
                rule.outside_coverage(subject, values, error, numbers=numbers)
            )
            continue
        if c is not None:
            values["distance"] = mm(c)
            numbers["distance_mm"] = number(c)
        if result.safety_distance_mm is not None:
            values["required"] = mm(result.safety_distance_mm)
            numbers["required_mm"] = result.safety_distance_mm
        if result.verdict == "pass":
            status, message = (
                Status.PASS,
                gettext_noop(
                    "The %(gap)s mm gap under %(label)s is %(distance)s mm from the "
                    "hazard zone; ISO 13857 asks %(required)s mm."
                ),
            )
        elif result.verdict == "fail" and result.whole_body_access:
            status, message = (
                Status.FAIL,
                gettext_noop(
                    "The %(gap)s mm gap under %(label)s lets a person crawl under "
                    "the guard: lower the guard's edge."
                ),
            )
        elif result.verdict == "fail":
            status, message = (
                Status.FAIL,
                gettext_noop(
                    "The %(gap)s mm gap under %(label)s is only %(distance)s mm from "
                    "the hazard zone; ISO 13857 asks %(required)s mm. Lower the "
                    "guard's edge, or move it out."
                ),
            )
        else:
            status = Status.NEEDS_EVIDENCE
            message = result.undetermined_reason or result.reason or ""
        findings.append(
            rule.from_result(
                status,
                subject,
                message,
                result,
                values=values,
                numbers=numbers,
            )
        )
    return findings


GAP_UNDER = Rule(
    id="INTL-13857-gap-under",
    jurisdiction="INTL",
    citation=CLAUSE_GAP,
    text=gettext_noop(
        "The gap between the floor and a fence's lower edge must keep feet, legs and "
        "arms from reaching the hazard zone: ISO 13857 Table 7 (lower limbs) and Table "
        "4 (upper limbs) give the distance for the gap's height; a gap a person can "
        "crawl through fails."
    ),
    certainty=RuleCertainty.TO_BE_CONFIRMED,  # Table 7: one source
    checked_on=REFERENCE_SET_DATE,
    volatility="low",
    sources=TABLE4_OPENINGS.sources,
    check=_check_gap_under,
)


SAFEGUARDING_RULES: tuple[Rule, ...] = (ENCLOSURE, OPENINGS_GUARDED, GAP_UNDER)
