"""Safety functions proposed from a cell's layout and risk assessment.

One function per safeguard the layout records: each sensing device (a light
curtain, grid or mat guarding an opening), interlocked door, emergency stop,
enabling device and laser scanner field, and one per collaborative mode that
limits speed or force. Each proposal names the hazards it would mitigate (the
hazards whose measures rely on the device, or that are located at its
opening) and the chain of subsystems a typical design has: the device, a
safety controller, the robot's safety input. Nothing here is a verdict: a
proposal becomes a safety function only when the user accepts it, and its PL
is computed only from the data the user then gives. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from compliance.calculators.base import Line, gettext_noop

PL_ORDER = "abcde"


@dataclass(frozen=True)
class DeviceInfo:
    """A device of the cell, as the proposals need it."""

    key: str  # "device:12"
    pk: int
    label: str
    kind: str  # cells.DeviceKind value
    opening_key: str | None = None  # "opening:3"
    opening_label: str = ""
    guard_locking: bool = False


@dataclass(frozen=True)
class HazardInfo:
    """A hazard of the assessment the proposals link to."""

    key: str  # the hazard's UUID, kept from revision to revision
    label: str
    plr: str | None  # the PLr of its initial risk, if estimated
    location_key: str = ""  # "opening:3", "segment:2", "station:1"
    device_keys: tuple[str, ...] = ()  # devices its measures rely on


@dataclass(frozen=True)
class SubsystemTemplate:
    role: str  # input, logic, output
    label: Line
    device_pk: int | None = None


@dataclass(frozen=True)
class Suggestion:
    """A safety function the layout and the assessment call for."""

    key: str  # stable: "device:12" or "mode:pfl"
    safeguard: str  # SafeguardKind value
    name: Line
    trigger: Line
    reaction: Line
    stop_category: str
    rationale: Line
    device_pk: int | None = None
    collaborative_mode: str = ""
    hazard_keys: tuple[str, ...] = ()
    plr: str | None = None
    subsystems: tuple[SubsystemTemplate, ...] = field(default=())


_LOGIC = SubsystemTemplate(
    role="logic", label=Line(text=gettext_noop("Safety controller"))
)
_OUTPUT = SubsystemTemplate(
    role="output",
    label=Line(text=gettext_noop("Robot controller safety input (protective stop)")),
)
_OUTPUT_ESTOP = SubsystemTemplate(
    role="output",
    label=Line(text=gettext_noop("Robot controller safety input (emergency stop)")),
)

_SENSING = {"light_curtain", "multibeam", "safety_mat"}


def _highest(plrs: Iterable[str | None]) -> str | None:
    known = [p for p in plrs if p]
    return max(known, key=PL_ORDER.index) if known else None


def _hazards_for(device: DeviceInfo, hazards: Sequence[HazardInfo]) -> tuple[str, ...]:
    by_measure = [h.key for h in hazards if device.key in h.device_keys]
    if by_measure:
        return tuple(by_measure)
    if device.opening_key:
        return tuple(h.key for h in hazards if h.location_key == device.opening_key)
    return ()


def _device_suggestion(
    device: DeviceInfo, hazards: Sequence[HazardInfo]
) -> Suggestion | None:
    values = {"label": device.label, "opening": device.opening_label}
    where = device.opening_label
    if device.kind in _SENSING:
        verb = (
            gettext_noop("%(label)s stepped on")
            if device.kind == "safety_mat"
            else gettext_noop("%(label)s interrupted")
        )
        name = (
            gettext_noop(
                "Protective stop when %(label)s detects a person at %(opening)s"
            )
            if where
            else gettext_noop("Protective stop when %(label)s detects a person")
        )
        safeguard, stop = "guarded_opening", "1"
        trigger = Line(text=verb, values=values)
        reaction = Line(
            text=gettext_noop(
                "Robot protective stop, stop category 1; restart only after a "
                "deliberate reset from outside the safeguarded space"
            )
        )
        rationale = Line(
            text=gettext_noop(
                "%(label)s guards the way in: its protective stop is a safety "
                "function whose PL must meet the PLr of the hazards behind it "
                "(ISO 13849-1)."
            ),
            values=values,
        )
    elif device.kind == "interlocked_door":
        safeguard, stop = "door_interlock", "1"
        name = gettext_noop("Protective stop when the door of %(label)s opens")
        trigger = Line(text=gettext_noop("Door of %(label)s opened"), values=values)
        reaction = Line(
            text=(
                gettext_noop(
                    "Robot protective stop, stop category 1; the door stays locked "
                    "until the robot has stopped (guard locking, ISO 14119)"
                )
                if device.guard_locking
                else gettext_noop(
                    "Robot protective stop, stop category 1; no restart while the "
                    "door is open"
                )
            )
        )
        rationale = Line(
            text=gettext_noop(
                "The interlock of %(label)s stops the robot when the guard opens "
                "(ISO 14119): a safety function with its own PL."
            ),
            values=values,
        )
    elif device.kind == "emergency_stop":
        safeguard, stop = "emergency_stop", "0"
        name = gettext_noop("Emergency stop %(label)s")
        trigger = Line(text=gettext_noop("%(label)s pressed"), values=values)
        reaction = Line(
            text=gettext_noop(
                "Emergency stop of the robot and the cell, stop category 0 or 1 "
                "(ISO 13850); restart only after the button is released and reset"
            )
        )
        rationale = Line(
            text=gettext_noop(
                "An emergency stop is a complementary protective measure (ISO "
                "13850); its PL follows from the risk assessment. ISO 10218-2:2025 "
                "is reported to ask for at least PL c (one source)."
            )
        )
    elif device.kind == "enabling_device":
        safeguard, stop = "enabling_device", "1"
        name = gettext_noop("Enabling function of %(label)s")
        trigger = Line(
            text=gettext_noop("%(label)s released or pressed through (panic position)"),
            values=values,
        )
        reaction = Line(
            text=gettext_noop("Robot protective stop, stop category 1 (manual mode)")
        )
        rationale = Line(
            text=gettext_noop(
                "In manual mode (teaching) the enabling device is what stops the "
                "robot near the person holding it."
            )
        )
    elif device.kind == "laser_scanner":
        safeguard, stop = "scanner_field", "1"
        name = gettext_noop("Protective stop when %(label)s detects a person")
        trigger = Line(
            text=gettext_noop("Person detected in the protective field of %(label)s"),
            values=values,
        )
        reaction = Line(
            text=gettext_noop(
                "Robot protective stop, stop category 1 (or reduced speed where "
                "speed and separation monitoring is used)"
            )
        )
        rationale = Line(
            text=gettext_noop(
                "%(label)s detects a person approaching the hazard: its stop is a "
                "safety function with its own PL."
            ),
            values=values,
        )
    else:
        return None
    hazard_keys = _hazards_for(device, hazards)
    plr = _highest(h.plr for h in hazards if h.key in hazard_keys)
    output = _OUTPUT_ESTOP if safeguard == "emergency_stop" else _OUTPUT
    return Suggestion(
        key=device.key,
        safeguard=safeguard,
        name=Line(text=name, values=values),
        trigger=trigger,
        reaction=reaction,
        stop_category=stop,
        rationale=rationale,
        device_pk=device.pk,
        hazard_keys=hazard_keys,
        plr=plr,
        subsystems=(
            SubsystemTemplate(
                role="input",
                label=Line(text=gettext_noop("%(label)s"), values=values),
                device_pk=device.pk,
            ),
            _LOGIC,
            output,
        ),
    )


_MODES = {
    "pfl": (
        gettext_noop("Power and force limiting"),
        gettext_noop(
            "Contact force or pressure reaches the limit set for the body region"
        ),
        gettext_noop(
            "Robot stops or reverses (protective stop); speeds and forces are "
            "limited to the values validated by measurement (ISO/TS 15066)"
        ),
    ),
    "ssm": (
        gettext_noop("Speed and separation monitoring"),
        gettext_noop(
            "Separation distance to a person falls below the protective distance"
        ),
        gettext_noop("Robot slows down, then protective stop (ISO/TS 15066, 5.5.4)"),
    ),
    "safety_rated_monitored_stop": (
        gettext_noop("Safety-rated monitored stop"),
        gettext_noop("A person enters the collaborative workspace"),
        gettext_noop(
            "Robot held at a safety-rated monitored stop until the person leaves"
        ),
    ),
    "hand_guiding": (
        gettext_noop("Hand guiding"),
        gettext_noop("Hand-guiding device released or the speed limit exceeded"),
        gettext_noop("Protective stop (ISO 10218-1, hand guiding)"),
    ),
}


def suggest_functions(
    *,
    devices: Sequence[DeviceInfo],
    hazards: Sequence[HazardInfo],
    collaborative_modes: Sequence[str] = (),
    taken: Iterable[str] = (),
) -> list[Suggestion]:
    """What the cell calls for and has not yet: ``taken`` holds the keys of
    suggestions already accepted or dismissed."""
    skip = set(taken)
    found: list[Suggestion] = []
    for device in devices:
        suggestion = _device_suggestion(device, hazards)
        if suggestion is not None and suggestion.key not in skip:
            found.append(suggestion)
    for mode in collaborative_modes:
        if mode not in _MODES or f"mode:{mode}" in skip:
            continue
        title, trigger, reaction = _MODES[mode]
        # Without a device to tie them to, the hazards a collaborative limit
        # mitigates are those with a recorded body-region contact: the user
        # links them when accepting.
        found.append(
            Suggestion(
                key=f"mode:{mode}",
                safeguard="collaborative_limit",
                name=Line(text=title),
                trigger=Line(text=trigger),
                reaction=Line(text=reaction),
                stop_category="2" if mode == "safety_rated_monitored_stop" else "1",
                rationale=Line(
                    text=gettext_noop(
                        "The cell relies on a collaborative mode: its limits are "
                        "safety functions of the robot controller (ISO 10218-1) "
                        "whose PL must meet the PLr of the contact hazards."
                    )
                ),
                collaborative_mode=mode,
                subsystems=(
                    SubsystemTemplate(
                        role="logic",
                        label=Line(text=gettext_noop("Robot safety controller")),
                    ),
                ),
            )
        )
    return found
