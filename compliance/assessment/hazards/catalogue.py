"""ISO 12100:2010, Annex B (Table B.1): hazard groups, origins and consequences.

The catalogue the risk assessment picks from: the ten hazard groups of Annex B,
each with its typical origins and potential consequences, copied from the
reference data ``iso12100_hazards.json`` ("hazard_groups") into
``fixtures/iso12100_hazard_groups.json``, with each group's sources. The
standard itself was not read: the lists are as public code and national
adoptions reproduce them (see each group's ``sources``), and they are
examples, not an exhaustive list. Nothing has been added to them: the ids are
ours (stable slugs, so stored rows survive a change of wording), the English
text is the reference's; the project's ``makemessages`` collects the
fixture's texts for translation.

Alongside: the three-step method of clause 6 ("three_step_method") and the
elements of risk ("elements_of_risk") from the same file, and two lists the
reference file does not hold, which come from the product brief:
``LIFE_CYCLE_PHASES`` and ``EXPOSED_PERSONS``.

Lookups (``group``, ``origin``, ``consequence``, ...) and validators
(``validate_*``) raise ``UnknownId`` (a ``ValueError``) for an id not in the
catalogue.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from compliance.calculators.base import Certainty, gettext_noop

STANDARD = "ISO 12100:2010"
CLAUSE = "ISO 12100:2010, Annex B (Table B.1, examples of hazards)"

# Source descriptions, verbatim from the reference file's "sources" map.
SQL = (
    "Public open-source code (SQL: Tbl_Danger_Type 10 groups, Tbl_Danger_Source "
    "84 origin rows, 57 consequences, following ISO 12100 Annex B Table B.1)"
)
JAVA = (
    "Public open-source code (Java enum of ISO 12100 Annex B potential "
    "consequences grouped by hazard type)"
)
BREAKPILOT = "breakpilot GitHub commit (ISO 12100 hazard groups and 3-step method)"
GOST = "GOST ISO 12100 Annex B page (Russian national adoption; hazard group list)"
ITNOTE = "Italian application note on ISO 12100 risk reduction (3-step method)"
ROBOLIST = (
    "https://www.robolist.ai/guides/industrial-arm/safety-zones-scanners-fencing "
    "(ISO 12100 hierarchy: hazard identification -> risk estimation -> risk "
    "reduction)"
)
CHARGER = (
    "http://www.charger.com.tw/12_standards/02_en/IEC_62061/html/99_Annex_A.html "
    "(elements of risk wording)"
)
FESTO13 = "https://festo.com/PDF_Flip/safety/en/files/assets/basic-html/page13.html"

# Shown beside any list drawn from the catalogue.
EXAMPLES_NOT_EXHAUSTIVE = gettext_noop(
    "ISO 12100 Annex B lists examples of hazards, not every possible hazard."
)


class UnknownId(ValueError):
    """An id that is not in the catalogue."""


@dataclass(frozen=True)
class CatalogueItem:
    """One entry of a catalogue list: a stable id and its English text.

    ``text`` is marked with ``gettext_noop``; translate it when showing it.
    """

    id: str
    text: str


@dataclass(frozen=True)
class HazardGroup:
    """One hazard group of ISO 12100 Annex B Table B.1 (mechanical, electrical...).

    ``origins`` are the typical origins of the hazard (what on the machine
    causes it), ``consequences`` the potential consequences (the harm).
    """

    number: int  # the group's number in Table B.1, 1 to 10
    id: str
    name: str  # English, marked with gettext_noop
    origins: tuple[CatalogueItem, ...]
    consequences: tuple[CatalogueItem, ...]
    sources: tuple[str, ...]
    certainty: Certainty
    note: str  # the reference's provenance note, in English, not for translation

    def origin(self, origin_id: str) -> CatalogueItem:
        """The origin with this id; ``UnknownId`` if the group has none."""
        for item in self.origins:
            if item.id == origin_id:
                return item
        raise UnknownId(f"no origin {origin_id!r} in hazard group {self.id!r}")

    def consequence(self, consequence_id: str) -> CatalogueItem:
        """The consequence with this id; ``UnknownId`` if the group has none."""
        for item in self.consequences:
            if item.id == consequence_id:
                return item
        raise UnknownId(
            f"no consequence {consequence_id!r} in hazard group {self.id!r}"
        )


HAZARDS_FILE = (
    Path(__file__).resolve().parents[3] / "fixtures" / "iso12100_hazard_groups.json"
)


def _items(*pairs: tuple[str, str]) -> tuple[CatalogueItem, ...]:
    return tuple(CatalogueItem(id=item_id, text=text) for item_id, text in pairs)


def _rows(rows: list[dict[str, str]]) -> tuple[CatalogueItem, ...]:
    return _items(*((row["id"], row["text"]) for row in rows))


def _load(path: Path) -> tuple[HazardGroup, ...]:
    """The hazard groups of the fixture, in Table B.1 order. Their texts are
    English message ids (the makemessages command collects them from the
    fixture), translated when shown."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(
        HazardGroup(
            number=row["number"],
            id=row["id"],
            name=row["name"],
            origins=_rows(row["origins"]),
            consequences=_rows(row["consequences"]),
            sources=tuple(row["sources"]),
            certainty=Certainty(row["certainty"]),
            note=row["note"],
        )
        for row in data["hazard_groups"]
    )


# "hazard_groups": all ten groups, each confirmed_two_sources = true. Origins
# and consequences are in the reference file's order.
HAZARD_GROUPS: tuple[HazardGroup, ...] = _load(HAZARDS_FILE)


def fixture_messages() -> tuple[str, ...]:
    """The texts of the fixture, for the message catalogue (``makemessages``)."""
    texts = [g.name for g in HAZARD_GROUPS]
    for g in HAZARD_GROUPS:
        texts += [item.text for item in g.origins + g.consequences]
    return tuple(dict.fromkeys(texts))


_GROUPS_BY_ID = {g.id: g for g in HAZARD_GROUPS}


@dataclass(frozen=True)
class Choice:
    """A stable id and its English label (marked with ``gettext_noop``)."""

    id: str
    label: str


# Not in the reference file: this list comes from the product brief. It follows
# the life-cycle phases and tasks ISO 12100 asks to be considered (5.3/5.4),
# but its wording was not checked against the standard's text.
LIFE_CYCLE_PHASES: tuple[Choice, ...] = (
    Choice("transport", gettext_noop("Transport")),
    Choice("assembly_installation", gettext_noop("Assembly and installation")),
    Choice("commissioning", gettext_noop("Commissioning")),
    Choice("setting_teaching", gettext_noop("Setting, teaching and programming")),
    Choice("operation", gettext_noop("Operation")),
    Choice("cleaning", gettext_noop("Cleaning")),
    Choice("fault_finding", gettext_noop("Fault finding")),
    Choice("maintenance", gettext_noop("Maintenance")),
    Choice("decommissioning", gettext_noop("Decommissioning")),
)

# Not in the reference file: this list comes from the product brief.
EXPOSED_PERSONS: tuple[Choice, ...] = (
    Choice("operators", gettext_noop("Operators")),
    Choice("maintenance_staff", gettext_noop("Maintenance staff")),
    Choice("cleaners", gettext_noop("Cleaners")),
    Choice("others", gettext_noop("Visitors and other persons")),
)


@dataclass(frozen=True)
class RiskReductionStep:
    """One step of the ISO 12100 three-step method of risk reduction (clause 6).

    ``label`` is a short name for lists; ``description`` is the step's name as
    the reference gives it.
    """

    number: int
    id: str
    label: str
    description: str
    clause: str
    sources: tuple[str, ...]
    certainty: Certainty


_STEP_SOURCES = (BREAKPILOT, ITNOTE, ROBOLIST)

# "three_step_method": confirmed_two_sources = true.
THREE_STEP_METHOD: tuple[RiskReductionStep, ...] = (
    RiskReductionStep(
        number=1,
        id="inherently_safe_design",
        label=gettext_noop("Inherently safe design"),
        description=gettext_noop("Inherently safe design measures"),
        clause="ISO 12100:2010, 6.2",
        sources=_STEP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
    ),
    RiskReductionStep(
        number=2,
        id="safeguarding",
        label=gettext_noop("Safeguarding"),
        description=gettext_noop(
            "Safeguarding and/or complementary protective measures"
        ),
        clause="ISO 12100:2010, 6.3",
        sources=_STEP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
    ),
    RiskReductionStep(
        number=3,
        id="information_for_use",
        label=gettext_noop("Information for use"),
        description=gettext_noop("Information for use"),
        clause="ISO 12100:2010, 6.4",
        sources=_STEP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
    ),
)

# "three_step_method.process", verbatim.
RISK_ASSESSMENT_PROCESS = gettext_noop(
    "Determine limits of machinery -> hazard identification -> risk estimation "
    "-> risk evaluation -> risk reduction (iterate)"
)


@dataclass(frozen=True)
class ElementsOfRisk:
    """What risk is made of: the severity of harm and the probability of it.

    ``probability_elements`` are the three things the probability of harm
    depends on.
    """

    risk: str
    probability_elements: tuple[CatalogueItem, ...]
    sources: tuple[str, ...]
    certainty: Certainty


# "elements_of_risk": confirmed_two_sources = true.
ELEMENTS_OF_RISK = ElementsOfRisk(
    risk=gettext_noop(
        "function of severity of harm and probability of occurrence of that harm"
    ),
    probability_elements=_items(
        (
            "exposure",
            gettext_noop("exposure of persons to the hazard (frequency/duration)"),
        ),
        ("hazardous_event", gettext_noop("occurrence of a hazardous event")),
        (
            "avoidance",
            gettext_noop(
                "technical and human possibilities to avoid or limit the harm"
            ),
        ),
    ),
    sources=(CHARGER, FESTO13),
    certainty=Certainty.TWO_SOURCES,
)


# --- Lookups -----------------------------------------------------------------


def group(group_id: str) -> HazardGroup:
    """The hazard group with this id, e.g. ``group("mechanical")``."""
    try:
        return _GROUPS_BY_ID[group_id]
    except KeyError:
        raise UnknownId(f"no hazard group {group_id!r}") from None


def origin(group_id: str, origin_id: str) -> CatalogueItem:
    """A typical origin of a hazard group, e.g. ``("mechanical", "moving_elements")``."""
    return group(group_id).origin(origin_id)


def consequence(group_id: str, consequence_id: str) -> CatalogueItem:
    """A potential consequence of a hazard group, e.g. ``("mechanical", "crushing")``."""
    return group(group_id).consequence(consequence_id)


def _choice(choices: tuple[Choice, ...], choice_id: str, what: str) -> Choice:
    for choice in choices:
        if choice.id == choice_id:
            return choice
    raise UnknownId(f"no {what} {choice_id!r}")


def phase(phase_id: str) -> Choice:
    """The life-cycle phase with this id, e.g. ``phase("maintenance")``."""
    return _choice(LIFE_CYCLE_PHASES, phase_id, "life-cycle phase")


def exposed_person(person_id: str) -> Choice:
    """The kind of exposed person with this id, e.g. ``exposed_person("cleaners")``."""
    return _choice(EXPOSED_PERSONS, person_id, "kind of exposed person")


def step(step_id: str) -> RiskReductionStep:
    """The three-step-method step with this id, e.g. ``step("safeguarding")``."""
    for s in THREE_STEP_METHOD:
        if s.id == step_id:
            return s
    raise UnknownId(f"no risk-reduction step {step_id!r}")


# --- Validators: return the id unchanged, raise UnknownId (ValueError) -------


def validate_group(group_id: str) -> str:
    """``group_id`` if it names a hazard group; otherwise ``UnknownId``."""
    group(group_id)
    return group_id


def validate_origin(group_id: str, origin_id: str) -> str:
    """``origin_id`` if it is an origin of that group; otherwise ``UnknownId``."""
    origin(group_id, origin_id)
    return origin_id


def validate_consequence(group_id: str, consequence_id: str) -> str:
    """``consequence_id`` if it is a consequence of that group; else ``UnknownId``."""
    consequence(group_id, consequence_id)
    return consequence_id


def validate_phase(phase_id: str) -> str:
    """``phase_id`` if it names a life-cycle phase; otherwise ``UnknownId``."""
    phase(phase_id)
    return phase_id


def validate_exposed_person(person_id: str) -> str:
    """``person_id`` if it names a kind of exposed person; else ``UnknownId``."""
    exposed_person(person_id)
    return person_id


def validate_step(step_id: str) -> str:
    """``step_id`` if it names a three-step-method step; otherwise ``UnknownId``."""
    step(step_id)
    return step_id


# --- Choices for forms and model fields: (id, English label) pairs ----------


def group_choices() -> tuple[tuple[str, str], ...]:
    """Every hazard group as ``(id, name)``, in Table B.1 order."""
    return tuple((g.id, g.name) for g in HAZARD_GROUPS)


def origin_choices(group_id: str) -> tuple[tuple[str, str], ...]:
    """The origins of one group as ``(id, text)``."""
    return tuple((o.id, o.text) for o in group(group_id).origins)


def consequence_choices(group_id: str) -> tuple[tuple[str, str], ...]:
    """The consequences of one group as ``(id, text)``."""
    return tuple((c.id, c.text) for c in group(group_id).consequences)


def phase_choices() -> tuple[tuple[str, str], ...]:
    """Every life-cycle phase as ``(id, label)``."""
    return tuple((p.id, p.label) for p in LIFE_CYCLE_PHASES)


def exposed_person_choices() -> tuple[tuple[str, str], ...]:
    """Every kind of exposed person as ``(id, label)``."""
    return tuple((p.id, p.label) for p in EXPOSED_PERSONS)


def step_choices() -> tuple[tuple[str, str], ...]:
    """The three risk-reduction steps as ``(id, label)``, in order."""
    return tuple((s.id, s.label) for s in THREE_STEP_METHOD)
