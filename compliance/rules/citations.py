"""Citations in the reader's language. Pure Python, no Django.

A rule's or finding's citation is kept as written in the packs: standard and
clause in English, joined by "; " where a finding rests on more than one
(``"ISO 13857:2019, 4.2.2 (Table 2); ISO 14120 (guards)"``), and Korean law
as "Korean titles / English titles". Shown, a Korean law citation gives the
reader's half; any other part goes through the catalogue, the parts below
being its messages. A part with no translation is
shown as written (a test keeps every part the packs make in this list).
"""

from __future__ import annotations

from collections.abc import Callable

from compliance.calculators.base import gettext_noop

# Every part of a citation the rule packs and the calculators write, for the
# catalogue (tests/compliance/rules/test_citations.py finds each one here).
CITATION_PARTS = (
    gettext_noop(
        "IEC 61496-1, IEC 61496-2 (light curtains and grids), IEC 61496-3 "
        "(laser scanners)"
    ),
    gettext_noop("ISO 10218-2:2025 (risk assessment of the complete robot cell)"),
    gettext_noop("ISO 10218-2:2025 (safeguarding of the robot cell)"),
    gettext_noop("ISO 10218-2:2025 (safeguarding)"),
    gettext_noop("ISO 12100:2010, 6.3"),
    gettext_noop("ISO 13849-1:2023 (PLr)"),
    gettext_noop("ISO 13849-1:2023, 6.1.8 (PL of a safety function)"),
    gettext_noop("ISO 13849-1:2023, 10 (validation)"),
    gettext_noop(
        "ISO 13855 (interlocking guards without guard locking): S = K × T + C, "
        "K = 1600 mm/s (2024 edition: S = K × T + D_GT)"
    ),
    gettext_noop(
        "ISO 13855:2010, 6.2.3 (ESPE), 6.2 (multiple separate beams), Table 1 "
        "(reaching over, C_RO), 7 (pressure-sensitive mats): S = K × T + C, "
        "S = max(S_RT, S_RO)"
    ),
    gettext_noop("ISO 13855:2010, 6.2.3.2 (ESPE, detection capability ≤ 40 mm)"),
    gettext_noop("ISO 13855:2010, 6.5 and Table 1 (reaching over, C_RO)"),
    gettext_noop("ISO 13857:2019, 4.2.2 (Table 2)"),
    gettext_noop("ISO 13857:2019, 4.2.2 (reaching over, Table 2, high risk)"),
    gettext_noop(
        "ISO 13857:2019, 4.2.4 (Table 4, openings, persons 14 years and over)"
    ),
    gettext_noop("ISO 13857:2019, 4.2.4 (Table 4, persons 14 years and over)"),
    gettext_noop(
        "ISO 13857:2019, 4.3 (Table 7, lower limbs) and 4.2.4 (Table 4, upper "
        "limbs): the gap under a guard as a slot"
    ),
    gettext_noop("ISO 14120 (guards)"),
    gettext_noop(
        "ISO/TS 15066:2016, 5.5 (collaborative operation modes), integrated into "
        "ISO 10218-2:2025"
    ),
    gettext_noop(
        "ISO/TS 15066:2016, 5.5 (hand guiding), integrated into ISO 10218-2:2025"
    ),
    gettext_noop(
        "ISO/TS 15066:2016, 5.5 (power and force limiting), Annex A (Tables A.2, "
        "A.3; v = F/√(μk)), integrated into ISO 10218-2:2025"
    ),
    gettext_noop(
        "ISO/TS 15066:2016, 5.5 (safety-rated monitored stop), integrated into "
        "ISO 10218-2:2025"
    ),
    gettext_noop(
        "ISO/TS 15066:2016, 5.5.4 (speed and separation monitoring: protective "
        "separation distance S_p), integrated into ISO 10218-2:2025"
    ),
    # Issue 17: editions, the EU and US packs, the robot's class and
    # configuration.
    gettext_noop("29 CFR 1910.147 (the control of hazardous energy, lockout/tagout)"),
    gettext_noop("29 CFR 1910.212(a)(1) (machine guarding)"),
    gettext_noop("ANSI/A3 R15.06-2025, Part 3 (use of industrial robot cells)"),
    gettext_noop(
        "ANSI/A3 R15.06-2025, Parts 1 and 2 (adopting ISO 10218-1:2025 and ISO 10218-2:2025)"
    ),
    gettext_noop(
        "Directive 2006/42/EC (presumption of conformity: harmonised standards in the OJ)"
    ),
    gettext_noop("Directive 2006/42/EC, Art. 12 and Annex IV (Annexes VIII, IX, X)"),
    gettext_noop(
        "Directive 2006/42/EC, Art. 5 (placing on the market) and Annex I (general principles: risk assessment)"
    ),
    gettext_noop(
        "Directive 2006/42/EC, Art. 5 and Annex VII (technical file), Annex II (EC declaration of conformity), CE marking"
    ),
    gettext_noop("ISO 10218-1:2025 (robot classes I and II)"),
    gettext_noop("ISO 10218-1:2025, ISO 10218-2:2025 (cybersecurity; IEC 62443)"),
    gettext_noop(
        "ISO 10218-2:2025 (safety functions of the robot application: verification and validation)"
    ),
    gettext_noop(
        "ISO 13855:2024 (EN ISO 13855:2025), 6 (detection zone orthogonal to the approach): S = K × T + D_DS + Z, D_DS = max(D_DT, D_DO, D_DU)"
    ),
    gettext_noop(
        "ISO 13855:2024 (EN ISO 13855:2025), 6 (orthogonal approach) and 6.3 (parallel approach): S = K × T + D_DS + Z"
    ),
    gettext_noop(
        "ISO 13855:2024 (EN ISO 13855:2025), 6.3 (detection zone parallel to the approach): S = K × T + D_DS + Z"
    ),
    gettext_noop(
        "ISO 13849-1:2023, risk graph for the required performance level (Annex A of the 2015 edition)"
    ),
    gettext_noop(
        "Regulation (EU) 2023/1230 (presumption of conformity: harmonised standards in the OJ)"
    ),
    gettext_noop(
        "Regulation (EU) 2023/1230, Annex III 1.1.9 (protection against corruption) and 1.2.1 (safety and reliability of control systems)"
    ),
    gettext_noop(
        "Regulation (EU) 2023/1230, Annex IV (technical documentation), Annex V (EU declaration of conformity), CE marking"
    ),
    gettext_noop(
        "Regulation (EU) 2023/1230, Art. 10 (obligations of manufacturers) and Annex III (general principles: risk assessment)"
    ),
    gettext_noop("Regulation (EU) 2023/1230, Art. 25 and Annex I (Parts A and B)"),
    gettext_noop(
        "Regulation (EU) 2023/1230, Art. 3(16) and Art. 18 (substantial modification)"
    ),
    gettext_noop("assemblies of machinery"),
)

KOREAN_LAW_SEPARATOR = " / "


def citation_parts(citation: str) -> list[str]:
    """The parts of ``citation``: split at "; " outside brackets (a formula in
    brackets keeps its own semicolon)."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(citation):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and citation.startswith("; ", i):
            parts.append(citation[start:i])
            start = i + 2
    parts.append(citation[start:])
    return [part for part in parts if part]


def _has_hangul(text: str) -> bool:
    return any("\uac00" <= char <= "\ud7a3" for char in text)


def citation_text(
    citation: str, translate: Callable[[str], str], *, korean: bool
) -> str:
    """``citation`` in the reader's language (``translate`` is gettext)."""
    native, separator, english = citation.partition(KOREAN_LAW_SEPARATOR)
    if separator and _has_hangul(native):
        # Korean law, "Korean title / English title": the reader's half.
        citation = native if korean else english
    shown = []
    for part in citation_parts(citation):
        # A Korean law's own title is shown as written; the rest translated.
        shown.append(part if _has_hangul(part) else translate(part))
    return "; ".join(shown)
