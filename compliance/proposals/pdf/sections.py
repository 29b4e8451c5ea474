"""The sections of the proposal, in document order (issue 6, items 2-9):
each a function from the ``Kit`` (the data, styles and table helpers) to the
flowables it adds after its heading. The safety functions' three sections
are in ``safety_functions``."""

from __future__ import annotations

import math
from collections.abc import Callable

from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    Spacer,
    Table,
    TableStyle,
)

from cells.drawing import opening_label, segment_label
from cells.exchange import CellDocument
from compliance.documents import theme
from compliance.documents.flowables import DraftMark, Para, markup
from compliance.documents.i18n import gettext as _
from compliance.documents.i18n import ngettext
from compliance.documents.theme import BOLD, CONTENT_WIDTH, REGULAR
from compliance.proposals.pdf import charts, plan_figure, safety_functions
from compliance.proposals.pdf.data import (
    FindingRow,
    RuleRow,
    SectionKey,
    SignatureDeclaration,
)
from compliance.proposals.pdf.kit import Kit

# --- 1. executive summary -------------------------------------------------------


def summary(p: Kit) -> list[Flowable]:
    summary = p.data.summary
    assert summary is not None
    s = p.styles
    if summary.costs:
        cost = "<br/>".join(markup(p.money(c)) for c in summary.costs)
    elif summary.not_converted_lines:
        cost = markup(_("Not converted yet"))
    else:
        cost = markup(_("No line is priced yet"))
    notes = []
    if summary.unpriced_lines:
        notes.append(
            _("%(items)s, not in the total.")
            % {"items": p.items_to_quote(summary.unpriced_lines)}
        )
    if summary.not_converted_lines:
        notes.append(p.not_converted(summary.not_converted_lines))
    cost_note = " ".join(notes) if notes else _("Every line is priced.")
    label, value, small = s["tile_label"], s["tile_value"], s["small"]
    cost_tile: list[Flowable] = [Para(markup(_("Total cost, priced lines")), label)]
    cost_tile += [Para(cost, value), Para(markup(cost_note), small)]
    weeks_tile: list[Flowable] = [Para(markup(_("Weeks to PoC start")), label)]
    for plan, weeks in (
        (_("Physical first"), summary.weeks_to_poc_physical_first),
        (_("Simulation first"), summary.weeks_to_poc_sim_first),
    ):
        weeks_tile += [
            Para(markup(plan), small),
            Para(markup(p.weeks(weeks)), value),
        ]
    tiles: list[list[Flowable]] = [cost_tile, weeks_tile]
    widths = [0.5 * CONTENT_WIDTH, 0.5 * CONTENT_WIDTH]
    # No recommendation: the line is left out, and the reasons below say
    # what the choice depends on.
    if summary.recommendation is not None:
        tiles.append(
            [
                Para(markup(_("Recommended plan")), label),
                Para(markup(p.plan_name(summary.recommendation)), value),
            ]
        )
        widths = [0.38 * CONTENT_WIDTH, 0.34 * CONTENT_WIDTH, 0.28 * CONTENT_WIDTH]
    figures = Table([tiles], colWidths=widths, hAlign="LEFT")
    figures.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), REGULAR, 9),
                ("BACKGROUND", (0, 0), (-1, -1), theme.PANEL),
                ("LINEBEFORE", (1, 0), (-1, -1), 3, theme.WHITE),
                ("LINEABOVE", (0, 0), (-1, 0), 1.2, theme.ACCENT),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 8),
                ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 7),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 9),
            ]
        )
    )
    if summary.text:
        # The SA's summary (or the one generated from the cell) as written.
        opening = p.paragraphs(summary.text, "lead")
    else:  # data stored before the summary was written
        opening = [
            p.para(_("What is proposed"), "h2"),
            p.para(summary.proposed, "lead"),
        ]
    concept: list[Flowable] = []
    if summary.safety_concept:
        concept = [
            p.para(_("Safety concept"), "h2"),
            *p.paragraphs(summary.safety_concept),
        ]
    return [
        *opening,
        Spacer(1, 4 * mm),
        figures,
        *concept,
        p.para(
            _("Why this plan")
            if summary.recommendation
            else _("What the choice of plan depends on"),
            "h2",
        ),
        *p.bullets(summary.reasons),
        Spacer(1, 3 * mm),
        p.para(
            _(
                "Costs are ranges of the priced lines; weeks are counted from "
                "the start of the work. Both plans end with validation on the "
                "real cell before the PoC starts."
            ),
            "small",
        ),
    ]


# --- 2. the cell ---------------------------------------------------------------------


def cell(p: Kit) -> list[Flowable]:
    cell = p.data.cell
    assert cell is not None
    story: list[Flowable] = [
        p.para(_("Robot"), "h2"),
        p.key_values([(row.label, row.value) for row in cell.robot]),
        p.para(_("Task"), "h2"),
        p.para(cell.task or "—"),
        p.para(_("Collaborative operation"), "h2"),
    ]
    if cell.collaborative_modes:
        story.append(p.para(", ".join(cell.collaborative_modes)))
        if cell.collaborative_parameters:
            story.append(Spacer(1, 2 * mm))
            story.append(
                p.key_values(
                    [(r.label, r.value) for r in cell.collaborative_parameters]
                )
            )
    else:
        story.append(
            p.para(_("None: the robot is not set up for collaborative operation."))
        )

    drawing, scale = plan_figure.layout_figure(cell, CONTENT_WIDTH, 150 * mm)
    layout = cell.layout
    kinds = {segment.kind for segment in layout.guard_segments}
    placed = {d.kind for d in layout.devices if d.opening is not None}
    shown = [
        *((kind, word, kind in kinds) for kind, word in _guard_kinds().items()),
        (
            "opening",
            _("Opening"),
            any(segment.openings for segment in layout.guard_segments),
        ),
        (
            "curtain",
            _("Light curtain or sensing device"),
            bool(placed & charts.SENSING),
        ),
        ("door", _("Interlocked door"), bool(placed - charts.SENSING)),
        ("zone", _("Hazard zone"), True),
        ("distance", _("Minimum distance S"), bool(cell.distances)),
        ("station", _("Operator station"), bool(layout.operator_stations)),
    ]
    key = charts.legend(
        [(symbol, text) for symbol, text, present in shown if present],
        CONTENT_WIDTH,
    )
    caption = _(
        "Plan view to scale 1:%(scale)s on A4; lengths in millimetres, guard "
        "heights marked h."
    ) % {"scale": f"{scale:,}"}
    if cell.distances:
        caption += " " + _(
            "The dashed outline round the hazard zone marks each device's "
            "minimum distance S: the device must stand on or outside it (green: "
            "kept, red: not kept). A red dashed line in the guarding is an "
            "unguarded gap."
        )
    if drawing.left_out_captions:
        caption += " " + ngettext(
            "%(count)s label that would cover another is left out of the plan; "
            "the tables below give every guard, opening and minimum distance.",
            "%(count)s labels that would cover others are left out of the plan; "
            "the tables below give every guard, opening and minimum distance.",
            drawing.left_out_captions,
        ) % {"count": f"{drawing.left_out_captions:,}"}
    figure: list[Flowable] = [
        p.para(_("Layout"), "h2"),
        drawing,
        Spacer(1, 2 * mm),
        key,
        Spacer(1, 1 * mm),
        p.para(caption, "small"),
    ]
    unplaced = [d.label for d in cell.layout.devices if d.opening is None]
    if unplaced:
        # With the figure it speaks of, not alone at the top of the next page.
        figure.append(
            p.para(
                _("Devices not placed at an opening: %(devices)s.")
                % {"devices": ", ".join(unplaced)},
                "small",
            )
        )
    story.append(KeepTogether(figure))
    if drawing.left_out_captions:
        story += _guarding(p, layout)
    if cell.distances:
        widths = [54 * mm, 38 * mm, 38 * mm, 36 * mm]
        story += [
            p.para(_("Minimum distances"), "h2"),
            p.table(
                [
                    _("Device"),
                    _("Required minimum distance S (mm)"),
                    _("Actual distance (mm)"),
                    _("Status"),
                ],
                [
                    [
                        d.device,
                        theme.number(d.required_mm),
                        "—" if d.actual_mm is None else theme.number(d.actual_mm),
                        p.statuses[d.status],
                    ]
                    for d in cell.distances
                ],
                widths,
                right=(1, 2),
                extra=p.status_style([d.status for d in cell.distances], 3),
            ),
        ]
    # The evidence of KCs safety certification (OSH Act Art. 84) on file.
    certified = [d for d in layout.devices if d.kcs_certificate_no]
    if certified:
        story += [
            p.para(_("KCs safety certificates"), "h2"),
            p.table(
                [_("Device"), _("KCs certificate number")],
                [[d.label, d.kcs_certificate_no] for d in certified],
                [83 * mm, 83 * mm],
            ),
        ]
    return story


def _guard_kinds() -> dict[str, str]:
    """The kinds of guard, in the legend's order and words."""
    return {
        "fence": _("Fence"),
        "wall": _("Wall"),
        "machine_body": _("Machine body"),
    }


def _guarding(p: Kit, layout: CellDocument) -> list[Flowable]:
    """Every guard segment with its openings, named as on the plan: printed
    when the plan had to leave labels out."""
    kinds = _guard_kinds()
    rows = []
    for index, segment in enumerate(layout.guard_segments):
        start = (segment.start.x_mm, segment.start.y_mm)
        end = (segment.end.x_mm, segment.end.y_mm)
        openings = [
            _("%(label)s: %(width)s mm wide, %(lower)s–%(upper)s mm above the floor")
            % {
                "label": opening_label(opening, number),
                "width": theme.number(opening.width_mm),
                "lower": theme.number(opening.lower_edge_mm),
                "upper": theme.number(opening.upper_edge_mm),
            }
            for number, opening in enumerate(segment.openings)
        ]
        rows.append(
            [
                segment_label(segment, index),
                kinds.get(segment.kind, segment.kind),
                theme.number(round(math.dist(start, end))),
                theme.number(segment.height_mm),
                theme.number(segment.bottom_gap_mm),
                "\n".join(openings) or "—",
            ]
        )
    widths = [w * mm for w in (16, 24, 20, 20, 22, 64)]
    return [
        p.para(_("Guarding"), "h2"),
        p.table(
            [
                _("Guard"),
                _("Kind"),
                _("Length (mm)"),
                _("Height (mm)"),
                _("Gap below (mm)"),
                _("Openings"),
            ],
            rows,
            widths,
            right=(2, 3, 4),
        ),
    ]


# --- 3. rules ------------------------------------------------------------------------


def rules(p: Kit) -> list[Flowable]:
    rules = p.data.rules
    assert rules is not None
    widths = [44 * mm, 76 * mm, 26 * mm, 20 * mm]
    rows = [_rule_cells(p, rule, widths) for rule in rules.rows]
    header = [_("Rule and citation"), _("Requirement"), _("Certainty"), _("Checked")]
    story: list[Flowable] = [p.panel([p.para(rules.note)]), Spacer(1, 3 * mm)]
    story += [p.para(line, "small") for line in rules.computed_under]
    story.append(Spacer(1, 3 * mm))
    if rows:
        story.append(p.table(header, rows, widths))
    if rules.others:
        # Every rule shown, as the SA chose: those with nothing to check here
        # apart, after the ones that apply.
        story += [
            p.para(_("Rules with nothing in this cell to check"), "h2"),
            p.table(
                header, [_rule_cells(p, rule, widths) for rule in rules.others], widths
            ),
        ]
    if rules.left_out:
        story += [
            Spacer(1, 3 * mm),
            p.para(
                _(
                    "Not applicable to this cell, so not listed: %(rules)s "
                    "(nothing in the cell for them to check)."
                )
                % {"rules": ", ".join(rules.left_out)},
                "small",
            ),
        ]
    return story


def _rule_cells(p: Kit, rule: RuleRow, widths: list[float]) -> list:
    return [
        p.rich(
            [(rule.id, BOLD, theme.INK), (rule.citation, REGULAR, theme.INK)],
            widths[0],
        ),
        rule.text,
        rule.certainty,
        f"{rule.checked_on:%Y-%m-%d}",
    ]


# --- 4. risk assessment ---------------------------------------------------------------


def risk(p: Kit) -> list[Flowable]:
    risk = p.data.risk
    assert risk is not None
    story: list[Flowable] = []
    if risk.signed:
        if risk.signed_by and risk.signed_on:
            line = _(
                "Hazard register of revision %(revision)s, signed by %(name)s on "
                "%(date)s."
            ) % {
                "revision": risk.revision,
                "name": risk.signed_by,
                "date": theme.long_date(risk.signed_on, p.data.language),
            }
        else:
            line = _("Hazard register of revision %(revision)s, signed.") % {
                "revision": risk.revision
            }
        hash_label = _("Content hash (SHA-256)")
        story += [
            p.para(line),
            Para(
                f"{markup(hash_label)}: "
                f"<font name='{BOLD}'>{markup(risk.content_hash or '')}</font>",
                p.styles["small"],
            ),
        ]
        if risk.safety_configuration:
            story.append(
                p.para(
                    _("Robot safety configuration assessed: %(config)s")
                    % {"config": risk.safety_configuration},
                    "small",
                )
            )
        if risk.declaration is not None:
            story += _declaration(p, risk.declaration)
    else:
        story += [
            DraftMark(True),
            p.panel(
                [
                    Para(
                        f"<b>{markup(_('DRAFT'))}</b> · "
                        + markup(
                            _(
                                "Revision %(revision)s has not been signed. This "
                                "register may still change; it is not a signed "
                                "risk assessment."
                            )
                            % {"revision": risk.revision}
                        ),
                        p.styles["banner"],
                    )
                ],
                border=theme.CRITICAL,
            ),
        ]
    story.append(Spacer(1, 5 * mm))
    if risk.hazards:
        widths = [7, 37, 20, 34, 9, 41, 18]
        widths = [w * mm for w in widths]
        rows = [
            [
                str(number),
                hazard.hazard,
                hazard.phase,
                hazard.task,
                (hazard.plr or "—"),
                p.measures(hazard.measures, widths[5]),
                hazard.residual_risk or "—",
            ]
            for number, hazard in enumerate(risk.hazards, start=1)
        ]
        story.append(
            p.table(
                [
                    "#",
                    _("Hazard"),
                    _("Phase"),
                    _("Task"),
                    _("PLr"),
                    _("Measures"),
                    _("Residual risk"),
                ],
                rows,
                widths,
                extra=[("ALIGN", (4, 1), (4, -1), "CENTER")],
            )
        )
    else:
        story.append(p.para(_("No hazards are recorded yet.")))
    if not risk.signed:
        story.append(DraftMark(False))
    return story


def _declaration(p: Kit, declaration: SignatureDeclaration) -> list[Flowable]:
    """The signer's declaration: the statement, who and when, and each failing
    finding accepted with the reason given."""
    story: list[Flowable] = [
        Spacer(1, 3 * mm),
        Para(f"<b>{markup(_('Signature declaration'))}</b>", p.styles["body"]),
        p.para(
            _("%(name)s declared on %(date)s at %(time)s %(zone)s:")
            % {
                "name": declaration.signer,
                "date": theme.long_date(declaration.signed_at.date(), p.data.language),
                "time": f"{declaration.signed_at:%H:%M}",
                "zone": declaration.zone,
            }
        ),
        p.panel([p.para(f"“{declaration.statement}”")]),
    ]
    if declaration.accepted:
        widths = [30 * mm, 30 * mm, 56 * mm, 50 * mm]
        story += [
            Spacer(1, 2 * mm),
            p.para(_("Failing findings accepted at signing, with the reasons given:")),
            p.table(
                [_("Rule"), _("Subject"), _("Finding"), _("Reason accepted")],
                [
                    [f.rule_id, f.subject or "—", f.message, f.reason]
                    for f in declaration.accepted
                ],
                widths,
            ),
        ]
    else:
        story.append(p.para(_("No failing finding was open at signing.")))
    if declaration.needing_evidence:
        story.append(
            p.para(
                _(
                    "%(count)s findings needed evidence at signing; they are "
                    "listed with the findings."
                )
                % {"count": declaration.needing_evidence},
                "small",
            )
        )
    return story


# --- 5. findings ----------------------------------------------------------------------


def findings(p: Kit) -> list[Flowable]:
    findings = p.data.findings
    if not findings:
        return [p.para(_("No findings: nothing was checked for this cell."))]
    counts = {key: 0 for key in p.statuses}
    for finding in findings:
        counts[finding.status] += 1
    summary = _(
        "%(total)s findings: %(pass)s pass, %(fail)s fail, %(warning)s with a "
        "warning, %(needs)s need evidence."
    ) % {
        "total": len(findings),
        "pass": counts["pass"],
        "fail": counts["fail"],
        "warning": counts["warning"],
        "needs": counts["needs_evidence"],
    }
    # In full: what is open (fails, warnings, needs evidence). The passes as
    # the SA chose: summarised a line per rule (their citations once, not
    # once a subject), in full, or only counted.
    open_findings = [f for f in findings if f.status != "pass"]
    passed = [f for f in findings if f.status == "pass"]
    passes: dict[str, list] = {}
    for f in passed:
        passes.setdefault(f.rule_id, []).append(f)
    story: list[Flowable] = [p.para(summary), Spacer(1, 4 * mm)]
    if open_findings:
        story.append(_findings_table(p, open_findings))
    shown = p.data.passes_shown
    if passed and shown == "full":
        story += [
            Spacer(1, 4 * mm),
            Para(f"<b>{markup(_('Checks passed'))}</b>", p.styles["body"]),
            _findings_table(p, passed),
        ]
    elif passed and shown == "omitted":
        story += [
            Spacer(1, 3 * mm),
            p.para(
                ngettext(
                    "%(count)s check passed; it is not listed here.",
                    "%(count)s checks passed; they are not listed here.",
                    len(passed),
                )
                % {"count": theme.number(len(passed))},
                "small",
            ),
        ]
    elif passes:
        passed_title = _("Checks passed")
        pass_widths = [59 * mm, 16 * mm, 91 * mm]
        pass_rows = [
            [
                p.rich(
                    [
                        (rule_id, BOLD, theme.INK),
                        (group[0].citation, REGULAR, theme.INK),
                    ],
                    pass_widths[0],
                ),
                theme.number(len(group)),
                ", ".join(dict.fromkeys(f.subject or "—" for f in group)),
            ]
            for rule_id, group in passes.items()
        ]
        story += [
            Spacer(1, 4 * mm),
            Para(f"<b>{markup(passed_title)}</b>", p.styles["body"]),
            p.table(
                [_("Rule and citation"), _("Passed"), _("Subjects")],
                pass_rows,
                pass_widths,
            ),
        ]
    return story


def _findings_table(p: Kit, findings: list[FindingRow]) -> Flowable:
    """Findings in full: status, rule, subject, message and figures."""
    widths = [19 * mm, 40 * mm, 16 * mm, 50 * mm, 41 * mm]
    rows = [
        [
            p.statuses[f.status],
            p.rich(
                [
                    (f.rule_id, BOLD, theme.INK),
                    (f.citation, REGULAR, theme.INK),
                    (f.certainty, REGULAR, theme.MUTED),
                ],
                widths[1],
            ),
            f.subject or "—",
            f.message,
            "\n".join(f.numbers) or "—",
        ]
        for f in findings
    ]
    return p.table(
        [
            _("Status"),
            _("Rule, citation and certainty"),
            _("Subject"),
            _("Finding"),
            _("Figures compared"),
        ],
        rows,
        widths,
        extra=p.status_style([f.status for f in findings], 0),
    )


# --- 6. costs -----------------------------------------------------------------------------


def costs(p: Kit) -> list[Flowable]:
    costs = p.data.costs
    assert costs is not None
    to_quote = _("price to be quoted")
    target = costs.currency
    widths = [42 * mm, 15 * mm, 27 * mm, 29 * mm, 13 * mm, 40 * mm]
    rows = []
    for item in costs.items:
        low, high = item.unit_price_low, item.unit_price_high
        if low is None or high is None or item.currency is None:
            unit_price = to_quote
        else:
            unit_price = f"{item.currency} " + p.range_cell(low, high, widths[2] - 26)
        own = (
            theme.money_range(item.currency, item.total_low, item.total_high)
            if item.currency
            and item.total_low is not None
            and item.total_high is not None
            else None
        )
        if item.converted_low is not None and item.converted_high is not None:
            total = p.range_cell(item.converted_low, item.converted_high, widths[3])
            if own and item.currency != target:
                total += f"\n({own})"
        elif item.rate_needed:
            total = _("not converted — rate needed") + (f"\n({own})" if own else "")
        elif own and target is None:  # data stored before the conversion
            total = own
        else:
            total = "—"
        low, high = item.lead_time_weeks_low, item.lead_time_weeks_high
        lead = "—" if low is None or high is None else theme.weeks_range(low, high)
        source = item.source or "—"
        if item.price_date:
            source = f"{source} ({item.price_date})"
        rows.append(
            [
                item.description,
                f"{theme.number(item.quantity)} {item.unit}",
                unit_price,
                total,
                lead,
                source,
            ]
        )
    total_header = (
        _("Total (%(currency)s)") % {"currency": target} if target else _("Total")
    )
    needed = [row for row, item in enumerate(costs.items, start=1) if item.rate_needed]
    story: list[Flowable] = [
        p.table(
            [
                _("Item"),
                _("Quantity"),
                _("Unit price"),
                total_header,
                _("Lead time (weeks)"),
                _("Source of the price"),
            ],
            rows,
            widths,
            right=(1, 2, 3, 4),
            extra=[("TEXTCOLOR", (3, row), (3, row), theme.CRITICAL) for row in needed],
        ),
    ]
    if target and any(i.currency and i.currency != target for i in costs.items):
        story.append(
            p.para(
                _(
                    "Totals are in %(currency)s; a line priced in another currency "
                    "shows its own total in brackets."
                )
                % {"currency": target},
                "small",
            )
        )
    story.append(p.para(_("Totals"), "h2"))
    if costs.missing_rates:
        story.append(
            p.panel(
                [
                    p.para(
                        _(
                            "No exchange rate has been entered for %(currencies)s: "
                            "the lines priced in it are shown “not converted — "
                            "rate needed” and are not in the total below."
                        )
                        % {"currencies": ", ".join(costs.missing_rates)},
                        "banner",
                    )
                ],
                border=theme.CRITICAL,
            )
        )
        story.append(Spacer(1, 2 * mm))
    totals = []
    if costs.converted is not None:
        label = (
            _("Total in %(currency)s of the converted lines")
            if costs.missing_rates
            else _("Total in %(currency)s")
        )
        totals.append(
            (label % {"currency": costs.converted.currency}, p.money(costs.converted))
        )
    if target is None:  # data stored before the conversion: per currency
        totals += [
            (_("Priced lines in %(currency)s") % {"currency": t.currency}, p.money(t))
            for t in costs.totals
        ]
    if totals:
        story.append(p.key_values(totals, label_width=70 * mm))
    notes = []
    if costs.unpriced_lines:
        notes.append(
            _("%(items)s, not in the total.")
            % {"items": p.items_to_quote(costs.unpriced_lines)}
        )
    if costs.rates:
        notes.append(
            _("Exchange rates: %(rates)s.")
            % {"rates": "; ".join(f"{r.label} = {r.value}" for r in costs.rates)}
        )
    if costs.rates_note:
        notes.append(costs.rates_note)
    if target and any(t.currency != target for t in costs.totals):
        notes.append(
            _("In the lines' own currencies: %(totals)s.")
            % {"totals": "; ".join(p.money(t) for t in costs.totals)}
        )
    story += [Spacer(1, 2 * mm), *[p.para(n, "small") for n in notes]]
    return story


# --- 7. schedule ------------------------------------------------------------------------


def schedule(p: Kit) -> list[Flowable]:
    schedule = p.data.schedule
    assert schedule is not None
    plans = (schedule.physical_first, schedule.sim_first)
    weeks_max = max(plan.total_weeks.high for plan in plans)
    story: list[Flowable] = []
    for index, plan in enumerate(plans):
        title = f"{plan.name} · " + _("%(weeks)s to PoC start") % {
            "weeks": p.weeks(plan.total_weeks)
        }
        story.append(
            KeepTogether(
                [
                    p.para(title, "h2" if index == 0 else "h3"),
                    charts.timeline_figure(plan, weeks_max, CONTENT_WIDTH),
                ]
            )
        )
    story += [
        Spacer(1, 2 * mm),
        charts.legend(
            [
                ("low", _("Shortest durations")),
                ("high", _("Longest durations")),
                ("critical", _("Critical path")),
                ("assumption", _("Assumed duration, to confirm")),
                ("milestone", _("Milestone")),
            ],
            CONTENT_WIDTH,
        ),
        p.para(
            _(
                "Each activity shows its earliest start and finish with the "
                "shortest durations (upper bar) and with the longest (lower "
                "bar); the figures at the right are the finishing weeks."
            ),
            "small",
        ),
    ]
    if schedule.comparison:
        widths = [56 * mm, 55 * mm, 55 * mm]
        story += [
            p.para(_("Comparison"), "h2"),
            p.table(
                [_("Criterion"), plans[0].name, plans[1].name],
                [
                    [row.metric, row.physical_first, row.sim_first]
                    for row in schedule.comparison
                ],
                widths,
            ),
            Spacer(1, 2 * mm),
            *p.bullets(schedule.verdict),
        ]
    currency = p.data.costs.currency if p.data.costs else None
    cost_chart = charts.cost_figure(plans, CONTENT_WIDTH, currency or "")
    cost_story: list[Flowable] = [p.para(_("Cost of each plan"), "h2")]
    if cost_chart is not None:
        cost_story.append(cost_chart)
    for plan in plans:
        if plan.unpriced_activities:
            cost_story.append(
                p.para(
                    _("%(plan)s: %(items)s, not in the bar.")
                    % {
                        "plan": plan.name,
                        "items": p.items_to_quote(plan.unpriced_activities),
                    },
                    "small",
                )
            )
        for row in plan.not_converted:
            cost_story.append(
                p.para(
                    _("%(plan)s: %(activity)s, %(cost)s: not converted — rate needed.")
                    % {"plan": plan.name, "activity": row.label, "cost": row.value},
                    "small",
                )
            )
    story.append(KeepTogether(cost_story))
    if schedule.maturity_note:
        story += [
            p.para(_("How well the task transfers from simulation"), "h2"),
            p.para(schedule.maturity_note),
        ]
    # Empty lists are left out, heading and all.
    for title, items in (
        (_("Assumptions of the plans"), schedule.assumptions),
        (_("What simulation cannot prove"), schedule.cannot_prove),
    ):
        if items:
            story += [p.para(title, "h2"), *p.bullets(items)]
    return story


# --- 8. terms -------------------------------------------------------------------------


def terms(p: Kit) -> list[Flowable]:
    data = p.data
    story: list[Flowable] = []
    for title, items in (
        (_("Assumptions"), data.assumptions),
        (_("Exclusions"), data.exclusions),
        (_("Disclaimers"), data.disclaimers),
    ):
        if items:  # an empty list is left out, heading and all
            story += [p.para(title, "h2"), *p.bullets(items)]
    return story


BUILDERS: dict[SectionKey, Callable[[Kit], list[Flowable]]] = {
    "summary": summary,
    "cell": cell,
    "rules": rules,
    "risk": risk,
    "findings": findings,
    "safety_functions": safety_functions.verification,
    "specification": safety_functions.specification,
    "validation": safety_functions.validation,
    "costs": costs,
    "schedule": schedule,
    "terms": terms,
}
