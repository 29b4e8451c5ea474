from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template, or None."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def citation(text):
    """A rule's or finding's citation in the reader's language."""
    from compliance.calculators.presentation import shown_citation

    return shown_citation(text) if isinstance(text, str) else text


@register.filter
def finding_subject(finding, names=None):
    """``{{ finding|finding_subject:names }}``: a checked finding's subject
    in the reader's language (``names``: the cell's function names the app
    wrote, ``rules.selectors.function_names``)."""
    from compliance.rules.selectors import shown_subject

    return shown_subject(finding.subject_key, finding.subject, names or {})
