"""The executive summary and the safety concept as generated from the cell
(issue 15): what the SA's form starts from and what the proposal prints while
the SA has written nothing. Every sentence is made from a record — the
layout and its devices, the safety functions, the risk assessment's
revisions, the findings and the cost lines — in the reader's language;
nothing is invented, and a cell without a record says so."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cells.models import GuardKind
from compliance.calculators.written import field_shown
from compliance.documents import theme
from compliance.proposals.selectors import CellStatus
from compliance.rules.facts import SENSING_DEVICE_KINDS
from compliance.rules.safeguarding import perimeter_of

# Safety functions named in the concept; more are counted.
NAMED_FUNCTIONS = 5


@dataclass(frozen=True)
class GeneratedTexts:
    summary: str
    safety_concept: str


def generated_texts(status: CellStatus, language: str) -> GeneratedTexts:
    """Both texts for ``status``'s cell, in ``language``."""
    with translation.override(language):
        return GeneratedTexts(
            summary=" ".join(
                [proposed(status), assessment_line(status, language), open_line(status)]
            ),
            safety_concept=" ".join(safeguarding_lines(status)),
        )


def proposed(status: CellStatus) -> str:
    """What is proposed, in one sentence."""
    cell = status.cell
    return _(
        "A proof of concept of the %(task)s cell %(cell)s with a %(robot)s, "
        "guarded as the rules and standards below require, with the safeguards, "
        "the work and the plan that lead to it."
    ) % {
        "task": cell.get_application_display().lower(),
        "cell": cell.name,
        "robot": f"{cell.robot_manufacturer} {cell.robot_model}",
    }


def assessment_line(status: CellStatus, language: str) -> str:
    """The risk assessment's status: none, a draft, or signed by whom and when."""
    latest, signed = status.latest, status.signed
    if latest is None:
        return _("No risk assessment of the cell is recorded yet.")
    if signed is None:
        return _(
            "The risk assessment is a draft (revision %(number)s), not signed yet."
        ) % {"number": latest.number}
    signer = signed.signed_by
    name = (signer.get_full_name() or signer.username) if signer else ""
    if name and signed.signed_at:
        line = _(
            "The risk assessment is signed: revision %(number)s, by %(name)s on "
            "%(date)s."
        ) % {
            "number": signed.number,
            "name": name,
            "date": theme.long_date(
                status.cell.project.local_date(signed.signed_at), language
            ),
        }
    else:
        line = _("The risk assessment is signed: revision %(number)s.") % {
            "number": signed.number
        }
    if latest.number > signed.number:
        line += " " + _(
            "A newer revision (%(number)s) is in draft and not signed yet."
        ) % {"number": latest.number}
    return line


def open_line(status: CellStatus) -> str:
    """What is still open: failing findings, findings needing evidence, lines
    still to be quoted; or that nothing is."""
    fails = status.count("fail")
    evidence = status.count("needs_evidence")
    quoted = status.to_quote
    parts = []
    if fails:
        parts.append(
            ngettext("%(count)s finding fails", "%(count)s findings fail", fails)
            % {"count": f"{fails:,}"}
        )
    if evidence:
        parts.append(
            ngettext(
                "%(count)s finding needs evidence",
                "%(count)s findings need evidence",
                evidence,
            )
            % {"count": f"{evidence:,}"}
        )
    if quoted:
        parts.append(
            ngettext(
                "%(count)s cost line is still to be quoted",
                "%(count)s cost lines are still to be quoted",
                quoted,
            )
            % {"count": f"{quoted:,}"}
        )
    if not parts:
        return _(
            "Nothing is open: no finding fails or needs evidence, and every cost "
            "line is priced."
        )
    return _("Still open: %(items)s.") % {"items": "; ".join(parts)}


def _metres(mm: float) -> str:
    return f"{mm / 1000:,.1f}"


def safeguarding_lines(status: CellStatus) -> list[str]:
    """How the cell is safeguarded: the perimeter guarding, what guards its
    openings, the other sensing devices, collaborative operation and the
    safety functions."""
    facts, cell = status.facts, status.cell
    lines: list[str] = []
    segments = facts.segments
    if segments:
        length = _metres(sum(s.length_mm for s in segments))
        perimeter = perimeter_of(facts)
        if perimeter is not None and perimeter.enclosure.enclosed:
            names = dict(GuardKind.choices)
            kinds = [
                str(names[k]).lower() for k in names if k in {s.kind for s in segments}
            ]
            lines.append(
                _(
                    "The robot's hazard zone is enclosed all round by guarding "
                    "(%(kinds)s), %(length)s m in all, at least %(height)s mm high."
                )
                % {
                    "kinds": ", ".join(kinds),
                    "length": length,
                    "height": theme.number(int(min(s.height_mm for s in segments))),
                }
            )
        else:
            lines.append(
                _(
                    "The guarding drawn (%(length)s m) does not enclose the "
                    "robot's hazard zone all round yet."
                )
                % {"length": length}
            )
    elif not facts.collaborative_modes:
        lines.append(_("No perimeter guarding is drawn yet."))

    at_opening: dict[str, list] = {}
    free_sensing = []
    for device in facts.devices:
        if device.opening_key:
            at_opening.setdefault(device.opening_key, []).append(device)
        elif device.kind in SENSING_DEVICE_KINDS:
            free_sensing.append(device.label)
    # Each opening by what guards it: a sensing device, or else an
    # interlocked door, or nothing recorded.
    sensing, doors = [], []
    guarded_by_sensing = guarded_by_doors = unguarded = 0
    for opening in facts.openings:
        devices = at_opening.get(opening.key, [])
        seeing = [d.label for d in devices if d.kind in SENSING_DEVICE_KINDS]
        closing = [d.label for d in devices if d.kind == "interlocked_door"]
        if seeing:
            guarded_by_sensing += 1
            sensing += seeing
        elif closing:
            guarded_by_doors += 1
            doors += closing
        else:
            unguarded += 1
    if guarded_by_sensing:
        lines.append(
            ngettext(
                "%(count)s opening is guarded by a sensing device (%(devices)s).",
                "%(count)s openings are guarded by sensing devices (%(devices)s).",
                guarded_by_sensing,
            )
            % {"count": guarded_by_sensing, "devices": ", ".join(sensing)}
        )
    if guarded_by_doors:
        lines.append(
            ngettext(
                "%(count)s opening is closed by an interlocked door (%(devices)s).",
                "%(count)s openings are closed by interlocked doors (%(devices)s).",
                guarded_by_doors,
            )
            % {"count": guarded_by_doors, "devices": ", ".join(doors)}
        )
    if unguarded:
        lines.append(
            ngettext(
                "%(count)s opening has no safeguarding device recorded.",
                "%(count)s openings have no safeguarding device recorded.",
                unguarded,
            )
            % {"count": unguarded}
        )
    if free_sensing:
        lines.append(
            ngettext(
                "A further sensing device detects people approaching: %(devices)s.",
                "Further sensing devices detect people approaching: %(devices)s.",
                len(free_sensing),
            )
            % {"devices": ", ".join(free_sensing)}
        )
    if facts.collaborative_modes:
        lines.append(
            _("The robot works beside people in collaborative operation: %(modes)s.")
            % {"modes": ", ".join(cell.get_collaborative_modes_display())}
        )
    # A proposal's function names in the text's language (a typed one as typed).
    functions = [field_shown(row.function, "name", _) for row in status.functions]
    if functions:
        names = ", ".join(functions[:NAMED_FUNCTIONS])
        if len(functions) > NAMED_FUNCTIONS:
            names += ", …"
        lines.append(
            ngettext(
                "%(count)s safety function is specified: %(names)s.",
                "%(count)s safety functions are specified: %(names)s.",
                len(functions),
            )
            % {"count": len(functions), "names": names}
        )
    else:
        lines.append(_("No safety function is specified yet."))
    return lines
