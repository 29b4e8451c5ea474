"""ISO 13855:2010: the distance of a vertical detection zone, S = max(S_RT, S_RO).

A light curtain or light grid must be far enough from the hazard zone both
that nothing reaches through it (S_RT, ``iso13855_reach_through``) and that
nothing reaches over it (S_RO = K × T + C_RO, 6.5 and Table 1,
``iso13855_reach_over``): S = max(S_RT, S_RO), as the reference data
``iso13855_additions.json`` gives it (``s_max_rule``, two sources).

``iso13855_vertical_zone`` is the entry point for the rule packs: a device
kind, its detection capability or beam count, the upper edge b, the hazard
zone's height range and T give S_RT, S_RO, S and what governs. Where Table 1
has no value, S is None and the result says why: needs evidence, never a pass.
Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from typing import Any, Literal, Self, TypeVar

from pydantic import Field, StrictFloat, StrictInt, field_validator, model_validator

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import CalcInput, CalcResult, Line, gettext_noop
from compliance.calculators.iso13855_common import (
    MAX_TIME_MS,
    MIN_TIME_MS,
    certainty_of,
    line,
    num,
    rounded_up,
    rounded_up_mm,
    sources_of,
)
from compliance.calculators.iso13855_reach_over import (
    CLAUSE_REACH_OVER,
    not_checked_warning,
    reach_over_part,
)
from compliance.calculators.iso13855_reach_through import (
    ReachThrough,
    check_d,
    curtain_reach_through,
    multibeam_reach_through,
)

# Bounds on the heights typed in: a sanity limit (10 m), not a value from the
# standard; heights outside Table 1 are accepted and answered "needs evidence".
MAX_HEIGHT_MM = 10_000

HAZARD_HEIGHT = gettext_noop(
    "Height a of the hazard zone above the floor (reference plane), in mm, to "
    "check reaching over the detection zone (ISO 13855:2010 Table 1). Optional: "
    "without it, reaching over is not checked."
)
UPPER_EDGE = gettext_noop(
    "Height b of the upper edge of the detection zone (the top beam) above the "
    "floor, in mm, to check reaching over it."
)


# --- S = max(S_RT, S_RO) ------------------------------------------------------


class VerticalZoneResult(CalcResult):
    """The distance of a vertical detection zone: S = max(S_RT, S_RO).

    ``minimum_distance_mm`` is S, or None when S_RO was asked for and cannot be
    determined (``determinable`` False, ``undetermined_reason`` says why: the
    check needs evidence, never a pass). Without a and b reaching over is not
    checked (``reach_over_checked`` False) and S is S_RT, with a warning.
    ``k_mm_s`` and ``c_mm`` are those of the distance that governs.
    """

    minimum_distance_mm: float | None
    k_mm_s: int | None
    c_mm: float | None
    t_ms: float
    reach_through_distance_mm: float  # S_RT
    reach_over_distance_mm: float | None = None  # S_RO
    c_ro_mm: int | None = None
    c_ro_row_a_mm: int | None = None  # the Table 1 row that gave C_RO
    c_ro_column_b_mm: int | None = None  # the Table 1 column used
    governs: Literal["reach_through", "reach_over"] | None = None
    reach_over_checked: bool = False
    determinable: bool = True
    undetermined_reason: str | None = None

    @property
    def minimum_distance_rounded_up_mm(self) -> int | None:
        """S rounded up to the next whole millimetre, as the working ends."""
        if self.minimum_distance_mm is None:
            return None
        return rounded_up_mm(self.minimum_distance_mm)


V = TypeVar("V", bound=VerticalZoneResult)


def vertical_result(
    cls: type[V],
    rt: ReachThrough,
    t: tuple[float, Line],
    hazard: tuple[float, float] | None,
    b_mm: float | None,
    *,
    pre_steps: tuple[Line, ...] = (),
    **extra: object,
) -> V:
    """S_RT, and S_RO when the hazard heights and b are known, combined."""
    t_ms, t_line = t
    steps = [t_line, *pre_steps, *rt.steps]
    groups = rt.groups
    if hazard is None or b_mm is None:
        a_mm = None if hazard is None else hazard[1]
        return cls(
            minimum_distance_mm=rt.s_mm,
            k_mm_s=rt.k_mm_s,
            c_mm=rt.c_mm,
            t_ms=t_ms,
            reach_through_distance_mm=rt.s_mm,
            governs="reach_through",
            clause=rt.clause,
            steps=(*steps, rounded_up(rt.s_mm)),
            warnings=(not_checked_warning(a_mm, b_mm), *rt.warnings),
            certainty=certainty_of(groups),
            sources=sources_of(groups),
            **extra,
        )

    part = reach_over_part(t_ms, hazard[0], hazard[1], b_mm)
    lookup = part.lookup
    steps += part.steps
    groups = (*groups, *part.groups)
    common: dict[str, Any] = {
        "t_ms": t_ms,
        "reach_through_distance_mm": rt.s_mm,
        "reach_over_distance_mm": part.s_ro_mm,
        "c_ro_mm": lookup.c_ro_mm,
        "c_ro_row_a_mm": lookup.row_a_mm,
        "c_ro_column_b_mm": lookup.column_b_mm,
        "reach_over_checked": True,
        "clause": f"{rt.clause}; {CLAUSE_REACH_OVER}",
        "warnings": (*part.warnings, *rt.warnings),
        "certainty": certainty_of(groups),
        "sources": sources_of(groups),
    }
    if part.s_ro_mm is None or part.k_mm_s is None or lookup.c_ro_mm is None:
        steps.append(
            line(
                gettext_noop(
                    "S = max(S_RT, S_RO) cannot be determined without S_RO: this "
                    "needs evidence (S_RT alone is not enough)"
                ),
                f"S_RT = {num(rt.s_mm)} mm; S_RO = ?",
            )
        )
        return cls(
            minimum_distance_mm=None,
            k_mm_s=None,
            c_mm=None,
            governs=None,
            determinable=False,
            undetermined_reason=lookup.reason,
            steps=tuple(steps),
            **common,
            **extra,
        )

    over = part.s_ro_mm > rt.s_mm
    s_mm = max(rt.s_mm, part.s_ro_mm)
    steps.append(
        line(
            gettext_noop("Reaching over governs: S = max(S_RT, S_RO)")
            if over
            else gettext_noop("Reaching through governs: S = max(S_RT, S_RO)"),
            f"S = max({num(rt.s_mm)}, {num(part.s_ro_mm)}) = {num(s_mm)} mm",
        )
    )
    return cls(
        minimum_distance_mm=s_mm,
        k_mm_s=part.k_mm_s if over else rt.k_mm_s,
        c_mm=float(lookup.c_ro_mm) if over else rt.c_mm,
        governs="reach_over" if over else "reach_through",
        steps=(*steps, rounded_up(s_mm)),
        **common,
        **extra,
    )


def top_beam_step(beam_count: int) -> tuple[float, Line]:
    """b for a light grid whose upper edge is not given: its standard top beam."""
    top = tables.MULTIBEAM_HEIGHTS_MM[beam_count][-1]
    return float(top), line(
        gettext_noop(
            "Upper edge b not given: the top beam of the %(count)s-beam arrangement "
            "of ISO 13855:2010 is used"
        ),
        f"b = {top} mm",
        count=beam_count,
    )


# --- for the rule packs: a vertical detection zone over a hazard range ---------


class VerticalZoneInput(CalcInput):
    """A light curtain or light grid in front of a hazard zone that spans a
    range of heights, with the overall stopping performance T already summed."""

    device_kind: Literal["light_curtain", "multibeam"]
    overall_stopping_time_ms: StrictFloat = Field(
        ge=MIN_TIME_MS,
        le=4 * MAX_TIME_MS,  # the four parts of T, each at most MAX_TIME_MS
        description=gettext_noop(
            "Overall stopping performance T: device response + controller + "
            "machine stopping time + allowance, in milliseconds."
        ),
    )
    detection_capability_mm: StrictFloat | None = Field(
        default=None,
        gt=0,
        description=gettext_noop("Light curtain: detection capability d, in mm."),
    )
    beam_count: StrictInt | None = Field(
        default=None,
        ge=1,
        le=4,
        description=gettext_noop("Light grid: number of separate beams (1 to 4)."),
    )
    upper_edge_height_mm: StrictFloat | None = Field(
        default=None, gt=0, le=MAX_HEIGHT_MM, description=UPPER_EDGE
    )
    hazard_lower_mm: StrictFloat = Field(
        ge=0,
        le=MAX_HEIGHT_MM,
        description=gettext_noop("Lowest height of the hazard zone, in mm."),
    )
    hazard_upper_mm: StrictFloat = Field(
        ge=0,
        le=MAX_HEIGHT_MM,
        description=gettext_noop("Highest height of the hazard zone, in mm."),
    )

    @field_validator("detection_capability_mm")
    @classmethod
    def _covered(cls, d: float | None) -> float | None:
        return check_d(d)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.hazard_upper_mm < self.hazard_lower_mm:
            raise ValueError(
                "hazard_upper_mm: the top of the hazard zone must not be below "
                "hazard_lower_mm"
            )
        if self.device_kind == "light_curtain":
            if self.detection_capability_mm is None:
                raise ValueError(
                    "detection_capability_mm: a light curtain needs its detection "
                    "capability"
                )
            if self.upper_edge_height_mm is None:
                raise ValueError(
                    "upper_edge_height_mm: a light curtain needs the height of the "
                    "upper edge of its detection zone"
                )
        elif self.beam_count is None:
            raise ValueError("beam_count: a light grid needs its number of beams")
        return self


def iso13855_vertical_zone(inp: VerticalZoneInput) -> VerticalZoneResult:
    """S_RT, S_RO and S = max(S_RT, S_RO) for a vertical detection zone in front
    of a hazard zone from ``hazard_lower_mm`` to ``hazard_upper_mm`` (ISO
    13855:2010, 6.2, 6.2.3, 6.5 and Table 1). The largest C_RO over every a in
    that range is used. ``minimum_distance_mm`` None with ``determinable`` False
    means needs evidence."""
    t_ms = inp.overall_stopping_time_ms
    t = (
        t_ms,
        line(
            gettext_noop("Overall stopping performance T"),
            f"T = {num(t_ms)} ms = {num(t_ms / 1000)} s",
        ),
    )
    hazard = (inp.hazard_lower_mm, inp.hazard_upper_mm)
    if inp.device_kind == "light_curtain":
        assert inp.detection_capability_mm is not None  # the validator's promise
        rt = curtain_reach_through(inp.detection_capability_mm, t_ms)
        return vertical_result(
            VerticalZoneResult, rt, t, hazard, inp.upper_edge_height_mm
        )
    assert inp.beam_count is not None  # the validator's promise
    b = inp.upper_edge_height_mm
    pre: tuple[Line, ...] = ()
    if b is None:
        b, top_line = top_beam_step(inp.beam_count)
        pre = (top_line,)
    rt = multibeam_reach_through(inp.beam_count, t_ms)
    return vertical_result(VerticalZoneResult, rt, t, hazard, b, pre_steps=pre)
