"""Writes of the motion feature: a robot program imported into a cell
(issue 32). The file is read whole before anything is kept: a program that
cannot be read is refused with its line, and nothing is saved."""

from __future__ import annotations

import hashlib

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells.models import Cell
from cells.models.layout import cell_full_message
from cells.motion import reading
from cells.motion.errors import ProgramError
from cells.motion.models import MAX_PROGRAMS_PER_CELL, MotionProgram
from cells.motion.path import segments
from cells.services import lock_cell

# Why a program cannot be read, by ``ProgramError.code``, in the reader's
# words; the line is said before it ("Line 12: ...").
READ_ERRORS = {
    "unknown_format": gettext_lazy(
        "The format %(format)s is not read: give csv, urscript, rapid or krl."
    ),
    "unknown_unit": gettext_lazy("The unit %(unit)s is not read: give mm or m."),
    "dat_not_krl": gettext_lazy("A .dat file goes with a KUKA KRL program only."),
    "urp_file": gettext_lazy(
        "This is a Polyscope .urp program, which is compressed: send the "
        ".script file the robot saves beside it."
    ),
    "too_large": gettext_lazy(
        "The file is larger than %(limit_mb)s MB: send the program alone."
    ),
    "not_text": gettext_lazy(
        "This is not a program's text (it holds control characters): send the "
        "program as the robot controller saves it, in UTF-8 or Latin-1."
    ),
    "too_many_motion_lines": gettext_lazy(
        "The program has more than %(limit)s motion lines."
    ),
    "too_many_statements": gettext_lazy(
        "The program has more than %(limit)s statements."
    ),
    "statement_too_long": gettext_lazy(
        "A motion statement longer than %(limit)s words cannot be read."
    ),
    "too_deep": gettext_lazy("Routines nested more than %(limit)s deep."),
    "syntax": gettext_lazy("The statement cannot be read: %(detail)s."),
    "unterminated": gettext_lazy("The statement has no ; before the file ends."),
    "not_a_number": gettext_lazy("%(text)s is not a number."),
    "speed_not_positive": gettext_lazy(
        "The speed %(speed)s is not above zero: a robot that does not move has "
        "no path to judge."
    ),
    "speed_too_high": gettext_lazy(
        "The speed %(speed_mm_s)s mm/s is above %(limit_mm_s)s mm/s, faster than "
        "a robot's tool moves: are the units right?"
    ),
    "time_not_increasing": gettext_lazy(
        "The time %(time)s s is not after the row before's: times must grow "
        "from row to row."
    ),
    "pose_numbers": gettext_lazy(
        "A pose needs %(expected)s numbers; this one has %(found)s."
    ),
    "pose_components": gettext_lazy("The position needs its X, Y and Z."),
    "speed_numbers": gettext_lazy(
        "A speeddata needs %(expected)s numbers; this one has %(found)s."
    ),
    "undeclared_name": gettext_lazy(
        "%(name)s is used before it is declared in the file."
    ),
    "coordinate_out_of_range": gettext_lazy(
        "A coordinate of %(value_mm)s mm is past %(limit_mm)s mm from the robot "
        "base: are the units right?"
    ),
    "empty": gettext_lazy("The file is empty."),
    "no_header": gettext_lazy(
        "The CSV file has no header row naming its columns (x, y, z, speed_mm_s)."
    ),
    "unknown_column": gettext_lazy("The column %(column)s is not read."),
    "duplicate_column": gettext_lazy("The column %(column)s is named twice."),
    "missing_column": gettext_lazy("The column %(column)s is missing."),
    "mixed_units": gettext_lazy("The columns x, y and z are in different units."),
    "units_conflict": gettext_lazy(
        "The header says %(header)s but the units given are %(given)s."
    ),
    "row_fields": gettext_lazy(
        "The row has %(found)s fields; the header names %(expected)s."
    ),
    "bad_row": gettext_lazy("The row cannot be read as CSV."),
    "too_many_segments": gettext_lazy(
        "The path has more than %(limit)s straight pieces."
    ),
}
# Which request field each error is about; the rest are about the file.
ERROR_FIELDS = {
    "unknown_format": "format",
    "unknown_unit": "units",
    "units_conflict": "units",
    "dat_not_krl": "format",
}


def read_error(exc: ProgramError) -> ValidationError:
    """The reading's refusal as a ValidationError naming the request field,
    the line first when it has one."""
    params = {k: v for k, v in exc.params.items() if k != "file"}
    for key in ("limit", "expected", "found", "limit_mm_s"):
        if isinstance(params.get(key), int):
            params[key] = f"{params[key]:,}"
    if isinstance(params.get("speed_mm_s"), float):
        params["speed_mm_s"] = f"{params['speed_mm_s']:,.1f}"
    if "limit_bytes" in params:
        params["limit_mb"] = int(str(params["limit_bytes"]).replace(",", "")) // (
            1024 * 1024
        )
    template = READ_ERRORS.get(exc.code)
    try:
        message = str(template) % params if template else exc.code
    except (KeyError, TypeError, ValueError):
        message = str(template)
    if exc.line is not None:
        message = _("Line %(line)s: %(message)s") % {
            "line": exc.line,
            "message": message,
        }
    return ValidationError({ERROR_FIELDS.get(exc.code, "file"): [message]})


def motion_program_import(
    *,
    cell: Cell,
    actor,
    data: bytes,
    file_name: str,
    format: str | None = None,
    units: str | None = None,
) -> MotionProgram:
    """Read ``data`` as a robot program (``format`` None: guessed from the
    name and the content) and keep it with its path, or raise
    ValidationError naming the field (``file``, ``format``, ``units``)."""
    try:
        if format is None:
            format = reading.guess_format(file_name, data)
            if format is None:
                raise ValidationError(
                    {
                        "format": [
                            _(
                                "The program's format cannot be told from its "
                                "name or content: give csv, urscript, rapid or "
                                "krl."
                            )
                        ]
                    }
                )
        program = reading.read_program(data, format=format, units=units)
        path = segments(program)
    except ProgramError as exc:
        raise read_error(exc) from exc
    row = MotionProgram(
        cell=cell,
        file_name=file_name[:255] or "program",
        format=format,
        units=units or "",
        data=data,
        sha256=hashlib.sha256(data).hexdigest(),
        imported_by=actor,
        segments=[
            [
                s.line,
                *(round(v, 3) for v in (s.start.x_mm, s.start.y_mm, s.start.z_mm)),
                *(round(v, 3) for v in (s.end.x_mm, s.end.y_mm, s.end.z_mm)),
                s.speed_mm_s,
                s.kind,
            ]
            for s in path
        ],
        not_checked=[[x.line, x.reason, x.text] for x in program.not_checked],
        skipped=[[x.line, x.reason, x.text] for x in program.skipped],
        move_count=len(program.moves),
    )
    with transaction.atomic():
        lock_cell(cell.pk)
        if MotionProgram.objects.filter(cell_id=cell.pk).count() >= (
            MAX_PROGRAMS_PER_CELL
        ):
            raise ValidationError(
                {
                    "file": [
                        cell_full_message(_("motion programs"), MAX_PROGRAMS_PER_CELL)
                    ]
                }
            )
        row.save()
    return row


def motion_program_delete(*, program: MotionProgram) -> None:
    program.delete()
