"""ISO 13849-1:2015: verifying the PL a safety function reaches (calculator ``pl-verify``).

A safety function is a chain of subsystems in series (input, logic, output).
Each subsystem is one of:

- certified: the maker's PL and PFHd (a light curtain, a safety relay); the
  PFHd must lie within or below the band of the PL;
- known by its PL only: its PFHd is the one the alternative procedure assumes
  for that PL (2015 Table 7, 2023 6.1.9; the values rest on one source);
- designed: its category, the MTTFd of each channel (or B10d and the use,
  Annex C; two different channels symmetrised, Annex D), its DCavg and its CCF
  score (Annex F), giving the PL by the simplified procedure (6.1.8, Table 6;
  Figure 12 in ISO 13849-1:2023) in ``iso13849_subsystem``.

A subsystem's PL is also capped by what it is (``iso13849_ceilings``): a
sensing device's IEC 61496 type, the PL the maker claims for the device.

The subsystems combine in series (6.3, ``iso13849_series``). The exact PFHd of a
designed subsystem needs Annex K Table K.1, which is not in any public source
read: with an organisation's imported copy (``iso13849_k1``) it is read from
it; without, the PFHd is the range of the PL. Tables from
``iso13849_verification_tables``. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Self, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Certainty,
    Line,
    gettext_noop,
)
from compliance.calculators.iso13849_b10d import (
    B10dFigures,
    b10d_field,
    b10d_figures,
    cycle_field,
    days_field,
    hours_field,
    num,
)
from compliance.calculators.iso13849_ccf import ccf_score, score_line
from compliance.calculators.iso13849_ceilings import PlCeiling, capped_result
from compliance.calculators.iso13849_k1 import K1Table, sci
from compliance.calculators.iso13849_series import (
    Combination,
    SeriesCombination,
    SeriesPart,
    combine,
)
from compliance.calculators.iso13849_subsystem import (
    PfhdBasis,
    category_problem,
    channel_mttfd,
    designed_pl,
)
from compliance.calculators.iso13849_verification_tables import (
    Category,
    CcfMeasureId,
    PerformanceLevel,
)

STANDARD = "ISO 13849-1:2015"
CLAUSE = (
    "ISO 13849-1:2015, 6.1.8 and Table 6 (simplified procedure; Figure 12 in "
    "ISO 13849-1:2023), 6.3 (subsystems in series), Annexes C, D, F and K"
)
Route = Literal["certified", "pl_only", "designed"]
ROUTES: tuple[str, ...] = get_args(Route)
MAX_SUBSYSTEMS = 8
MAX_MTTFD_YEARS = 1e6
MAX_LABEL_CHARS = 80


class FieldError(ValueError):
    """A rule broken by one named field of the model whose validator raises it.

    Pydantic keeps the exception in the error's context, so the API and the
    pages key the message by that field (``subsystems.0.dcavg_percent``) rather
    than by the model (``compliance.calculators.validation``)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


_CERTIFIED_FIELDS = ("pl", "pfhd_per_hour")
_DESIGNED_FIELDS = (
    "category",
    "mttfd_years",
    "mttfd_channel2_years",
    "b10d_cycles",
    "days_per_year",
    "hours_per_day",
    "cycle_time_s",
    "dcavg_percent",
    "ccf_points",
    "ccf_measures",
)
_B10D_USE_FIELDS = ("days_per_year", "hours_per_day", "cycle_time_s")


class SubsystemInput(CalcInput):
    """One subsystem of a safety function: certified (the maker's PL and PFHd),
    known by its PL only, or designed (category, MTTFd or B10d, DCavg, CCF)."""

    label: str = Field(
        default="",
        max_length=MAX_LABEL_CHARS,
        description=gettext_noop("A name for the subsystem, e.g. 'Light curtain'."),
    )
    pl: PerformanceLevel | None = Field(
        default=None,
        description=gettext_noop(
            "Certified subsystem: the PL the maker states. Without a PFHd, the "
            "alternative procedure's PFHd for that PL is used."
        ),
    )
    pfhd_per_hour: StrictFloat | None = Field(
        default=None,
        gt=0,
        lt=1e-4,
        description=gettext_noop(
            "Certified subsystem: the PFHd the maker states, per hour."
        ),
    )
    category: Category | None = Field(
        default=None,
        description=gettext_noop("Designed subsystem: its category (B, 1 to 4)."),
    )
    mttfd_years: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=MAX_MTTFD_YEARS,
        description=gettext_noop(
            "Designed subsystem: the MTTFd of each channel, in years (or give "
            "B10d and the use instead)."
        ),
    )
    mttfd_channel2_years: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=MAX_MTTFD_YEARS,
        description=gettext_noop(
            "Categories 3 and 4: the MTTFd of the second channel, in years, when "
            "it differs from the first (Annex D)."
        ),
    )
    b10d_cycles: StrictFloat | None = b10d_field(optional=True)
    days_per_year: StrictFloat | None = days_field(optional=True)
    hours_per_day: StrictFloat | None = hours_field(optional=True)
    cycle_time_s: StrictFloat | None = cycle_field(optional=True)
    dcavg_percent: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=100,
        description=gettext_noop(
            "Designed subsystem: the average diagnostic coverage DCavg, in %."
        ),
    )
    ccf_points: StrictInt | None = Field(
        default=None,
        ge=0,
        le=vt.CCF_MAX_POINTS,
        description=gettext_noop(
            "Designed subsystem: the score against common cause failure (Annex "
            "F), 0 to 100 points; Categories 2 to 4 need at least 65."
        ),
    )
    ccf_measures: tuple[CcfMeasureId, ...] = Field(
        default=(),
        max_length=len(vt.CCF_MEASURES),
        description=gettext_noop(
            "Designed subsystem: the Annex F measures taken, instead of the points."
        ),
    )

    @field_validator("ccf_measures", mode="before")
    @classmethod
    def _few_measures(cls, value: object) -> object:
        # Counted before the items are checked, so a huge list is refused at once.
        if isinstance(value, list | tuple) and len(value) > len(vt.CCF_MEASURES):
            raise ValueError(
                f"Table F.1 has {len(vt.CCF_MEASURES)} measures: give at most "
                "that many."
            )
        return value

    @property
    def route(self) -> Route:
        if self.category is not None:
            return "designed"
        return "pl_only" if self.pfhd_per_hour is None else "certified"

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        designed = [n for n in _DESIGNED_FIELDS if _given(getattr(self, n))]
        certified = [n for n in _CERTIFIED_FIELDS if getattr(self, n) is not None]
        if designed and certified:
            raise ValueError(
                "Describe the subsystem one way: the maker's PL and PFHd "
                f"({', '.join(certified)}) or its design ({', '.join(designed)}), "
                "not both."
            )
        if not designed and not certified:
            raise ValueError(
                "Give the maker's PL and PFHd of a certified subsystem, or the "
                "category and figures of a designed one."
            )
        if certified:
            _check_certified(self)
        else:
            _check_designed(self)
        return self


def _given(value: object) -> bool:
    return value is not None and value != ()


def _check_certified(inp: SubsystemInput) -> None:
    if inp.pl is None:
        raise FieldError("pl", "A maker's PFHd needs the PL it was certified for.")
    if inp.pfhd_per_hour is not None:
        band = vt.PL_PFHD[inp.pl]
        if inp.pfhd_per_hour >= band.pfhd_max_per_h:
            raise FieldError(
                "pfhd_per_hour",
                f"A PFHd of {inp.pfhd_per_hour:g} per hour is above the band of "
                f"PL {inp.pl} (below {band.pfhd_max_per_h:g}): check the maker's "
                "figures.",
            )


def _check_designed(inp: SubsystemInput) -> None:
    if inp.category is None:
        raise FieldError("category", "A designed subsystem needs its category.")
    c1, _figures, c1_field = _channel_one(inp)
    c2 = inp.mttfd_channel2_years
    if c2 is not None and inp.category not in vt.TWO_CHANNEL_CATEGORIES:
        raise FieldError(
            "mttfd_channel2_years",
            f"Category {inp.category} has one functional channel: a second "
            "channel's MTTFd applies to Categories 3 and 4 only.",
        )
    for value, name in ((c1, c1_field), (c2, "mttfd_channel2_years")):
        if value is not None and value < vt.MTTFD_MIN_YEARS:
            raise FieldError(
                name,
                f"An MTTFd of a channel under 3 years is not allowed "
                f"({num(value)} years): the lowest band starts at 3 years.",
            )
    if inp.ccf_points is not None and inp.ccf_measures:
        raise FieldError(
            "ccf_measures", "Give the CCF points or the CCF measures, not both."
        )
    effective = channel_mttfd(inp.category, c1, c2, name="").value
    problem = category_problem(
        inp.category,
        mttfd_years=effective,
        dcavg_percent=inp.dcavg_percent,
        ccf_points=_ccf_points(inp),
    )
    if problem is not None:
        quantity, message = problem
        if quantity == "mttfd":
            lower_is_two = c2 is not None and c2 < c1
            raise FieldError(
                "mttfd_channel2_years" if lower_is_two else c1_field, message
            )
        if quantity == "dcavg":
            raise FieldError("dcavg_percent", message)
        raise FieldError("ccf_measures" if inp.ccf_measures else "ccf_points", message)


def _channel_one(inp: SubsystemInput) -> tuple[float, B10dFigures | None, str]:
    """Channel 1's MTTFd as given or from B10d, and the field it comes from."""
    if inp.b10d_cycles is not None:
        if inp.mttfd_years is not None:
            raise FieldError(
                "b10d_cycles", "Give the MTTFd or the B10d of the channel, not both."
            )
        for name in _B10D_USE_FIELDS:
            if getattr(inp, name) is None:
                raise FieldError(
                    name,
                    "B10d needs the days per year, hours per day and cycle "
                    "time of the part.",
                )
        figures = b10d_figures(
            inp.b10d_cycles,
            inp.days_per_year,  # type: ignore[arg-type]
            inp.hours_per_day,  # type: ignore[arg-type]
            inp.cycle_time_s,  # type: ignore[arg-type]
        )
        return figures.mttfd_years, figures, "b10d_cycles"
    for name in _B10D_USE_FIELDS:
        if getattr(inp, name) is not None:
            raise FieldError(name, "The use of the part only counts with its B10d.")
    if inp.mttfd_years is None:
        raise FieldError(
            "mttfd_years",
            "A designed subsystem needs the MTTFd of each channel, or the B10d "
            "of its part with the use.",
        )
    return inp.mttfd_years, None, "mttfd_years"


def _ccf_points(inp: SubsystemInput) -> int | None:
    if inp.ccf_measures:
        return ccf_score(inp.ccf_measures).points
    return inp.ccf_points


class PlVerifyInput(CalcInput):
    """The subsystems of one safety function, in series, and its PLr if known."""

    subsystems: tuple[SubsystemInput, ...] = Field(
        # Counted before the items are validated (below): a list of thousands is
        # refused at once, and a broken item is not also reported as "too few".
        json_schema_extra={"minItems": 1, "maxItems": MAX_SUBSYSTEMS},
        description=gettext_noop(
            "The subsystems of the safety function in series, e.g. input, logic, "
            "output (1 to 8)."
        ),
    )
    plr: PerformanceLevel | None = Field(
        default=None,
        description=gettext_noop(
            "The required performance level PLr of the safety function, to check "
            "it is met. Optional."
        ),
    )

    @field_validator("subsystems", mode="before")
    @classmethod
    def _count(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            if not value:
                raise ValueError("Give at least one subsystem.")
            if len(value) > MAX_SUBSYSTEMS:
                raise ValueError(f"Give at most {MAX_SUBSYSTEMS} subsystems.")
        return value

    @field_validator("subsystems")
    @classmethod
    def _permitted(
        cls, subsystems: tuple[SubsystemInput, ...]
    ) -> tuple[SubsystemInput, ...]:
        # A combination the standard does not permit (or below PL a) is refused
        # here, so the API and the pages answer with a message, not a result.
        combination = _combine([_subsystem(s, i) for i, s in enumerate(subsystems)])
        if combination.pl is None:
            raise ValueError(combination.refusal)
        return subsystems


class SubsystemResult(BaseModel):
    """The PL and PFHd one subsystem contributes, with its working."""

    model_config = ConfigDict(frozen=True)

    label: str
    route: Route
    category: str | None
    mttfd_years: float | None  # effective: capped, symmetrised
    mttfd_band: str | None  # the band the simplified procedure used
    dcavg_band: str | None  # the DCavg band (column) the procedure used
    ccf_points: int | None
    pl: PerformanceLevel
    pfhd_per_hour: float | None  # a point value when known
    pfhd_min_per_hour: float  # the range; equal to the point when known
    pfhd_max_per_hour: float
    pfhd_basis: PfhdBasis
    certainty: Certainty
    steps: tuple[Line, ...]
    warnings: tuple[Line, ...]
    sources: tuple[str, ...] = ()


class PlVerifyResult(CalcResult):
    """The PL the safety function reaches, against its PLr."""

    pl: PerformanceLevel
    pfhd_per_hour: float | None  # the sum, when every subsystem has a PFHd
    pfhd_min_per_hour: float
    pfhd_max_per_hour: float
    combination: Combination
    subsystems: tuple[SubsystemResult, ...]
    plr: PerformanceLevel | None
    meets_plr: bool | None  # None without a PLr
    k1_source: str | None  # whose Table K.1 gave a PFHd, if one did


def _name(inp: SubsystemInput, index: int) -> str:
    return inp.label or f"Subsystem {index + 1}"


def _subsystem(
    inp: SubsystemInput,
    index: int,
    k1: K1Table | None = None,
    ceilings: Sequence[PlCeiling] = (),
) -> SubsystemResult:
    name = _name(inp, index)
    if inp.route == "designed":
        result = _designed(inp, name, k1)
    elif inp.route == "certified":
        result = _certified(inp, name)
    else:
        result = _pl_only(inp, name)
    return capped_result(result, ceilings)


def _certified(inp: SubsystemInput, name: str) -> SubsystemResult:
    assert inp.pl is not None and inp.pfhd_per_hour is not None
    band = vt.PL_PFHD[inp.pl]
    steps = (
        Line(
            text=gettext_noop(
                "The maker's figures for a certified subsystem (check the current "
                "data sheet)"
            ),
            formula=f"PL {inp.pl}, PFHd = {sci(inp.pfhd_per_hour)} /h",
        ),
        Line(
            text=gettext_noop("The PFHd lies within or below the band of PL %(pl)s"),
            values={"pl": inp.pl},
            formula=f"{sci(inp.pfhd_per_hour)} /h < {sci(band.pfhd_max_per_h)} /h",
        ),
    )
    return SubsystemResult(
        label=name,
        route="certified",
        category=None,
        mttfd_years=None,
        mttfd_band=None,
        dcavg_band=None,
        ccf_points=None,
        pl=inp.pl,
        pfhd_per_hour=inp.pfhd_per_hour,
        pfhd_min_per_hour=inp.pfhd_per_hour,
        pfhd_max_per_hour=inp.pfhd_per_hour,
        pfhd_basis="maker",
        certainty=Certainty.TWO_SOURCES,
        steps=steps,
        warnings=(),
        sources=vt.PL_PFHD_SOURCES,
    )


def _pl_only(inp: SubsystemInput, name: str) -> SubsystemResult:
    assert inp.pl is not None
    pfhd = vt.ALTERNATIVE_PFHD.get(inp.pl)
    band = vt.PL_PFHD[inp.pl]
    if pfhd is None:
        steps: tuple[Line, ...] = (
            Line(
                text=gettext_noop(
                    "No PFHd given, and the alternative procedure assumes none for "
                    "PL a: the PFHd is the range of PL a"
                ),
                formula=f"{sci(band.pfhd_min_per_h)} /h ≤ PFHd < "
                f"{sci(band.pfhd_max_per_h)} /h",
            ),
        )
        warnings: tuple[Line, ...] = ()
        low, high, basis = band.pfhd_min_per_h, band.pfhd_max_per_h, "pl_range"
        certainty = Certainty.TWO_SOURCES
        sources = vt.PL_PFHD_SOURCES
    else:
        steps = (
            Line(
                text=gettext_noop(
                    "No PFHd given: the alternative procedure (2015 Table 7; 2023 "
                    "6.1.9) assumes this PFHd for PL %(pl)s, a value from one "
                    "public source"
                ),
                values={"pl": inp.pl},
                formula=f"PFHd = {sci(pfhd)} /h",
            ),
        )
        warnings = (
            Line(
                text=gettext_noop(
                    "%(subsystem)s: no PFHd given; the PFHd assumed for PL %(pl)s "
                    "rests on one public source. Use the maker's PFHd where there "
                    "is one."
                ),
                values={"subsystem": name, "pl": inp.pl},
            ),
        )
        low = high = pfhd
        basis = "alternative_procedure"
        certainty = _certainty(vt.ALTERNATIVE_PFHD_CONFIRMED_TWO_SOURCES)
        sources = vt.ALTERNATIVE_PFHD_SOURCES
    return SubsystemResult(
        label=name,
        route="pl_only",
        category=None,
        mttfd_years=None,
        mttfd_band=None,
        dcavg_band=None,
        ccf_points=None,
        pl=inp.pl,
        pfhd_per_hour=pfhd,
        pfhd_min_per_hour=low,
        pfhd_max_per_hour=high,
        pfhd_basis=basis,  # type: ignore[arg-type]
        certainty=certainty,
        steps=steps,
        warnings=warnings,
        sources=sources,
    )


def _designed(inp: SubsystemInput, name: str, k1: K1Table | None) -> SubsystemResult:
    assert inp.category is not None
    category = inp.category
    steps: list[Line] = []
    warnings: list[Line] = []
    sources: list[str] = []
    confirmed = True

    c1, figures, _field = _channel_one(inp)
    if figures is not None:
        steps.extend(figures.steps)
        sources.extend(vt.B10D_SOURCES)
        if figures.t10d_years < vt.MISSION_TIME_YEARS:
            sources.extend(vt.MISSION_TIME_SOURCES)
            warnings.append(
                Line(
                    text=gettext_noop(
                        "%(subsystem)s: T10d (%(t10d)s years) is shorter than the "
                        "mission time of %(mission)s years: replace the part before "
                        "T10d (Annex C). The 20-year mission time is the usual "
                        "basis of Table K.1, from one public source."
                    ),
                    values={
                        "subsystem": name,
                        "t10d": num(figures.t10d_years),
                        "mission": num(vt.MISSION_TIME_YEARS),
                    },
                )
            )
    else:
        steps.append(
            Line(
                text=gettext_noop("MTTFd of each channel, as given"),
                formula=f"MTTFd = {num(c1)} years"
                if inp.mttfd_channel2_years is None
                else f"MTTFd = {num(c1)} and {num(inp.mttfd_channel2_years)} years",
            )
        )
    channels = channel_mttfd(category, c1, inp.mttfd_channel2_years, name=name)
    steps.extend(channels.steps)
    warnings.extend(channels.warnings)
    sources.extend(channels.sources)

    ccf = _ccf_points(inp)
    ccf_steps: tuple[Line, ...] = ()
    if vt.CATEGORIES[category].ccf_required:
        if inp.ccf_measures:
            score = ccf_score(inp.ccf_measures)
            ccf_steps = score.steps
            sources.extend(score.sources)
            confirmed = confirmed and score.certainty is Certainty.TWO_SOURCES
        else:
            assert ccf is not None  # the category rules require it
            ccf_steps = (score_line(ccf),)
            sources.extend(vt.CCF_MIN_SOURCES)

    design = designed_pl(
        category,
        channels.value,
        inp.dcavg_percent,
        name=name,
        k1=k1,
        ccf_steps=ccf_steps,
    )
    steps.extend(design.steps)
    warnings.extend(design.warnings)
    sources.extend(design.sources)
    confirmed = confirmed and design.certainty is Certainty.TWO_SOURCES
    return SubsystemResult(
        label=name,
        route="designed",
        category=category,
        mttfd_years=channels.value,
        mttfd_band=design.mttfd_band,
        dcavg_band=design.dcavg_band,
        ccf_points=ccf,
        pl=design.pl,
        pfhd_per_hour=design.pfhd_per_hour,
        pfhd_min_per_hour=design.pfhd_min_per_hour,
        pfhd_max_per_hour=design.pfhd_max_per_hour,
        pfhd_basis=design.pfhd_basis,
        certainty=_certainty(confirmed),
        steps=tuple(steps),
        warnings=tuple(warnings),
        sources=tuple(dict.fromkeys(sources)),
    )


def _combine(results: list[SubsystemResult]) -> SeriesCombination:
    return combine(
        [
            SeriesPart(
                pl=r.pl,
                pfhd_per_hour=r.pfhd_per_hour,
                pfhd_min_per_hour=r.pfhd_min_per_hour,
                pfhd_max_per_hour=r.pfhd_max_per_hour,
            )
            for r in results
        ]
    )


_ROUTE_TEXT = {
    "certified": gettext_noop("%(subsystem)s: certified subsystem"),
    "pl_only": gettext_noop("%(subsystem)s: subsystem known by its PL only"),
    "designed": gettext_noop(
        "%(subsystem)s: designed subsystem, Category %(category)s"
    ),
}


def pl_verify(
    inp: PlVerifyInput,
    k1: K1Table | None = None,
    *,
    ceilings: Sequence[Sequence[PlCeiling]] = (),
) -> PlVerifyResult:
    """The PL a safety function reaches from its subsystems in series.

    With ``k1`` (an imported Table K.1) designed subsystems take their PFHd
    from it. Should the function then fall below PL a, a pydantic
    ``ValidationError`` on ``subsystems`` is raised, as the input's own
    validation does without a table. ``ceilings[i]``: the ceilings of
    subsystem ``i`` (none for a subsystem beyond the list)."""
    results = [
        _subsystem(s, i, k1, ceilings[i] if i < len(ceilings) else ())
        for i, s in enumerate(inp.subsystems)
    ]
    combination = _combine(results)
    if combination.pl is None:
        raise ValidationError.from_exception_data(
            "PlVerifyInput",
            [
                InitErrorDetails(
                    type="value_error",
                    loc=("subsystems",),
                    input=None,
                    ctx={"error": ValueError(combination.refusal)},
                )
            ],
        )
    pl = combination.pl

    steps: list[Line] = []
    warnings: list[Line] = []
    sources: list[str] = []
    for result in results:
        steps.append(
            Line(
                text=_ROUTE_TEXT[result.route],
                values={"subsystem": result.label, "category": result.category or ""},
                formula=f"PL {result.pl}",
            )
        )
        steps.extend(result.steps)
        warnings.extend(result.warnings)
        sources.extend(result.sources)
    steps.extend(combination.steps)
    sources.extend(combination.sources)

    meets: bool | None = None
    if inp.plr is not None:
        meets = vt.pl_at_least(pl, inp.plr)
        if meets:
            steps.append(
                Line(
                    text=gettext_noop("The safety function meets its PLr"),
                    formula=f"PL {pl} ≥ PLr {inp.plr}",
                )
            )
        else:
            steps.append(
                Line(
                    text=gettext_noop("The safety function does not meet its PLr"),
                    formula=f"PL {pl} < PLr {inp.plr}",
                )
            )
            # Fails first.
            warnings.insert(
                0,
                Line(
                    text=gettext_noop(
                        "The safety function reaches PL %(pl)s, below its required "
                        "PL %(plr)s."
                    ),
                    values={"pl": pl, "plr": inp.plr},
                ),
            )

    used_k1 = k1 is not None and any(r.pfhd_basis == "table_k1" for r in results)
    confirmed = combination.certainty is Certainty.TWO_SOURCES and all(
        r.certainty is Certainty.TWO_SOURCES for r in results
    )
    return PlVerifyResult(
        pl=pl,
        pfhd_per_hour=combination.pfhd_per_hour,
        pfhd_min_per_hour=combination.pfhd_min_per_hour,
        pfhd_max_per_hour=combination.pfhd_max_per_hour,
        combination=combination.combination,
        subsystems=tuple(results),
        plr=inp.plr,
        meets_plr=meets,
        k1_source=k1.source if used_k1 and k1 is not None else None,
        clause=CLAUSE,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=_certainty(confirmed),
        sources=tuple(dict.fromkeys(sources)),
    )


def _certainty(confirmed: bool) -> Certainty:
    return Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE


CALCULATORS: list[Calculator] = [
    Calculator(
        name="pl-verify",
        title=gettext_noop("Performance level reached (verification)"),
        summary=gettext_noop(
            "Verifies the PL a safety function reaches from its subsystems in "
            "series: certified devices by the maker's PL and PFHd, designed ones "
            "by category, MTTFd (or B10d), DCavg and CCF, and checks it against "
            "the PLr."
        ),
        standard=STANDARD,
        input_model=PlVerifyInput,
        result_model=PlVerifyResult,
        run=pl_verify,
        headline=("pl", "meets_plr", "pfhd_min_per_hour", "pfhd_max_per_hour"),
        choice_labels={m.id: m.label for m in vt.CCF_MEASURES},
        # A light curtain (SICK deTec4 Core) and a safety relay (Pilz PNOZ
        # compact), both certified (devices_typical.json), and two contactors
        # (ABB AF, B10d 1 300 000) switching once a minute, 220 days × 16 h.
        example={
            "subsystems": [
                {
                    "label": gettext_noop("Light curtain"),
                    "pl": "e",
                    "pfhd_per_hour": 3.7e-9,
                },
                {
                    "label": gettext_noop("Safety relay"),
                    "pl": "e",
                    "pfhd_per_hour": 2.31e-9,
                },
                {
                    "label": gettext_noop("Contactors"),
                    "category": "3",
                    "b10d_cycles": 1300000,
                    "days_per_year": 220,
                    "hours_per_day": 16,
                    "cycle_time_s": 60,
                    "dcavg_percent": 99,
                    "ccf_points": 80,
                },
            ],
            "plr": "d",
        },
    ),
]
