"""JSON with a bounded depth, for the API and for any page that reads JSON.

Python's parser recurses once per level: a body nested a thousand deep
raised RecursionError, a 500 on every JSON endpoint. No document of this app
nests more than a handful of levels (the exchange document: five), so a body
deeper than ``MAX_JSON_DEPTH`` is refused with a 400 that says why.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_JSON_DEPTH = 32


class JSONDepthError(ValueError):
    """The JSON is nested deeper than allowed."""

    def __init__(self, max_depth: int) -> None:
        self.max_depth = max_depth
        super().__init__(
            _("JSON nested deeper than %(depth)s levels: send a flatter body.")
            % {"depth": max_depth}
        )


def check_depth(value: Any, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Raise JSONDepthError when parsed JSON nests lists and objects deeper
    than ``max_depth`` (a scalar is depth 0, ``[]`` is 1). Iterative, so it
    never recurses itself; it stops at the first level too deep."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth + 1 > max_depth:
            raise JSONDepthError(max_depth)
        stack.extend((child, depth + 1) for child in children)


def loads(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that raises JSONDepthError (a ValueError) instead of
    RecursionError, and for any depth past ``max_depth``."""
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise JSONDepthError(max_depth) from exc
    check_depth(value, max_depth)
    return value


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser (strict: no NaN or Infinity), refusing a body nested
    deeper than ``MAX_JSON_DEPTH`` with a 400 naming the depth."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
            check_depth(data)
        except (RecursionError, JSONDepthError) as exc:
            raise ParseError(str(JSONDepthError(MAX_JSON_DEPTH))) from exc
        return data
