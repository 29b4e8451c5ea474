"""The layout of a supplier quote's file, shared by the reader (``reading``)
and the template (``template``): its limits, the labels of the header block
and of the item columns in English and Korean, and the spellings of units and
currencies. Pure Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal

from compliance.calculators.base import gettext_noop

# --- Limits -----------------------------------------------------------------

# A quote is tens or hundreds of rows; a file of 10,000 with long
# descriptions stays under 5 MB, as XLSX and as CSV.
MAX_FILE_BYTES = 5 * 1024 * 1024
# What the workbook may unpack to, read from the zip's directory before
# openpyxl opens it: 5 MB of repeated text can unzip to gigabytes of XML.
# (Python's zipfile stops every member at its declared size, so a directory
# that lies about a size cannot inflate past it.)
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
MAX_ROWS = 10_000
MAX_PROBLEMS = 50
# The header block and the heading row are looked for in the first rows and
# columns only, so a sheet of a million blank rows costs nothing to refuse.
MAX_HEADER_ROW = 100
MAX_COLUMNS = 50
EXCEL_MAX_ROWS = 1_048_576

# The models' field lengths (``quotes.models``; a test holds them equal).
MAX_LENGTHS = {
    "supplier": 120,
    "number": 60,
    "maker": 80,
    "part_number": 80,
    "model": 120,
    "description": 300,
}
# The models' decimal places, and ceilings just above their max_digits
# (14 digits for a price, 12 for the minimum order, 6 for weeks).
PRICE_PLACES, ORDER_PLACES, WEEKS_PLACES = 2, 2, 1
PRICE_CEILING = Decimal(10) ** 12
ORDER_CEILING = Decimal(10) ** 10
WEEKS_CEILING = Decimal(10) ** 5

FORMULA_STARTS = ("=", "+", "-", "@")

# --- Labels -----------------------------------------------------------------

# What the template writes (English; the pages translate them).
HEADER_LABELS: dict[str, str] = {
    "supplier": gettext_noop("Supplier"),
    "number": gettext_noop("Quote number"),
    "quoted_on": gettext_noop("Quote date"),
    "valid_until": gettext_noop("Valid until"),
}
COLUMN_LABELS: dict[str, str] = {
    "kind": gettext_noop("Kind"),
    "maker": gettext_noop("Maker"),
    "part_number": gettext_noop("Part number"),
    "model": gettext_noop("Model"),
    "description": gettext_noop("Description"),
    "unit": gettext_noop("Unit"),
    "price_low": gettext_noop("Unit price"),
    "price_high": gettext_noop("Unit price to"),
    "currency": gettext_noop("Currency"),
    "minimum_order": gettext_noop("Minimum order"),
    "lead_time": gettext_noop("Lead time (weeks)"),
}
# Every other spelling read, English then Korean; compared without spaces or
# case. The Korean translation of each label above must be one of them, or a
# Korean template would not read back.
OTHER_SPELLINGS: dict[str, tuple[str, ...]] = {
    "supplier": ("Vendor", "공급사", "공급업체", "공급자", "업체명"),
    "number": ("Quote no.", "Quotation number", "견적 번호", "견적서 번호"),
    "quoted_on": ("Quotation date", "견적일", "견적 일자", "견적 날짜"),
    "valid_until": (
        "Valid to",
        "유효기한",
        "유효기간",
        "유효기간 만료일",
        "견적 유효기한",
    ),
    "kind": ("Item kind", "종류", "품목 종류"),
    "maker": ("Manufacturer", "Brand", "제조사", "제조업체", "메이커"),
    "part_number": ("Part no.", "P/N", "부품 번호", "품번"),
    "model": ("Model name", "모델", "모델명"),
    "description": ("설명", "품명", "사양"),
    "unit": ("단위",),
    "price_low": ("Unit price from", "단가", "단가 하한"),
    "price_high": ("단가 상한",),
    "currency": ("통화",),
    "minimum_order": (
        "Minimum order quantity",
        "MOQ",
        "최소 주문",
        "최소 주문 수량",
        "최소 주문량",
    ),
    "lead_time": ("납기 (주)", "리드타임 (주)"),
}
UNIT_SPELLINGS: dict[str, tuple[str, ...]] = {
    "piece": ("piece", "pieces", "pc", "pcs", "ea", "each", "개"),
    "m": ("m", "metre", "meter", "metres", "meters", "미터"),
    "job": ("job", "jobs", "lot", "식", "건"),
}
CURRENCY_SPELLINGS: dict[str, tuple[str, ...]] = {
    "KRW": ("krw", "원", "₩"),
    "USD": ("usd",),
    "EUR": ("eur", "€"),
}
REQUIRED_COLUMNS = ("unit", "price_low", "currency")
# A row is matched by one of these (``matching``): the table needs one.
IDENTITY_COLUMNS = ("kind", "part_number", "model")


def label_key(text: str) -> str:
    """A label as compared: no spaces, no case, no trailing colon or star."""
    return re.sub(r"\s+", "", text).casefold().rstrip(":：*")


def _spellings(
    labels: Mapping[str, str], others: Mapping[str, tuple[str, ...]]
) -> dict[str, str]:
    found: dict[str, str] = {}
    for name in labels:
        for spelling in (labels[name], *others.get(name, ())):
            found[label_key(spelling)] = name
    return found


HEADER_BY_LABEL = _spellings(HEADER_LABELS, OTHER_SPELLINGS)
COLUMN_BY_LABEL = _spellings(COLUMN_LABELS, OTHER_SPELLINGS)
UNIT_BY_SPELLING = {s.casefold(): u for u, ss in UNIT_SPELLINGS.items() for s in ss}
CURRENCY_BY_SPELLING = {
    s.casefold(): c for c, ss in CURRENCY_SPELLINGS.items() for s in ss
}
