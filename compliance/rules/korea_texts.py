"""Sources and figures for the Korea rule pack, copied verbatim from the
reference data ``korea_art223.json`` (the key is named beside each), and the
procedure items paraphrased from it. Data only: no checks here.

The rules' texts are English message ids; their Korean is in the catalogue
(``locale/ko/LC_MESSAGES/django.po``), and where a rule quotes an article it
is the article's own words, verbatim from ``articles[*].text_ko`` (a test
compares them). The article texts agree in two secondary sources and were not
checked against the National Law Information Center (국가법령정보센터). The
English is this project's translation, not an official one.
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
