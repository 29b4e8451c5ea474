"""The hazards a robot cell's application brings, as ISO 12100:2010 Annex B
(Table B.1) names them: arc radiation, fume, burns and fire for arc welding;
solvents, an explosive atmosphere and fire for painting; ejected fragments,
dust and noise for grinding; and so on for each application of
``cells.applications``. ``suggestions`` proposes them beside the robot's own.

Each is a hazard group, origin and consequence of the Annex B catalogue
(``catalogue``, checked when a suggestion is made), a life-cycle phase, a task
and why it is proposed; nothing outside the catalogue is invented, and no
figure is given. They cite ISO 12100 Annex B only: ISO 10218-2:2025 asks for
the risk assessment of the whole cell, the workpiece and the program included
(``iso10218_2025.json``, ``iso10218_2025_additions.json``), which is why the
process's hazards belong in it, but its list of task types was not found in
any public source (``task_types_10218_2.list`` is null), so no hazard here is
said to come from it.

Texts are English, marked with ``gettext_noop``. Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.calculators.base import gettext_noop


@dataclass(frozen=True)
class ApplicationHazard:
    """A hazard an application brings, as ISO 12100 Annex B names it."""

    slug: str  # the suggestion's key is "<application>-<slug>"
    group_id: str
    origin_id: str
    consequence_id: str
    phase: str
    task: str  # gettext_noop
    rationale: str  # gettext_noop


def _hazard(
    slug: str,
    where: tuple[str, str, str],
    phase: str,
    task: str,
    rationale: str,
) -> ApplicationHazard:
    return ApplicationHazard(slug, *where, phase, task, rationale)


# Annex B pairings used by more than one application.
_FUME = ("material_substance", "fume", "breathing_difficulties_suffocation")
_SPARK_FIRE = ("material_substance", "combustible", "fire")
_HOT_BURN = ("thermal", "hot_or_cold_objects", "burn")
_OPTICAL = ("radiation", "optical_radiation", "eye_and_skin_damage")

# By application; none beyond the robot's own for pick-and-place and packaging.
APPLICATION_HAZARDS: dict[str, tuple[ApplicationHazard, ...]] = {
    "palletising": (
        _hazard(
            "load-falling",
            ("mechanical", "falling_objects", "impact"),
            "operation",
            gettext_noop(
                "Being struck by cases or a layer falling from the pallet stack "
                "or from the gripper at the pallet station"
            ),
            gettext_noop(
                "A palletiser stacks loads and grips whole cases or layers; a "
                "load released or stacked badly can fall where people change "
                "the pallets."
            ),
        ),
        _hazard(
            "conveyor-drawing-in",
            ("mechanical", "moving_elements", "drawing_in_trapping"),
            "fault_finding",
            gettext_noop(
                "Hand or clothing drawn in at the case or pallet conveyor while "
                "a jam is cleared"
            ),
            gettext_noop(
                "Cases arrive and pallets leave on conveyors; their rollers, "
                "chains and belts draw in hands and clothing, above all when a "
                "jam is cleared."
            ),
        ),
    ),
    "machine_tending": (
        _hazard(
            "machine-motion",
            ("mechanical", "approach_moving_element_fixed_part", "crushing"),
            "operation",
            gettext_noop(
                "Being crushed by the tended machine's own motion (door, chuck, "
                "clamp or table) at the point where the robot loads it"
            ),
            gettext_noop(
                "The robot works at the machine's loading point, where the "
                "machine's door, clamps and spindle move too: the robot's and "
                "the machine's hazards meet there."
            ),
        ),
        _hazard(
            "sharp-parts",
            ("mechanical", "sharp_edges", "cutting_severing"),
            "operation",
            gettext_noop(
                "Cuts from sharp edges, burrs and chips of machined parts taken "
                "from the cell"
            ),
            gettext_noop(
                "Machined parts and their chips have sharp edges until they are "
                "deburred."
            ),
        ),
    ),
    "arc_welding": (
        _hazard(
            "arc-radiation",
            _OPTICAL,
            "operation",
            gettext_noop(
                "Eyes and skin exposed to the welding arc's ultraviolet, visible "
                "and infrared radiation, directly, through gaps or reflected"
            ),
            gettext_noop(
                "The welding arc emits intense optical radiation (infrared, "
                "visible and ultraviolet). It harms eyes and skin at a distance, "
                "beyond the robot's reach, so screens and the cell's walls "
                "matter."
            ),
        ),
        _hazard(
            "fume",
            _FUME,
            "operation",
            gettext_noop(
                "Breathing welding fume and gases at the cell and where they drift"
            ),
            gettext_noop(
                "Arc welding gives off fume and gases; without extraction at the "
                "source they reach the people around the cell."
            ),
        ),
        _hazard(
            "burns",
            _HOT_BURN,
            "operation",
            gettext_noop(
                "Burns from the hot workpiece, the torch and its nozzle, or weld "
                "spatter"
            ),
            gettext_noop(
                "Welded parts and the torch stay hot after the weld and spatter "
                "flies from the arc; people who unload parts or clean the torch "
                "touch them."
            ),
        ),
        _hazard(
            "fire",
            _SPARK_FIRE,
            "operation",
            gettext_noop(
                "Fire started by spatter and sparks landing on combustible "
                "material in or near the cell"
            ),
            gettext_noop(
                "Spatter and sparks from the arc can ignite combustible material "
                "in and around the cell: packaging, oily rags, dust."
            ),
        ),
        _hazard(
            "electric-shock",
            ("electrical", "live_parts", "shock"),
            "maintenance",
            gettext_noop(
                "Electric shock from the welding circuit (wire, torch, workpiece "
                "clamp) while the wire or contact tip is changed"
            ),
            gettext_noop(
                "The welding circuit is live whenever the arc can strike, and the "
                "wire, the torch and the workpiece are part of it."
            ),
        ),
    ),
    "spot_welding": (
        _hazard(
            "electrode-crushing",
            ("mechanical", "approach_moving_element_fixed_part", "crushing"),
            "setting_teaching",
            gettext_noop(
                "Fingers or hand crushed between the electrodes as the "
                "spot-welding gun closes"
            ),
            gettext_noop(
                "The gun's electrodes close on the sheets with great force; hands "
                "come between them when parts are placed or the tips are changed "
                "or dressed."
            ),
        ),
        _hazard(
            "burns",
            _HOT_BURN,
            "operation",
            gettext_noop(
                "Burns from molten metal expelled at the weld spot, hot "
                "electrodes or freshly welded parts"
            ),
            gettext_noop(
                "Resistance welding melts the sheets at the spot: expulsion "
                "throws molten metal, and the tips and parts stay hot."
            ),
        ),
        _hazard(
            "fume",
            _FUME,
            "operation",
            gettext_noop(
                "Breathing the fume given off when coated, oiled or sealed "
                "sheets are welded"
            ),
            gettext_noop(
                "Coatings, oil and sealer on the sheets burn off at the weld spot "
                "and give off fume."
            ),
        ),
        _hazard(
            "fire",
            _SPARK_FIRE,
            "operation",
            gettext_noop(
                "Fire started by expelled sparks on combustible material in or "
                "near the cell"
            ),
            gettext_noop(
                "Sparks of molten metal thrown from the weld spot can ignite "
                "combustible material in and around the cell."
            ),
        ),
        _hazard(
            "magnetic-field",
            ("electrical", "electromagnetic_phenomena", "effects_on_medical_implants"),
            "operation",
            gettext_noop(
                "Magnetic fields at the welding gun and its cables affecting "
                "pacemakers and other medical implants"
            ),
            gettext_noop(
                "Spot welding runs very large currents through the gun and its "
                "cables; the magnetic field around them can upset medical "
                "implants."
            ),
        ),
    ),
    "dispensing": (
        _hazard(
            "material-contact",
            ("material_substance", "fluid", "sensitization"),
            "cleaning",
            gettext_noop(
                "Skin or eyes in contact with the adhesive, sealant or cleaning "
                "solvent while the dispenser is refilled, purged or cleaned"
            ),
            gettext_noop(
                "Adhesives, sealants and their solvents can sensitise the skin; "
                "people handle them when they refill, purge and clean the "
                "dispenser."
            ),
        ),
        _hazard(
            "vapour",
            ("material_substance", "gas", "poisoning"),
            "operation",
            gettext_noop(
                "Breathing vapour given off by the adhesive or sealant as it is "
                "dispensed and cures"
            ),
            gettext_noop(
                "Many adhesives and sealants give off solvent or other vapour "
                "while they are applied and cure."
            ),
        ),
        _hazard(
            "hot-melt-burns",
            _HOT_BURN,
            "operation",
            gettext_noop("Burns from a hot-melt nozzle, its hose or the hot adhesive"),
            gettext_noop(
                "Hot-melt systems keep the adhesive, the hose and the nozzle "
                "hot; where the material is dispensed cold, this hazard does not "
                "arise."
            ),
        ),
        _hazard(
            "injection",
            ("mechanical", "high_pressure", "injection"),
            "maintenance",
            gettext_noop(
                "Material injected through the skin by a leaking high-pressure "
                "line or nozzle"
            ),
            gettext_noop(
                "The dispensing pump puts the material under pressure; a leak or "
                "a nozzle touched while pressurised can inject it through the "
                "skin."
            ),
        ),
    ),
    "painting": (
        _hazard(
            "solvent-vapour",
            ("material_substance", "gas", "poisoning"),
            "operation",
            gettext_noop(
                "Breathing solvent vapour from the paint, thinners and line flushing"
            ),
            gettext_noop(
                "Solvent-borne paints and the solvents that flush the lines and "
                "the gun give off vapour in the booth and where paint is mixed."
            ),
        ),
        _hazard(
            "overspray",
            ("material_substance", "mist", "breathing_difficulties_suffocation"),
            "operation",
            gettext_noop("Breathing paint mist (overspray) in or near the booth"),
            gettext_noop(
                "Spraying leaves a mist of paint in the air of the booth; it "
                "reaches anyone who enters or stands at its openings."
            ),
        ),
        _hazard(
            "explosive-atmosphere",
            ("material_substance", "explosive", "explosion"),
            "operation",
            gettext_noop(
                "An explosive atmosphere of solvent vapour and paint mist ignited "
                "by a spark, a hot surface or static electricity"
            ),
            gettext_noop(
                "Where solvent vapour and paint mist collect, an explosive "
                "atmosphere can form; the robot, its tools and everything else "
                "in the booth are possible sources of ignition."
            ),
        ),
        _hazard(
            "fire",
            ("material_substance", "flammable", "fire"),
            "operation",
            gettext_noop(
                "Fire of the flammable paint, thinners or solvent-soaked waste"
            ),
            gettext_noop(
                "Paints and solvents are flammable, and so are the rags and "
                "filters soaked with them."
            ),
        ),
        _hazard(
            "static",
            ("electrical", "electrostatic_phenomena", "shock"),
            "operation",
            gettext_noop(
                "Electric shock or an igniting spark from electrostatic charge "
                "on the spray gun, the parts or a person"
            ),
            gettext_noop(
                "Electrostatic spraying charges the paint and the parts; an "
                "ungrounded part or person can discharge as a shock or a spark."
            ),
        ),
    ),
    "assembly": (
        _hazard(
            "screwdriver-entanglement",
            ("mechanical", "rotating_elements", "entanglement"),
            "setting_teaching",
            gettext_noop(
                "Hair, gloves or clothing caught by the rotating screwdriver bit "
                "or spindle"
            ),
            gettext_noop(
                "A screwdriving tool turns fast at the robot's flange; hands come "
                "near it when screws are fed or the robot is taught."
            ),
        ),
        _hazard(
            "insertion-crushing",
            ("mechanical", "approach_moving_element_fixed_part", "crushing"),
            "operation",
            gettext_noop(
                "Fingers crushed between the part and the fixture as the robot "
                "inserts or presses it in"
            ),
            gettext_noop(
                "Insertion and press-fitting push parts together with force, "
                "where a hand may hold or guide them."
            ),
        ),
    ),
    "inspection": (
        _hazard(
            "laser-light",
            _OPTICAL,
            "operation",
            gettext_noop(
                "Eyes exposed to the laser or intense light of a vision or "
                "measuring system"
            ),
            gettext_noop(
                "Laser scanners, laser line sensors and strobe lighting used for "
                "inspection emit optical radiation; where the cell has none, this "
                "hazard does not arise."
            ),
        ),
        _hazard(
            "test-voltage",
            ("electrical", "live_parts", "shock"),
            "operation",
            gettext_noop(
                "Electric shock from live parts of a product under electrical test"
            ),
            gettext_noop(
                "A test station powers the product or touches it with test "
                "probes; its live parts are exposed during the test."
            ),
        ),
    ),
    "pick_and_place": (),
    "grinding": (
        _hazard(
            "ejected-fragments",
            ("mechanical", "rotating_elements", "impact"),
            "operation",
            gettext_noop(
                "Being struck by fragments of a bursting wheel or disc, or by "
                "chips thrown from the workpiece"
            ),
            gettext_noop(
                "Abrasive wheels and discs turn fast: a wheel that bursts, or "
                "material torn from the work, is thrown out at speed, beyond the "
                "robot's reach."
            ),
        ),
        _hazard(
            "dust",
            ("material_substance", "dust", "breathing_difficulties_suffocation"),
            "operation",
            gettext_noop(
                "Breathing the dust of the abrasive and the workpiece raised by "
                "grinding and deburring"
            ),
            gettext_noop(
                "Grinding and deburring raise fine dust of the metal, its coating "
                "and the abrasive."
            ),
        ),
        _hazard(
            "noise",
            ("noise", "manufacturing_process", "permanent_hearing_loss"),
            "operation",
            gettext_noop("Hearing damage from the noise of grinding and deburring"),
            gettext_noop(
                "Grinding is loud; the noise reaches people outside the guarding, "
                "who may also miss warning signals."
            ),
        ),
        _hazard(
            "fire",
            _SPARK_FIRE,
            "operation",
            gettext_noop(
                "Fire started by grinding sparks in collected dust or in "
                "combustible material nearby"
            ),
            gettext_noop(
                "Grinding sparks can ignite dust collected in the extraction or "
                "combustible material near the cell."
            ),
        ),
        _hazard(
            "entanglement",
            ("mechanical", "rotating_elements", "entanglement"),
            "setting_teaching",
            gettext_noop(
                "Hair, gloves or clothing caught by the rotating wheel, disc or brush"
            ),
            gettext_noop(
                "The tool keeps turning at the robot's flange; hands come near it "
                "when the robot is taught or the tool is changed."
            ),
        ),
    ),
    "lab_automation": (
        _hazard(
            "biological-agents",
            ("material_substance", "biological_agent", "infection"),
            "operation",
            gettext_noop(
                "Infection from samples spilled, splashed or sprayed when a tube "
                "or plate is dropped or opened"
            ),
            gettext_noop(
                "Laboratory cells handle samples that may carry biological "
                "agents; a dropped or open container releases them."
            ),
        ),
        _hazard(
            "reagents",
            ("material_substance", "fluid", "poisoning"),
            "operation",
            gettext_noop(
                "Contact with, or breathing, the reagents and solvents the cell handles"
            ),
            gettext_noop(
                "Reagents and solvents are spilled when a container is dropped "
                "or knocked over by the robot."
            ),
        ),
    ),
    "mobile_manipulation": (
        _hazard(
            "struck-by-base",
            ("mechanical", "machinery_mobility", "impact"),
            "operation",
            gettext_noop(
                "Being struck by the mobile robot as it drives between stations"
            ),
            gettext_noop(
                "A mobile manipulator moves through floor space that people "
                "share; its hazard zone travels with it."
            ),
        ),
        _hazard(
            "crushed-by-base",
            ("mechanical", "machinery_mobility", "crushing"),
            "operation",
            gettext_noop(
                "Being crushed between the mobile robot and a fixed part "
                "(racking, a wall, a machine) as it drives or docks"
            ),
            gettext_noop(
                "Where the robot drives or docks close to racking, walls or "
                "machines, a person can be trapped between them."
            ),
        ),
        _hazard(
            "tipping",
            ("mechanical", "instability", "impact"),
            "operation",
            gettext_noop(
                "The mobile robot tipping over with its arm reaching out or a "
                "load raised"
            ),
            gettext_noop(
                "The arm and its load shift the centre of gravity of a base on "
                "wheels, above all on slopes or thresholds or when it brakes."
            ),
        ),
    ),
}
