"""The cell's compliance findings on the page and the API, from its layout."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory


@pytest.fixture
def fenced(cell):
    """A 1,500 mm fence with an unguarded opening, and a 1,800 mm fence whose
    opening has a light curtain drawn across it; a zone up to 1,400 mm."""
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 1400
    cell.save()
    low = GuardSegmentFactory(
        cell=cell, label="Low", height_mm=1500, start_y_mm=-900, end_y_mm=-900
    )
    OpeningFactory(segment=low, label="Gap", upper_edge_mm=1400)
    high = GuardSegmentFactory(cell=cell, label="High", start_y_mm=4500, end_y_mm=4500)
    infeed = OpeningFactory(segment=high, label="Infeed")
    DeviceFactory(
        cell=cell,
        label="LC1",
        opening=infeed,
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        kcs_certified=True,
        x1_mm=1000,
        y1_mm=4500,
        x2_mm=1800,
        y2_mm=4500,
        detection_lower_mm=300,
        detection_upper_mm=2000,
    )
    return cell


def findings_of(data, rule_id):
    return next(g["findings"] for g in data["groups"] if g["rule"]["id"] == rule_id)


def test_api_reports_fence_heights_against_art_223(owner, fenced):
    client = APIClient()
    client.force_authenticate(owner)
    response = client.get(f"/api/v1/cells/{fenced.pk}/findings/")
    assert response.status_code == 200
    heights = {
        f["subject"]: f for f in findings_of(response.json(), "KR-223-fence-height")
    }
    assert heights["Low"]["status"] == "fail"
    assert heights["Low"]["numbers"] == {"height_mm": 1500, "required_mm": 1800}
    assert heights["High"]["status"] == "pass"
    assert response.json()["summary"]["fail"] >= 2


def test_unguarded_opening_fails_and_guarded_one_passes(owner, fenced):
    client = APIClient()
    client.force_authenticate(owner)
    data = client.get(f"/api/v1/cells/{fenced.pk}/findings/").json()
    openings = {f["subject"]: f["status"] for f in findings_of(data, "KR-223-openings")}
    assert openings == {"Low / Gap": "fail", "High / Infeed": "pass"}


def test_light_curtain_distance_is_compared_with_iso_13855(owner, fenced):
    client = APIClient()
    client.force_authenticate(owner)
    data = client.get(f"/api/v1/cells/{fenced.pk}/findings/").json()
    (curtain,) = findings_of(data, "INTL-13855-distance")
    # T = 20 ms + 300 ms: S_RT = 1600 × 0.32 = 512 mm (d = 14 mm), and its top
    # beam at 2,000 mm over a zone up to 1,400 mm gives C_RO = 0. The curtain
    # is drawn from (1000, 4500) to (1800, 4500); the zone is a 1400 mm circle
    # around (2000, 1500): √(200² + 3000²) − 1400 = 1606.7 mm.
    assert curtain["numbers"]["required_mm"] == 512
    assert curtain["numbers"]["distance_mm"] == pytest.approx(1606.7, abs=0.1)
    assert curtain["status"] == "pass"


def test_compliance_page_groups_findings_by_rule(owner_client, fenced):
    response = owner_client.get(reverse("compliance:cell_compliance", args=[fenced.pk]))
    assert response.status_code == 200
    assert "KR-223-fence-height" in response.text
    assert "National Law Information Center" in response.text


def test_rules_page_lists_every_rule_with_its_certainty(owner_client):
    from compliance.rules.engine import all_rules

    response = owner_client.get(reverse("compliance:rules"))
    for rule in all_rules():
        assert rule.id in response.text
    assert "Reproduced from secondary sources" in response.text


def test_findings_make_a_fixed_number_of_queries(
    owner_client, fenced, django_assert_max_num_queries
):
    for i in range(20):
        GuardSegmentFactory(
            cell=fenced, label=f"S{i}", start_y_mm=6000 + i * 10, end_y_mm=6000 + i * 10
        )
    # The legal answer at the top reads the plan too (its assumptions, the
    # organisation's exchange and labour rates, its default work): a fixed
    # number of queries more, whatever the cell's size.
    with django_assert_max_num_queries(20):
        owner_client.get(reverse("compliance:cell_compliance", args=[fenced.pk]))


def test_body_regions_in_a_draft_are_pending_and_change_no_verdict(
    owner, cell, safety_engineer
):
    # Regression: a draft's contact regions decided the PFL verdict.
    from compliance.assessment import services
    from tests.compliance.conftest import CRUSHING

    cell.robot_kind, cell.collaborative_modes = "collaborative", ["pfl"]
    cell.programmed_speed_mm_s = 250
    cell.moving_mass_kg, cell.payload_kg = 20, 1
    cell.save()
    revision = services.assessment_open(cell=cell, actor=safety_engineer)
    services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        body_region="hands_fingers",
        **CRUSHING,
    )
    client = APIClient()
    client.force_authenticate(owner)
    data = client.get(f"/api/v1/cells/{cell.pk}/findings/").json()
    (pfl,) = findings_of(data, "INTL-15066-pfl")
    assert pfl["status"] == "needs_evidence"
    assert pfl["subject"] == "Cell"
    assert any("Pending in draft revision 1" in note for note in pfl["notes"])


# --- fails first, on the cell page's summary and on the Compliance tab ----------


def _finding(status: str, subject: str) -> dict:
    from compliance.rules.selectors import CERTAINTY_LABELS, STATUS_LABELS

    return {
        "status": status,
        "status_label": STATUS_LABELS[status],
        "subject": subject,
        "message": f"{subject} is {status}.",
        "numbers": {},
        "citation": "",
        "certainty": "secondary_sources",
        "certainty_label": CERTAINTY_LABELS["secondary_sources"],
        "details": [],
        "notes": [],
    }


def _group(rule_id: str, *findings: dict) -> dict:
    return {
        "rule": {
            "id": rule_id,
            "citation": f"Citation of {rule_id}",
            "text": "",
            "certainty": "secondary_sources",
            "certainty_label": "",
            "caveat": "",
        },
        "findings": list(findings),
    }


@pytest.fixture
def late_fail(monkeypatch):
    """Findings as a user saw them: a fail, seven needing evidence, then a
    second fail under a later rule, and a warning and a pass."""
    from compliance import compliance_page
    from compliance.rules import views
    from compliance.rules.selectors import STATUS_LABELS

    groups = [
        _group("R1", _finding("fail", "First fail")),
        *(
            _group(f"E{i}", _finding("needs_evidence", f"Evidence {i}"))
            for i in range(7)
        ),
        _group("W1", _finding("warning", "A warning")),
        _group("R2", _finding("pass", "A pass"), _finding("fail", "Second fail")),
    ]
    counts = {"pass": 1, "fail": 2, "warning": 1, "needs_evidence": 7}
    data = {
        "summary": [(STATUS_LABELS[s], s, n) for s, n in counts.items()],
        "groups": groups,
    }
    monkeypatch.setattr(views, "cell_findings", lambda cell: data)
    monkeypatch.setattr(compliance_page, "cell_findings", lambda cell: data)


def test_summary_lists_every_fail_before_what_needs_evidence(
    owner_client, cell, late_fail
):
    url = reverse("compliance:compliance_summary", args=[cell.pk])
    text = owner_client.get(url).text
    rows = [r for r in text.split('<li class="finding status-')[1:]]
    # Six rows: both fails, then four of the seven that need evidence; the
    # other three and the warning are counted.
    assert [r.split('"')[0] for r in rows] == ["fail"] * 2 + ["needs_evidence"] * 4
    assert "Second fail" in text
    assert "and 4 more" in text
    assert text.index("Fail: 2") < text.index("Needs evidence: 7")


def test_compliance_tab_leads_with_what_fails(owner_client, cell, late_fail):
    text = owner_client.get(reverse("compliance:cell_compliance", args=[cell.pk])).text
    assert "2 findings fail" in text
    box = text.index('class="card fails-first"')
    assert box < text.index("First fail") < text.index("Evidence 0")
    assert box < text.index("Second fail") < text.index("Evidence 0")
    # The rules with a fail come first, R2 before the evidence and the warning,
    # and within it the fail before the pass.
    order = [text.index(f'id="rule-{rule}"') for rule in ("R1", "R2", "E0", "W1")]
    assert order == sorted(order)
    section = text[text.index('id="rule-R2"') :]
    assert section.index("Second fail") < section.index("A pass")


@pytest.mark.parametrize(
    ("status", "shown", "hidden"),
    [
        ("fail", ["First fail", "Second fail"], ["Evidence 0", "A warning", "A pass"]),
        ("needs_evidence", ["Evidence 6"], ["First fail", "A warning", "A pass"]),
        ("warning", ["A warning"], ["First fail", "Evidence 0", "A pass"]),
        ("pass", ["A pass"], ["First fail", "Evidence 0", "A warning"]),
    ],
)
def test_compliance_tab_filters_by_status(
    owner_client, cell, late_fail, status, shown, hidden
):
    url = reverse("compliance:cell_compliance", args=[cell.pk])
    response = owner_client.get(url, {"status": status})
    assert response.status_code == 200
    for subject in shown:
        assert subject in response.text
    for subject in hidden:
        assert f"<strong>{subject}</strong>" not in response.text


@pytest.mark.parametrize(
    "status",
    ["FAIL", "bogus", "x" * 5000, "<script>"],
    ids=["upper", "bogus", "long", "html"],
)
def test_an_unknown_status_filter_is_ignored_and_said(
    owner_client, cell, late_fail, status
):
    url = reverse("compliance:cell_compliance", args=[cell.pk])
    response = owner_client.get(url, {"status": status})
    assert response.status_code == 200
    text = response.text
    notice = text[text.index('<p class="small notice">') :]
    notice = notice[: notice.index("</p>")]
    assert "all findings are shown" in notice
    assert "x" * 41 not in notice  # repeated back only in part
    assert "<script>" not in text
    assert "Second fail" in text and "A pass" in text


def test_filtered_findings_make_a_fixed_number_of_queries(
    owner_client, fenced, django_assert_max_num_queries
):
    for i in range(20):
        GuardSegmentFactory(
            cell=fenced, label=f"S{i}", start_y_mm=6000 + i * 10, end_y_mm=6000 + i * 10
        )
    url = reverse("compliance:cell_compliance", args=[fenced.pk])
    for status in ("fail", "needs_evidence", "nonsense"):
        with django_assert_max_num_queries(20):
            response = owner_client.get(url, {"status": status})
        assert response.status_code == 200


def test_real_findings_put_fails_first(owner, owner_client, fenced):
    client = APIClient()
    client.force_authenticate(owner)
    fails = client.get(f"/api/v1/cells/{fenced.pk}/findings/").json()["summary"]["fail"]
    text = owner_client.get(
        reverse("compliance:cell_compliance", args=[fenced.pk])
    ).text
    box = text[text.index('class="card fails-first"') :]
    box = box[: box.index("</section>")]
    # Every fail is in the box at the top, among them Low (1,500 mm high, Art.
    # 223 asks 1,800 mm) and its unguarded gap.
    assert f"{fails} findings fail" in box
    assert box.count('<li class="finding status-fail">') == fails
    assert "<strong>Low</strong>" in box and "<strong>Low / Gap</strong>" in box


def test_the_apps_own_subject_words_are_in_the_readers_language(owner, fenced):
    from django.utils import translation

    from compliance.rules.selectors import cell_findings

    with translation.override("ko"):
        data = cell_findings(fenced)
    subjects = {f["subject"] for group in data["groups"] for f in group["findings"]}
    assert "셀" in subjects and "Cell" not in subjects  # the cell as a whole
    assert "Low" in subjects  # a guard's label, as the user typed it


# A Korean law (its Korean: the article's own words) and an ISO rule, as each
# language reads them.
RULE_WORDS = {
    "KR-223-fence-height": {
        "ko": "높이 1.8미터 이상의 울타리(로봇의 가동범위",
        "en": "the employer shall install a fence at least 1.8 m high",
    },
    "INTL-13855-distance": {
        "ko": "사람이 위험구역에 닿기 전에 로봇이 멈출 수 있을 만큼 떨어져 있어야",
        "en": "far enough from the hazard zone that the robot has stopped before",
    },
}


@pytest.mark.parametrize(("language", "other"), [("ko", "en"), ("en", "ko")])
def test_the_findings_page_gives_each_rules_text_in_the_readers_language(
    owner_client, fenced, language, other
):
    response = owner_client.get(
        reverse("compliance:cell_compliance", args=[fenced.pk]),
        HTTP_ACCEPT_LANGUAGE=language,
    )
    for words in RULE_WORDS.values():
        assert words[language] in response.text
        assert words[other] not in response.text


def test_the_findings_api_gives_the_articles_own_korean_words(owner, fenced, reference):
    article = reference("korea_art223.json")["articles"][1]
    client = APIClient()
    client.force_authenticate(owner)
    texts = {}
    for language in ("ko", "en"):
        data = client.get(
            f"/api/v1/cells/{fenced.pk}/findings/", HTTP_ACCEPT_LANGUAGE=language
        ).json()
        texts[language] = {
            g["rule"]["id"]: g["rule"]["text"]
            for g in data["groups"]
            if g["rule"]["id"] in RULE_WORDS
        }
    assert texts["ko"]["KR-223-fence-height"].startswith(article["text_ko"])
    assert texts["en"]["KR-223-fence-height"].startswith("To prevent injury")
    for rule_id, words in RULE_WORDS.items():
        assert words["ko"] in texts["ko"][rule_id]
        assert words["en"] in texts["en"][rule_id]
