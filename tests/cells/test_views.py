"""The project and cell pages, and the htmx layout editor beside the drawing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cells.models import Cell, GuardSegment, Opening, OperatorStation, Project
from tests.cells.certificates import CellCertificateFactory
from tests.factories import (
    CellFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


def add_url(cell, kind):
    return reverse("cells:element_add", args=[cell.pk, kind])


def edit_url(cell, kind, pk):
    return reverse("cells:element_edit", args=[cell.pk, kind, pk])


SEGMENT = {
    "label": "F9",
    "kind": "fence",
    "start_x_mm": 0,
    "start_y_mm": 3000,
    "end_x_mm": 2500,
    "end_y_mm": 3000,
    "height_mm": 1800,
}


# Projects -----------------------------------------------------------------


def test_project_list_shows_only_own_organisations_projects(
    owner_client, project, outsider
):
    from tests.factories import ProjectFactory

    foreign = ProjectFactory(
        organisation=outsider.memberships.get().organisation, name="Secret plan"
    )
    response = owner_client.get(reverse("cells:project_list"))
    assert response.status_code == 200
    assert project.name in response.text
    assert foreign.name not in response.text


def test_solution_architect_creates_project_in_own_organisation(
    owner_client, organisation
):
    response = owner_client.post(
        reverse("cells:project_create"),
        {
            "organisation": organisation.pk,
            "name": "Welding PoC",
            "customer_name": "Daehan Steel",
            "site_name": "Pohang",
            "country": "KR",
            "proposal_language": "ko",
        },
    )
    project = Project.objects.get(name="Welding PoC")
    assert response.status_code == 302
    assert response.url == reverse("cells:project_detail", args=[project.pk])
    assert project.organisation == organisation
    assert project.created_by.username == "owner"


def test_project_form_shows_error_for_missing_customer(owner_client, organisation):
    response = owner_client.post(
        reverse("cells:project_create"),
        {
            "organisation": organisation.pk,
            "name": "No customer",
            "country": "KR",
            "proposal_language": "en",
        },
    )
    assert response.status_code == 200
    assert "This field is required." in response.text
    assert not Project.objects.filter(name="No customer").exists()


def test_project_cannot_be_created_in_a_foreign_organisation(owner_client, outsider):
    foreign_org = outsider.memberships.get().organisation
    response = owner_client.post(
        reverse("cells:project_create"),
        {
            "organisation": foreign_org.pk,
            "name": "Sneaky",
            "customer_name": "X",
            "country": "KR",
            "proposal_language": "en",
        },
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    assert not Project.objects.filter(name="Sneaky").exists()


def test_viewer_cannot_create_or_edit_projects(viewer_client, project):
    assert viewer_client.get(reverse("cells:project_create")).status_code == 403
    response = viewer_client.post(
        reverse("cells:project_edit", args=[project.pk]),
        {
            "name": "Renamed",
            "customer_name": "X",
            "country": "KR",
            "proposal_language": "en",
        },
    )
    assert response.status_code == 403
    project.refresh_from_db()
    assert project.name == "Palletising PoC"


def test_viewer_reads_the_cell_page_without_edit_controls(viewer_client, cell, segment):
    response = viewer_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert response.status_code == 200
    assert segment.label in response.text
    assert "Add guard segment" not in response.text
    assert edit_url(cell, "segment", segment.pk) not in response.text


def test_deleting_a_project_deletes_its_cells(owner_client, cell):
    response = owner_client.post(
        reverse("cells:project_delete", args=[cell.project_id])
    )
    assert response.status_code == 302
    assert not Cell.objects.filter(pk=cell.pk).exists()


# Cells --------------------------------------------------------------------


CELL = {
    "name": "Deburring",
    "application": "grinding",
    "robot_manufacturer": "Acme",
    "robot_model": "R-7",
    "robot_kind": "collaborative",
    "payload_kg": "7",
    "reach_mm": 900,
    "max_tcp_speed_mm_s": 1000,
    "moving_mass_kg": "25",
    "task_description": "Deburrs castings.",
    "robot_base_x_mm": 0,
    "robot_base_y_mm": 0,
}


def test_cell_is_created_and_opens_on_its_plan(owner_client, project):
    response = owner_client.post(reverse("cells:cell_create", args=[project.pk]), CELL)
    cell = Cell.objects.get(name="Deburring")
    assert response.status_code == 302
    assert response.url == reverse("cells:cell_detail", args=[cell.pk])
    assert cell.project == project
    assert cell.robot_kind == "collaborative"
    assert cell.collaborative_modes == []


def test_a_cell_ticks_several_collaborative_modes_and_its_page_names_them(
    owner_client, project
):
    data = {**CELL, "collaborative_modes": ["ssm", "pfl"]}
    owner_client.post(reverse("cells:cell_create", args=[project.pk]), data)
    cell = Cell.objects.get(name="Deburring")
    assert cell.collaborative_modes == ["ssm", "pfl"]

    page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert "Speed and separation monitoring, Power and force limiting" in page
    form = owner_client.get(reverse("cells:cell_edit", args=[cell.pk])).text
    assert form.count('name="collaborative_modes"') == 4
    assert form.count("checked") == 2


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("payload_kg", "-3"),
        ("payload_kg", "0"),
        ("reach_mm", "-1"),
        ("moving_mass_kg", "abc"),
    ],
)
def test_cell_with_nonsense_robot_data_is_refused(owner_client, project, field, value):
    response = owner_client.post(
        reverse("cells:cell_create", args=[project.pk]), {**CELL, field: value}
    )
    assert response.status_code == 200
    assert 'class="field has-error"' in response.text
    assert not Cell.objects.filter(name="Deburring").exists()


def test_cell_page_draws_every_element(owner_client, cell, segment, opening, station):
    response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    svg = response.text[response.text.index("<svg") : response.text.index("</svg>")]
    assert f'data-label="{segment.label}"' in svg
    assert f'data-label="{opening.label}"' in svg
    assert f'data-label="{station.label}"' in svg
    assert 'class="hazard"' in svg
    assert "4,000 mm" in svg  # the segment's length label
    assert "h 1,800 mm" in svg  # its height label


def test_layout_svg_is_served_as_an_svg_file(owner_client, cell, segment):
    response = owner_client.get(reverse("cells:cell_layout_svg", args=[cell.pk]))
    assert response["Content-Type"] == "image/svg+xml"
    assert response.text.lstrip().startswith("<svg")
    assert f'data-label="{segment.label}"' in response.text


# The layout editor ----------------------------------------------------------


def test_adding_a_segment_with_htmx_returns_the_redrawn_workspace(owner_client, cell):
    response = owner_client.post(add_url(cell, "segment"), SEGMENT, **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert 'id="workspace"' in response.text
    assert 'data-label="F9"' in response.text
    assert "2,500 mm" in response.text
    assert "HX-Request" in response["Vary"]
    assert response["HX-Push-Url"] == reverse("cells:cell_detail", args=[cell.pk])
    assert GuardSegment.objects.filter(cell=cell, label="F9").exists()


def test_adding_a_segment_without_javascript_redirects_to_the_cell(owner_client, cell):
    response = owner_client.post(add_url(cell, "segment"), SEGMENT)
    assert response.status_code == 302
    assert response.url == reverse("cells:cell_detail", args=[cell.pk])


def test_edit_form_opens_as_a_fragment_for_htmx_and_as_a_page_otherwise(
    owner_client, cell, segment
):
    url = edit_url(cell, "segment", segment.pk)
    fragment = owner_client.get(url, **HTMX)
    page = owner_client.get(url)
    assert "<html" not in fragment.text and 'name="height_mm"' in fragment.text
    assert "<html" in page.text and 'name="height_mm"' in page.text


def test_history_restore_gets_the_whole_page(owner_client, cell):
    response = owner_client.get(
        reverse("cells:cell_detail", args=[cell.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )
    assert "<html" in response.text


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"end_x_mm": 0, "end_y_mm": 3000}, "end_x_mm", "zero length"),
        ({"height_mm": 0}, "height_mm", "greater than"),
        ({"height_mm": -100}, "height_mm", "greater than"),
    ],
)
def test_bad_segment_gets_a_form_error_and_nothing_is_saved(
    owner_client, cell, change, field, message
):
    response = owner_client.post(
        add_url(cell, "segment"), {**SEGMENT, **change}, **HTMX
    )
    assert response.status_code == 200
    assert message in response.text
    assert f'name="{field}"' in response.text
    assert not GuardSegment.objects.filter(cell=cell).exists()


def opening_data(segment, **change):
    return {
        "label": "Door",
        "segment": segment.pk,
        "purpose": "operator_access",
        "offset_mm": 100,
        "width_mm": 900,
        "lower_edge_mm": 0,
        "upper_edge_mm": 1800,
        **change,
    }


def test_opening_is_added_to_a_segment_and_drawn_as_a_gap(owner_client, cell, segment):
    response = owner_client.post(
        add_url(cell, "opening"), opening_data(segment), **HTMX
    )
    assert response.status_code == 200
    assert Opening.objects.filter(segment=segment, label="Door").exists()
    assert 'data-label="Door"' in response.text
    assert "0–1,800 mm" in response.text


def test_opening_wider_than_its_segment_is_refused(owner_client, cell, segment):
    response = owner_client.post(
        add_url(cell, "opening"),
        opening_data(segment, offset_mm=3500, width_mm=900),
        **HTMX,
    )
    assert "is only 4000 mm long" in response.text
    assert not Opening.objects.exists()


def test_overlapping_openings_are_refused(owner_client, cell, segment, opening):
    # The fixture opening spans 1000–1800 mm along the segment.
    response = owner_client.post(
        add_url(cell, "opening"),
        opening_data(segment, offset_mm=1500, width_mm=600),
        **HTMX,
    )
    assert "overlaps opening Infeed" in response.text
    assert Opening.objects.count() == 1


def test_opening_above_the_guard_is_refused(owner_client, cell, segment):
    response = owner_client.post(
        add_url(cell, "opening"), opening_data(segment, upper_edge_mm=2000), **HTMX
    )
    assert "above the guard" in response.text
    assert not Opening.objects.exists()


def test_opening_cannot_be_put_on_another_cells_segment(owner_client, cell, project):
    other_segment = GuardSegmentFactory(cell=CellFactory(project=project))
    response = owner_client.post(
        add_url(cell, "opening"), opening_data(other_segment), **HTMX
    )
    assert "Select a valid choice" in response.text
    assert not Opening.objects.exists()


def test_shortening_a_segment_below_its_opening_is_refused(
    owner_client, cell, segment, opening
):
    response = owner_client.post(
        edit_url(cell, "segment", segment.pk),
        {**SEGMENT, "end_x_mm": 1200, "end_y_mm": 0, "start_y_mm": 0},
        **HTMX,
    )
    assert "would no longer fit" in response.text
    segment.refresh_from_db()
    assert segment.end_x_mm == 4000


def test_station_is_added_and_marked(owner_client, cell):
    response = owner_client.post(
        add_url(cell, "station"),
        {"label": "Load/unload", "x_mm": 500, "y_mm": -900},
        **HTMX,
    )
    assert OperatorStation.objects.filter(cell=cell, label="Load/unload").exists()
    assert 'data-label="Load/unload"' in response.text


def test_deleting_a_segment_redraws_without_it(owner_client, cell, segment):
    response = owner_client.post(
        reverse("cells:element_delete", args=[cell.pk, "segment", segment.pk]), **HTMX
    )
    assert response.status_code == 200
    assert f'data-label="{segment.label}"' not in response.text
    assert not GuardSegment.objects.filter(pk=segment.pk).exists()


def test_hazard_zone_polygon_is_drawn(owner_client, cell):
    response = owner_client.post(
        reverse("cells:hazard_zone_edit", args=[cell.pk]),
        {
            "robot_base_x_mm": 1000,
            "robot_base_y_mm": 1000,
            "hazard_zone_shape": "polygon",
            "hazard_zone_polygon_mm": "-500, -500\n2500, -500\n2500, 2500\n-500, 2500",
        },
        **HTMX,
    )
    cell.refresh_from_db()
    assert cell.hazard_zone_polygon_mm == [
        [-500, -500],
        [2500, -500],
        [2500, 2500],
        [-500, 2500],
    ]
    assert (
        '<polygon class="hazard" points="-500,500 2500,500 2500,-2500 -500,-2500"'
        in response.text
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0, 0\n2000, 0", "at least three corners"),
        ("0, 0\n1000, 0\n2000, 0", "no area"),
        ("0, 0\n2000, 2000\n2000, 0\n0, 2000", "crosses itself"),
        ("0, 0\nabc\n1, 1", "Line 2"),
    ],
)
def test_bad_hazard_polygon_is_refused(owner_client, cell, text, message):
    response = owner_client.post(
        reverse("cells:hazard_zone_edit", args=[cell.pk]),
        {
            "robot_base_x_mm": 0,
            "robot_base_y_mm": 0,
            "hazard_zone_shape": "polygon",
            "hazard_zone_polygon_mm": text,
        },
        **HTMX,
    )
    assert message in response.text
    cell.refresh_from_db()
    assert cell.hazard_zone_shape == "circle"


def test_unknown_element_kind_is_not_found(owner_client, cell):
    assert owner_client.get(add_url(cell, "robot")).status_code == 404


def test_viewer_cannot_change_the_layout(viewer_client, cell, segment):
    assert viewer_client.get(add_url(cell, "segment")).status_code == 403
    assert viewer_client.post(add_url(cell, "segment"), SEGMENT).status_code == 403
    response = viewer_client.post(
        reverse("cells:element_delete", args=[cell.pk, "segment", segment.pk])
    )
    assert response.status_code == 403
    assert GuardSegment.objects.filter(cell=cell).count() == 1


def test_safety_engineer_can_change_the_layout(client, safety_engineer, cell):
    client.force_login(safety_engineer)
    response = client.post(add_url(cell, "segment"), SEGMENT)
    assert response.status_code == 302
    assert GuardSegment.objects.filter(cell=cell).exists()


def test_element_of_another_cell_is_not_found_through_this_cell(
    owner_client, cell, project
):
    other = GuardSegmentFactory(cell=CellFactory(project=project))
    assert owner_client.get(edit_url(cell, "segment", other.pk)).status_code == 404


# Speed ------------------------------------------------------------------------


@pytest.mark.parametrize("segment_count", [5, 50])
def test_cell_page_makes_a_fixed_number_of_queries(
    owner_client, cell, segment_count, django_assert_max_num_queries
):
    for i in range(segment_count):
        segment = GuardSegmentFactory(
            cell=cell, start_x_mm=0, start_y_mm=i * 100, end_x_mm=3000, end_y_mm=i * 100
        )
        OpeningFactory(segment=segment)
        OperatorStationFactory(cell=cell)
        CellCertificateFactory(cell=cell)
    # One query per kind of record shown (the certificates are the ninth), and
    # the risk assessment, for the minimum distances drawn on the plan.
    # One more query since cells have safety functions (none here).
    with django_assert_max_num_queries(11):
        response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert response.text.count('class="segment-row"') == segment_count
    assert response.text.count('class="certificate-row"') == segment_count


@pytest.mark.parametrize("project_count", [3, 30])
def test_project_list_makes_a_fixed_number_of_queries(
    owner_client, organisation, project_count, django_assert_max_num_queries
):
    from tests.factories import ProjectFactory

    for _ in range(project_count):
        CellFactory(project=ProjectFactory(organisation=organisation))
    with django_assert_max_num_queries(5):
        response = owner_client.get(reverse("cells:project_list"))
    assert response.status_code == 200


def test_project_page_makes_a_fixed_number_of_queries(
    owner_client, project, django_assert_max_num_queries
):
    for _ in range(20):
        GuardSegmentFactory(cell=CellFactory(project=project))
    with django_assert_max_num_queries(6):
        owner_client.get(reverse("cells:project_detail", args=[project.pk]))


def test_element_being_edited_is_highlighted_on_the_plan(
    owner_client, cell, segment, opening
):
    response = owner_client.get(edit_url(cell, "opening", opening.pk), **HTMX)
    # Not guarded, so drawn as failing too.
    assert (
        f'class="opening purpose-{opening.purpose} status-fail selected" '
        'data-label="Infeed"' in (response.text)
    )
    assert 'class="segment kind-fence selected"' not in response.text


def test_zero_hazard_radius_is_a_form_error_not_a_crash(owner_client, cell):
    response = owner_client.post(
        reverse("cells:hazard_zone_edit", args=[cell.pk]),
        {
            "robot_base_x_mm": 0,
            "robot_base_y_mm": 0,
            "hazard_zone_shape": "circle",
            "hazard_zone_radius_mm": 0,
        },
        **HTMX,
    )
    assert "leave empty to use the robot" in response.text
    cell.refresh_from_db()
    assert cell.hazard_zone_radius_mm is None


def test_fractional_polygon_corners_are_refused(owner_client, cell):
    response = owner_client.post(
        reverse("cells:hazard_zone_edit", args=[cell.pk]),
        {
            "robot_base_x_mm": 0,
            "robot_base_y_mm": 0,
            "hazard_zone_shape": "polygon",
            "hazard_zone_polygon_mm": "[[0, 0], [1000.5, 0], [0, 1000]]",
        },
        **HTMX,
    )
    assert "whole millimetres" in response.text
    cell.refresh_from_db()
    assert cell.hazard_zone_polygon_mm == []
