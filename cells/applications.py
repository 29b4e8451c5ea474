"""What a robot cell is for: its application, as integrators name it, and the
sim-to-real class (the "task type") that the application is planned as.

The application is what the user records; the task type is never entered: it
follows from the application through ``TASK_TYPE_BY_APPLICATION``, the one
mapping the plan (``compliance.plan``: the sim-first maturity), the API and
the exchange document read, so the two can never contradict each other. How
well each task type transfers from simulation is the plan's
(``compliance.plan.inputs.MATURITY_BY_TASK``); the hazards an application
brings are the assessment's (``compliance.assessment.hazards.suggestions``).

The classes follow the product brief (issue 15): mobile and locomotion tasks
transfer from simulation well; narrow, structured pick-and-place and
palletising partly; contact-rich assembly, insertion and grinding do not, and
there simulation is an evaluation aid beside real demonstrations. The brief
does not class the process applications (welding, painting, dispensing) and
no public source was found that their process transfers from simulation, so
they get a class of their own, planned as cautiously as the contact-rich
tasks. Machine tending, inspection and laboratory automation are planned as
the structured handling they mostly are.

Before applications, a cell recorded only one of three task types; the
application that stands for each old task type (``APPLICATION_FOR_TASK_TYPE``)
converts old rows (cells migration 0018) and old exchange documents.

Pure Python, no Django: labels are English, marked with ``gettext_noop`` and
translated where shown.
"""

from __future__ import annotations

from typing import Literal, get_args


def gettext_noop(message: str) -> str:
    """Marks ``message`` for translation without translating it (no Django here)."""
    return message


Application = Literal[
    "palletising",
    "machine_tending",
    "arc_welding",
    "spot_welding",
    "dispensing",
    "painting",
    "assembly",
    "inspection",
    "pick_and_place",
    "grinding",
    "lab_automation",
    "mobile_manipulation",
]
APPLICATION_CODES: tuple[str, ...] = get_args(Application)

# How well a task validated in simulation carries over: the plan's classes.
TaskType = Literal[
    "mobile_locomotion",
    "structured_pick_place",
    "contact_rich_manipulation",
    "process",
]
TASK_TYPE_CODES: tuple[str, ...] = get_args(TaskType)
# The three task types a cell could record before applications (old rows and
# old exchange documents hold one of these).
LegacyTaskType = Literal[
    "mobile_locomotion", "structured_pick_place", "contact_rich_manipulation"
]

# In the order of the form's list, in the words an integrator uses.
APPLICATION_LABELS: dict[str, str] = {
    "palletising": gettext_noop("Palletising and depalletising"),
    "machine_tending": gettext_noop("Machine tending"),
    "arc_welding": gettext_noop("Arc welding"),
    "spot_welding": gettext_noop("Spot welding"),
    "dispensing": gettext_noop("Dispensing and gluing"),
    "painting": gettext_noop("Painting"),
    "assembly": gettext_noop("Assembly and screwdriving"),
    "inspection": gettext_noop("Inspection and testing"),
    "pick_and_place": gettext_noop("Pick-and-place and packaging"),
    "grinding": gettext_noop("Deburring and grinding"),
    "lab_automation": gettext_noop("Laboratory automation"),
    "mobile_manipulation": gettext_noop("Mobile manipulation"),
}

TASK_TYPE_LABELS: dict[str, str] = {
    "mobile_locomotion": gettext_noop("Mobile or locomotion task"),
    "structured_pick_place": gettext_noop("Narrow, structured pick-and-place"),
    "contact_rich_manipulation": gettext_noop("Precise contact-rich manipulation"),
    "process": gettext_noop("Process application (welding, painting, dispensing)"),
}

# The one mapping: what each application is planned as.
TASK_TYPE_BY_APPLICATION: dict[str, TaskType] = {
    "palletising": "structured_pick_place",
    "machine_tending": "structured_pick_place",
    "arc_welding": "process",
    "spot_welding": "process",
    "dispensing": "process",
    "painting": "process",
    "assembly": "contact_rich_manipulation",
    "inspection": "structured_pick_place",
    "pick_and_place": "structured_pick_place",
    "grinding": "contact_rich_manipulation",
    "lab_automation": "structured_pick_place",
    "mobile_manipulation": "mobile_locomotion",
}

# The application an old task type stood for (old rows, old documents).
APPLICATION_FOR_TASK_TYPE: dict[str, Application] = {
    "structured_pick_place": "pick_and_place",
    "contact_rich_manipulation": "assembly",
    "mobile_locomotion": "mobile_manipulation",
}
# What a cell that never said is: as before applications, structured
# pick-and-place.
DEFAULT_APPLICATION: Application = "pick_and_place"


def task_type_of(application: str) -> TaskType:
    """The task type ``application`` is planned as; ``KeyError`` if unknown."""
    return TASK_TYPE_BY_APPLICATION[application]
