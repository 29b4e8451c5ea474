"""Korean law texts and figures for the Korea rule pack, copied verbatim from
the reference data ``korea_art223.json`` (the key is named beside each).

The article texts agree in two secondary sources and were not checked against
the National Law Information Center (국가법령정보센터). The English is this
project's translation, not an official one. Data only: no checks here.
"""

from __future__ import annotations

from compliance.calculators.base import gettext_noop

# korea_art223.json "sources": LAW and RB (articles[*].source, verbatim).
SRC_LAW = (
    "9bow/legalize-kr : kr/산업안전보건기준에관한규칙/고용노동부령.md - current "
    "consolidated text incl. 2024.6.28 amendment"
)
SRC_RB = (
    "https://rainbowrobotics.github.io/rb_cobot_docs/manual/appendix/rules "
    "(Rainbow Robotics cobot manual appendix quoting Arts. 222-224)"
)
ARTICLE_SOURCES = (SRC_LAW, SRC_RB)
# cobot_exemption_route.source
COBOT_ROUTE_SOURCES = (
    "etnews 2018-05-24",
    "zdnet korea",
    "robotzine",
    "idaegu",
    "robotnews",
    "KIRIA 협동로봇 guidebook 2020.8 (studylib)",
)
# osh_act_art84_safety_certification.source and
# protective_devices_requiring_KCs_safety_certification.source
KCS_SOURCES = (
    "9bow/legalize-kr : 산업안전보건법 법률.md",
    "advance2022.tistory.com",
    "uworld",
    "gcnq.co.kr",
    "cobots.tistory.com",
)

# articles[1].computable_rules.fence_min_height_mm
FENCE_MIN_HEIGHT_MM = 1800

# articles[1].text_ko (제223조), verbatim.
ART_223_KO = (
    "사업주는 로봇의 운전(제222조에 따른 교시 등을 위한 로봇의 운전과 제224조 "
    "단서에 따른 로봇의 운전은 제외한다)으로 인하여 근로자에게 발생할 수 있는 "
    "부상 등의 위험을 방지하기 위하여 높이 1.8미터 이상의 울타리(로봇의 가동범위 "
    "등을 고려하여 높이로 인한 위험성이 없는 경우에는 높이를 그 이하로 조절할 수 "
    "있다)를 설치해야 하며, 컨베이어 시스템의 설치 등으로 울타리를 설치할 수 없는 "
    "일부 구간에 대해서는 안전매트 또는 광전자식 방호장치 등 감응형 방호장치를 "
    "설치해야 한다. 다만, 고용노동부장관이 해당 로봇의 안전기준이 "
    "한국산업표준에서 정하고 있는 안전기준 또는 국제적으로 통용되는 안전기준에 "
    "부합한다고 인정하는 경우에는 본문에 따른 조치를 하지 않을 수 있다. "
    "<개정 2016.4.7, 2018.8.14, 2022.10.18, 2024.6.28>"
)
# articles[1].text_en (this research's translation, not official).
ART_223_EN = (
    "To prevent injury and other dangers to workers from the operation of a "
    "robot (excluding operation for teaching etc. under Art. 222 and operation "
    "under the proviso of Art. 224), the employer shall install a fence at least "
    "1.8 m high (the height may be reduced where, considering the robot's range "
    "of motion etc., there is no height-related risk), and, for sections where a "
    "fence cannot be installed because of e.g. a conveyor system, shall install "
    "presence-sensing protective devices such as safety mats or photoelectric "
    "(opto-electronic) protective devices. However, where the Minister of "
    "Employment and Labor recognises that the robot's safety standard conforms "
    "to the Korean Industrial Standards (KS) or to internationally accepted "
    "safety standards, the measures in the main text need not be taken."
)
# articles[0].text_ko (제222조) and articles[2].text_ko (제224조), verbatim.
ART_222_KO = (
    '사업주는 산업용 로봇(이하 "로봇"이라 한다)의 작동범위에서 해당 로봇에 대하여 '
    "교시(敎示) 등[매니퓰레이터(manipulator)의 작동순서, 위치ㆍ속도의 설정ㆍ변경 "
    "또는 그 결과를 확인하는 것을 말한다. 이하 같다]의 작업을 하는 경우에는 해당 "
    "로봇의 예기치 못한 작동 또는 오(誤)조작에 의한 위험을 방지하기 위하여 다음 각 "
    "호의 조치를 하여야 한다. 다만, 로봇의 구동원을 차단하고 작업을 하는 경우에는 "
    "제2호와 제3호의 조치를 하지 아니할 수 있다. <개정 2016.4.7>\n"
    "1. 다음 각 목의 사항에 관한 지침을 정하고 그 지침에 따라 작업을 시킬 것\n"
    "2. 작업에 종사하고 있는 근로자 또는 그 근로자를 감시하는 사람은 이상을 "
    "발견하면 즉시 로봇의 운전을 정지시키기 위한 조치를 할 것\n"
    "3. 작업을 하고 있는 동안 로봇의 기동스위치 등에 작업 중이라는 표시를 하는 등 "
    "작업에 종사하고 있는 근로자가 아닌 사람이 그 스위치 등을 조작할 수 없도록 "
    "필요한 조치를 할 것"
)
ART_224_KO = (
    "사업주는 로봇의 작동범위에서 해당 로봇의 수리ㆍ검사ㆍ조정(교시 등에 해당하는 "
    "것은 제외한다)ㆍ청소ㆍ급유 또는 결과에 대한 확인작업을 하는 경우에는 해당 "
    "로봇의 운전을 정지함과 동시에 그 작업을 하고 있는 동안 로봇의 기동스위치를 "
    "열쇠로 잠근 후 열쇠를 별도 관리하거나 해당 로봇의 기동스위치에 작업 중이란 "
    "내용의 표지판을 부착하는 등 해당 작업에 종사하고 있는 근로자가 아닌 사람이 "
    "해당 기동스위치를 조작할 수 없도록 필요한 조치를 하여야 한다. 다만, 로봇의 "
    "운전 중에 작업을 하지 아니하면 안되는 경우로서 해당 로봇의 예기치 못한 작동 "
    "또는 오조작에 의한 위험을 방지하기 위하여 제222조 각 호의 조치를 한 경우에는 "
    "그러하지 아니하다."
)
# articles[0].item1_subitems_topics_ko_unverified_wording: topics confirmed,
# wording NOT verbatim-verified (articles[0].item1_subitems_note).
ART_222_ITEM1_KO = (
    "가. 로봇의 조작방법 및 순서",
    "나. 작업 중의 매니퓰레이터의 속도",
    "다. 2명 이상의 근로자에게 작업을 시킬 경우의 신호방법",
    "라. 이상을 발견한 경우의 조치",
    "마. 이상을 발견하여 로봇의 운전을 정지시킨 후 이를 재가동시킬 경우의 조치",
    "바. 그 밖에 로봇의 예기치 못한 작동 또는 오조작에 의한 위험을 방지하기 "
    "위하여 필요한 조치",
)
# protective_devices_requiring_KCs_safety_certification.list_ko, last item.
KCS_ROBOT_DEVICE_ITEM_KO = (
    "충돌ㆍ협착 등의 위험 방지에 필요한 산업용 로봇 방호장치로서 "
    "고용노동부장관이 정하여 고시하는 것"
)
# ...legal_basis
KCS_LEGAL_BASIS_KO = "산업안전보건법 시행령 제74조제1항제2호 (안전인증대상 방호장치)"

# Paraphrased item by item from articles[0].text_en and articles[2].text_en
# (this research's translation, not official).
PROCEDURE_ITEMS = (
    gettext_noop(
        "Art. 222 item 1: written guidelines for teaching within the robot's "
        "operating range, and work done by them, on: (a) the robot's operating "
        "method and sequence; (b) the manipulator's speed during the work; (c) "
        "signalling when two or more workers are involved; (d) what to do on "
        "finding an abnormality; (e) what to do when restarting the robot after "
        "stopping it for an abnormality; (f) other measures against unexpected "
        "operation or mis-operation."
    ),
    gettext_noop(
        "Art. 222 item 2: the worker, or the person watching, can stop the robot "
        "at once on finding an abnormality."
    ),
    gettext_noop(
        "Art. 222 item 3: while teaching, the start switch carries a 'work in "
        "progress' sign so that nobody else can operate it. Items 2 and 3 may be "
        "omitted when the robot's drive power is cut off."
    ),
    gettext_noop(
        "Art. 224: for repair, inspection, adjustment, cleaning, lubrication or "
        "checking results within the operating range, the robot is stopped and, "
        "while the work lasts, its start switch is locked with a key kept "
        "separately or carries a 'work in progress' sign, so that nobody else can "
        "operate it. Exception: work that must be done while the robot runs, with "
        "the Art. 222 measures taken."
    ),
)
