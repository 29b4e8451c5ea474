"""ISO 13849-1:2015, 6.1.8: the PL a designed subsystem reaches (simplified procedure).

A subsystem built to a category reaches the PL read from its category, the
band of its average diagnostic coverage DCavg and the band of the MTTFd of
each channel: Table 6 and Figure 5 in the 2015 edition, Figure 12 in the 2023
edition (which dropped Table 6). The category sets what is permitted (the MTTFd
and DCavg bands it is defined for, at least 65 CCF points for Categories 2 to
4); the channel MTTFd is capped (Annex C) and two different channels are
symmetrised first (Annex D).

The simplified table gives a PL, not a PFHd: the exact PFHd comes from Annex K
Table K.1, which is not in any public source read. With an organisation's
imported copy (``iso13849_k1``) the PFHd and PL are read from it; without one,
the PFHd is given as the range of the PL and the working says Table K.1 is
needed for the exact figure. Tables from ``iso13849_verification_tables``.
Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import Certainty, Line, gettext_noop
from compliance.calculators.iso13849_b10d import band_formula, mttfd_band, num
from compliance.calculators.iso13849_channels import symmetrise
from compliance.calculators.iso13849_k1 import K1Table, k1_pfhd, sci
from compliance.calculators.iso13849_verification_tables import (
    Category,
    DcBand,
    MttfdBand,
    PerformanceLevel,
)

CLAUSE = (
    "ISO 13849-1:2015, 6.1.8 and Table 6 (simplified procedure); "
    "ISO 13849-1:2023, Figure 12"
)

PfhdBasis = Literal["maker", "table_k1", "alternative_procedure", "pl_range"]
Quantity = Literal["mttfd", "dcavg", "ccf"]


def dc_band(dcavg_percent: float) -> DcBand:
    """The DCavg band: none < 60 %, low < 90 %, medium < 99 %, high ≥ 99 %."""
    for band in reversed(vt.DC_BANDS):
        if dcavg_percent >= band.low:
            return band.name  # type: ignore[return-value]
    return "none"


_CATEGORY_NAMES = {
    "B": gettext_noop("Category B"),
    "1": gettext_noop("Category 1"),
    "2": gettext_noop("Category 2"),
    "3": gettext_noop("Category 3"),
    "4": gettext_noop("Category 4"),
}


def category_problem(
    category: Category,
    *,
    mttfd_years: float,
    dcavg_percent: float | None,
    ccf_points: int | None,
) -> tuple[Quantity, str] | None:
    """The first category rule a design breaks, as (quantity, English message);
    None when the category permits it. ``mttfd_years`` is the effective channel
    MTTFd (capped, symmetrised). What the standard allows with a limit (a capped
    MTTFd, Cat B with MTTFd high, DC high in Cat 2/3, DC in Cat B/1) is not a
    problem: the evaluation states it as a warning."""
    name = f"Category {category}"
    if mttfd_years < vt.MTTFD_MIN_YEARS:
        return (
            "mttfd",
            f"An MTTFd of a channel under 3 years is not allowed "
            f"({num(mttfd_years)} years): the lowest band starts at 3 years.",
        )
    requirement = vt.CATEGORIES[category]
    if requirement.mttfd_bands == ("high",) and mttfd_years < vt.MTTFD_HIGH_YEARS:
        return (
            "mttfd",
            f"{name} needs an MTTFd of each channel of at least 30 years "
            f"(high); this one is {num(mttfd_years)} years.",
        )
    if "none" not in requirement.dc_bands:
        lowest = requirement.dc_bands[0]
        minimum = next(b.low for b in vt.DC_BANDS if b.name == lowest)
        if dcavg_percent is None:
            return (
                "dcavg",
                f"{name} needs its DCavg (at least {num(minimum)} %, {lowest}).",
            )
        band = dc_band(dcavg_percent)
        if vt.DC_BAND_ORDER.index(band) < vt.DC_BAND_ORDER.index(lowest):
            return (
                "dcavg",
                f"{name} needs a DCavg of at least {num(minimum)} % ({lowest}); "
                f"{num(dcavg_percent)} % is {band}.",
            )
    if requirement.ccf_required:
        if ccf_points is None:
            return (
                "ccf",
                f"{name} needs its CCF score: at least {vt.CCF_MIN_POINTS} points "
                "(Annex F).",
            )
        if ccf_points < vt.CCF_MIN_POINTS:
            return (
                "ccf",
                f"{name} needs at least {vt.CCF_MIN_POINTS} CCF points (Annex F); "
                f"{ccf_points} given.",
            )
    return None


@dataclass(frozen=True)
class ChannelMttfd:
    """The MTTFd a subsystem's channels count: capped, and symmetrised when the
    two channels differ."""

    value: float
    steps: tuple[Line, ...]
    warnings: tuple[Line, ...]
    sources: tuple[str, ...]


def channel_mttfd(
    category: Category, c1_years: float, c2_years: float | None, *, name: str
) -> ChannelMttfd:
    """Annex C cap per channel, then Annex D symmetrisation of two channels."""
    cap = vt.MTTFD_CAP_YEARS[category]
    steps: list[Line] = []
    warnings: list[Line] = []
    sources = list(vt.MTTFD_CAP_SOURCES)
    channels = [c1_years] if c2_years is None else [c1_years, c2_years]
    capped = []
    for number, value in enumerate(channels, start=1):
        if value > cap:
            warnings.append(
                Line(
                    text=gettext_noop(
                        "%(subsystem)s: the MTTFd of channel %(channel)s "
                        "(%(mttfd)s years) is above the cap and counts as %(cap)s "
                        "years (Annex C)"
                    ),
                    values={
                        "subsystem": name,
                        "channel": number,
                        "mttfd": num(value),
                        "cap": num(cap),
                    },
                )
            )
            steps.append(
                Line(
                    text=gettext_noop(
                        "The MTTFd of a channel counts at most %(cap)s years in "
                        "%(category)s (Annex C)"
                    ),
                    values={"cap": num(cap), "category": _CATEGORY_NAMES[category]},
                    formula=f"MTTFd = min({num(value)}, {num(cap)}) = {num(cap)} years",
                )
            )
        capped.append(min(value, cap))
    if len(capped) == 2 and capped[0] != capped[1]:
        figure = symmetrise(capped[0], capped[1])
        steps.extend(figure.steps)
        sources.extend(figure.sources)
        value = figure.value
    else:
        value = capped[0]
    return ChannelMttfd(value, tuple(steps), tuple(warnings), tuple(sources))


@dataclass(frozen=True)
class DesignedPl:
    """The PL and PFHd of a designed subsystem, with the working."""

    pl: PerformanceLevel
    mttfd_band: MttfdBand  # the band the procedure used
    dcavg_band: DcBand  # the DCavg band (column) the procedure used
    pfhd_per_hour: float | None
    pfhd_min_per_hour: float
    pfhd_max_per_hour: float
    pfhd_basis: PfhdBasis
    certainty: Certainty
    steps: tuple[Line, ...]
    warnings: tuple[Line, ...]
    sources: tuple[str, ...] = field(default=())


def designed_pl(
    category: Category,
    mttfd_years: float,
    dcavg_percent: float | None,
    *,
    name: str,
    k1: K1Table | None = None,
    ccf_steps: tuple[Line, ...] = (),
) -> DesignedPl:
    """PL (and PFHd with Table K.1) of a subsystem the category rules permit.

    ``mttfd_years`` is the effective channel MTTFd (capped, symmetrised); call
    ``category_problem`` first: a design it refuses raises ValueError here.
    ``ccf_steps``, the CCF working, are shown before the table is read."""
    steps: list[Line] = []
    warnings: list[Line] = []
    sources: list[str] = [*vt.MTTFD_BANDS_SOURCES, *vt.DC_BANDS_SOURCES]
    confirmed = True
    requirement = vt.CATEGORIES[category]
    sources.extend(requirement.sources)

    band = mttfd_band(mttfd_years)
    if band is None:
        raise ValueError("an MTTFd under 3 years is not allowed")
    steps.append(
        Line(
            text=gettext_noop("MTTFd of each channel: band %(band)s (6.1.8)"),
            values={"band": band},
            formula=band_formula(mttfd_years, band),
        )
    )
    used_band: MttfdBand = band
    if category == "B" and band == "high":
        used_band = "medium"
        confirmed = False
        warnings.append(
            Line(
                text=gettext_noop(
                    "%(subsystem)s: a Category B channel counts at most as MTTFd "
                    "medium, so PL b is the most it reaches (the sources disagree "
                    "on this cell; treated as b)"
                ),
                values={"subsystem": name},
            )
        )

    if "none" in requirement.dc_bands:
        used_dc: DcBand = "none"
        if dcavg_percent is not None and dc_band(dcavg_percent) != "none":
            warnings.append(
                Line(
                    text=gettext_noop(
                        "%(subsystem)s: diagnostic coverage is not credited in "
                        "%(category)s; the DCavg of %(dc)s %% is not used"
                    ),
                    values={
                        "subsystem": name,
                        "category": _CATEGORY_NAMES[category],
                        "dc": num(dcavg_percent),
                    },
                )
            )
        steps.append(
            Line(
                text=gettext_noop("%(category)s: diagnostic coverage none (6.1.8)"),
                values={"category": _CATEGORY_NAMES[category]},
            )
        )
    else:
        assert dcavg_percent is not None  # category_problem requires it
        used_dc = dc_band(dcavg_percent)
        steps.append(
            Line(
                text=gettext_noop("DCavg band: %(band)s (6.1.8)"),
                values={"band": used_dc},
                formula=f"DCavg = {num(dcavg_percent)} % ({_DC_LIMITS[used_dc]})",
            )
        )
        if used_dc not in requirement.dc_bands:
            if used_dc != "high" or category not in ("2", "3"):
                raise ValueError(f"DCavg {used_dc} is not permitted in {category}")
            used_dc = vt.DC_HIGH_COLUMN_FOR_CAT_2_3
            confirmed = confirmed and vt.DC_HIGH_COLUMN_CONFIRMED_TWO_SOURCES
            sources.extend(vt.DC_HIGH_COLUMN_SOURCES)
            warnings.append(
                Line(
                    text=gettext_noop(
                        "%(subsystem)s: %(category)s has no column for DCavg high; "
                        "the DCavg medium column is read (conservative; one public "
                        "source)"
                    ),
                    values={"subsystem": name, "category": _CATEGORY_NAMES[category]},
                )
            )

    steps.extend(ccf_steps)
    cell = vt.SIMPLIFIED_ROWS[(category, used_dc)].cells[used_band]
    if cell.pl is None:
        raise ValueError(f"{category}/{used_dc}/{used_band} is not permitted")
    confirmed = confirmed and cell.confirmed_two_sources
    sources.extend(cell.sources)
    steps.append(
        Line(
            text=gettext_noop(
                "Simplified procedure (ISO 13849-1:2015, 6.1.8 and Table 6; "
                "Figure 12 in ISO 13849-1:2023)"
            ),
            formula=(
                f"Cat {category}, DCavg {used_dc}, MTTFd {used_band} → PL {cell.pl}"
            ),
        )
    )
    if category == "3" and used_dc == "medium" and used_band == "high":
        steps.append(
            Line(
                text=gettext_noop(
                    "The simplified table gives d here; PL e is reachable only with "
                    "the exact PFHd from Table K.1"
                )
            )
        )

    pl: PerformanceLevel = cell.pl
    band_range = vt.PL_PFHD[pl]
    pfhd: float | None = None
    basis: PfhdBasis = "pl_range"
    if k1 is not None:
        reading_mttfd = mttfd_years
        if used_band != band:
            # Cat B counted as MTTFd medium: read the last row below 30 years.
            below = [
                r.mttfd_years for r in k1.rows if r.mttfd_years < vt.MTTFD_HIGH_YEARS
            ]
            reading_mttfd = below[-1] if below else 0.0
            steps.append(
                Line(
                    text=gettext_noop(
                        "A Category B channel counts as MTTFd medium: Table K.1 is "
                        "read at its last row below 30 years"
                    )
                )
            )
        reading = k1_pfhd(k1, vt.K1_COLUMNS[(category, used_dc)], reading_mttfd)
        steps.append(reading.line)
        if reading.pfhd_per_hour is not None:
            pfhd = reading.pfhd_per_hour
            basis = "table_k1"
            # The imported copy is one record, entered by the organisation.
            confirmed = False
            k1_pl = vt.pl_for_pfhd(pfhd)
            assert k1_pl is not None  # K.1 values are below 1e-4
            pl = vt.lowest_pl(k1_pl, requirement.max_pl)
            steps.append(
                Line(
                    text=gettext_noop("PL from the PFHd of Table K.1 (Annex K)"),
                    formula=f"PFHd = {sci(pfhd)} /h → PL {k1_pl}",
                )
            )
            if pl != k1_pl:
                steps.append(
                    Line(
                        text=gettext_noop(
                            "%(category)s reaches at most PL %(max)s (one public "
                            "source)"
                        ),
                        values={
                            "category": _CATEGORY_NAMES[category],
                            "max": requirement.max_pl,
                        },
                        formula=f"PL {k1_pl} → {pl}",
                    )
                )
        else:
            steps.append(
                Line(
                    text=gettext_noop(
                        "So the simplified procedure's PL is used and the PFHd is "
                        "given as its range"
                    )
                )
            )
    if pfhd is None:
        steps.append(
            Line(
                text=gettext_noop(
                    "Table K.1 (Annex K) is needed for the exact PFHd; it is given "
                    "as the range of PL %(pl)s"
                ),
                values={"pl": pl},
                formula=(
                    f"{sci(band_range.pfhd_min_per_h)} /h ≤ PFHd < "
                    f"{sci(band_range.pfhd_max_per_h)} /h"
                ),
            )
        )
        pfhd_min, pfhd_max = band_range.pfhd_min_per_h, band_range.pfhd_max_per_h
    else:
        pfhd_min = pfhd_max = pfhd

    return DesignedPl(
        pl=pl,
        mttfd_band=used_band,
        dcavg_band=used_dc,
        pfhd_per_hour=pfhd,
        pfhd_min_per_hour=pfhd_min,
        pfhd_max_per_hour=pfhd_max,
        pfhd_basis=basis,
        certainty=Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE,
        steps=tuple(steps),
        warnings=tuple(warnings),
        sources=tuple(dict.fromkeys(sources)),
    )


_DC_LIMITS = {
    "none": "DCavg < 60 %",
    "low": "60 % ≤ DCavg < 90 %",
    "medium": "90 % ≤ DCavg < 99 %",
    "high": "DCavg ≥ 99 %",
}
