"""The register as XLSX: exported with its measures, imported into a draft
from the same template, every row checked, nothing saved on any error."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook
from rest_framework.test import APIClient

from compliance.assessment import selectors, services
from compliance.assessment.register_xlsx import template
from compliance.assessment.register_xlsx.export import register_workbook
from compliance.models import AuditEntry, Hazard, Measure, Revision
from tests.compliance.conftest import CRUSHING, sign_revision
from tests.factories import CellFactory, DeviceFactory


def add_hazards(revision, actor, count: int, device=None):
    for n in range(count):
        hazard = services.hazard_add(
            revision=revision,
            actor=actor,
            severity="S2",
            frequency="F2",
            avoidance="P1",
            low_probability=n % 2 == 0,
            residual_severity="S1",
            residual_frequency="F1",
            residual_avoidance="P1",
            description=f"Hands between the gripper and the pallet ({n + 1})",
            **{**CRUSHING, "task": f"Clearing a jam {n + 1}"},
        )
        services.measure_add(
            hazard=hazard,
            actor=actor,
            step="safeguarding",
            description=f"Light curtain {n + 1}",
            device=device,
            is_safety_function=True,
        )
        services.measure_add(
            hazard=hazard,
            actor=actor,
            step="information_for_use",
            description="Warning sign",
        )


def sheet_rows(data: bytes, sheet: str) -> list[list]:
    book = load_workbook(io.BytesIO(data))
    return [list(row) for row in book[sheet].iter_rows(values_only=True)]


def workbook(hazards: list[dict] | None = None, measures: list[dict] | None = None):
    """A workbook of the template with these rows (missing cells blank)."""
    book = Workbook()
    for index, (name, columns, rows) in enumerate(
        [
            (template.HAZARDS, template.HAZARD_COLUMNS, hazards or []),
            (template.MEASURES, template.MEASURE_COLUMNS, measures or []),
        ]
    ):
        ws = book.active if index == 0 else book.create_sheet(name)
        ws.title = name
        ws.append([c.key for c in columns])
        ws.append([str(c.title) for c in columns])
        for row in rows:
            ws.append([row.get(c.key, "") for c in columns])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


GOOD = {
    "number": 1,
    "group": "mechanical",
    "origin": "moving_elements",
    "consequence": "crushing",
    "phase": "operation",
    "task": "Loading parts",
    "severity": "S2",
    "frequency": "F1",
    "avoidance": "P1",
    "low_probability": "no",
    "residual_low_probability": "no",
}
GOOD_MEASURE = {
    "hazard_number": 1,
    "step": "safeguarding",
    "description": "Fence",
    "is_safety_function": "no",
}


def upload(client, revision, data: bytes, name="register.xlsx"):
    return client.post(
        reverse("compliance:register_import", args=[revision.pk]),
        {"file": SimpleUploadedFile(name, data)},
    )


def api_upload(user, revision, data: bytes, name="register.xlsx"):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(
        reverse("revision-register-import", args=[revision.pk]),
        {"file": SimpleUploadedFile(name, data)},
        format="multipart",
    )


def content_without_keys(revision) -> list[dict]:
    content = selectors.revision_content(Revision.objects.get(pk=revision.pk))
    hazards = []
    for h in content.hazards:
        data = h.model_dump(exclude={"key", "measures"})
        data["measures"] = sorted(
            (m.model_dump(exclude={"key"}) for m in h.measures),
            key=lambda m: (m["step"], m["description"]),
        )
        hazards.append(data)
    return sorted(hazards, key=lambda h: h["task"])


def test_the_export_has_the_three_sheets_keys_titles_and_one_row_per_hazard(
    revision, owner, viewer_client
):
    add_hazards(revision, owner, 2)
    response = viewer_client.get(
        reverse("compliance:register_export", args=[revision.pk])
    )
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Hazards", "Measures", "Read me"]
    hazards = sheet_rows(response.content, "Hazards")
    assert hazards[0] == [c.key for c in template.HAZARD_COLUMNS]
    assert hazards[1][0] == "Hazard number"
    assert [row[0] for row in hazards[2:]] == [1, 2]
    keys = hazards[0]
    assert hazards[2][keys.index("task")] == "Clearing a jam 1"
    assert hazards[2][keys.index("plr")] == "d"
    measures = sheet_rows(response.content, "Measures")
    assert sorted((row[0], row[2]) for row in measures[2:]) == [
        (1, "Light curtain 1"),
        (1, "Warning sign"),
        (2, "Light curtain 2"),
        (2, "Warning sign"),
    ]


def assert_round_trip(data, revision, safety_engineer, owner, owner_client):
    """``data`` (the export of ``revision``) imported into the next draft,
    emptied first, gives the register ``revision`` had."""
    signed = sign_revision(
        services.revision_submit(revision=revision, actor=owner), safety_engineer
    )
    draft = services.revision_start_next(revision=signed, actor=owner)
    for hazard in draft.hazards.all():
        services.hazard_delete(hazard=hazard, actor=owner)
    response = upload(owner_client, draft, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert content_without_keys(draft) == content_without_keys(signed)


def test_a_round_trip_into_a_new_draft_gives_the_same_register(
    revision, safety_engineer, owner, owner_client, cell
):
    device = DeviceFactory(cell=cell)
    add_hazards(revision, owner, 3, device=device)
    data = register_workbook(revision)
    assert_round_trip(data, revision, safety_engineer, owner, owner_client)


def test_the_import_appends_and_writes_audit_entries(revision, owner, owner_client):
    add_hazards(revision, owner, 1)
    before = AuditEntry.objects.filter(object_type="hazard").count()
    response = upload(
        owner_client,
        revision,
        workbook([GOOD, {**GOOD, "number": 2, "task": "Second"}], [GOOD_MEASURE]),
    )
    assert response.status_code == 302
    tasks = list(revision.hazards.order_by("order").values_list("task", flat=True))
    assert tasks == ["Clearing a jam 1", "Loading parts", "Second"]
    assert AuditEntry.objects.filter(object_type="hazard").count() == before + 2
    assert Measure.objects.filter(hazard__task="Loading parts").count() == 1


@pytest.mark.parametrize(
    "hazard, measure, expected",
    [
        ({"severity": "S3"}, {}, "Hazards row 3: severity must be S1 or S2."),
        ({"frequency": "F9"}, {}, "Hazards row 3: frequency must be F1 or F2."),
        ({"avoidance": "p1"}, {}, "Hazards row 3: avoidance must be P1 or P2."),
        ({"task": ""}, {}, "Hazards row 3: task is required."),
        (
            {"task": "x" * 201},
            {},
            "Hazards row 3: task has 201 characters; at most 200.",
        ),
        ({"description": "x" * 1001}, {}, "Hazards row 3: description has 1001"),
        ({"phase": "lunch"}, {}, "Hazards row 3: phase must be one of"),
        ({"group": "cosmic"}, {}, "Hazards row 3: group is not a hazard group"),
        ({"origin": "nope"}, {}, "Hazards row 3: origin is not one of this group's"),
        ({"number": "one"}, {}, "Hazards row 3: number must be a whole number"),
        ({"number": 0}, {}, "Hazards row 3: number must be a whole number"),
        ({"contact_area_cm2": "5000"}, {}, "Hazards row 3: contact_area_cm2 must be"),
        ({"contact_area_cm2": "1.234"}, {}, "Hazards row 3: contact_area_cm2 must be"),
        (
            {"low_probability": "maybe"},
            {},
            "Hazards row 3: low_probability must be yes",
        ),
        ({"location_key": "opening:999999"}, {}, "Hazards row 3: location_key is not"),
        ({}, {"step": "prayer"}, "Measures row 3: step must be one of"),
        ({}, {"description": ""}, "Measures row 3: description is required."),
        ({}, {"description": "x" * 301}, "Measures row 3: description has 301"),
        ({}, {"plr_required": "f"}, "Measures row 3: plr_required must be one of"),
        ({}, {"hazard_number": 7}, "Measures row 3: hazard_number 7 is not a hazard"),
        (
            {},
            {"link": "device:999999"},
            "Measures row 3: link is not a device or guard",
        ),
    ],
)
def test_each_bad_cell_is_named_by_sheet_and_row_and_nothing_is_saved(
    revision, owner, owner_client, hazard, measure, expected
):
    data = workbook([{**GOOD, **hazard}], [{**GOOD_MEASURE, **measure}])
    response = upload(owner_client, revision, data)
    assert response.status_code == 400
    assert expected in response.content.decode().replace("&#x27;", "'") or any(
        str(e).startswith(expected) for e in response.context["row_errors"]
    ), [str(e) for e in response.context["row_errors"]]
    assert not revision.hazards.exists()


def test_one_bad_row_among_good_ones_saves_nothing(revision, owner):
    rows = [{**GOOD, "number": n, "task": f"Task {n}"} for n in range(1, 8)]
    rows[4]["severity"] = "S9"
    response = api_upload(owner, revision, workbook(rows, [GOOD_MEASURE]))
    assert response.status_code == 400
    assert response.json()["rows"] == [
        {
            "sheet": "Hazards",
            "row": 7,
            "field": "severity",
            "message": "severity must be S1 or S2.",
            "text": "Hazards row 7: severity must be S1 or S2.",
        }
    ]
    assert not Hazard.objects.filter(revision=revision).exists()
    assert not Measure.objects.filter(hazard__revision=revision).exists()


def test_every_error_is_listed_not_only_the_first(revision, owner):
    rows = [
        {**GOOD, "severity": "S3"},
        {**GOOD, "number": 1, "task": ""},
    ]
    response = api_upload(owner, revision, workbook(rows))
    texts = [e["text"] for e in response.json()["rows"]]
    assert "Hazards row 3: severity must be S1 or S2." in texts
    assert "Hazards row 4: task is required." in texts
    assert "Hazards row 4: hazard number 1 is already used on row 3." in texts


def test_a_service_refusal_midway_rolls_back_every_row(revision, owner, monkeypatch):
    from django.core.exceptions import ValidationError

    real = services.measure_add
    calls = []

    def refuse_second(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise ValidationError({"description": "refused"})
        return real(**kwargs)

    monkeypatch.setattr(services, "measure_add", refuse_second)
    rows = [GOOD, {**GOOD, "number": 2}]
    measures = [GOOD_MEASURE, {**GOOD_MEASURE, "hazard_number": 2}]
    response = api_upload(owner, revision, workbook(rows, measures))
    assert response.status_code == 400
    assert response.json()["rows"][0]["text"] == "Measures row 4: refused"
    assert not revision.hazards.exists()


def test_a_signed_revision_cannot_change(
    revision, safety_engineer, owner, owner_client
):
    add_hazards(revision, owner, 1)
    signed = sign_revision(
        services.revision_submit(revision=revision, actor=owner), safety_engineer
    )
    page = upload(owner_client, signed, workbook([GOOD]))
    assert page.status_code == 400
    assert "can no longer change" in page.content.decode()
    api = api_upload(owner, signed, workbook([GOOD]))
    assert api.status_code == 400
    assert "can no longer change" in api.json()["file"][0]
    assert signed.hazards.count() == 1


def test_a_revision_in_review_cannot_change(revision, owner):
    add_hazards(revision, owner, 1)
    in_review = services.revision_submit(revision=revision, actor=owner)
    assert api_upload(owner, in_review, workbook([GOOD])).status_code == 400
    assert in_review.hazards.count() == 1


def test_a_file_that_is_not_xlsx_gets_a_clear_error(revision, owner, owner_client):
    page = upload(owner_client, revision, b"number,group\n1,mechanical\n", "r.csv")
    assert page.status_code == 400
    assert "This is not an XLSX workbook" in page.content.decode()
    api = api_upload(owner, revision, b"\x00garbage")
    assert api.status_code == 400
    assert "This is not an XLSX workbook" in api.json()["file"][0]


def test_a_file_over_2_mb_is_refused_naming_the_file(revision, owner, owner_client):
    big = b"x" * (template.MAX_BYTES + 1)
    page = upload(owner_client, revision, big)
    assert page.status_code == 200
    assert "larger than 2 MB" in page.content.decode()
    api = api_upload(owner, revision, big)
    assert api.status_code == 400
    assert "file" in api.json()


def test_a_changed_key_row_is_refused(revision, owner):
    book = Workbook()
    book.active.title = "Hazards"
    book.active.append(["number", "task"])
    book.create_sheet("Measures")
    buffer = io.BytesIO()
    book.save(buffer)
    response = api_upload(owner, revision, buffer.getvalue())
    assert response.status_code == 400
    texts = [e["text"] for e in response.json()["rows"]]
    assert any(t.startswith("Hazards row 1: The column keys") for t in texts)


def test_a_missing_sheet_is_named(revision, owner):
    book = Workbook()
    book.active.title = "Something else"
    buffer = io.BytesIO()
    book.save(buffer)
    response = api_upload(owner, revision, buffer.getvalue())
    assert response.status_code == 400
    assert "Hazards" in str(response.json())


def test_more_than_500_hazards_are_refused(revision, owner):
    rows = [{**GOOD, "number": n} for n in range(1, template.MAX_HAZARDS + 2)]
    response = api_upload(owner, revision, workbook(rows))
    assert response.status_code == 400
    texts = [e["text"] for e in response.json()["rows"]]
    assert texts == ["Hazards row 503: At most 500 rows can be imported."]
    assert not revision.hazards.exists()


def test_a_viewer_cannot_import(revision, viewer, viewer_client):
    assert upload(viewer_client, revision, workbook([GOOD])).status_code == 403
    assert api_upload(viewer, revision, workbook([GOOD])).status_code == 403
    assert not revision.hazards.exists()


def test_the_import_page_says_hazards_are_appended(revision, owner_client):
    response = owner_client.get(
        reverse("compliance:register_import", args=[revision.pk])
    )
    assert response.status_code == 200
    assert "appended to this revision as a new hazard" in response.content.decode()


def test_places_of_another_cell_do_not_import(revision, owner, project):
    other = CellFactory(project=project, name="Other")
    device = DeviceFactory(cell=other)
    data = workbook([GOOD], [{**GOOD_MEASURE, "link": f"device:{device.pk}"}])
    response = api_upload(owner, revision, data)
    assert response.status_code == 400
    assert response.json()["rows"][0]["field"] == "link"


def test_outsiders_get_404(revision, outsider, client):
    client.force_login(outsider)
    for name in ("compliance:register_export", "compliance:register_import"):
        assert client.get(reverse(name, args=[revision.pk])).status_code == 404
    assert api_upload(outsider, revision, workbook([GOOD])).status_code == 404
    api = APIClient()
    api.force_authenticate(outsider)
    url = reverse("revision-register", args=[revision.pk])
    assert api.get(url).status_code == 404


@pytest.mark.parametrize("count", [2, 20])
def test_the_export_takes_a_fixed_number_of_queries(
    count, revision, owner, owner_client, django_assert_max_num_queries
):
    add_hazards(revision, owner, count)
    with django_assert_max_num_queries(6):
        response = owner_client.get(
            reverse("compliance:register_export", args=[revision.pk])
        )
    assert len(sheet_rows(response.content, "Hazards")) == count + 2


def test_the_api_export_gives_the_workbook(revision, owner, viewer):
    add_hazards(revision, owner, 2)
    client = APIClient()
    client.force_authenticate(viewer)
    response = client.get(reverse("revision-register", args=[revision.pk]))
    assert response.status_code == 200
    assert len(sheet_rows(response.content, "Measures")) == 2 + 4


def test_text_that_looks_like_a_formula_is_exported_as_text(
    revision, owner, owner_client
):
    services.hazard_add(
        revision=revision,
        actor=owner,
        **{**CRUSHING, "task": '=HYPERLINK("http://example.com","Click")'},
    )
    data = register_workbook(revision)
    sheet = load_workbook(io.BytesIO(data))["Hazards"]
    task = sheet.cell(
        row=3, column=[c.key for c in template.HAZARD_COLUMNS].index("task") + 1
    )
    assert task.data_type == "s"
    assert task.value == '=HYPERLINK("http://example.com","Click")'


def test_the_api_import_answers_201_with_what_was_added(revision, owner):
    response = api_upload(
        owner, revision, workbook([GOOD], [GOOD_MEASURE, GOOD_MEASURE])
    )
    assert response.status_code == 201
    assert response.json() == {"hazards": 1, "measures": 2}
    assert revision.hazards.get().measures.count() == 2


def test_the_api_import_without_a_file_names_the_field(revision, owner):
    client = APIClient()
    client.force_authenticate(owner)
    response = client.post(
        reverse("revision-register-import", args=[revision.pk]), {}, format="multipart"
    )
    assert response.status_code == 400
    assert "file" in response.json()


def _rezip(data: bytes, replace: dict[str, bytes]) -> bytes:
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(
                info.filename, replace.get(info.filename, source.read(info))
            )
        for name, body in replace.items():
            if name not in source.namelist():
                target.writestr(name, body)
    return out.getvalue()


def test_a_broken_sheet_inside_a_workbook_is_not_a_500(revision, owner):
    data = _rezip(workbook([GOOD]), {"xl/worksheets/sheet1.xml": b"<broken"})
    response = api_upload(owner, revision, data)
    assert response.status_code == 400
    assert "This is not an XLSX workbook" in response.json()["file"][0]


def test_a_plain_zip_is_not_a_workbook(revision, owner):
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("notes.txt", "hello")
    response = api_upload(owner, revision, out.getvalue())
    assert response.status_code == 400
    assert "This is not an XLSX workbook" in response.json()["file"][0]


def test_a_workbook_that_unpacks_to_too_much_is_refused(revision, owner):
    data = _rezip(
        workbook([GOOD]), {"xl/padding.bin": b"\0" * (template.MAX_UNPACKED_BYTES + 1)}
    )
    assert len(data) < template.MAX_BYTES
    response = api_upload(owner, revision, data)
    assert response.status_code == 400
    assert "unpacks to more than 40 MB" in response.json()["file"][0]


def test_a_korean_export_names_its_sheets_in_korean_and_imports_again(
    revision, safety_engineer, owner, owner_client, cell
):
    from django.utils import translation

    add_hazards(revision, owner, 2)
    with translation.override("ko"):
        data = register_workbook(revision)
    assert load_workbook(io.BytesIO(data)).sheetnames == [
        "위험요인",
        "방호조치",
        "읽어 보기",
    ]
    assert_round_trip(data, revision, safety_engineer, owner, owner_client)
