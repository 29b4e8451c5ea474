"""Only the chosen concept's assessment is signed (issue 27): once a cell's
guarding concepts are designed, its assessment (of the cell as drawn) is
signed only when the cell as drawn is the chosen concept."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from compliance.assessment import services
from compliance.concepts.models import GuardingConcept
from compliance.concepts.services import concept_choose, concepts_generate
from tests.compliance.conftest import CRUSHING, sign_revision, state_limits
from tests.factories import GuardSegmentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(cell, safety_engineer):
    GuardSegmentFactory(cell=cell, label="F1")
    revision = state_limits(
        services.assessment_open(cell=cell, actor=safety_engineer), safety_engineer
    )
    services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        severity="S1",
        frequency="F1",
        avoidance="P1",
        residual_severity="S1",
        residual_frequency="F1",
        residual_avoidance="P1",
        **CRUSHING,
    )
    return services.revision_submit(revision=revision, actor=safety_engineer)


def test_no_concept_designed_signs_as_before(submitted, safety_engineer):
    signed = sign_revision(submitted, safety_engineer)
    assert signed.status == "signed"


def test_with_concepts_none_chosen_signing_is_refused(
    submitted, safety_engineer, owner, cell
):
    concepts_generate(cell=cell, actor=owner)
    with pytest.raises(ValidationError) as refused:
        sign_revision(submitted, safety_engineer)
    assert "Choose the guarding concept" in str(refused.value.message_dict["concept"])
    submitted.refresh_from_db()
    assert submitted.status != "signed"


def test_another_concept_chosen_signing_is_refused_naming_it(
    submitted, safety_engineer, owner, cell
):
    concepts_generate(cell=cell, actor=owner)
    concept_choose(concept=GuardingConcept.objects.get(cell=cell, kind="fenced"))
    with pytest.raises(ValidationError) as refused:
        sign_revision(submitted, safety_engineer)
    assert "“Fenced”" in str(refused.value.message_dict["concept"])


def test_the_cell_as_drawn_chosen_signs(submitted, safety_engineer, owner, cell):
    concepts_generate(cell=cell, actor=owner)
    concept_choose(concept=GuardingConcept.objects.get(cell=cell, kind="as_drawn"))
    assert sign_revision(submitted, safety_engineer).status == "signed"


def test_a_concepts_cell_shares_the_drawn_cells_assessment(
    owner, owner_client, cell, submitted
):
    from django.urls import reverse

    concepts_generate(cell=cell, actor=owner)
    fenced = GuardingConcept.objects.get(cell=cell, kind="fenced").variant
    response = owner_client.get(reverse("compliance:assessment", args=[fenced.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("compliance:assessment", args=[cell.pk])
    with pytest.raises(ValidationError):
        services.assessment_open(cell=fenced, actor=owner)
    from compliance.assessment.models import Assessment

    assert not Assessment.objects.filter(cell=fenced).exists()
