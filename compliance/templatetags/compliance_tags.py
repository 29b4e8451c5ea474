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
def finding_subject(finding, labels=()):
    """``{{ finding|finding_subject:labels }}``: a checked finding's subject
    in the reader's language (``labels``: the layout's, for a function's
    name the app wrote)."""
    from compliance.rules.selectors import shown_subject

    return shown_subject(finding.subject_key, finding.subject, labels or ())
