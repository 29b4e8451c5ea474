"""Injection payloads through every text field a user can write (issue 13).

Each round writes one payload into every user-writable CharField and
TextField of the cells and compliance apps (found by introspection), through
the API and the services a user's request goes through, each value cut to
the field's length and ended by a tag naming the field. Then, signed in, it
renders every named page of the two apps (``cells/urls.py``,
``compliance/urls.py``), the layout SVG and the proposal PDF, and checks that
the values are text and never markup: no payload unescaped in a page, no
element or event handler it could have made, template syntax shown as typed
(never ``49`` or a year), the SVG well-formed with no script, and the PDF
built with reportlab's paragraph markup shown literally.

The fields are found by introspection: a new text field fails every round
until ``build_world`` writes it, or ``NOT_USER_TEXT`` says why no user does.
Each round builds its world anew (one organisation, the palletiser demo cell
imported with the payloads, a signed risk assessment and the draft after it,
safety functions, the device library, costs and plan), so a round is
independent of the others.
"""

from __future__ import annotations

import datetime
import io
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from compliance.models import (
    ProposalDocument,
)
from tests.security.checks import html_problems, svg_problems
from tests.security.pages import EXTRA_QUERIES, api_pages, page_arguments, url_names
from tests.security.world import (
    DERIVED,
    NOT_SHOWN,
    NOT_USER_TEXT,
    PAYLOADS,
    TAGS,
    WRITABLE,
    World,
    build_world,
    text_fields,
    value_for,
)


def request_proposal(world: World, client: Client, capture) -> ProposalDocument:
    """A proposal of every section, asked for on its page; without a broker
    the task builds it in-process once the request's transaction commits."""
    from compliance.proposals.pdf.data import SECTIONS

    with capture(execute=True):
        response = client.post(
            reverse("compliance:proposal", args=[world.cell.pk]),
            {"language": "en", "sections": list(SECTIONS), "acknowledge": "on"},
        )
    assert response.status_code == 302, response.content[:2000]
    return ProposalDocument.objects.filter(proposal__cell=world.cell).latest("pk")


def request_preview(world: World, client: Client, capture):
    """The English proposal's preview, asked for on its page."""
    from compliance.proposals.models import ProposalPreview
    from compliance.proposals.pdf.data import SECTIONS

    with capture(execute=True):
        response = client.post(
            reverse("compliance:proposal_preview_request", args=[world.cell.pk]),
            {"language": "en", "sections": list(SECTIONS)},
        )
    assert response.status_code == 302, response.content[:2000]
    return ProposalPreview.objects.get(proposal__cell=world.cell, language="en")


@dataclass
class Rendered:
    """What a round saw: the text of each page, and what was wrong."""

    texts: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    pdf_text: str = ""


# The browsable API is DRF's templates, escaping as the pages do: the payloads
# that break out of text, attributes and SVG are enough there (and keep the
# test quick).
API_PAGE_PAYLOADS = {"script", "attribute", "svg_text"}


def render_everything(world: World, client: Client, *, api: bool) -> Rendered:
    """Every page once (a page for POST only answers 405), checked."""
    seen = Rendered()
    arguments = page_arguments(world)
    assert set(arguments) == url_names(), "a new page: add it to page_arguments"
    urls = [
        reverse(name, kwargs=kwargs)
        for name, each in sorted(arguments.items())
        for kwargs in each
    ]
    urls += [
        reverse(name, kwargs=arguments[name][0]) + q
        for name, q in EXTRA_QUERIES.items()
    ]
    if api:
        urls += [(url, "text/html") for url in api_pages(world)]
    for url in urls:
        url, accept = url if isinstance(url, tuple) else (url, "*/*")
        response = client.get(url, HTTP_ACCEPT=accept)
        if response.status_code not in (200, 302, 405):
            seen.problems.append(f"{url}: answered {response.status_code}")
            continue
        content_type = response.get("Content-Type", "")
        if content_type.startswith("text/html"):
            problems, text = html_problems(response.content.decode(), world.values)
        elif content_type.startswith("image/svg+xml"):
            problems, text = svg_problems(response.content)
        elif content_type.startswith("application/pdf"):
            pdf = PdfReader(io.BytesIO(response.content))
            # Every PDF: the proposal and the revisions' reports.
            seen.pdf_text += "\n".join(page.extract_text() for page in pdf.pages)
            problems, text = [], ""
        else:
            problems, text = [], ""
        seen.problems += [f"{url}: {p}" for p in problems]
        seen.texts[url] = text
    return seen


def stored_values(world: World) -> dict[str, list[str]]:
    """Each field's values as stored (a derived label is longer than the
    value its source was given)."""
    stored: dict[str, list[str]] = {}
    for key, holders in world.holders.items():
        name = key.rpartition(".")[2]
        for holder in holders:
            current = type(holder)._base_manager.get(pk=holder.pk)
            stored.setdefault(key, []).append(getattr(current, name))
    return stored


def pdf_strings(data: Any) -> list[str]:
    """Every text of the data a PDF was built from (kept beside it) that the
    PDF prints."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        if data.get("status") == "pass" and "rule_id" in data:
            # A passed finding is summarised by its rule and subject: its
            # sentence and figures stay in the kept data, not on the page.
            return [data["rule_id"], data.get("citation", ""), data.get("subject", "")]
        data = list(data.values())
    if isinstance(data, list):
        return [s for item in data for s in pdf_strings(item)]
    return []


def pdf_comparable(text: str) -> str:
    # A PDF's lines wrap where the text had none; the font has no glyph for
    # the right-to-left override, which pypdf reads back as NUL.
    return re.sub(r"\s+", "", text).replace("\u202e", "").replace("\x00", "")


@pytest.mark.django_db
@pytest.mark.parametrize("payload", list(PAYLOADS))
def test_payloads_are_shown_as_text_everywhere(
    payload, client, django_capture_on_commit_callbacks
):
    values = {key: value_for(key, PAYLOADS[payload]) for key in WRITABLE}
    world = build_world(payload.replace("_", "-"), values.__getitem__)
    world.values = values
    # Every free-text field was written (or NOT_USER_TEXT says why not).
    assert set(world.holders) == set(text_fields()) - set(NOT_USER_TEXT)
    stored = stored_values(world)
    for key, value in values.items():
        assert all(v == value for v in stored[key]), (key, stored[key], value)

    client.force_login(world.user)
    document = request_proposal(world, client, django_capture_on_commit_callbacks)
    document.refresh_from_db()
    assert (document.status, document.error) == ("ready", "")
    world.objects["document"] = document
    preview = request_preview(world, client, django_capture_on_commit_callbacks)
    assert (preview.status, preview.error) == ("ready", "")
    world.objects["preview"] = preview
    seen = render_everything(world, client, api=payload in API_PAGE_PAYLOADS)

    assert not seen.problems, "\n".join(seen.problems)
    # Each value is shown as typed somewhere (so escaped: nothing above found
    # it raw), a template's syntax never evaluated.
    shown = {
        key
        for key, each in stored.items()
        if all(any(value in text for text in seen.texts.values()) for value in each)
    }
    assert set(stored) - shown == set(NOT_SHOWN), "shown on no page, or now shown"
    # Everything the PDF was built from is in it literally: reportlab's
    # markup neither applied nor fatal.
    texts = pdf_strings(document.data)
    in_pdf = {key for key, value in values.items() if any(value in t for t in texts)}
    assert in_pdf >= {
        "cells.Cell.name",
        "cells.GuardSegment.label",
        "compliance.Hazard.task",
        "compliance.SafetyFunction.name",
    }
    pdf_text = pdf_comparable(seen.pdf_text)
    assert pdf_text, "the PDF was not downloaded"
    garbled = [k for k in sorted(in_pdf) if pdf_comparable(values[k]) not in pdf_text]
    assert not garbled, f"not in the PDF as typed: {garbled}"
    if payload.startswith("template_"):
        evaluated = ("49", str(datetime.date.today().year))
        for key, tag in TAGS.items():
            for result in evaluated:
                assert f"{result}{tag}" not in pdf_text, key
                assert not any(f"{result}{tag}" in t for t in seen.texts.values())


def test_every_allowance_names_a_text_field():
    """The allow-lists name fields that exist, so they cannot go stale."""
    fields = text_fields()
    assert set(NOT_USER_TEXT) <= set(fields)
    assert set(DERIVED) <= set(fields)
    assert set(NOT_SHOWN) <= set(WRITABLE)
    assert len(WRITABLE) == len(fields) - len(NOT_USER_TEXT) - len(DERIVED)


def test_the_checks_find_markup():
    """The page and SVG checks flag what an unescaped payload would make."""
    value = value_for("cells.Cell.name", PAYLOADS["attribute"])
    page = (
        f'<p>{value}</p><a href="javascript:alert(1)">x</a>'
        "<script>alert(1)</script><para>"
    )
    problems, _text = html_problems(page, {"cells.Cell.name": value})
    assert len(problems) == 6, problems  # img, onerror, href, script, para, raw
    # The app's own pictures pass; a payload's picture does not, even where it
    # names an app address past the one the app makes.
    own = '<img src="/cells/7/layout/image/file?v=123" alt="">'
    assert html_problems(own, {})[0] == []
    forged = '<img src="/cells/7/layout/image/file?v=1&amp;x=javascript:1" alt="">'
    assert len(html_problems(forged, {})[0]) == 1
    escaped, text = html_problems("<p>&lt;b&gt;Z00 &quot;&gt;</p>", {"k": "<b>Z00"})
    assert escaped == [] and '<b>Z00 ">' in text
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>'
    assert svg_problems(svg)[0] == ["a <script> element in the SVG"]
    assert svg_problems(b"<svg><text>]]><x></text></svg>")[0][0].startswith("not")
