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

import re
from collections.abc import Callable

from compliance.calculators.base import gettext_noop

# Every part of a citation the rule packs and the calculators write, for the
# catalogue (tests/compliance/rules/test_citations.py finds each one here).
CITATION_PARTS = (
    # A robot program's path (ts15066_path_models): PFL_CLAUSE, REACH_CLAUSE,
    # CLAMPING_CLAUSE.
    gettext_noop(
        "ISO/TS 15066:2016, Annex A (Table A.2 limits, Table A.3 k and m_H, Table "
        "A.4 energy; maximum relative speed v = F/√(μk), v = √(2E/μ))"
    ),
    gettext_noop("ISO 13855:2010, 6.2.3 (C = 850 mm, the default contact reach)"),
    gettext_noop("ISO 13854:2017 (minimum gaps to avoid crushing)"),
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
    gettext_noop("ISO 13855:2010, 6.3 (K = 1,600 mm/s)"),
    gettext_noop("ISO 13855:2010, 6.3 (detection zone parallel to the approach)"),
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
    gettext_noop("ISO/TS 15066:2016, 5.5.4 (speed and separation monitoring)"),
    gettext_noop("ISO/TS 15066:2016, 5.5.4 (protective separation distance S_p)"),
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

# The descriptions the calculators' clause lines give in brackets (and after
# a colon), translated one by one where the whole line has no message of its
# own: the clause numbers, an edition's year and the formulas stay as written,
# so a new edition of a standard needs no new message.
DESCRIPTIONS = (
    gettext_noop("risk graph for the required performance level"),
    gettext_noop("MTTFd of components from B10d"),
    gettext_noop("common cause failure"),
    gettext_noop("MTTFd of a channel, DCavg"),
    gettext_noop("combination of subsystems in series"),
    gettext_noop("simplified procedure"),
    gettext_noop("subsystems in series"),
    gettext_noop("detection zone parallel to the approach"),
    gettext_noop("pressure-sensitive mats and floors"),
    gettext_noop("reaching over, C_RO"),
    gettext_noop("ESPE, detection capability ≤ 40 mm"),
    gettext_noop("ESPE, detection capability 40–70 mm"),
    gettext_noop("multiple separate beams"),
    gettext_noop("interlocking guards without guard locking"),
    gettext_noop("2024 edition: S = K × T + D_GT"),
    gettext_noop("lower limbs"),
    gettext_noop("upper limbs"),
    gettext_noop("the gap under a guard as a slot"),
    gettext_noop("persons 14 years and over"),
    gettext_noop(
        "speed and separation monitoring: protective separation distance, "
        "constant-speed form"
    ),
    gettext_noop("limits"),
    gettext_noop("energy"),
    gettext_noop("maximum relative speed"),
    gettext_noop("safety requirements specification"),
    gettext_noop("validation"),
    gettext_noop("PL of a safety function"),
    gettext_noop("PLr"),
    gettext_noop("required PL/SIL per safety function"),
    gettext_noop(
        "Table A.2 limits, Table A.3 k and m_H, Table A.4 energy; maximum "
        "relative speed v = F/√(μk), v = √(2E/μ)"
    ),
    # A robot program's path (ts15066_path_models.REACH_CLAUSE, CLAMPING_CLAUSE).
    gettext_noop("C = 850 mm, the default contact reach"),
    gettext_noop("minimum gaps to avoid crushing"),
)

KOREAN_LAW_SEPARATOR = " / "
# Words of a clause line, in Korean: "Table 2" is "표 2", "Annex C" "부속서 C".
_KOREAN_WORDS = (
    (re.compile(r"\bTables?\b"), "표"),
    (re.compile(r"\bAnnex(?:es)?\b"), "부속서"),
    (re.compile(r"\bFigure\b"), "그림"),
    (re.compile(r"\bFig\.\s"), "그림 "),
    (re.compile(r"\band\b"), "및"),
)
# "그림 12 in ISO 13849-1:2023" -> "ISO 13849-1:2023의 그림 12"
_IN_EDITION = re.compile(r"((?:표|그림|부속서) [\w.]+) in ((?:ISO|IEC)[\w/ .:-]*\d)")


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
        if _has_hangul(part):
            shown.append(part)
            continue
        translated = translate(part)
        if translated == part and korean:
            translated = _korean_clause(part, translate)
        shown.append(translated)
    return "; ".join(shown)


def _split_top(text: str, separators: tuple[str, ...]) -> list[str]:
    """``text`` split at any of ``separators`` outside brackets."""
    pieces, depth, start, i = [], 0, 0, 0
    while i < len(text):
        char = text[i]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            for separator in separators:
                if text.startswith(separator, i):
                    pieces.append(text[start:i])
                    pieces.append(separator)
                    i += len(separator)
                    start = i
                    break
            else:
                i += 1
                continue
            continue
        i += 1
    pieces.append(text[start:])
    return pieces


def _korean_words(text: str) -> str:
    for pattern, korean in _KOREAN_WORDS:
        text = pattern.sub(korean, text)
    return _IN_EDITION.sub(r"\2의 \1", text)


def _korean_piece(piece: str, translate: Callable[[str], str]) -> str:
    """A bracket's content or a description, in Korean: whole if the
    catalogue has it, else piece by piece, the clause words translated."""
    translated = translate(piece)
    if translated != piece or "=" in piece:
        return translated
    pieces = _split_top(piece, ("; ", ", ", ": "))
    if len(pieces) > 1:
        return "".join(
            p if p in ("; ", ", ", ": ") else _korean_piece(p, translate)
            for p in pieces
        )
    return _korean_words(_korean_brackets(piece, translate))


def _korean_brackets(text: str, translate: Callable[[str], str]) -> str:
    """Each top-level bracket of ``text`` with its content in Korean, written
    the Korean way, with no space before the bracket."""
    out, depth, start = [], 0, None
    for i, char in enumerate(text):
        if char == "(":
            if depth == 0:
                start = i
            depth += 1
        elif char == ")" and depth:
            depth -= 1
            if depth == 0 and start is not None:
                out.append((start, i))
                start = None
    if not out:
        return text
    result, last = [], 0
    for start, end in out:
        before = text[last:start].rstrip(" ")
        result.append(before)
        result.append("(" + _korean_piece(text[start + 1 : end], translate) + ")")
        last = end + 1
    result.append(text[last:])
    return "".join(result)


def _korean_clause(part: str, translate: Callable[[str], str]) -> str:
    """A clause line with no message of its own, in Korean: the brackets'
    descriptions through the catalogue, the clause words translated, the
    standard, the clause numbers and the formulas as written."""
    head, colon, tail = part.partition("): ")
    if colon:
        return (
            _korean_words(_korean_brackets(head + ")", translate))
            + ": "
            + _korean_piece(tail, translate)
        )
    pieces = _split_top(part, (" · ",))
    if len(pieces) > 1:
        return "".join(
            p if p == " · " else _korean_clause(p, translate) for p in pieces
        )
    return _korean_words(_korean_brackets(part, translate))
