"""Editions of the standards the app computes with, and the jurisdictions.

A standard may have more than one edition in force at a time: ISO 13855:2010
is still what many vendors' tools and national adoptions follow while ISO
13855:2024 (EN ISO 13855:2025) is the current edition. A project chooses the
edition of such a standard; without a choice it gets its jurisdiction's
default (``DEFAULT_EDITIONS``). Standards with one edition the app knows are
listed too, so that every result can name the edition it applies.

Every fact here is from the reference data (``iso13855_additions.json``
``edition_2024``, ``iso10218_2025*.json``, ``iso13849_risk_graph.json``) or
a public source named beside it. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from compliance.calculators.base import gettext_noop

Jurisdiction = Literal["KR", "EU", "US", "INTL"]

# The member states of the European Union and the other EEA states (Iceland,
# Liechtenstein, Norway), where the EU machinery legislation applies.
EU_EEA: frozenset[str] = frozenset(
    {
        "AT",
        "BE",
        "BG",
        "HR",
        "CY",
        "CZ",
        "DK",
        "EE",
        "FI",
        "FR",
        "DE",
        "GR",
        "IE",
        "IT",
        "LV",
        "LT",
        "LU",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SK",
        "SI",
        "ES",
        "SE",
        "IS",
        "LI",
        "NO",
    }
)  # fmt: skip


def jurisdiction_of(country: str) -> Jurisdiction:
    """The rule packs' jurisdiction of an ISO 3166-1 alpha-2 country."""
    code = country.upper()
    if code == "KR":
        return "KR"
    if code == "US":
        return "US"
    if code in EU_EEA:
        return "EU"
    return "INTL"


@dataclass(frozen=True)
class Edition:
    """One edition of a standard, with what changed for the app."""

    standard: str  # the key of its standard, e.g. "iso13855"
    year: str  # "2024"
    label: str  # how it is cited, e.g. "ISO 13855:2024"
    published: str  # as the sources give it
    changes: str  # what changed for the app, English (gettext_noop)
    sources: tuple[str, ...]
    confirmed_two_sources: bool


@dataclass(frozen=True)
class Standard:
    """A standard and the editions of it the app knows, oldest first."""

    key: str
    title: str  # "ISO 13855"
    editions: tuple[Edition, ...]

    @property
    def choosable(self) -> bool:
        """Two editions in force: the project chooses between them."""
        return len(self.editions) > 1

    def edition(self, year: str) -> Edition:
        for candidate in self.editions:
            if candidate.year == year:
                return candidate
        raise KeyError(f"{self.key}: no edition {year}")

    @property
    def years(self) -> tuple[str, ...]:
        return tuple(e.year for e in self.editions)


# iso13855_additions.json "sources": CERTIFICO, SENS2B, EVS, LEUZE_WIZ2024.
CERTIFICO = (
    "certifico.com news item id 23017 (ISO 13855:2024, 3rd edition, published "
    "2024-11-22; foreword list of changes)"
)
SENS2B = "sens2b-sensors.com interview with Leuze on ISO 13855:2024 ('end of 2024')"
EVS = (
    "https://www.evs.ee (EN ISO 13855:2025 scope: AOPDDR-2D/3D, VBPD, SRMCD; "
    "persons 14 years and older)"
)
# iso10218_2025_additions.json "publication" sources.
ESREL = (
    "ESREL 2025 proceedings paper by INAIL authors on ISO 10218:2025 "
    "(rpsonline.com.sg, paper P3635)"
)
JUSTWELL = "justwellspareparts article on ISO 10218:2025 (February 2025; page counts)"
GT_10218 = (
    "gt-engineering.it ISO 10218-1:2025 pages (class I/II and force test method; "
    "clauses 5.3-5.5 last edited 11/05/2025)"
)
PLCMASTERS = (
    "https://www.plcmasters.com/pt/blogs/news/ansi-a3-r15-06-2025-modernizing-"
    "industrial-robot-safety-standards (R15.06-2025 on ISO 10218-1/-2:2025: "
    "'collaborative robot' replaced by 'collaborative application')"
)
# ISO 13849-1:2023: the foreword's list of changes, as two sites reproduce it.
XEFRACERT = (
    "https://xefracert.com/2023/06/new-iso-13849-12023 (ISO 13849-1:2023 "
    "foreword: cancels and replaces the 2015 edition; specification of safety "
    "functions in Clause 5; validation moved to Clause 10)"
)
PIERMAGNETIC = (
    "https://ygxhrobot.com/3500-61-01-05-significant-changes-to-iso-13849-1-in-"
    "2023 (Piermagnetic: safety requirements specification in Clause 5; the "
    "verification and validation requirements of ISO 13849-2 revised and "
    "incorporated)"
)
STUDYLIB_2023 = (
    "https://studylib.net/doc/27504920/iso-13849-1---general-principles-for-"
    "design (ISO 13849-1:2023, fourth edition 2023-04; cover only read)"
)

ISO13855 = Standard(
    key="iso13855",
    title="ISO 13855",
    editions=(
        Edition(
            standard="iso13855",
            year="2010",
            label="ISO 13855:2010",
            published="2010",
            changes=gettext_noop(
                "S = K × T + C: the intrusion distance C by detection capability, "
                "S = max(S_RT, S_RO) with C_RO from Table 1; parallel approach "
                "C = 1200 − 0.4 H, not below 850 mm."
            ),
            sources=(
                "iso13855.json (SICK C4000, QJKH, ifm, Datalogic, ReeR, SICK "
                "microScan3, Schmersal, gt-engineering)",
            ),
            confirmed_two_sources=True,
        ),
        Edition(
            standard="iso13855",
            year="2024",
            label="ISO 13855:2024",
            published="2024-11-22 (EN ISO 13855:2025)",
            changes=gettext_noop(
                "S = K × T + D_DS + Z: the distance D_DS is the largest of reaching "
                "through (D_DT), over (D_DO) and under (D_DU) the detection zone; "
                "Z adds the device's measurement and reflection errors; the "
                "parallel approach takes a flat D_DS = 1200 mm, and a field "
                "higher than 200 mm leaves a risk of undetected access below it. "
                "Scope extended to scanners, 3D and vision-based devices."
            ),
            sources=(CERTIFICO, SENS2B, EVS),
            confirmed_two_sources=True,  # edition_2024.publication
        ),
    ),
)

ISO10218 = Standard(
    key="iso10218",
    title="ISO 10218-1/-2",
    editions=(
        Edition(
            standard="iso10218",
            year="2025",
            label="ISO 10218-1:2025 / ISO 10218-2:2025",
            published="2025-02",
            changes=gettext_noop(
                "ISO/TS 15066 folded in: a 'collaborative application' rather than "
                "a 'collaborative robot'; robot classes I and II; cybersecurity "
                "requirements (with reference to IEC 62443); the required PL or "
                "SIL given per safety function; a documented risk assessment of "
                "the whole cell."
            ),
            sources=(ESREL, JUSTWELL, GT_10218, PLCMASTERS),
            confirmed_two_sources=True,  # iso10218_2025_additions.publication
        ),
    ),
)

ISO13849_1 = Standard(
    key="iso13849_1",
    title="ISO 13849-1",
    editions=(
        Edition(
            standard="iso13849_1",
            year="2023",
            label="ISO 13849-1:2023",
            published="2023-04",
            changes=gettext_noop(
                "Cancels and replaces the 2015 edition. For this app: the PLr "
                "from the risk graph is determined as before (S, F, P; outcomes "
                "unchanged); the safety requirements specification of each "
                "safety function is in Clause 5 and its validation in Clause 10 "
                "of Part 1 (the validation requirements of ISO 13849-2 are "
                "incorporated); the simplified procedure is Figure 12 (6.1.8), "
                "the 2015 Table 6 is gone."
            ),
            sources=(XEFRACERT, PIERMAGNETIC, STUDYLIB_2023),
            confirmed_two_sources=True,
        ),
    ),
)

STANDARDS: dict[str, Standard] = {s.key: s for s in (ISO13855, ISO10218, ISO13849_1)}

# The edition a project gets when it chooses none, by jurisdiction. Korea and
# the rest keep ISO 13855:2010, as the app computed before editions could be
# chosen (no Korean adoption of the 2024 edition was found), so their
# verdicts stand; EU/EEA projects get the current European edition (EN ISO
# 13855:2025), and US projects the current edition, as R15.06-2025 adopts the
# current ISO 10218. A project may choose the other edition.
DEFAULT_EDITIONS: dict[Jurisdiction, dict[str, str]] = {
    "KR": {"iso13855": "2010"},
    "INTL": {"iso13855": "2010"},
    "EU": {"iso13855": "2024"},
    "US": {"iso13855": "2024"},
}
DEFAULT_REASONS: dict[Jurisdiction, str] = {
    "KR": gettext_noop(
        "Korea: ISO 13855:2010, as the app computed before editions could be "
        "chosen; no Korean adoption of the 2024 edition was found."
    ),
    "INTL": gettext_noop(
        "ISO 13855:2010, as the app computed before editions could be chosen."
    ),
    "EU": gettext_noop("EU/EEA: ISO 13855:2024, published as EN ISO 13855:2025."),
    "US": gettext_noop("United States: ISO 13855:2024, the current edition."),
}


def default_editions(country: str) -> dict[str, str]:
    """Every standard's edition for a project in ``country`` that chose none."""
    chosen = DEFAULT_EDITIONS[jurisdiction_of(country)]
    return {
        key: chosen.get(key, standard.editions[-1].year)
        for key, standard in STANDARDS.items()
    }


def resolve(country: str, chosen: Mapping[str, str] | None) -> dict[str, str]:
    """The editions a project computes with: its choices where valid, else its
    jurisdiction's defaults."""
    editions = default_editions(country)
    for key, year in (chosen or {}).items():
        standard = STANDARDS.get(key)
        if standard is not None and standard.choosable and year in standard.years:
            editions[key] = year
    return editions


def choice_problems(chosen: object) -> list[str]:
    """Why a project's choice of editions is not valid (empty when it is):
    a mapping of choosable standards to one of their editions."""
    if not isinstance(chosen, Mapping):
        return ["give the editions as an object: {standard: year}"]
    problems = []
    for key, year in chosen.items():
        standard = STANDARDS.get(key) if isinstance(key, str) else None
        if standard is None or not standard.choosable:
            choosable = ", ".join(k for k, s in STANDARDS.items() if s.choosable)
            problems.append(f"{key}: not a standard with a choice ({choosable})")
        elif year not in standard.years:
            problems.append(f"{key}: no edition {year} ({', '.join(standard.years)})")
    return problems


def labels(editions: Mapping[str, str]) -> tuple[str, ...]:
    """The editions as cited, e.g. ("ISO 13855:2024", ...), in registry order."""
    return tuple(
        STANDARDS[key].edition(editions[key]).label
        for key in STANDARDS
        if key in editions and editions[key] in STANDARDS[key].years
    )
