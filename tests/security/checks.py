"""What the injection test looks for in a page, an SVG and a PDF
(``test_injection``): markup only a payload makes, never text."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

# What a page must not contain.

# Elements only a payload makes (the app draws none of them) ...
INJECTED_ELEMENTS = {"x", "para", "font", "img"}
# ... but for the app's own pictures: the floor-plan image, the logo and the
# proposal preview's pages.
APP_IMAGES = re.compile(
    r"/cells/\d+/layout/image/file\?v=\d+|/organisations/\d+/branding/logo/"
    r"|/proposal-previews/\d+/pages/\d+\.png\?size=thumbnail&v=\d+"
)
# Attributes that take a URL, where "javascript:" would run.
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "hx-get"}
SCRIPT_DATA_TYPES = {"application/json", "application/ld+json"}


class PageParser(HTMLParser):
    """A page's text and attribute values as the browser reads them, and the
    markup that only an unescaped payload could have made."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        own = tag == "img" and APP_IMAGES.fullmatch(values.get("src") or "")
        if tag in INJECTED_ELEMENTS and not own:
            self.problems.append(f"a <{tag}> element {values}")
        for name, value in attrs:
            value = value or ""
            self.texts.append(value)
            if name.startswith("on"):
                self.problems.append(f"an event handler {name}={value!r} on <{tag}>")
            if name in URL_ATTRIBUTES and value.strip().lower().startswith(
                "javascript:"
            ):
                self.problems.append(f"a javascript: URL {name}={value!r}")
        if tag == "script":
            self._in_script = True
            if not values.get("src") and values.get("type") not in SCRIPT_DATA_TYPES:
                self.problems.append(f"an inline script {values}")

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "script":
            self._in_script = False

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if not self._in_script:
            self.texts.append(data)


def html_problems(content: str, values: dict[str, str]) -> tuple[list[str], str]:
    """What is wrong with a page, and its text (values separated by NULs)."""
    parser = PageParser()
    parser.feed(content)
    parser.close()
    problems = list(parser.problems)
    for key, value in values.items():
        if "<" in value and value in content:
            problems.append(f"{key} unescaped: {value[:60]!r}")
    return problems, "\x00".join(parser.texts)


SVG_FORBIDDEN = {"script", "foreignObject", *INJECTED_ELEMENTS}


def svg_problems(content: bytes) -> tuple[list[str], str]:
    """What is wrong with the layout SVG, and its text."""
    try:
        root = ET.fromstring(content)
    except ET.ParseError as exc:
        return [f"not well-formed XML: {exc}"], ""
    problems, texts = [], []
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        if tag in SVG_FORBIDDEN:
            problems.append(f"a <{tag}> element in the SVG")
        for name, value in element.attrib.items():
            local = name.rpartition("}")[2]
            texts.append(value)
            if local.startswith("on"):
                problems.append(f"an event handler {local}={value!r} in the SVG")
            if local == "href" and value.strip().lower().startswith("javascript:"):
                problems.append(f"a javascript: URL in the SVG: {value!r}")
        texts.append(element.text or "")
        texts.append(element.tail or "")
    return problems, "\x00".join(texts)
