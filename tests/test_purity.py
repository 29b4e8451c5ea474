"""The pure cores import no Django: each feature's domain code is plain Python
(stdlib, pydantic, reportlab), so it runs and is tested without a database
or a request. Listed per feature, as the code is laid out. The reports use
Django's translation for their fixed labels, and nothing else of it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PURE_MODULES = {
    "concepts": [
        "compliance.concepts.design",
        "compliance.concepts.comparison",
    ],
    "cells": [
        "cells.geometry",
        "cells.perimeter",
        "cells.perimeter.analysis",
        "cells.perimeter.plan",
        "cells.perimeter.closure",
        "cells.exchange",
        "cells.drawing",
        "cells.drawing.primitives",
        "cells.drawing.labels",
        "cells.drawing.devices",
        "cells.drawing.checks",
        "cells.drawing.plan",
        "cells.drawing.svg",
        "cells.applications",
    ],
    "layout dxf": [
        "cells.layout_dxf.doors",
        "cells.layout_dxf.layers",
        "cells.layout_dxf.reading",
        "cells.layout_dxf.writing",
        "cells.layout_dxf.schemas",
    ],
    "motion": [
        "cells.motion",
        "cells.motion.errors",
        "cells.motion.path",
        "cells.motion.reading",
        "cells.motion.reading.source",
        "cells.motion.reading.collect",
        "cells.motion.reading.waypoints",
        "cells.motion.reading.urscript",
        "cells.motion.reading.rapid",
        "cells.motion.reading.rapid_statements",
        "cells.motion.reading.krl",
    ],
    "layout image": [
        "cells.layout_image.pdf_page",
        "cells.layout_image.placement",
        "cells.layout_image.reading",
    ],
    "calculators": [
        "compliance.calculators.registry",
        "compliance.calculators.written",
        "compliance.calculators.iso13849",
        "compliance.calculators.iso13849_verification_tables",
        "compliance.calculators.iso13849_b10d",
        "compliance.calculators.iso13849_channels",
        "compliance.calculators.iso13849_ccf",
        "compliance.calculators.iso13849_k1",
        "compliance.calculators.iso13849_subsystem",
        "compliance.calculators.iso13849_series",
        "compliance.calculators.iso13849_verify",
        "compliance.calculators.iso13855",
        "compliance.calculators.iso13855_2024",
        "compliance.calculators.iso13857",
        "compliance.calculators.ts15066",
        "compliance.calculators.ts15066_contact",
        "compliance.calculators.ts15066_path",
        "compliance.calculators.ts15066_path_geometry",
        "compliance.calculators.ts15066_path_models",
        "compliance.calculators.ts15066_path_segment",
    ],
    "assessment": [
        "compliance.assessment.content",
        "compliance.assessment.checks",
        "compliance.assessment.declaration",
        "compliance.assessment.integrity",
        "compliance.assessment.hazards",
        "compliance.assessment.hazards.catalogue",
        "compliance.assessment.hazards.risk",
        "compliance.assessment.hazards.suggestions",
        "compliance.assessment.hazards.applications",
        "compliance.assessment.space_limits",
    ],
    "risk-assessment report": [
        "compliance.assessment.report.data",
        "compliance.assessment.report.builder",
    ],
    "rules": [
        "compliance.rules",
        "compliance.rules.engine",
        "compliance.rules.closing",
        "compliance.rules.facts",
        "compliance.rules.korea",
        "compliance.rules.baseline",
        "compliance.rules.sensing",
        "compliance.rules.collaborative",
        "compliance.rules.collaborative_motion",
        "compliance.rules.motion",
        "compliance.rules.motion_facts",
        "compliance.rules.schemas",
        "compliance.calculators.citations",
        "compliance.rules.figures",
        "compliance.calculators.editions",
        "compliance.rules.history",
        "compliance.rules.eu",
        "compliance.rules.eu.law",
        "compliance.rules.eu.assessment",
        "compliance.rules.eu.conformity",
        "compliance.rules.eu.documentation",
        "compliance.rules.eu.modification",
        "compliance.rules.eu.corruption",
        "compliance.rules.us",
        "compliance.rules.robot",
    ],
    "costs": [
        "compliance.costs",
        "compliance.costs.catalogue",
        "compliance.costs.line_items",
        "compliance.costs.derivation",
        "compliance.costs.builder",
        "compliance.costs.guarding",
        "compliance.costs.work",
        "compliance.costs.money",
        "compliance.costs.organisation",
        "compliance.costs.schemas",
        "compliance.costs.quotes",
        "compliance.costs.quotes.layout",
        "compliance.costs.quotes.cell_values",
        "compliance.costs.quotes.reading",
        "compliance.costs.quotes.template",
        "compliance.costs.quotes.matching",
        "compliance.costs.quotes.pricing",
    ],
    "safety functions": [
        "compliance.safety_functions.proposing",
        "compliance.safety_functions.verification",
        "compliance.safety_functions.documents",
        "compliance.safety_functions.diagram",
        "compliance.rules.functions",
    ],
    "device library": [
        "compliance.safety_functions.library.catalogue",
        "compliance.safety_functions.library.csv_io",
    ],
    "plan": [
        "compliance.plan",
        "compliance.plan.schedule",
        "compliance.plan.inputs",
        "compliance.plan.physical",
        "compliance.plan.sim_first",
        "compliance.plan.comparison",
        "compliance.plan.explanations",
        "compliance.plan.schemas",
        "compliance.plan.programs",
        "compliance.motion.drawing",
    ],
    "documents": [
        "compliance.documents",
        "compliance.documents.fonts",
        "compliance.documents.theme",
        "compliance.documents.page",
        "compliance.documents.flowables",
        "compliance.documents.kit",
        "compliance.documents.render",
    ],
    "proposals": [
        "compliance.proposals.pdf.data",
        "compliance.proposals.pdf.program_data",
        "compliance.proposals.pdf.builder",
        "compliance.proposals.pdf.kit",
        "compliance.proposals.pdf.sections",
        "compliance.proposals.pdf.charts",
        "compliance.proposals.pdf.plan_figure",
        "compliance.proposals.pdf.safety_functions",
        "compliance.proposals.pdf.underlay_image",
        "compliance.proposals.pdf.pages",
    ],
}


@pytest.mark.parametrize(
    "module",
    [
        pytest.param(module, id=f"{feature}:{module}")
        for feature, modules in PURE_MODULES.items()
        for module in modules
    ],
)
def test_module_imports_no_django(module):
    imported = _django_modules(module)
    if module.startswith(TRANSLATING):
        # The reports translate their labels as the pages do (issue 26): of
        # Django they may use its translation, and nothing else.
        assert imported <= _django_modules("django.utils.translation"), sorted(
            imported - _django_modules("django.utils.translation")
        )
    else:
        assert imported == set()


# The reports: their fixed labels come from Django's translation catalogue.
TRANSLATING = (
    "compliance.proposals.pdf",
    "compliance.assessment.report.builder",
)


def _django_modules(module: str) -> set[str]:
    code = (
        f"import sys, {module}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(ast.literal_eval(result.stdout.strip()))


def test_a_report_uses_no_more_of_django_than_its_translation():
    # The check itself: the translation is allowed, the ORM is not.
    allowed = _django_modules("django.utils.translation")
    assert "django.utils.translation" in allowed
    assert not _django_modules("django.db.models") <= allowed
