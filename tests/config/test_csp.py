"""The Content-Security-Policy: no page runs inline script, so an injected
``<script>`` or ``onerror=`` does nothing even where escaping were to fail."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.calculators.registry import CALCULATORS
from tests import test_tenancy
from tests.test_tenancy import LIST_URLS, NOT_TENANT_DATA, OBJECT_URLS

# The tenancy walk's objects: one of each kind the pages show.
owned = test_tenancy.owned

ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATES = ROOT / "templates"

# An inline event handler (onclick=, onsubmit=...), an inline <script> (one
# without src), htmx's own inline handlers and eval'd values, a javascript: URL.
INLINE_SCRIPT = re.compile(
    r"""\son[a-z]+\s*=|<script(?![^>]*\ssrc=)[^>]*>|\shx-on[:-]|"""
    r"""\shx-(?:vals|headers)\s*=\s*['"]\s*(?:js:|javascript:|\{)|javascript:""",
    re.IGNORECASE,
)
# Inline styles: a style attribute or a <style> element without the nonce.
INLINE_STYLE = re.compile(r"""\sstyle\s*=|<style(?![^>]*\snonce=)[^>]*>""")


def _templates():
    return sorted(TEMPLATES.rglob("*.html"))


def _directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {words[0]: words[1:] for words in parts}


def test_no_template_has_inline_script_or_event_handlers():
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: "
        f"{match.group(0).strip()}"
        for path in _templates()
        for text in [path.read_text()]
        for match in INLINE_SCRIPT.finditer(text)
    ]
    assert found == []


def test_no_template_has_inline_styles():
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}"
        for path in _templates()
        for text in [path.read_text()]
        for match in INLINE_STYLE.finditer(text)
    ]
    assert found == []


def test_the_policy_allows_no_inline_script_or_style(client, owner):
    client.force_login(owner)
    response = client.get(reverse("cells:project_list"))
    policy = _directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["style-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


def _walk(owned_objects):
    yield from (reverse(name) for name in sorted(LIST_URLS))
    for name, args in sorted(OBJECT_URLS.items()):
        yield reverse(name, args=args(owned_objects))
    # The pages without an organisation's data, but the one that needs a token.
    for name in sorted(NOT_TENANT_DATA - {"compliance:calculator_detail"}):
        if name != "password_reset_confirm":
            yield reverse(name)
    for name in CALCULATORS:
        yield reverse("compliance:calculator_detail", args=[name])
        yield reverse(f"calculator-{name}")


@pytest.mark.django_db
def test_every_page_of_the_walk_answers_with_the_policy(owner, owned):
    client = APIClient()
    client.force_login(owner)
    missing = []
    for url in _walk(owned):
        response = client.get(url)
        header = response.get("Content-Security-Policy")
        if header is None:
            missing.append((url, response.status_code))
            continue
        script_src = _directives(header).get("script-src", [])
        assert "'unsafe-inline'" not in script_src, url
        assert "'unsafe-eval'" not in script_src, url
    assert missing == []


def test_the_standalone_plan_carries_its_style_with_the_pages_nonce(owner_client, cell):
    response = owner_client.get(reverse("cells:cell_layout_svg", args=[cell.pk]))
    nonce = re.search(r'<style nonce="([^"]+)">', response.text).group(1)
    style_src = _directives(response["Content-Security-Policy"])["style-src"]
    assert f"'nonce-{nonce}'" in style_src
    assert ".hazard" in response.text  # the rules themselves, embedded


def test_the_cell_page_has_no_inline_style_and_no_nonce(owner_client, cell):
    response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert "<style" not in response.text
    assert "nonce-" not in response["Content-Security-Policy"]


def test_the_api_docs_page_runs_only_scripts_from_urls(owner_client):
    page = owner_client.get(reverse("api-docs"))
    html = page.content.decode()
    assert INLINE_SCRIPT.findall(html) == []
    assert INLINE_STYLE.findall(html) == []
    script = owner_client.get(f"{reverse('api-docs')}?script=")
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
