"""The programs the Motion tab's tests import."""

from __future__ import annotations

from cells.motion.services import motion_program_import

# The issue's program: line 3 passes the loading station's chest at 1 m/s.
ISSUE = b"""def main():
  movel(p[0.40, 0.30, 0.30, 0, 3.14, 0], a=1.2, v=0.25)
  movel(p[0.40, -0.30, 0.30, 0, 3.14, 0], a=1.2, v=1.0)
end
"""


def program_of(moves: int, *, fast_every: int = 0) -> bytes:
    """A URScript program of ``moves`` straight moves to and fro past the
    station, at 0.25 m/s (passing), every ``fast_every``-th at 1 m/s
    (failing)."""
    lines = ["def main():"]
    for n in range(moves):
        y = 0.30 if n % 2 == 0 else -0.30
        speed = "1.0" if fast_every and n % fast_every == fast_every - 1 else "0.25"
        lines.append(f"  movel(p[0.40, {y:.2f}, 0.30, 0, 3.14, 0], a=1.2, v={speed})")
    lines.append("end")
    return ("\n".join(lines) + "\n").encode()


def imported(cell, owner, data: bytes = ISSUE, name: str = "main.script"):
    return motion_program_import(cell=cell, actor=owner, data=data, file_name=name)
