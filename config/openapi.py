"""The API's error answers in the OpenAPI schema (issue 13: "the schema's types
exact"). Every operation can answer 400 (bad input), 401 (not signed in), 403
(not allowed), 404 (not found, or another organisation's; also a page past the
last) and 429 (throttled), and one that reads a body 415 (a media type it
does not read); drf-spectacular documents only what each view
declares, so this hook adds the rest with the bodies the API really sends
(``cells.api.errors`` and ``config.errors``). A response a view documents with
its own body (a 409 with the current values, say) is left as it is; one it
documents by a description only gets the body."""

from __future__ import annotations

from typing import Any

SCHEMAS = "#/components/schemas/"

COMPONENTS: dict[str, dict[str, Any]] = {
    "ErrorValue": {
        "description": "A message, a list of them, or messages by field.",
        "anyOf": [
            {"type": "string"},
            # A row's or a line's number, beside its message.
            {"type": "integer"},
            {"type": "array", "items": {"$ref": SCHEMAS + "ErrorValue"}},
            {
                "type": "object",
                "additionalProperties": {"$ref": SCHEMAS + "ErrorValue"},
            },
        ],
    },
    "FieldErrors": {
        "description": "Messages by field ({field: [messages]}, nested fields by "
        "their path, non_field_errors for the whole), or detail, or a list of "
        "messages.",
        "anyOf": [
            {
                "type": "object",
                "additionalProperties": {"$ref": SCHEMAS + "ErrorValue"},
            },
            {"type": "array", "items": {"type": "string"}},
        ],
    },
    "ErrorDetail": {
        "type": "object",
        "properties": {"detail": {"type": "string"}},
        "required": ["detail"],
    },
    "VersionConflict": {
        "description": "Someone else saved the object since the version sent "
        "(issue 28): nothing was saved. ``current`` is the object as stored, "
        "``differs`` the fields sent whose stored value is now another.",
        "type": "object",
        "properties": {
            "detail": {"type": "string"},
            "differs": {"type": "array", "items": {"type": "string"}},
            "current": {"type": "object", "additionalProperties": True},
        },
        "required": ["detail", "differs", "current"],
    },
}

# The resources that refuse a change sent with a stale version (409).
VERSIONED_PATHS = (
    "/api/v1/cells/{id}/",
    "/api/v1/guard-segments/{id}/",
    "/api/v1/openings/{id}/",
    "/api/v1/operator-stations/{id}/",
    "/api/v1/devices/{id}/",
    "/api/v1/certificates/{id}/",
    "/api/v1/organisations/{org_pk}/library-devices/{id}/",
    "/api/v1/cells/{id}/line-items/{key}/",
    "/api/v1/cells/{id}/custom-line-items/{line_pk}/",
    "/api/v1/cells/{id}/plan/assumptions/{key}/",
    "/api/v1/organisations/{id}/catalogue/{key}/",
)
STALE = ("VersionConflict", "Saved by someone else since the version sent.")

ERRORS: dict[str, tuple[str, str]] = {
    "400": ("FieldErrors", "Bad input: nothing was saved."),
    "401": ("ErrorDetail", "Not signed in, or the token is unknown or expired."),
    "403": ("ErrorDetail", "Your role does not allow this."),
    "404": (
        "ErrorDetail",
        "Not found: no such object, another organisation's, or a page past the last.",
    ),
    "429": ("ErrorDetail", "Too many requests: wait the seconds it names."),
}

# An operation that reads a body answers 415 to one in a media type it does
# not read, or one its parser cannot make out as that type (a multipart
# body without its parts).
UNSUPPORTED = ("ErrorDetail", "The body is not in a media type this operation reads.")

# A delete of an object a record names (a device a measure relies on, a cell
# with a signed assessment) is refused: kept for the record.
KEPT = ("ErrorDetail", "Kept for the record: an assessment or measure names it.")

METHODS = ("get", "put", "post", "delete", "patch")


def _body(component: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": SCHEMAS + component}}}


def document_errors(result, generator, request, public):
    """drf-spectacular postprocessing hook (``POSTPROCESSING_HOOKS``)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in COMPONENTS.items():
        schemas.setdefault(name, schema)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            errors = {**ERRORS, "409": KEPT} if method == "delete" else ERRORS
            if method in ("put", "patch") and path in VERSIONED_PATHS:
                errors = {**errors, "409": STALE}
            if "requestBody" in operation:
                errors = {**errors, "415": UNSUPPORTED}
            for code, (component, description) in errors.items():
                documented = responses.get(code)
                if documented is None:
                    responses[code] = {
                        "description": description,
                        "content": _body(component),
                    }
                elif not documented.get("content"):
                    documented["content"] = _body(component)
            _empty_filter_is_any(operation)
    return result


def _empty_filter_is_any(operation: dict[str, Any]) -> None:
    """A list's filter sent empty (``?country=``, ``?cell=``) filters nothing,
    as django-filter reads it: the schema says so. (An empty ``page`` is a 404,
    as DRF's paginator reads it.)"""
    for parameter in operation.get("parameters", []):
        if parameter.get("in") != "query" or parameter.get("name") == "page":
            continue
        schema = parameter.get("schema", {})
        if "enum" in schema:
            if "" not in schema["enum"]:
                schema["enum"] = [*schema["enum"], ""]
        elif schema.get("type") in ("integer", "number", "boolean"):
            parameter["schema"] = {
                "anyOf": [schema, {"type": "string", "maxLength": 0}]
            }
