"""Hazards a robot cell typically has, proposed from a plain description of it.

Hazard identification (ISO 12100:2010, 5.4) is the safety engineer's work; this
module only proposes a starting list so nothing obvious is forgotten: crushing
and impact within the robot's reach, trapping at the gripper, a dropped or
thrown workpiece, unexpected start-up while teaching and while maintaining,
the hazards the cell's application brings (``applications``: arc
radiation, fume, burns and fire for arc welding, solvents and an explosive
atmosphere for painting, ejected fragments, dust and noise for grinding...),
access through each perimeter opening and, for a collaborative robot, contact
with the operator at each station. Every proposal points at a hazard group,
origin and consequence of the ISO 12100 Annex B catalogue
(``compliance.assessment.hazards.catalogue``); nothing outside it is invented.

The application's hazards are in ``applications``, with why they cite ISO
12100 Annex B only.

Each suggestion has a stable ``key`` (the same facts always give the same
keys), so a suggestion the engineer dismissed can be left out next time:
``suggest_hazards(facts, dismissed={"gripper-trapping"})``.

Texts are English, marked with ``gettext_noop``; ``%(name)s`` placeholders in
``task`` are filled from ``values`` after translation.

An accepted suggestion is stored in English (``task_text()`` untranslated and
the English ``rationale``), so the register is the same whoever clicked, with
its source beside it (``texts()``, ``compliance.calculators.written``): it is
shown in the reader's language from that source wherever the register is
shown. A text a user typed or edited is shown as typed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cells.applications import DEFAULT_APPLICATION, Application
from compliance.assessment.hazards import catalogue
from compliance.assessment.hazards.applications import APPLICATION_HAZARDS
from compliance.calculators import written
from compliance.calculators.base import gettext_noop

RobotKind = Literal["industrial", "collaborative"]
OpeningPurpose = Literal["material_entry", "operator_access", "maintenance_door"]


class _Facts(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class OpeningFact(_Facts):
    """An opening in the cell's perimeter guard (a conveyor gap, a door...)."""

    key: str = Field(min_length=1)  # stable, e.g. "opening:12"
    label: str
    purpose: OpeningPurpose
    segment_label: str = ""  # the fence segment it is in, if known


class StationFact(_Facts):
    """A place where an operator works at the cell (loading, inspection...)."""

    key: str = Field(min_length=1)  # stable, e.g. "station:3"
    label: str


class CellFacts(_Facts):
    """What the suggestions need to know about a cell: robot, application,
    openings, stations."""

    robot_kind: RobotKind
    application: Application = DEFAULT_APPLICATION
    reach_mm: float = Field(gt=0)
    payload_kg: float = Field(ge=0)
    max_tcp_speed_mm_s: float = Field(ge=0)
    openings: tuple[OpeningFact, ...] = ()
    stations: tuple[StationFact, ...] = ()

    @model_validator(mode="after")
    def _keys_are_unique(self) -> Self:
        keys = [o.key for o in self.openings] + [s.key for s in self.stations]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        if duplicates:
            raise ValueError(f"opening and station keys must be unique: {duplicates}")
        return self


class Suggestion(BaseModel):
    """One proposed hazard: what, where, in which phase, and why it is proposed.

    ``group_id``, ``origin_id`` and ``consequence_id`` name catalogue entries
    (checked on creation); ``phase`` is a life-cycle phase id; ``location_key``
    is the opening's or station's key, or None for the robot as a whole.
    """

    model_config = ConfigDict(frozen=True)

    key: str
    group_id: str
    origin_id: str
    consequence_id: str
    phase: str
    task: str  # English, gettext_noop, with %(name)s placeholders
    values: dict[str, str | int | float] = {}
    location_key: str | None = None
    rationale: str  # English, gettext_noop

    @model_validator(mode="after")
    def _ids_are_in_the_catalogue(self) -> Self:
        catalogue.validate_origin(self.group_id, self.origin_id)
        catalogue.validate_consequence(self.group_id, self.consequence_id)
        catalogue.validate_phase(self.phase)
        return self

    def task_text(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The task, translated by ``translate`` (e.g. ``gettext``), values filled.

        Values (a station's label, a reach in mm) are the user's data and are
        not translated.
        """
        text = translate(self.task)
        return text % self.values if self.values else text

    def texts(self) -> dict[str, written.Source]:
        """Where the hazard's task and description come from, stored beside
        them (``compliance.calculators.written``)."""
        return {
            "task": written.source(self.task, self.values),
            "description": written.source(self.rationale),
        }


def _number(value: float) -> int | float:
    """A figure for a task text: whole numbers without '.0', else one decimal."""
    return int(value) if float(value).is_integer() else round(value, 1)


def _robot(facts: CellFacts) -> list[Suggestion]:
    reach = _number(facts.reach_mm)
    suggestions = [
        Suggestion(
            key="robot-reach-crushing",
            group_id="mechanical",
            origin_id="moving_elements",
            consequence_id="crushing",
            phase="operation",
            task=gettext_noop(
                "Being crushed between the moving robot and a fixed part within "
                "its reach (%(reach_mm)s mm)"
            ),
            values={"reach_mm": reach},
            rationale=gettext_noop(
                "Anywhere within the robot's reach a person can be crushed "
                "between the moving arm and a fixed part of the cell."
            ),
        ),
        Suggestion(
            key="robot-reach-impact",
            group_id="mechanical",
            origin_id="moving_elements",
            consequence_id="impact",
            phase="operation",
            task=gettext_noop(
                "Being struck by the moving robot within its reach (%(reach_mm)s "
                "mm, tool speed up to %(speed_mm_s)s mm/s)"
            ),
            values={"reach_mm": reach, "speed_mm_s": _number(facts.max_tcp_speed_mm_s)},
            rationale=gettext_noop(
                "The moving arm can strike a person anywhere within its reach; "
                "the harm grows with its speed and the mass it carries."
            ),
        ),
        Suggestion(
            key="gripper-trapping",
            group_id="mechanical",
            origin_id="moving_elements",
            consequence_id="drawing_in_trapping",
            # A collaborative robot's gripper is within the operator's reach in
            # normal work; behind a guard, hands come near it when teaching.
            phase=(
                "operation"
                if facts.robot_kind == "collaborative"
                else "setting_teaching"
            ),
            task=gettext_noop(
                "Fingers or hand drawn in or trapped at the gripper or end effector"
            ),
            rationale=gettext_noop(
                "Gripper jaws and other end-effector mechanisms close with force; "
                "hands come near them when parts are handed over or the robot is "
                "taught."
            ),
        ),
    ]
    if facts.payload_kg > 0:
        suggestions.append(
            Suggestion(
                key="workpiece-falling",
                group_id="mechanical",
                origin_id="falling_objects",
                consequence_id="impact",
                phase="operation",
                task=gettext_noop(
                    "Being struck by a workpiece dropped or thrown by the robot "
                    "(payload up to %(payload_kg)s kg)"
                ),
                values={"payload_kg": _number(facts.payload_kg)},
                rationale=gettext_noop(
                    "The robot carries a load: a workpiece can fall or be thrown "
                    "from the gripper if the grip fails or power is lost during "
                    "fast motion."
                ),
            )
        )
    suggestions += [
        Suggestion(
            key="unexpected-startup-teaching",
            group_id="mechanical",
            origin_id="moving_elements",
            consequence_id="crushing",
            phase="setting_teaching",
            task=gettext_noop(
                "Unexpected start-up or motion of the robot while a person teaches "
                "or programs it inside the cell"
            ),
            rationale=gettext_noop(
                "While teaching, a person works within reach of the powered robot. "
                "The ISO 12100 catalogue used here lists no 'unexpected start-up' "
                "origin, so the closest origin it has, 'moving elements', is used."
            ),
        ),
        Suggestion(
            key="unexpected-startup-maintenance",
            group_id="mechanical",
            origin_id="moving_elements",
            consequence_id="crushing",
            phase="maintenance",
            task=gettext_noop(
                "Unexpected start-up of the robot while a person maintains it or "
                "the cell's equipment inside the cell"
            ),
            rationale=gettext_noop(
                "During maintenance a person works inside the cell, within the "
                "robot's reach. The ISO 12100 catalogue used here lists no "
                "'unexpected start-up' origin, so the closest origin it has, "
                "'moving elements', is used."
            ),
        ),
    ]
    return suggestions


def _application(facts: CellFacts) -> list[Suggestion]:
    return [
        Suggestion(
            key=f"{facts.application}-{h.slug}",
            group_id=h.group_id,
            origin_id=h.origin_id,
            consequence_id=h.consequence_id,
            phase=h.phase,
            task=h.task,
            rationale=h.rationale,
        )
        for h in APPLICATION_HAZARDS[facts.application]
    ]


_OPENING_RATIONALE: dict[str, str] = {
    "material_entry": gettext_noop(
        "Parts enter the cell through this opening; a person can reach or climb "
        "through it into the robot's reach while the cell runs."
    ),
    "operator_access": gettext_noop(
        "Operators pass or reach through this opening; through it a person can "
        "enter the robot's reach while the cell runs."
    ),
    "maintenance_door": gettext_noop(
        "Maintenance staff enter the cell through this door, into the robot's reach."
    ),
}


def _opening(opening: OpeningFact) -> Suggestion:
    if opening.segment_label:
        task = gettext_noop(
            "Access to the robot's hazard zone through %(label)s (in %(segment)s)"
        )
        values: dict[str, str | int | float] = {
            "label": opening.label,
            "segment": opening.segment_label,
        }
    else:
        task = gettext_noop("Access to the robot's hazard zone through %(label)s")
        values = {"label": opening.label}
    return Suggestion(
        key=f"{opening.key}-access",
        group_id="mechanical",
        origin_id="moving_elements",
        consequence_id="crushing",
        phase="maintenance" if opening.purpose == "maintenance_door" else "operation",
        task=task,
        values=values,
        location_key=opening.key,
        rationale=_OPENING_RATIONALE[opening.purpose],
    )


_STATION_RATIONALE = gettext_noop(
    "In this collaborative application the robot shares the workspace with the "
    "operator here; ISO 10218-2:2025 (with ISO/TS 15066) limits the pressure "
    "and force of quasi-static and transient contact by body region."
)


def _station(station: StationFact) -> list[Suggestion]:
    return [
        Suggestion(
            key=f"{station.key}-quasi-static-contact",
            group_id="mechanical",
            origin_id="moving_elements",
            consequence_id="crushing",
            phase="operation",
            task=gettext_noop(
                "Operator at %(label)s clamped between the robot and a fixed part "
                "(quasi-static contact)"
            ),
            values={"label": station.label},
            location_key=station.key,
            rationale=_STATION_RATIONALE,
        ),
        Suggestion(
            key=f"{station.key}-transient-contact",
            group_id="mechanical",
            origin_id="moving_elements",
            consequence_id="impact",
            phase="operation",
            task=gettext_noop(
                "Operator at %(label)s struck by the moving robot (transient contact)"
            ),
            values={"label": station.label},
            location_key=station.key,
            rationale=_STATION_RATIONALE,
        ),
    ]


def suggest_hazards(
    facts: CellFacts, *, dismissed: Collection[str] = ()
) -> tuple[Suggestion, ...]:
    """The hazards a cell like this typically has, except the dismissed keys.

    Always: crushing and impact within the robot's reach, trapping at the
    gripper, unexpected start-up while teaching and while maintaining. With a
    payload: a falling or thrown workpiece. Those of the cell's application
    (``APPLICATION_HAZARDS``). One per perimeter opening. For a collaborative
    robot, quasi-static and transient contact at each station. The order is
    stable: robot first, then the application's, then openings and stations
    as given.
    """
    suggestions = _robot(facts)
    suggestions += _application(facts)
    suggestions += [_opening(o) for o in facts.openings]
    if facts.robot_kind == "collaborative":
        for station in facts.stations:
            suggestions += _station(station)
    return tuple(s for s in suggestions if s.key not in dismissed)


def _every_suggestion() -> tuple[Suggestion, ...]:
    """One of each suggestion this module can make (every application, opening
    purpose with and without a segment, a station), for their texts."""
    openings = tuple(
        OpeningFact(key=f"o{i}-{p}", label="x", purpose=p, segment_label=segment)
        for i, segment in enumerate(("", "x"))
        for p in _OPENING_RATIONALE
    )
    return tuple(
        s
        for application in APPLICATION_HAZARDS
        for s in suggest_hazards(
            CellFacts(
                robot_kind="collaborative",
                application=application,
                reach_mm=1,
                payload_kg=1,
                max_tcp_speed_mm_s=1,
                openings=openings,
                stations=(StationFact(key="s", label="x"),),
            )
        )
    )
