"""Why a robot program cannot be read. Pure, no Django."""

from __future__ import annotations

from typing import Any


class ProgramError(ValueError):
    """The program cannot be read (or its path cannot be built). ``code``
    names why and ``line`` where (1-based, None for the file as a whole); the
    caller words it in the reader's language with ``params``, as for
    ``cells.layout_dxf.reading.DxfError``. The codes are listed in
    ``cells.motion.reading.ERROR_CODES``."""

    def __init__(self, code: str, /, *, line: int | None = None, **params: Any):
        self.code = code
        self.line = line
        self.params = params
        where = f" (line {line})" if line is not None else ""
        super().__init__(f"{code}{where}: {params}" if params else f"{code}{where}")
