"""Proposal data for tests: a realistic palletising cell, and a large one.

``sample_proposal`` is a palletising robot behind a 1.8 m fence, with a
conveyor opening guarded by a light curtain and an interlocked maintenance
door, in English or Korean; ``large_proposal`` has 200 hazards, 80 line items
and 30 layout elements. The figures are illustrative, not any real product's
data sheet, and not computed by the calculators.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from cells.exchange import CellDocument
from compliance.proposals.pdf.data import (
    ActivityRow,
    CellSection,
    ComparisonRow,
    ConceptCheck,
    ConceptColumn,
    ConceptNotOffered,
    ConceptsSection,
    CostsSection,
    DeviceDistance,
    ExecutiveSummary,
    FindingRow,
    HazardRow,
    LegalDuty,
    LegalGap,
    LegalSection,
    LineItemRow,
    MoneyRange,
    PlanData,
    ProposalData,
    ProposalMeta,
    RiskSection,
    Row,
    RuleRow,
    RulesSection,
    ScheduleSection,
    WeeksRange,
)

SIGNED_HASH = "3f1c9a7be2d84f0c61a5e9b27d4c8f03a6b1e5d92c7f4a08b3e6d1c59f2a7b40e"
CHECKED_ON = date(2026, 11, 29)

D = Decimal


def _t(language: str, en: str, ko: str) -> str:
    return ko if language == "ko" else en


def _layout(language: str) -> CellDocument:
    return CellDocument.model_validate(
        {
            "name": _t(language, "Case palletiser A", "케이스 팔레타이저 A"),
            "task_description": _t(
                language,
                "Picks cases from the infeed conveyor and stacks them on a pallet.",
                "투입 컨베이어에서 박스를 집어 팔레트에 적재합니다.",
            ),
            "robot": {
                "manufacturer": "Demo Robotics",
                "model": "DR-20 (demo)",
                "kind": "industrial",
                "payload_kg": "20",
                "reach_mm": 1700,
                "max_tcp_speed_mm_s": 2000,
                "moving_mass_kg": "230",
                "stopping_time_ms": 300,
            },
            "robot_base": {"x_mm": 2500, "y_mm": 2800},
            "hazard_zone": {"shape": "circle", "radius_mm": None, "height_mm": 2200},
            "guard_segments": [
                {
                    "label": "F1",
                    "start": {"x_mm": 0, "y_mm": 0},
                    "end": {"x_mm": 5000, "y_mm": 0},
                    "height_mm": 1800,
                    "kind": "fence",
                    "mesh_opening_mm": 40,
                    "openings": [
                        {
                            "label": _t(language, "Infeed", "투입구"),
                            "offset_mm": 2000,
                            "width_mm": 1000,
                            "lower_edge_mm": 300,
                            "upper_edge_mm": 1500,
                            "purpose": "material_entry",
                        }
                    ],
                },
                {
                    "label": "F2",
                    "start": {"x_mm": 5000, "y_mm": 0},
                    "end": {"x_mm": 5000, "y_mm": 5000},
                    "height_mm": 1800,
                    "kind": "fence",
                    "mesh_opening_mm": 40,
                },
                {
                    "label": "F3",
                    "start": {"x_mm": 5000, "y_mm": 5000},
                    "end": {"x_mm": 0, "y_mm": 5000},
                    "height_mm": 1800,
                    "kind": "fence",
                    "mesh_opening_mm": 40,
                    "openings": [
                        {
                            "label": _t(language, "Door", "출입문"),
                            "offset_mm": 3600,
                            "width_mm": 900,
                            "lower_edge_mm": 0,
                            "upper_edge_mm": 1800,
                            "purpose": "maintenance_door",
                        }
                    ],
                },
                {
                    "label": "W1",
                    "start": {"x_mm": 0, "y_mm": 5000},
                    "end": {"x_mm": 0, "y_mm": 0},
                    "height_mm": 3000,
                    "kind": "wall",
                },
            ],
            "operator_stations": [
                {
                    "label": _t(language, "Pallet change", "팔레트 교체"),
                    "x_mm": 2500,
                    "y_mm": 5800,
                },
                {"label": "HMI", "x_mm": 5700, "y_mm": 800},
            ],
            "devices": [
                {
                    "label": "LC1",
                    "kind": "light_curtain",
                    "opening": {"segment": 0, "opening": 0},
                    "claimed_pl": "d",
                    "response_time_ms": 20,
                    "iec61496_type": 4,
                    "detection_capability_mm": 14,
                    "kcs_certified": True,
                    # Across the infeed, where the fence is.
                    "x1_mm": 2000,
                    "y1_mm": 0,
                    "x2_mm": 3000,
                    "y2_mm": 0,
                    "detection_lower_mm": 300,
                    "detection_upper_mm": 1500,
                },
                {
                    "label": _t(language, "Door switch", "도어 스위치"),
                    "kind": "interlocked_door",
                    "opening": {"segment": 2, "opening": 0},
                    "claimed_pl": "d",
                },
                {
                    "label": _t(language, "E-stop HMI", "비상정지 HMI"),
                    "kind": "emergency_stop",
                },
            ],
        }
    )


def _plans(language: str) -> tuple[PlanData, PlanData]:
    def act(name_en, name_ko, s, f, critical=True, assumption=True):
        return ActivityRow(
            name=_t(language, name_en, name_ko),
            start_week_low=D(s[0]),
            start_week_high=D(s[1]),
            finish_week_low=D(f[0]),
            finish_week_high=D(f[1]),
            critical=critical,
            assumption=assumption,
        )

    risk = act("Risk assessment", "위험성평가", ("0", "0"), ("1", "3"))
    procurement = act(
        "Procurement of guarding and safety devices",
        "방호울 및 안전장치 조달",
        ("1", "3"),
        ("7", "15"),
        assumption=False,
    )
    kcs = act(
        "Self-declaration and KCs certification (Korea)",
        "자율안전확인 신고 및 KCs 안전인증(한국)",
        ("1", "3"),
        ("4", "7"),
        critical=False,
        assumption=False,
    )
    install = act(
        "Installation of the robot, guarding and devices",
        "로봇, 방호울 및 안전장치 설치",
        ("7", "15"),
        ("8", "18"),
    )
    stopping = act(
        "Staged validation on the real cell: stopping times and safety functions",
        "실제 셀에서의 단계적 검증: 정지 시간 및 안전 기능",
        ("8", "18"),
        ("9", "20"),
    )
    task = act(
        "Staged validation on the real cell: the task",
        "실제 셀에서의 단계적 검증: 작업",
        ("9", "20"),
        ("10", "23"),
    )
    poc = act("PoC start", "PoC 착수", ("10", "23"), ("10", "23"), assumption=False)
    physical = PlanData(
        name=_t(language, "Physical first", "실물 우선"),
        activities=(risk, procurement, kcs, install, stopping, task, poc),
        total_weeks=WeeksRange(low=D(10), high=D(23)),
        cost=MoneyRange(currency="KRW", low=D(38_000_000), high=D(61_000_000)),
        unpriced_activities=0,
    )
    sim_model = act(
        "Simulation: model the cell",
        "시뮬레이션: 셀 모델링",
        ("0", "0"),
        ("1", "3"),
        critical=False,
    )
    sim_reach = act(
        "Simulation: validate reach and cycle time",
        "시뮬레이션: 도달 거리 및 사이클 타임 검증",
        ("1", "3"),
        ("2", "5"),
        critical=False,
    )
    sim_result = act(
        "First result, validated in simulation only",
        "첫 결과(시뮬레이션에서만 검증)",
        ("2", "5"),
        ("2", "5"),
        critical=False,
        assumption=False,
    )
    short_task = act(
        "Staged validation on the real cell: the task",
        "실제 셀에서의 단계적 검증: 작업",
        ("9", "20"),
        ("9.75", "22.25"),
    )
    sim_poc = act(
        "PoC start", "PoC 착수", ("9.75", "22.25"), ("9.75", "22.25"), assumption=False
    )
    sim = PlanData(
        name=_t(language, "Simulation first", "시뮬레이션 우선"),
        activities=(
            sim_model,
            sim_reach,
            sim_result,
            risk,
            procurement,
            kcs,
            install,
            stopping,
            short_task,
            sim_poc,
        ),
        total_weeks=WeeksRange(low=D("9.75"), high=D("22.25")),
        cost=MoneyRange(currency="KRW", low=D(45_000_000), high=D(74_000_000)),
        unpriced_activities=0,
    )
    return physical, sim


def _schedule(language: str) -> ScheduleSection:
    physical, sim = _plans(language)
    return ScheduleSection(
        physical_first=physical,
        sim_first=sim,
        comparison=(
            ComparisonRow(
                metric=_t(
                    language, "First validated result (weeks)", "첫 검증 결과(주)"
                ),
                physical_first=_t(language, "9–20, on the real cell", "9–20, 실제 셀"),
                sim_first=_t(
                    language, "2–5, in simulation only", "2–5, 시뮬레이션에서만"
                ),
            ),
            ComparisonRow(
                metric=_t(language, "PoC start (weeks)", "PoC 착수(주)"),
                physical_first="10–23",
                sim_first="9.75–22.25",
            ),
            ComparisonRow(
                metric=_t(language, "Known cost", "알려진 비용"),
                physical_first="KRW 38,000,000–61,000,000",
                sim_first="KRW 45,000,000–74,000,000",
            ),
        ),
        verdict=(
            _t(
                language,
                "Weeks to PoC start: the ranges overlap (sim-first 9.75–22.25, "
                "physical-first 10–23): no advantage shown.",
                "PoC 착수까지의 주: 범위가 겹칩니다(시뮬레이션 우선 9.75–22.25, 실물 "
                "우선 10–23). 우위가 입증되지 않습니다.",
            ),
        ),
        maturity_note=_t(
            language,
            "Narrow, structured pick-and-place transfers from simulation partly.",
            "범위가 좁고 정형화된 픽앤플레이스는 시뮬레이션 결과가 부분적으로 "
            "전이됩니다.",
        ),
        assumptions=(
            _t(
                language,
                "In both plans the guarding and safety devices are ordered when the "
                "risk assessment is done.",
                "두 계획 모두 위험성평가가 끝나면 방호울과 안전장치를 주문합니다.",
            ),
            _t(
                language,
                "Simulation is assumed to shorten the task stage of the validation on "
                "the real cell by 25 % (the most allowed for this task).",
                "시뮬레이션이 실제 셀 검증의 작업 단계를 25 % 줄인다고 가정합니다(이 "
                "작업에 허용되는 최대치).",
            ),
        ),
        cannot_prove=(
            _t(
                language,
                "Contact dynamics: how the gripper, tool and workpiece really behave "
                "on contact. Still required on the real cell in both plans.",
                "접촉 동역학: 그리퍼, 공구, 공작물이 접촉할 때 실제로 어떻게 "
                "거동하는지. 두 계획 모두 실제 셀에서 여전히 필요합니다.",
            ),
            _t(
                language,
                "Real stopping times and distances of the installed robot, which set "
                "the safety distances (ISO 13855, S = K × T + C).",
                "설치된 로봇의 실제 정지 시간과 정지 거리로, 안전거리(ISO 13855, "
                "S = K × T + C)를 결정합니다.",
            ),
        ),
    )


def _hazards(language: str) -> tuple[HazardRow, ...]:
    return (
        HazardRow(
            hazard=_t(
                language,
                "Mechanical: crushing by the robot arm",
                "기계적: 로봇 팔에 의한 끼임",
            ),
            phase=_t(language, "Operation", "운전"),
            task=_t(
                language,
                "Clearing a jammed case at the infeed",
                "투입구에 걸린 박스 제거",
            ),
            plr="d",
            measures=(
                _t(
                    language,
                    "Perimeter fence 1,800 mm (F1–F3)",
                    "방호울 1,800 mm (F1–F3)",
                ),
                _t(
                    language,
                    "Light curtain LC1, type 4, 14 mm",
                    "라이트 커튼 LC1, 타입 4, 14 mm",
                ),
            ),
            residual_risk=_t(language, "Acceptable", "허용 가능"),
        ),
        HazardRow(
            hazard=_t(
                language,
                "Mechanical: impact by a falling case",
                "기계적: 낙하하는 박스에 의한 충격",
            ),
            phase=_t(language, "Operation", "운전"),
            task=_t(language, "Changing the full pallet", "가득 찬 팔레트 교체"),
            plr="c",
            measures=(
                _t(
                    language,
                    "Interlocked door with guard locking",
                    "가드 잠금 인터록 도어",
                ),
            ),
            residual_risk=_t(language, "Acceptable", "허용 가능"),
        ),
        HazardRow(
            hazard=_t(
                language,
                "Mechanical: shearing at the conveyor",
                "기계적: 컨베이어 전단",
            ),
            phase=_t(language, "Maintenance", "정비"),
            task=_t(language, "Belt adjustment", "벨트 조정"),
            plr="b",
            measures=(_t(language, "Lock-out procedure", "잠금 절차"),),
            residual_risk=_t(language, "To be reviewed", "검토 필요"),
        ),
        HazardRow(
            hazard=_t(
                language,
                "Ergonomic: manual pallet handling",
                "인간공학적: 수동 팔레트 취급",
            ),
            phase=_t(language, "Cleaning", "청소"),
            task=_t(language, "Sweeping the cell floor", "셀 바닥 청소"),
            plr=None,
            measures=(),
            residual_risk="",
        ),
    )


def _findings(language: str) -> tuple[FindingRow, ...]:
    return (
        FindingRow(
            rule_id="INTL-13857-REACH-OVER",
            citation="ISO 13857:2019, 4.2.2, Table 2",
            certainty=_t(language, "Secondary sources", "2차 출처"),
            status="pass",
            subject="F2",
            message=_t(
                language,
                "F2 is far enough from the hazard zone to prevent reaching over.",
                "F2는 넘어서 닿지 않도록 위험 구역에서 충분히 떨어져 있습니다.",
            ),
            numbers=(
                _t(language, "guard height 1,800 mm", "방호울 높이 1,800 mm"),
                _t(language, "required distance 600 mm", "필요 거리 600 mm"),
                _t(language, "actual distance 800 mm", "실제 거리 800 mm"),
            ),
        ),
        FindingRow(
            rule_id="INTL-13855-ESPE",
            citation="ISO 13855:2010, 6.2.3 (S = K × T + C)",
            certainty=_t(language, "Secondary sources", "2차 출처"),
            status="pass",
            subject="LC1",
            message=_t(
                language,
                "LC1 stands far enough from the hazard zone.",
                "LC1은 위험 구역에서 충분히 떨어져 있습니다.",
            ),
            numbers=(
                "T = 340 ms",
                "S = 544 mm",
                _t(language, "actual 1,100 mm", "실제 1,100 mm"),
            ),
        ),
        FindingRow(
            rule_id="KR-ART223-FENCE",
            citation="산업안전보건기준에 관한 규칙 제223조",
            certainty=_t(language, "To be confirmed", "확인 필요"),
            status="warning",
            subject=_t(language, "the cell", "셀"),
            message=_t(
                language,
                "A fence of at least 1.8 m is in place; the exemption route is not used.",
                "1.8 m 이상의 방책이 설치되어 있습니다. 예외 경로는 사용하지 않습니다.",
            ),
            numbers=(
                _t(language, "height 1,800 mm ≥ 1,800 mm", "높이 1,800 mm ≥ 1,800 mm"),
            ),
        ),
        FindingRow(
            rule_id="KR-ACT84-KCS",
            citation="산업안전보건법 제84조",
            certainty=_t(language, "To be confirmed", "확인 필요"),
            status="needs_evidence",
            subject=_t(language, "Door switch", "도어 스위치"),
            message=_t(
                language,
                "Record whether the door switch holds KCs safety certification.",
                "도어 스위치의 KCs 안전인증 여부를 기록하십시오.",
            ),
        ),
        FindingRow(
            rule_id="INTL-13857-OPENING",
            citation="ISO 13857:2019, 4.2.4, Table 4",
            certainty=_t(language, "Secondary sources", "2차 출처"),
            status="fail",
            subject="F1",
            message=_t(
                language,
                "The 40 mm mesh of F1 is too close to the hazard zone.",
                "F1의 40 mm 메시는 위험 구역에 너무 가깝습니다.",
            ),
            numbers=(
                _t(language, "mesh 40 mm", "메시 40 mm"),
                _t(language, "required 850 mm", "필요 850 mm"),
                _t(language, "actual 600 mm", "실제 600 mm"),
            ),
        ),
    )


def _line_items(language: str) -> tuple[LineItemRow, ...]:
    def item(
        en, ko, qty, unit, price=None, currency=None, lead=None, source="", when=None
    ):
        low_high = price or (None, None)
        low = D(low_high[0]) if low_high[0] is not None else None
        high = D(low_high[1]) if low_high[1] is not None else None
        q = D(qty)
        return LineItemRow(
            description=_t(language, en, ko),
            quantity=q,
            unit=unit,
            unit_price_low=low,
            unit_price_high=high,
            total_low=None if low is None else q * low,
            total_high=None if high is None else q * high,
            currency=currency,
            lead_time_weeks_low=D(lead[0]) if lead else None,
            lead_time_weeks_high=D(lead[1]) if lead else None,
            source=source,
            price_date=when,
        )

    m, pcs, job = "m", _t(language, "pcs", "개"), _t(language, "job", "식")
    return (
        item(
            "Perimeter fence, 1,800 mm high, mesh panels with posts",
            "방호울, 높이 1,800 mm, 메시 패널 및 기둥",
            "15.0",
            m,
            ("90", "160"),
            "USD",
            ("2", "6"),
            "axelent.com list prices (one source)",
            "~2025/26",
        ),
        item(
            "Safety light curtain, type 4, 14 mm, for the infeed",
            "안전 라이트 커튼, 타입 4, 14 mm, 투입구용",
            "1",
            pcs,
            None,
            None,
            ("4", "12"),
            _t(language, "price to be quoted", "견적 필요"),
        ),
        item(
            "Interlocked guard door with guard locking",
            "가드 잠금 인터록 가드 도어",
            "1",
            pcs,
            ("650", "1200"),
            "EUR",
            ("3", "8"),
            "pilz.com shop (one source)",
            "2025",
        ),
        item(
            "Safety controller",
            "안전 컨트롤러",
            "1",
            pcs,
            ("1500000", "3200000"),
            "KRW",
            ("4", "10"),
            _t(language, "planning range from the brief", "계획 범위(브리프)"),
        ),
        item(
            "Emergency stop at each operator station",
            "작업자 위치별 비상정지",
            "2",
            pcs,
            ("60000", "150000"),
            "KRW",
            ("1", "3"),
            _t(language, "entered by the user", "사용자 입력"),
            "2026-10",
        ),
        item(
            "Risk assessment (ISO 12100)",
            "위험성평가(ISO 12100)",
            "1",
            job,
            ("4000000", "9000000"),
            "KRW",
            None,
            _t(language, "planning range from the brief", "계획 범위(브리프)"),
        ),
        item(
            "KCs self-declaration of the robot (자율안전확인)",
            "로봇 자율안전확인 신고",
            "1",
            job,
            None,
            None,
            ("3", "4"),
            "gcnq.co.kr (single source)",
        ),
    )


def _concepts(language: str, layout: CellDocument) -> ConceptsSection:
    """The cell as drawn beside a fenced concept whose fence stands further
    out (and leaves the door without its interlock), the collaborative
    concept not offered."""
    fenced = layout.model_copy(
        update={
            "guard_segments": [
                s.model_copy(
                    update={
                        "start": s.start.model_copy(
                            update={
                                "x_mm": int(s.start.x_mm * 1.2 - 500),
                                "y_mm": int(s.start.y_mm * 1.2 - 500),
                            }
                        ),
                        "end": s.end.model_copy(
                            update={
                                "x_mm": int(s.end.x_mm * 1.2 - 500),
                                "y_mm": int(s.end.y_mm * 1.2 - 500),
                            }
                        ),
                        "kind": "fence",
                        "height_mm": 1800,
                    }
                )
                for s in layout.guard_segments
            ],
            # The curtain across the infeed where the fence now is.
            "devices": [
                d.model_copy(
                    update={"x1_mm": 1500, "y1_mm": -500, "x2_mm": 2500, "y2_mm": -500}
                )
                if d.kind == "light_curtain"
                else d
                for d in layout.devices
                if d.kind != "interlocked_door"
            ],
        }
    )
    return ConceptsSection(
        country=_t(language, "Korea, Republic of", "대한민국"),
        offered=(
            ConceptColumn(
                name=_t(language, "As drawn", "도면대로"),
                recommended=True,
                chosen=True,
                layout=layout,
                needs_evidence=3,
                warnings=1,
                passes=24,
                cost=MoneyRange(currency="KRW", low=D(38_000_000), high=D(61_000_000)),
                unpriced_lines=2,
                weeks_to_poc=WeeksRange(low=D(10), high=D(23)),
                floor_m2=D("25.0"),
            ),
            ConceptColumn(
                name=_t(language, "Fenced", "울타리"),
                layout=fenced,
                failing_openings=((2, 0),),
                fails=1,
                needs_evidence=2,
                passes=25,
                law=(
                    ConceptCheck(
                        status="fail",
                        subject=_t(language, "Door", "출입문"),
                        citation=_t(
                            language,
                            "Korea, Rules on OSH Standards, Art. 223",
                            "산업안전보건기준에 관한 규칙 제223조",
                        ),
                        text=_t(
                            language,
                            "The door opens onto the hazard zone without an interlock.",
                            "출입문이 인터록 없이 위험 구역으로 열립니다.",
                        ),
                    ),
                ),
                cost=MoneyRange(currency="KRW", low=D(41_000_000), high=D(66_000_000)),
                unpriced_lines=1,
                weeks_to_poc=WeeksRange(low=D(11), high=D(24)),
                floor_m2=D("36.0"),
            ),
        ),
        not_offered=(
            ConceptNotOffered(
                name=_t(language, "Collaborative, no fence", "협동, 울타리 없음"),
                reasons=(
                    _t(
                        language,
                        "Not offered: the robot is not recorded as designed for "
                        "collaborative operation.",
                        "제공하지 않음: 로봇이 협동 운전용으로 설계된 것으로 "
                        "기록되어 있지 않습니다.",
                    ),
                ),
            ),
        ),
        recommendation=(
            _t(
                language,
                "Recommended: As drawn. No check fails; 3 still need evidence "
                "before it can be signed.",
                "권장: 도면대로. 실패한 점검은 없으며, 서명 전에 3건의 근거가 "
                "더 필요합니다.",
            ),
            _t(
                language,
                "Fenced is not recommended: 1 check(s) fail.",
                "울타리는 권장하지 않습니다: 점검 1건이 실패합니다.",
            ),
        ),
    )


def _legal(language: str) -> LegalSection:
    """A Korean cell's legal answer: one duty met, one missing, one open, one
    for later."""
    return LegalSection(
        title=_t(language, "What the law requires in Korea", "한국 법령의 요구사항"),
        missing=1,
        open=1,
        duties=(
            LegalDuty(
                key="kr_223_fence",
                status="missing",
                status_label=_t(language, "Missing", "미충족"),
                requirement=_t(
                    language,
                    "A fence at least 1.8 m high round the robot's operating range.",
                    "로봇의 가동범위 둘레에 높이 1.8 m 이상의 울타리.",
                ),
                citation=_t(
                    language,
                    "Rules on OSH Standards Art. 223",
                    "산업안전보건기준에 관한 규칙 제223조",
                ),
                gaps=(
                    LegalGap(
                        subject="F2",
                        status="fail",
                        text=_t(
                            language,
                            "F2 is 1,400 mm high, below 1,800 mm.",
                            "F2의 높이는 1,400 mm로 1,800 mm보다 낮습니다.",
                        ),
                    ),
                ),
            ),
            LegalDuty(
                key="kr_84",
                status="open",
                status_label=_t(language, "Open point", "미결 사항"),
                requirement=_t(
                    language,
                    "The protective devices carry the KCs safety certification.",
                    "방호장치는 KCs 안전인증을 받아야 합니다.",
                ),
                citation=_t(language, "OSH Act Art. 84", "산업안전보건법 제84조"),
                gaps=(
                    LegalGap(
                        subject="LC1",
                        status="needs_evidence",
                        text=_t(
                            language,
                            "Its KCs certificate is to be on record.",
                            "KCs 인증서를 기록으로 남겨야 합니다.",
                        ),
                        closed_by=_t(
                            language,
                            "the integrator, with the supplier's certificate",
                            "통합업체(공급업체의 인증서로)",
                        ),
                    ),
                ),
                cost=_t(
                    language,
                    "KCs certification: KRW 1,500,000–2,500,000 · 3–4 weeks",
                    "KCs 인증: KRW 1,500,000–2,500,000 · 3–4주",
                ),
            ),
            LegalDuty(
                key="kr_36",
                status="met",
                status_label=_t(language, "Met", "충족"),
                requirement=_t(
                    language,
                    "The employer assesses the risks of the work.",
                    "사업주는 작업의 위험성을 평가합니다.",
                ),
                citation=_t(language, "OSH Act Art. 36", "산업안전보건법 제36조"),
            ),
            LegalDuty(
                key="kr_93",
                status="later",
                status_label=_t(language, "After installation", "설치 후"),
                requirement=_t(
                    language,
                    "Periodic safety inspection of the installed robot.",
                    "설치된 로봇의 정기 안전검사.",
                ),
                closed_by=_t(language, "the customer", "고객사"),
            ),
        ),
    )


def sample_proposal(language: str = "en", **overrides: Any) -> ProposalData:
    """A realistic proposal for the palletising cell; ``overrides`` replace
    top-level fields (e.g. ``sections=("summary",)`` or ``risk=...``)."""
    layout = _layout(language)
    costs = _line_items(language)
    data: dict[str, Any] = {
        "language": language,
        "meta": ProposalMeta(
            number="CSP-2026-0042",
            version=2,
            date=date(2026, 12, 1),
            prepared_by=_t(
                language, "Jiwoo Park, safety engineer", "박지우, 안전 엔지니어"
            ),
            organisation=_t(language, "Demo Integrator Co.", "데모 인티그레이터(주)"),
            customer=_t(language, "Hanbit Foods (demo)", "한빛식품(데모)"),
            site=_t(language, "Icheon plant (demo)", "이천 공장(데모)"),
            cell_name=layout.name,
        ),
        "summary": ExecutiveSummary(
            proposed=_t(
                language,
                "A guarded palletising cell for the PoC: a 20 kg industrial robot "
                "behind a 1.8 m perimeter fence, the infeed conveyor guarded by a "
                "type 4 light curtain and the maintenance door interlocked.",
                "PoC용 방호 팔레타이징 셀: 1.8 m 방호울 안의 20 kg 산업용 로봇, "
                "타입 4 라이트 커튼으로 보호되는 투입 컨베이어, 인터록된 정비 출입문.",
            ),
            costs=(MoneyRange(currency="KRW", low=D(38_000_000), high=D(61_000_000)),),
            unpriced_lines=2,
            weeks_to_poc_physical_first=WeeksRange(low=D(10), high=D(23)),
            weeks_to_poc_sim_first=WeeksRange(low=D("9.75"), high=D("22.25")),
            recommendation="physical_first",
            reasons=(
                _t(
                    language,
                    "The weeks to PoC start overlap, so simulation first shows no "
                    "advantage in time.",
                    "PoC 착수까지의 기간이 겹치므로 시뮬레이션 우선은 시간상 우위가 "
                    "없습니다.",
                ),
                _t(
                    language,
                    "Simulation first costs more at both ends of the ranges.",
                    "시뮬레이션 우선은 범위의 양 끝 모두에서 비용이 더 듭니다.",
                ),
            ),
        ),
        "cell": CellSection(
            robot=(
                Row(
                    label=_t(language, "Robot", "로봇"),
                    value="Demo Robotics DR-20 (demo)",
                ),
                Row(
                    label=_t(language, "Kind", "종류"),
                    value=_t(language, "Industrial", "산업용"),
                ),
                Row(label=_t(language, "Payload", "가반하중"), value="20 kg"),
                Row(label=_t(language, "Reach", "도달 거리"), value="1,700 mm"),
                Row(
                    label=_t(language, "Maximum TCP speed", "최대 TCP 속도"),
                    value="2,000 mm/s",
                ),
                Row(label=_t(language, "Stopping time", "정지 시간"), value="300 ms"),
            ),
            task=layout.task_description,
            collaborative_modes=(),
            collaborative_parameters=(),
            layout=layout,
            distances=(
                DeviceDistance(
                    device="LC1",
                    device_index=0,
                    required_mm=544,
                    actual_mm=1100,
                    status="pass",
                ),
                DeviceDistance(
                    device=_t(language, "Door switch", "도어 스위치"),
                    device_index=1,
                    required_mm=850,
                    actual_mm=500,
                    status="fail",
                ),
            ),
        ),
        "rules": RulesSection(
            rows=(
                RuleRow(
                    id="KR-ART223-FENCE",
                    citation="산업안전보건기준에 관한 규칙 제223조",
                    text=_t(
                        language,
                        "Install a fence of at least 1.8 m around the robot's range of "
                        "motion, or a safety mat or light curtain.",
                        "로봇의 운전으로 인한 위험을 방지하기 위해 높이 1.8미터 이상의 "
                        "울타리를 설치하거나 안전매트 또는 광전자식 방호장치를 설치해야 "
                        "합니다.",
                    ),
                    certainty=_t(language, "To be confirmed", "확인 필요"),
                    checked_on=CHECKED_ON,
                ),
                RuleRow(
                    id="INTL-13855-ESPE",
                    citation="ISO 13855:2010, 6.2.3",
                    text=_t(
                        language,
                        "A light curtain stands at least S = K × T + C from the hazard.",
                        "라이트 커튼은 위험원에서 최소 S = K × T + C 떨어져야 합니다.",
                    ),
                    certainty=_t(language, "Secondary sources", "2차 출처"),
                    checked_on=CHECKED_ON,
                ),
                RuleRow(
                    id="INTL-13857-REACH-OVER",
                    citation="ISO 13857:2019, 4.2.2",
                    text=_t(
                        language,
                        "A guard is high enough, or far enough away, that no one reaches "
                        "over it into the hazard zone.",
                        "방호물은 누구도 넘어서 위험 구역에 닿지 못할 만큼 높거나 멀리 "
                        "있어야 합니다.",
                    ),
                    certainty=_t(language, "Secondary sources", "2차 출처"),
                    checked_on=CHECKED_ON,
                ),
            ),
            note=_t(
                language,
                "Legal texts are reproduced from secondary sources: confirm them "
                "against the National Law Information Center before relying on them.",
                "법령 문구는 2차 출처에서 옮긴 것입니다. 의존하기 전에 "
                "국가법령정보센터에서 확인하십시오.",
            ),
        ),
        "risk": RiskSection(
            signed=True,
            revision=3,
            content_hash=SIGNED_HASH,
            signed_by=_t(language, "Jiwoo Park", "박지우"),
            signed_on=date(2026, 11, 27),
            hazards=_hazards(language),
        ),
        "findings": _findings(language),
        "costs": CostsSection(
            items=costs,
            totals=(
                MoneyRange(currency="EUR", low=D(650), high=D(1200)),
                MoneyRange(currency="KRW", low=D(5_620_000), high=D(12_500_000)),
                MoneyRange(currency="USD", low=D(1350), high=D(2400)),
            ),
            unpriced_lines=2,
            converted=MoneyRange(currency="KRW", low=D(8_400_000), high=D(17_700_000)),
            rates_note=_t(
                language,
                "Converted with the project's rates: 1 USD = 1,390 KRW = 0.92 EUR, "
                "entered on 2026-11-20.",
                "프로젝트 환율로 환산: 1 USD = 1,390 KRW = 0.92 EUR(2026-11-20 입력).",
            ),
        ),
        "schedule": _schedule(language),
        "legal": _legal(language),
        "concepts": _concepts(language, layout),
        "assumptions": (
            _t(
                language,
                "The customer provides power, compressed air and floor space ready for "
                "installation.",
                "고객사는 설치 준비가 된 전원, 압축 공기 및 바닥 공간을 제공합니다.",
            ),
            _t(
                language,
                "The robot's stopping time of 300 ms is the manufacturer's figure, to "
                "be measured on the real cell.",
                "로봇 정지 시간 300 ms는 제조사 수치이며 실제 셀에서 측정해야 합니다.",
            ),
        ),
        "exclusions": (
            _t(language, "The robot and gripper themselves.", "로봇 및 그리퍼 본체."),
            _t(language, "Civil works and floor anchoring.", "토목 공사 및 바닥 고정."),
        ),
        "disclaimers": (
            _t(
                language,
                "This proposal does not certify the cell as safe.",
                "이 제안서는 셀의 안전을 인증하지 않습니다.",
            ),
            _t(
                language,
                "Validation on the real cell by a competent person is required before "
                "the PoC starts.",
                "PoC 착수 전에 자격을 갖춘 사람이 실제 셀에서 검증해야 합니다.",
            ),
        ),
    }
    data.update(overrides)
    return ProposalData(**data)


def draft_risk(language: str = "en") -> RiskSection:
    """The sample's hazards as an unsigned draft (revision 4)."""
    return RiskSection(signed=False, revision=4, hazards=_hazards(language))


def _large_layout() -> CellDocument:
    """30 layout elements: 16 guard segments, 8 openings and 6 stations."""
    # A 16-sided perimeter: a 12 m × 8 m rectangle split into 16 segments.
    corners = [(0, 0), (12000, 0), (12000, 8000), (0, 8000)]
    points: list[tuple[int, int]] = []
    for (x1, y1), (x2, y2) in zip(corners, [*corners[1:], corners[0]], strict=True):
        for step in range(4):
            points.append((x1 + (x2 - x1) * step // 4, y1 + (y2 - y1) * step // 4))
    segments = []
    devices = []
    for index, start in enumerate(points):
        end = points[(index + 1) % len(points)]
        openings = []
        if index % 2 == 0:
            length = abs(end[0] - start[0]) + abs(end[1] - start[1])
            openings.append(
                {
                    "label": f"O{index // 2 + 1}",
                    "offset_mm": length // 2 - 450,
                    "width_mm": 900,
                    "lower_edge_mm": 0 if index % 4 else 300,
                    "upper_edge_mm": 1800 if index % 4 else 1500,
                    "purpose": "maintenance_door" if index % 4 else "material_entry",
                }
            )
            devices.append(
                {
                    "label": f"{'DS' if index % 4 else 'LC'}{index // 2 + 1}",
                    "kind": "interlocked_door" if index % 4 else "light_curtain",
                    "opening": {"segment": index, "opening": 0},
                    "response_time_ms": None if index % 4 else 20,
                    "detection_capability_mm": None if index % 4 else 30,
                }
            )
        segments.append(
            {
                "label": f"F{index + 1}",
                "start": {"x_mm": start[0], "y_mm": start[1]},
                "end": {"x_mm": end[0], "y_mm": end[1]},
                "height_mm": 2000,
                "kind": "fence",
                "mesh_opening_mm": 30,
                "openings": openings,
            }
        )
    stations = [
        {"label": f"Station {n + 1}", "x_mm": x, "y_mm": y}
        for n, (x, y) in enumerate(
            [
                (1500, -700),
                (6000, -700),
                (10500, -700),
                (1500, 8700),
                (6000, 8700),
                (12700, 4000),
            ]
        )
    ]
    return CellDocument.model_validate(
        {
            "name": "Twin-robot palletising line",
            "task_description": "Two robots palletise cases from four infeed conveyors.",
            "robot": {
                "manufacturer": "Demo Robotics",
                "model": "DR-180 (demo)",
                "kind": "industrial",
                "payload_kg": "180",
                "reach_mm": 3100,
                "max_tcp_speed_mm_s": 2500,
                "moving_mass_kg": "1200",
                "stopping_time_ms": 450,
            },
            "robot_base": {"x_mm": 6000, "y_mm": 4000},
            "hazard_zone": {
                "shape": "polygon",
                "polygon_mm": [[2500, 1200], [9500, 1200], [9500, 6800], [2500, 6800]],
                "height_mm": 3000,
            },
            "guard_segments": segments,
            "operator_stations": stations,
            "devices": devices,
        }
    )


def large_proposal(language: str = "en") -> ProposalData:
    """The sample scaled up: 200 hazards, 80 line items, 30 layout elements."""
    base = sample_proposal(language)
    layout = _large_layout()
    phases = ("Operation", "Setting", "Maintenance", "Cleaning", "Troubleshooting")
    hazards = tuple(
        HazardRow(
            hazard=f"Mechanical {n + 1}: crushing between the robot arm and the "
            f"{'fence' if n % 3 else 'conveyor frame'} at zone {n % 12 + 1}",
            phase=phases[n % len(phases)],
            task=f"Task {n + 1}: clearing a jammed case at infeed {n % 4 + 1}, with "
            "the line stopped and the robot in reduced speed",
            plr="abcde"[n % 5],
            measures=tuple(
                f"Measure {n + 1}.{m + 1}: interlocked door with guard locking"
                for m in range(n % 3 + 1)
            ),
            residual_risk="Acceptable" if n % 4 else "To be reviewed",
        )
        for n in range(200)
    )
    items = []
    for n in range(80):
        priced = n % 3 != 0
        low, high = D(100 + n * 10), D(180 + n * 15)
        qty = D(n % 5 + 1)
        items.append(
            LineItemRow(
                description=f"Line {n + 1}: safety component for opening O{n % 8 + 1}, "
                "including mounting brackets and wiring",
                quantity=qty,
                unit="pcs",
                unit_price_low=low if priced else None,
                unit_price_high=high if priced else None,
                total_low=qty * low if priced else None,
                total_high=qty * high if priced else None,
                currency="USD" if priced else None,
                lead_time_weeks_low=D(n % 6 + 1),
                lead_time_weeks_high=D(n % 6 + 4),
                source="vendor list price (one source)"
                if priced
                else "price to be quoted",
                price_date="2025" if priced else None,
            )
        )
    distances = tuple(
        DeviceDistance(
            device=device.label,
            device_index=index,
            required_mm=850 if device.kind == "light_curtain" else 1100,
            actual_mm=1200,
            status="pass" if device.kind == "light_curtain" else "warning",
        )
        for index, device in enumerate(layout.devices)
    )
    findings = tuple(
        FindingRow(
            rule_id=f"INTL-13857-{n:03d}",
            citation="ISO 13857:2019, 4.2.2, Table 2",
            certainty="Secondary sources",
            status=("pass", "fail", "warning", "needs_evidence")[n % 4],
            subject=f"F{n % 16 + 1}",
            message=f"F{n % 16 + 1} is checked against reaching over the guard.",
            numbers=("guard height 2,000 mm", f"required distance {500 + n} mm"),
        )
        for n in range(60)
    )
    return base.model_copy(
        update={
            "meta": base.meta.model_copy(update={"cell_name": layout.name}),
            "cell": base.cell.model_copy(
                update={
                    "robot": (
                        Row(label="Robot", value="Demo Robotics DR-180 (demo)"),
                        Row(label="Payload", value="180 kg"),
                        Row(label="Reach", value="3,100 mm"),
                        Row(label="Stopping time", value="450 ms"),
                    ),
                    "task": layout.task_description,
                    "layout": layout,
                    "distances": distances,
                }
            ),
            "risk": base.risk.model_copy(update={"hazards": hazards}),
            "findings": findings,
            "costs": base.costs.model_copy(update={"items": tuple(items)}),
        }
    )
