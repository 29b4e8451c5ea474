"""ISO 12100:2010, Annex B (Table B.1): hazard groups, origins and consequences.

The catalogue the risk assessment picks from: the ten hazard groups of Annex B,
each with its typical origins and potential consequences, copied from
``/work/shared/reference/iso12100_hazards.json`` ("hazard_groups"). The
standard itself was not read: the lists are as public code and national
adoptions reproduce them (see each group's ``sources``), and they are
examples, not an exhaustive list. Nothing has been added to them: the ids are
ours (stable slugs, so stored rows survive a change of wording), the English
text is the reference's, marked with ``gettext_noop`` so that Django's
``makemessages`` collects it.

Alongside: the three-step method of clause 6 ("three_step_method") and the
elements of risk ("elements_of_risk") from the same file, and two lists the
reference file does not hold, which come from the product brief:
``LIFE_CYCLE_PHASES`` and ``EXPOSED_PERSONS``.

Lookups (``group``, ``origin``, ``consequence``, ...) and validators
(``validate_*``) raise ``UnknownId`` (a ``ValueError``) for an id not in the
catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def _items(*pairs: tuple[str, str]) -> tuple[CatalogueItem, ...]:
    return tuple(CatalogueItem(id=item_id, text=text) for item_id, text in pairs)


_GROUP_SOURCES = (SQL, JAVA, BREAKPILOT, GOST)
# The same note stands on every group in the reference file.
_GROUP_NOTE = (
    "Group names confirmed in 3+ sources; origin list from SQL Tbl_Danger_Source, "
    "consequence list from Java enum + SQL (wording lightly normalised). Lists "
    "are examples, not exhaustive."
)

# "hazard_groups": all ten groups, each confirmed_two_sources = true. Origins
# and consequences are in the reference file's order.
HAZARD_GROUPS: tuple[HazardGroup, ...] = (
    HazardGroup(
        number=1,
        id="mechanical",
        name=gettext_noop("Mechanical"),
        origins=_items(
            (
                "acceleration_deceleration",
                gettext_noop("acceleration, deceleration (kinetic energy)"),
            ),
            ("angular_parts", gettext_noop("angular parts")),
            (
                "approach_moving_element_fixed_part",
                gettext_noop("approach of a moving element to a fixed part"),
            ),
            ("cutting_parts", gettext_noop("cutting parts")),
            ("elastic_elements", gettext_noop("elastic elements")),
            ("falling_objects", gettext_noop("falling objects")),
            ("gravity", gettext_noop("gravity (stored energy)")),
            ("height_from_ground", gettext_noop("height from the ground")),
            ("high_pressure", gettext_noop("high pressure")),
            ("instability", gettext_noop("instability")),
            ("kinetic_energy", gettext_noop("kinetic energy")),
            ("machinery_mobility", gettext_noop("machinery mobility")),
            ("moving_elements", gettext_noop("moving elements")),
            ("rotating_elements", gettext_noop("rotating elements")),
            ("rough_slippery_surface", gettext_noop("rough, slippery surface")),
            ("sharp_edges", gettext_noop("sharp edges")),
            ("stored_energy", gettext_noop("stored energy")),
            ("vacuum", gettext_noop("vacuum")),
        ),
        consequences=_items(
            ("being_run_over", gettext_noop("being run over")),
            ("being_thrown", gettext_noop("being thrown")),
            ("crushing", gettext_noop("crushing")),
            ("cutting_severing", gettext_noop("cutting or severing")),
            ("drawing_in_trapping", gettext_noop("drawing-in or trapping")),
            ("entanglement", gettext_noop("entanglement")),
            ("friction_abrasion", gettext_noop("friction or abrasion")),
            ("impact", gettext_noop("impact")),
            ("injection", gettext_noop("injection")),
            ("shearing", gettext_noop("shearing")),
            (
                "slipping_tripping_falling",
                gettext_noop("slipping, tripping and falling"),
            ),
            ("stabbing_puncture", gettext_noop("stabbing or puncture")),
            ("suffocation", gettext_noop("suffocation")),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=2,
        id="electrical",
        name=gettext_noop("Electrical"),
        origins=_items(
            ("arc", gettext_noop("arc")),
            ("electromagnetic_phenomena", gettext_noop("electromagnetic phenomena")),
            ("electrostatic_phenomena", gettext_noop("electrostatic phenomena")),
            ("live_parts", gettext_noop("live parts")),
            (
                "insufficient_distance_high_voltage",
                gettext_noop("not enough distance to live parts under high voltage"),
            ),
            ("overload", gettext_noop("overload")),
            (
                "parts_live_under_fault",
                gettext_noop("parts which have become live under fault conditions"),
            ),
            ("short_circuit", gettext_noop("short-circuit")),
            ("thermal_radiation", gettext_noop("thermal radiation")),
        ),
        consequences=_items(
            ("burn", gettext_noop("burn")),
            ("chemical_effects", gettext_noop("chemical effects")),
            (
                "effects_on_medical_implants",
                gettext_noop("effects on medical implants"),
            ),
            ("electrocution", gettext_noop("electrocution")),
            ("falling_being_thrown", gettext_noop("falling, being thrown")),
            ("fire", gettext_noop("fire")),
            (
                "projection_of_molten_particles",
                gettext_noop("projection of molten particles"),
            ),
            ("shock", gettext_noop("shock")),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=3,
        id="thermal",
        name=gettext_noop("Thermal"),
        origins=_items(
            ("explosion", gettext_noop("explosion")),
            ("flame", gettext_noop("flame")),
            (
                "hot_or_cold_objects",
                gettext_noop("objects or materials with a high or low temperature"),
            ),
            (
                "radiation_from_heat_sources",
                gettext_noop("radiation from heat sources"),
            ),
        ),
        consequences=_items(
            ("burn", gettext_noop("burn")),
            ("dehydration", gettext_noop("dehydration")),
            ("discomfort", gettext_noop("discomfort")),
            ("frostbite", gettext_noop("frostbite")),
            (
                "heat_radiation_injuries",
                gettext_noop("injuries by the radiation of heat sources"),
            ),
            ("scald", gettext_noop("scald")),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=4,
        id="noise",
        name=gettext_noop("Noise"),
        origins=_items(
            ("cavitation", gettext_noop("cavitation phenomena")),
            ("exhausting_system", gettext_noop("exhausting system")),
            ("high_speed_gas_leak", gettext_noop("gas leaking at high speed")),
            (
                "manufacturing_process",
                gettext_noop("manufacturing process (stamping, cutting, etc.)"),
            ),
            ("moving_parts", gettext_noop("moving parts")),
            ("scraping_surfaces", gettext_noop("scraping surfaces")),
            ("unbalanced_rotating_parts", gettext_noop("unbalanced rotating parts")),
            ("whistling_pneumatics", gettext_noop("whistling pneumatics")),
            ("worn_parts", gettext_noop("worn parts")),
        ),
        consequences=_items(
            ("discomfort", gettext_noop("discomfort")),
            ("loss_of_awareness", gettext_noop("loss of awareness")),
            ("loss_of_balance", gettext_noop("loss of balance")),
            ("permanent_hearing_loss", gettext_noop("permanent hearing loss")),
            ("stress", gettext_noop("stress")),
            ("tinnitus", gettext_noop("tinnitus")),
            ("tiredness", gettext_noop("tiredness")),
            (
                "interference_with_communication",
                gettext_noop(
                    "any other (e.g. mechanical, electrical) as a consequence of "
                    "interference with speech communication or acoustic signals"
                ),
            ),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=5,
        id="vibration",
        name=gettext_noop("Vibration"),
        origins=_items(
            ("cavitation", gettext_noop("cavitation phenomena")),
            ("misaligned_moving_parts", gettext_noop("misalignment of moving parts")),
            ("mobile_equipment", gettext_noop("mobile equipment")),
            ("scraping_surfaces", gettext_noop("scraping surfaces")),
            ("unbalanced_rotating_parts", gettext_noop("unbalanced rotating parts")),
            ("vibrating_equipment", gettext_noop("vibrating equipment")),
            ("worn_parts", gettext_noop("worn parts")),
        ),
        consequences=_items(
            ("discomfort", gettext_noop("discomfort")),
            ("low_back_morbidity", gettext_noop("low-back morbidity")),
            ("neurological_disorder", gettext_noop("neurological disorder")),
            ("osteo_articular_disorder", gettext_noop("osteo-articular disorder")),
            ("spine_trauma", gettext_noop("trauma of the spine")),
            ("vascular_disorder", gettext_noop("vascular disorder")),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=6,
        id="radiation",
        name=gettext_noop("Radiation"),
        origins=_items(
            ("ionizing_radiation", gettext_noop("ionizing radiation source")),
            (
                "low_frequency_em_radiation",
                gettext_noop("low frequency electromagnetic radiation"),
            ),
            (
                "optical_radiation",
                gettext_noop(
                    "optical radiation (infrared, visible, ultraviolet), "
                    "including laser"
                ),
            ),
            (
                "radio_frequency_em_radiation",
                gettext_noop("radio frequency electromagnetic radiation"),
            ),
        ),
        consequences=_items(
            ("burn", gettext_noop("burn")),
            ("eye_and_skin_damage", gettext_noop("damage to eyes and skin")),
            (
                "reproductive_effects",
                gettext_noop("effects on reproductive capability"),
            ),
            ("genetic_mutation", gettext_noop("genetic mutation")),
            ("headache_insomnia", gettext_noop("headache, insomnia, etc.")),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=7,
        id="material_substance",
        name=gettext_noop("Material/substance"),
        origins=_items(
            ("aerosol", gettext_noop("aerosol")),
            (
                "biological_agent",
                gettext_noop(
                    "biological and microbiological (viral or bacterial) agent"
                ),
            ),
            ("combustible", gettext_noop("combustible")),
            ("dust", gettext_noop("dust")),
            ("explosive", gettext_noop("explosive")),
            ("fibre", gettext_noop("fibre")),
            ("flammable", gettext_noop("flammable")),
            ("fluid", gettext_noop("fluid")),
            ("fume", gettext_noop("fume")),
            ("gas", gettext_noop("gas")),
            ("mist", gettext_noop("mist")),
            ("oxidizer", gettext_noop("oxidizer")),
        ),
        consequences=_items(
            (
                "breathing_difficulties_suffocation",
                gettext_noop("breathing difficulties, suffocation"),
            ),
            ("cancer", gettext_noop("cancer")),
            ("corrosion", gettext_noop("corrosion")),
            (
                "reproductive_effects",
                gettext_noop("effects on reproductive capability"),
            ),
            ("explosion", gettext_noop("explosion")),
            ("fire", gettext_noop("fire")),
            ("infection", gettext_noop("infection")),
            ("mutation", gettext_noop("mutation")),
            ("poisoning", gettext_noop("poisoning")),
            ("sensitization", gettext_noop("sensitization")),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=8,
        id="ergonomic",
        name=gettext_noop("Ergonomic"),
        origins=_items(
            ("access", gettext_noop("access")),
            (
                "indicators_and_displays",
                gettext_noop(
                    "design or location of indicators and visual display units"
                ),
            ),
            (
                "control_devices",
                gettext_noop("design, location or identification of control devices"),
            ),
            ("effort", gettext_noop("effort")),
            (
                "flicker_dazzling_shadow",
                gettext_noop("flicker, dazzling, shadow, stroboscopic effect"),
            ),
            ("local_lighting", gettext_noop("local lighting")),
            (
                "mental_overload_underload",
                gettext_noop("mental overload/underload"),
            ),
            ("posture", gettext_noop("posture")),
            ("repetitive_activity", gettext_noop("repetitive activity")),
            ("visibility", gettext_noop("visibility")),
        ),
        consequences=_items(
            ("discomfort", gettext_noop("discomfort")),
            ("fatigue", gettext_noop("fatigue")),
            ("musculoskeletal_disorder", gettext_noop("musculoskeletal disorder")),
            ("stress", gettext_noop("stress")),
            (
                "human_error",
                gettext_noop(
                    "any other (e.g. mechanical, electrical) as a consequence of a "
                    "human error"
                ),
            ),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=9,
        id="environment",
        name=gettext_noop(
            "Associated with the environment in which the machine is used"
        ),
        origins=_items(
            ("dust_and_fog", gettext_noop("dust and fog")),
            (
                "electromagnetic_disturbance",
                gettext_noop("electromagnetic disturbance"),
            ),
            ("lightning", gettext_noop("lightning")),
            ("moisture", gettext_noop("moisture")),
            ("pollution", gettext_noop("pollution")),
            ("snow", gettext_noop("snow")),
            ("temperature", gettext_noop("temperature")),
            ("water", gettext_noop("water")),
            ("wind", gettext_noop("wind")),
            ("lack_of_oxygen", gettext_noop("lack of oxygen")),
        ),
        consequences=_items(
            ("burn", gettext_noop("burn")),
            ("slight_disease", gettext_noop("slight disease")),
            ("slipping_falling", gettext_noop("slipping, falling")),
            ("suffocation", gettext_noop("suffocation")),
            (
                "effects_on_machine",
                gettext_noop(
                    "any other as a consequence of the effect caused by the sources "
                    "of the hazards on the machine or parts of the machine"
                ),
            ),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
    HazardGroup(
        number=10,
        id="combination",
        name=gettext_noop("Combination of hazards"),
        # The reference gives one worked example each, not a list.
        origins=_items(
            (
                "combined_origins",
                gettext_noop(
                    "e.g. repetitive activity + effort + high environmental temperature"
                ),
            ),
        ),
        consequences=_items(
            (
                "combined_consequences",
                gettext_noop("e.g. dehydration, loss of awareness, heat stroke"),
            ),
        ),
        sources=_GROUP_SOURCES,
        certainty=Certainty.TWO_SOURCES,
        note=_GROUP_NOTE,
    ),
)

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
