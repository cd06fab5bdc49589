"""The explorer's charts: Vega-Lite views built with Altair from the precomputed tables of
:class:`~explodice.present.explorer.data.ExplorerData`; their controls (Vega-Lite parameters
bound to inputs) only filter and redraw those tables.

- ``roll``: one roll against the DC table and the "at least" curve, 3d6x beside d20, with the
  expected drain;
- ``equivalent``: the 3d6x DC closest in odds to each d20 DC, per profile;
- ``day``: the party's day per policy (gauges running dry, success by roll type).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pandas as pd

from explodice.game.build import LEVELS
from explodice.game.rules import ADVANTAGE_STATES
from explodice.present import i18n
from explodice.present.explorer.data import CURVE_DCS, SLIDER, ExplorerData
from explodice.present.explorer.keys import POLICY_CHOICES
from explodice.present.labels import MODIFIER_CHOICE, OWN_POLICIES

__all__ = ["explorer_charts", "shown_percent"]

SYSTEM_COLOURS = {"3d6x": "#1f5fa8", "d20": "#d2691e"}
GAUGE_STATES = ("gauge not empty", "gauge empty")


def shown_percent(p: float, lang: str = "en") -> str:
    """A probability as the explorer prints it: one decimal, never a false 0 % or 100 %.

    >>> shown_percent(0.49123), shown_percent(0.0002), shown_percent(0.99996)
    ('49.1%', '< 0.1%', '> 99.9%')
    """
    return i18n.percent(p, lang)


def _js(text: str) -> str:
    """A Python string as a string literal of Vega's expression language."""
    return json.dumps(text, ensure_ascii=False)


def _vega_percent(field: str, lang: str) -> str:
    """:func:`shown_percent` in Vega's expression language (the page's locale does the rest)."""
    d, cut = f"datum.{field}", repr(i18n.CERTAIN)  # certain within the engine's cut
    return (
        f"{d} > {cut} && {d} < 0.0005 ? {_js(i18n.percent(1e-9, lang))} : "
        f"{d} >= 0.9995 && {d} < 1 - {cut} ? {_js(i18n.percent(1 - 1e-9, lang))} : "
        f"format({d} <= {cut} ? 0 : {d} >= 1 - {cut} ? 1 : {d}, '.1%')"
    )


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return json.loads(frame.to_json(orient="records"))


def _roll_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """One roll: the DC table and the "at least" curve, 3d6x beside d20, with the drain."""
    import altair as alt

    lang = data.meta["lang"]
    here = "#controls-roll"
    who = alt.param(
        name="who",
        value=MODIFIER_CHOICE,
        bind=alt.binding_select(
            options=list(data.subjects.who),
            labels=list(data.subjects.label),
            name=_("who rolls") + " ",
            element=here,
        ),
    )
    mod = alt.param(
        name="mod",
        value=4,
        bind=alt.binding_range(
            min=SLIDER[0], max=SLIDER[1], step=1, name=_("modifier") + " ", element=here
        ),
    )
    adv = alt.param(
        name="adv",
        value="normal",
        bind=alt.binding_radio(
            options=list(ADVANTAGE_STATES),
            labels=[_(a) for a in ADVANTAGE_STATES],
            name=_("advantage") + " ",
            element=here,
        ),
    )
    read = alt.param(
        name="reading",
        value=data.meta["switches"]["disadvantage"],
        bind=alt.binding_radio(
            options=["subtract", "drop"],
            labels=[_("subtract"), _("drop")],
            name=_("disadvantage reading") + " ",
            element=here,
        ),
    )
    pol = alt.param(  # each subject's own policy by default (the build's, the character's)
        name="policy",
        value=OWN_POLICIES,
        bind=alt.binding_select(
            options=[OWN_POLICIES, *(c.key for c in POLICY_CHOICES)],
            labels=[_(OWN_POLICIES)] + [c.label(lang) for c in POLICY_CHOICES],
            name=_("rule of 1") + " ",
            element=here,
        ),
    )
    params = [who, mod, adv, read, pol]
    has_builds = not data.build_levels.empty
    if has_builds:  # the builds' level: picks their modifiers in the build_levels table
        params.append(
            alt.param(
                name="build_level",
                value=1,
                bind=alt.binding_range(
                    min=LEVELS[0],
                    max=LEVELS[-1],
                    step=1,
                    name=_("level of the builds") + " ",
                    element=here,
                ),
            )
        )

    def chosen(chart: Any) -> Any:
        """The chosen subject's class and modifiers joined to each row: a build's at the
        chosen level (``lmod3``, ``lmod20``), a character's as it is."""
        chart = chart.transform_calculate(who="who").transform_lookup(
            lookup="who",
            from_=alt.LookupData(
                alt.Data(values=_records(data.subjects)), "who", ["mod3", "mod20", "cls", "label"]
            ),
            as_=["mod3", "mod20", "subject_cls", "subject_label"],
        )
        if not has_builds:
            return chart.transform_calculate(m3="datum.mod3", m20="datum.mod20")
        levels = data.build_levels.assign(
            key=data.build_levels.who + "|" + data.build_levels.level.astype(str)
        )
        return (
            chart.transform_calculate(level_key="who + '|' + build_level")
            .transform_lookup(
                lookup="level_key",
                from_=alt.LookupData(alt.Data(values=_records(levels)), "key", ["mod3", "mod20"]),
                as_=["lmod3", "lmod20"],
            )
            .transform_calculate(
                m3="isValid(datum.lmod3) ? datum.lmod3 : datum.mod3",
                m20="isValid(datum.lmod20) ? datum.lmod20 : datum.mod20",
            )
        )

    base = (
        # inline data Altair moves to the view's datasets: one copy for its three charts
        chosen(alt.Chart(alt.InlineData(values=_records(data.roll))))
        .transform_calculate(
            chosen_state="adv == 'disadvantage' ? 'disadvantage (' + reading + ')' : adv",
            modifier=f"who == {_js(MODIFIER_CHOICE)} ? mod : "
            "(datum.system == 'd20' ? datum.m20 : datum.m3)",
        )
        .transform_filter(
            "datum.cls == datum.subject_cls && datum.state == datum.chosen_state"
            " && (datum.system == 'd20' || datum.policy == policy)"
        )
        .transform_calculate(dc="datum.need + datum.modifier")
    )

    dc_title = _("DC")
    in_curve = f"datum.dc >= {min(CURVE_DCS)} && datum.dc <= {max(CURVE_DCS)}"
    x_dc = alt.X("dc:Q", title=dc_title, scale=alt.Scale(domain=[0, 50], nice=False))
    system_colour = alt.Color(
        "system:N",
        scale=alt.Scale(domain=list(SYSTEM_COLOURS), range=list(SYSTEM_COLOURS.values())),
        legend=alt.Legend(title=None, orient="top-right"),
    )
    curve = (
        base.transform_filter(in_curve)
        .transform_calculate(shown=_vega_percent("p", lang))
        .mark_line(point=alt.OverlayMarkDef(size=14), interpolate="step-after")
        .encode(
            x=x_dc,
            y=alt.Y("p:Q", title=_("P(total ≥ DC)"), axis=alt.Axis(format="%")),
            color=system_colour,
            tooltip=[
                alt.Tooltip("system:N", title=_("system")),
                alt.Tooltip("dc:Q", title=dc_title),
                alt.Tooltip("shown:N", title=_("P(success)")),
            ],
        )
        .properties(width=430, height=400, title=_("Success against every DC ('at least')"))
    )
    drain = (
        base.transform_filter(f"datum.system == '3d6x' && {in_curve}")
        .mark_line(color=SYSTEM_COLOURS["3d6x"], interpolate="step-after")
        .encode(
            x=x_dc,
            y=alt.Y("drain:Q", title=_("expected drain (points)"), scale=alt.Scale(zero=True)),
            tooltip=[
                alt.Tooltip("dc:Q", title=dc_title),
                alt.Tooltip("drain:Q", title=_("expected drain"), format=".2f"),
            ],
        )
        .properties(
            width=520, height=120, title=_("3d6x: expected drain of one roll (rule of 1), by DC")
        )
    )

    # The DC table as text: rows are the difficulty bands, columns each system's DC and odds.
    names = {"dc_text": _("DC"), "p_text": _("P(success)"), "drain_text": _("E[drain]")}
    columns = [
        f"3d6x {names['dc_text']}",
        f"3d6x {names['p_text']}",
        f"3d6x {names['drain_text']}",
        f"d20 {names['dc_text']}",
        f"d20 {names['p_text']}",
    ]
    dcs = data.dcs.assign(key=data.dcs.system + "|" + data.dcs.dc.astype(str))
    table = (
        base.transform_calculate(key="datum.system + '|' + datum.dc")
        .transform_lookup(
            lookup="key",
            from_=alt.LookupData(alt.Data(values=_records(dcs)), "key", ["label", "order"]),
        )
        .transform_filter("isValid(datum.label)")
        .transform_calculate(
            dc_text="'' + datum.dc",
            p_text=_vega_percent("p", lang),
            drain_text="datum.system == '3d6x' ? format(datum.drain, '.2f') : ''",
        )
        .transform_fold(["dc_text", "p_text", "drain_text"], as_=["part", "text"])
        .transform_filter("datum.text != ''")
        .transform_calculate(
            column=f"datum.system + ' ' + ({json.dumps(names)})[datum.part]",
            cell="datum.column + ' @ ' + datum.label",
        )
    )
    order = list(data.dcs[data.dcs.system == "3d6x"].label)
    text = table.mark_text(fontSize=13).encode(
        x=alt.X(
            "column:N",
            sort=columns,
            title=None,
            axis=alt.Axis(
                orient="top",
                labelAngle=0,
                labelFontWeight="bold",
                domain=False,
                ticks=False,
                labelLimit=200,
            ),
        ),
        y=alt.Y(
            "label:N",
            sort=order,
            title=None,
            axis=alt.Axis(domain=False, ticks=False, labelFontWeight="bold"),
        ),
        text="text:N",
        description="cell:N",
        color=alt.condition("datum.part == 'p_text'", alt.value("black"), alt.value("#555")),
    )
    text = text.properties(width=520, height=220, title=_("The DC table: each band in each system"))
    # who rolls, with which modifier: a build's at the chosen level
    level_word = _js(_("level") + " ")
    line = (
        chosen(alt.Chart(alt.Data(values=[{"row": 0}])))
        .transform_calculate(
            m3=f"who == {_js(MODIFIER_CHOICE)} ? mod : datum.m3",
            m20=f"who == {_js(MODIFIER_CHOICE)} ? mod : datum.m20",
        )
        .transform_calculate(
            shown="datum.subject_label + "
            + (
                f"(isValid(datum.lmod3) ? ', ' + {level_word} + build_level : '')"
                if has_builds
                else "''"
            )
            + " + ' · ' + "
            + _js(_("modifier") + " ")
            + " + format(datum.m3, '+d') + (datum.m20 != datum.m3 ? ' (d20 ' + "
            "format(datum.m20, '+d') + ')' : '')"
        )
        .mark_text(align="left", fontSize=13, fontWeight="bold", aria=False, x=0)
        .encode(text="shown:N")
        .properties(width=520, height=18)
    )
    left = alt.vconcat(line, text, drain, spacing=20)
    return (
        alt.hconcat(left, curve, spacing=30).add_params(*params).resolve_legend(color="independent")
    )


def _equivalent_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """The equivalent-DC table: per profile, the 3d6x DC closest in odds to each d20 DC."""
    import altair as alt

    lang = data.meta["lang"]
    frame = data.equivalent.assign(
        cell=lambda f: [_("DC {dc}").format(dc=d) for d in f.dc_3d6x],
        odds=lambda f: [
            _("{p3} vs {p20}").format(p3=shown_percent(a, lang), p20=shown_percent(b, lang))
            for a, b in zip(f.p_3d6x, f.p_d20)
        ],
        row=lambda f: [
            _("{band} (d20 DC {dc})").format(band=b, dc=d) for b, d in zip(f.label, f.d20_dc)
        ],
        gap_points=lambda f: (100 * f.gap).round(1),
        note=lambda f: [_(n) if n else "" for n in f.note],
        description=lambda f: "equivalent @ " + f.profile + " @ " + f.difficulty,
    )
    rows = list(frame.drop_duplicates("order").row)
    base = alt.Chart(alt.Data(values=_records(frame))).encode(
        x=alt.X(
            "profile:N",
            title=None,
            sort=list(frame.profile.unique()),
            axis=alt.Axis(orient="top", labelAngle=0, labelFontWeight="bold"),
        ),
        y=alt.Y("row:N", title=None, sort=rows, axis=alt.Axis(labelFontWeight="bold")),
    )
    heat = base.mark_rect(stroke="white").encode(
        color=alt.Color(
            "gap_points:Q",
            title=_("3d6x − d20 (points)"),
            scale=alt.Scale(scheme="redblue", domain=[-15, 15], clamp=True),
        ),
        tooltip=[
            alt.Tooltip("profile:N", title=_("profile")),
            alt.Tooltip("label:N", title=_("difficulty")),
            alt.Tooltip("d20_dc:Q", title=_("d20 DC")),
            alt.Tooltip("dc_3d6x:Q", title=_("3d6x DC")),
            alt.Tooltip("odds:N", title=_("3d6x vs d20")),
            alt.Tooltip("note:N", title=_("note")),
        ],
    )
    dc = base.mark_text(fontSize=14, fontWeight="bold", dy=-8).encode(
        text="cell:N", description="description:N"
    )
    odds = base.mark_text(fontSize=11, dy=10, color="#222").encode(text="odds:N")
    return (heat + dc + odds).properties(
        width=170 * frame.profile.nunique(),
        height=55 * len(rows),
        title=_("d20 DC → the 3d6x DC with the closest odds (3d6x odds vs d20 odds)"),
    )


def _day_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """The party's day per policy: gauge depletion curves and success by roll type."""
    import altair as alt

    lang = data.meta["lang"]
    pol = alt.param(
        name="day_policy",
        value=OWN_POLICIES,
        bind=alt.binding_select(
            options=[OWN_POLICIES, *(c.key for c in POLICY_CHOICES)],
            labels=[_(OWN_POLICIES)] + [c.label(lang) for c in POLICY_CHOICES],
            name=_("the party's rule-of-1 policy") + " ",
            element="#controls-day",
        ),
    )
    picked = "datum.policy == day_policy"
    empty = alt.Chart(alt.Data(values=_records(data.day_empty))).transform_filter(picked)
    x = alt.X("roll:Q", title=_("roll of the day"))
    series = alt.Color(
        "series:N",
        title=_("gauge"),
        legend=alt.Legend(
            orient="top-left", symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=3
        ),
    )
    band = empty.mark_area(opacity=0.2).encode(
        x=x, y=alt.Y("ci_low:Q", stack=None), y2="ci_high:Q", color=series
    )
    line = (
        empty.transform_calculate(shown=_vega_percent("p", lang))
        .mark_line()
        .encode(
            x=x,
            y=alt.Y(
                "p:Q",
                title=_("P(gauge empty after this roll)"),
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=series,
            tooltip=[
                alt.Tooltip("series:N", title=_("gauge")),
                alt.Tooltip("roll:Q", title=_("roll of the day")),
                alt.Tooltip("shown:N", title=_("P(empty)")),
            ],
        )
    )
    depletion = (band + line).properties(
        width=430, height=300, title=_("Gauges running dry over the day")
    )

    states = [_(s) for s in GAUGE_STATES]
    types = (
        alt.Chart(alt.Data(values=_records(data.day_types)))
        .transform_filter(picked)
        .transform_calculate(
            shown=_vega_percent("p", lang), cell="'day @ ' + datum.type + ' @ ' + datum.state"
        )
    )
    y = alt.Y("type_label:N", title=None, axis=alt.Axis(labelLimit=260))
    y_off = alt.YOffset("state_label:N", sort=states)
    colour = alt.Color(
        "state_label:N",
        title=None,
        scale=alt.Scale(domain=states, range=["#1f5fa8", "#c0392b"]),
        legend=alt.Legend(orient="top"),
    )
    bars = types.mark_bar().encode(
        y=y,
        yOffset=y_off,
        x=alt.X(
            "p:Q", title=_("P(success)"), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])
        ),
        color=colour,
        tooltip=[
            alt.Tooltip("type_label:N", title=_("roll type")),
            alt.Tooltip("state_label:N", title=_("gauge")),
            alt.Tooltip("rolls:Q", title=_("rolls in all days"), format=",d")
            if data.meta.get("day_method") == "simulate"
            else alt.Tooltip("rolls:Q", title=_("expected rolls per day"), format=",.2f"),
            alt.Tooltip("shown:N", title=_("P(success)")),
        ],
    )
    whiskers = types.mark_rule(color="#333").encode(
        y=y, yOffset=y_off, x="ci_low:Q", x2="ci_high:Q"
    )
    labels = types.mark_text(align="left", dx=3, fontSize=10).encode(
        y=y, yOffset=y_off, x="ci_high:Q", text="shown:N", description="cell:N"
    )
    success = (bars + whiskers + labels).properties(
        width=330, height=300, title=_("Success by roll type, its gauge empty or not")
    )

    names = {"empty_text": _("P(empty by evening)"), "drain_text": _("drain per day")}
    gauges = (
        alt.Chart(alt.Data(values=_records(data.day_gauges)))
        .transform_filter(picked)
        .transform_calculate(
            empty_text=_vega_percent("p_empty", lang), drain_text="format(datum.caused_mean, '.1f')"
        )
        .transform_fold(["empty_text", "drain_text"], as_=["part", "text"])
        .transform_calculate(
            column=f"({json.dumps(names)})[datum.part]",
            cell="'gauge @ ' + datum.who + ' @ ' + datum.part",
        )
    )
    table = (
        gauges.mark_text(fontSize=12)
        .encode(
            x=alt.X(
                "column:N",
                title=None,
                sort=list(names.values()),
                axis=alt.Axis(orient="top", labelAngle=0, labelFontWeight="bold"),
            ),
            y=alt.Y("who:N", title=None, axis=alt.Axis(labelFontWeight="bold", labelLimit=260)),
            text="text:N",
            description="cell:N",
        )
        .properties(
            width=260,
            height=30 * max(1, data.day_gauges.drop_duplicates(["character", "gauge"]).shape[0]),
            title=_("The gauges' fate at the end of the day"),
        )
    )
    # concatenated views share colour scales by default: gauges and states have their own
    top = alt.hconcat(depletion, success, spacing=40).resolve_scale(color="independent")
    return alt.vconcat(top, table, spacing=30).add_params(pol)


def explorer_charts(data: ExplorerData) -> dict[str, Any]:
    """The explorer's views as Altair charts, by section id: ``roll``, ``equivalent``, ``day``."""
    _ = i18n.translator(data.meta["lang"])
    charts = {"roll": _roll_chart(data, _), "equivalent": _equivalent_chart(data, _)}
    if not data.day_empty.empty:
        charts["day"] = _day_chart(data, _)
    return charts
