"""The fonts of every report: Nanum Gothic, bundled with its licence (OFL.txt).

Korean and English text both use it, so a fresh machine needs no font
installed and every font in the PDF is embedded (no standard-14 Helvetica).
"""

from __future__ import annotations

import threading
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "NanumGothic"
BOLD = "NanumGothic-Bold"

_lock = threading.Lock()


def register_fonts() -> None:
    """Registers the two faces and their family once per process; later calls
    return at once. Parsing each 4.6 MB file takes a moment, so it is not
    repeated per PDF."""
    registered = pdfmetrics.getRegisteredFontNames()
    if REGULAR in registered and BOLD in registered:
        return
    with _lock:
        registered = pdfmetrics.getRegisteredFontNames()
        if REGULAR not in registered:
            pdfmetrics.registerFont(TTFont(REGULAR, FONT_DIR / "NanumGothic.ttf"))
        if BOLD not in registered:
            pdfmetrics.registerFont(TTFont(BOLD, FONT_DIR / "NanumGothicBold.ttf"))
        # <b> and <i> in paragraphs pick the bold face; there is no italic.
        addMapping(REGULAR, 0, 0, REGULAR)
        addMapping(REGULAR, 1, 0, BOLD)
        addMapping(REGULAR, 0, 1, REGULAR)
        addMapping(REGULAR, 1, 1, BOLD)
