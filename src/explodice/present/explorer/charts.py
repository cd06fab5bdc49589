"""The explorer's charts: Vega-Lite views built with Altair from the precomputed tables of
:class:`~explodice.present.explorer.data.ExplorerData`; their controls (Vega-Lite parameters
bound to inputs) only filter and redraw those tables.

- ``roll``: one roll against the DC table and the "at least" curve, 3d6x beside d20, with the
  expected drain;
- ``equivalent``: the 3d6x DC closest in odds to each d20 DC, per profile;
- ``day``: the party's day per policy (gauges running dry, success by roll type);
- ``bestiary``: a monster picker: the chosen monster's chances against the level-matched
  reference builds, 5e beside its flat 3d6x conversion.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

import pandas as pd

from explodice.game.build import LEVELS
from explodice.game.rules import ADVANTAGE_STATES
from explodice.present import i18n
from explodice.present.explorer.data import CURVE_DCS, SLIDER, ExplorerData
from explodice.present.explorer.keys import POLICY_CHOICES, choice_label
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import ABILITY, MODIFIER_CHOICE, OWN_POLICIES

__all__ = ["explorer_charts", "shown_percent"]

SYSTEM_COLOURS = {"3d6x": "#1f5fa8", "d20": "#d2691e"}
GAUGE_STATES = ("gauge not empty", "gauge empty")


def shown_percent(p: float, lang: Lang = "en") -> str:
    """A probability as the explorer prints it: one decimal, never a false 0 % or 100 %.

    >>> shown_percent(0.49123), shown_percent(0.0002), shown_percent(0.99996)
    ('49.1%', '< 0.1%', '> 99.9%')
    """
    return i18n.percent(p, lang)


def _js(text: str) -> str:
    """A Python string as a string literal of Vega's expression language."""
    return json.dumps(text, ensure_ascii=False)


def _vega_percent(field: str, lang: Lang) -> str:
    """:func:`shown_percent` in Vega's expression language (the page's locale does the rest)."""
    d, cut = f"datum.{field}", repr(i18n.CERTAIN)  # certain within the engine's cut
    return (
        f"{d} > {cut} && {d} < 0.0005 ? {_js(i18n.percent(1e-9, lang))} : "
        f"{d} >= 0.9995 && {d} < 1 - {cut} ? {_js(i18n.percent(1 - 1e-9, lang))} : "
        f"format({d} <= {cut} ? 0 : {d} >= 1 - {cut} ? 1 : {d}, '.1%')"
    )


#: A table of at least this many rows is held aside while the charts are built (one row
#: stands in for it) and put in the specification at the end (:func:`explorer_specs`): Altair
#: copies a chart's data whole at each step that builds it, and validates every row. Every
#: table with a row (200 rows and more before: the small ones cost 0.07 s of CPU too).
HOLD_ROWS = 1
_HELD: list[dict[str, list[dict[str, Any]]]] = []


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    values: list[dict[str, Any]] = json.loads(frame.to_json(orient="records"))
    if not _HELD or len(values) < HOLD_ROWS:
        return values
    key = f"explodice-held-{len(_HELD[-1])}"
    _HELD[-1][key] = values
    return [{"@held": key}]


def dataset_name(values: Any) -> str:
    """The name Altair gives a table it moves to the specification's ``datasets``: a hash of
    its rows (``altair.vegalite.v6.api._dataset_name``)."""
    if values == [{}]:
        return "empty"
    text = json.dumps(values, sort_keys=True, default=str)
    return "data-" + hashlib.sha256(text.encode()).hexdigest()[:32]


def _fill(spec: Any, held: dict[str, list[dict[str, Any]]], names: dict[str, str]) -> Any:
    """``spec`` with each held table's stand-in replaced by its rows, and the name of a
    dataset made of a stand-in by the name of its rows (the rows are not walked)."""
    if isinstance(spec, dict):
        return {names.get(k, k): _fill(v, held, names) for k, v in spec.items()}
    if isinstance(spec, list):
        if len(spec) == 1 and isinstance(spec[0], dict) and set(spec[0]) == {"@held"}:
            return held[spec[0]["@held"]]
        return [_fill(v, held, names) for v in spec]
    if isinstance(spec, str):
        return names.get(spec, spec)
    return spec


def explorer_specs(data: ExplorerData) -> dict[str, dict[str, Any]]:
    """The explorer's views as Vega-Lite specifications (:func:`explorer_charts`'s charts,
    ``to_dict``), their tables held aside while Altair builds them: the same specification,
    built in a fraction of the time. Altair's check of the whole specification against the
    Vega-Lite schema is left out (0.07 s of CPU): the charts' structure is this module's
    code (a configuration changes names and numbers), and the tests check it (``to_dict()``)."""
    held: dict[str, list[dict[str, Any]]] = {}
    _HELD.append(held)
    try:
        specs = {k: c.to_dict(validate=False) for k, c in explorer_charts(data).items()}
    finally:
        _HELD.remove(held)
    names = {dataset_name([{"@held": k}]): dataset_name(v) for k, v in held.items()}
    return {k: _fill(s, held, names) for k, s in specs.items()}


def _roll_params(data: ExplorerData, _: Callable[[str], str]) -> list[Any]:
    """The roll view's controls: who rolls, the modifier, advantage, the disadvantage reading,
    the rule-of-1 policy and, with builds, the builds' level."""
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
            labels=[_(OWN_POLICIES)] + [choice_label(c, lang) for c in POLICY_CHOICES],
            name=_("rule of 1") + " ",
            element=here,
        ),
    )
    params = [who, mod, adv, read, pol]
    if not data.build_levels.empty:  # the builds' level: picks their modifiers in build_levels
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
    return params


def _chosen(chart: Any, data: ExplorerData) -> Any:
    """The chosen subject's class and modifiers joined to each row of ``chart``: a build's at
    the chosen level (``lmod3``, ``lmod20``), a character's as it is."""
    import altair as alt

    chart = chart.transform_calculate(who="who").transform_lookup(
        lookup="who",
        from_=alt.LookupData(
            alt.Data(values=_records(data.subjects)), "who", ["mod3", "mod20", "cls", "label"]
        ),
        as_=["mod3", "mod20", "subject_cls", "subject_label"],
    )
    if data.build_levels.empty:
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


def _roll_rows(data: ExplorerData) -> Any:
    """The rows of the roll table for the chosen subject, advantage, reading and policy, each
    with its DC (``need`` plus the chosen modifier)."""
    import altair as alt

    return (
        # inline data Altair moves to the view's datasets: one copy for its three charts
        _chosen(alt.Chart(alt.InlineData(values=_records(data.roll))), data)
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


#: The DCs the roll view's curves show.
_IN_CURVE = f"datum.dc >= {min(CURVE_DCS)} && datum.dc <= {max(CURVE_DCS)}"


def _dc_axis(_: Callable[[str], str]) -> Any:
    import altair as alt

    return alt.X("dc:Q", title=_("DC"), scale=alt.Scale(domain=[0, 50], nice=False))


def _at_least_curve(base: Any, lang: Lang, _: Callable[[str], str]) -> Any:
    """P(total >= DC) against the DC, one line per system."""
    import altair as alt

    system_colour = alt.Color(
        "system:N",
        scale=alt.Scale(domain=list(SYSTEM_COLOURS), range=list(SYSTEM_COLOURS.values())),
        legend=alt.Legend(title=None, orient="top-right"),
    )
    return (
        base.transform_filter(_IN_CURVE)
        .transform_calculate(shown=_vega_percent("p", lang))
        .transform_calculate(
            description="'bestiary @ ' + datum.row + ' @ ' + datum.system + ' @ ' + datum.shown"
        )
        .mark_line(point=alt.OverlayMarkDef(size=14), interpolate="step-after")
        .encode(
            x=_dc_axis(_),
            y=alt.Y("p:Q", title=_("P(total ≥ DC)"), axis=alt.Axis(format="%")),
            color=system_colour,
            tooltip=[
                alt.Tooltip("system:N", title=_("system")),
                alt.Tooltip("dc:Q", title=_("DC")),
                alt.Tooltip("shown:N", title=_("P(success)")),
            ],
        )
        .properties(width=430, height=400, title=_("Success against every DC ('at least')"))
    )


def _drain_curve(base: Any, _: Callable[[str], str]) -> Any:
    """3d6x's expected drain of one roll (rule of 1) against the DC."""
    import altair as alt

    return (
        base.transform_filter(f"datum.system == '3d6x' && {_IN_CURVE}")
        .mark_line(color=SYSTEM_COLOURS["3d6x"], interpolate="step-after")
        .encode(
            x=_dc_axis(_),
            y=alt.Y("drain:Q", title=_("expected drain (points)"), scale=alt.Scale(zero=True)),
            tooltip=[
                alt.Tooltip("dc:Q", title=_("DC")),
                alt.Tooltip("drain:Q", title=_("expected drain"), format=".2f"),
            ],
        )
        .properties(
            width=520, height=120, title=_("3d6x: expected drain of one roll (rule of 1), by DC")
        )
    )


def _dc_table(base: Any, data: ExplorerData, lang: Lang, _: Callable[[str], str]) -> Any:
    """The DC table as text: rows are the difficulty bands, columns each system's DC and odds
    (and 3d6x's expected drain)."""
    import altair as alt

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
    return text.properties(width=520, height=220, title=_("The DC table: each band in each system"))


def _who_line(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """Who rolls, with which modifier: a build's at the chosen level."""
    import altair as alt

    level_word = _js(_("level") + " ")
    return (
        _chosen(alt.Chart(alt.Data(values=[{"row": 0}])), data)
        .transform_calculate(
            m3=f"who == {_js(MODIFIER_CHOICE)} ? mod : datum.m3",
            m20=f"who == {_js(MODIFIER_CHOICE)} ? mod : datum.m20",
        )
        .transform_calculate(
            shown="datum.subject_label + "
            + (
                f"(isValid(datum.lmod3) ? ', ' + {level_word} + build_level : '')"
                if not data.build_levels.empty
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


def _roll_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """One roll: the DC table and the "at least" curve, 3d6x beside d20, with the drain."""
    import altair as alt

    lang = data.meta["lang"]
    params = _roll_params(data, _)
    base = _roll_rows(data)
    curve = _at_least_curve(base, lang, _)
    drain = _drain_curve(base, _)
    text = _dc_table(base, data, lang, _)
    line = _who_line(data, _)
    left = alt.vconcat(line, text, drain, spacing=20)
    return (
        alt.hconcat(left, curve, spacing=30).add_params(*params).resolve_legend(color="independent")
    )


def _equivalent_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """The equivalent-DC table: per profile, the 3d6x DC closest in odds to each d20 DC."""
    import altair as alt

    fmt = Formatter(data.meta["lang"])  # exact: a certain d20 DC is 100%
    # a d20 DC the profile cannot reach has no 3d6x DC (the question leaves it missing)
    frame = data.equivalent.assign(
        cell=lambda f: [  # certain in d20: any 3d6x DC up to the one found, in words
            _("impossible in d20")
            if pd.isna(d)
            else fmt.equivalent_dc(d, n)
            if n
            else _("DC {dc}").format(dc=d)
            for d, n in zip(f.dc_3d6x, f.note)
        ],
        odds=lambda f: [
            _("{p3} vs {p20}").format(
                p3="—" if pd.isna(a) else fmt.cell(a, "probability"),
                p20=fmt.cell(b, "probability"),
            )
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
            alt.Tooltip("cell:N", title=_("3d6x DC")),  # in words where it is a bound
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


#: The rows of the day's tables for the policy chosen.
_PICKED = "datum.policy == day_policy"


def _depletion_chart(data: ExplorerData, lang: Lang, _: Callable[[str], str]) -> Any:
    """The chosen policy's gauges: P(empty after each roll of the day), with its interval."""
    import altair as alt

    empty = alt.Chart(alt.Data(values=_records(data.day_empty))).transform_filter(_PICKED)
    x = alt.X("roll:Q", title=_("roll of the day"))
    series = alt.Color(
        "series:N",
        title=_("gauge"),
        # 20 colours: a party's gauges (12 for three characters) never share one, where the
        # default 10-colour palette gave two gauges the same
        scale=alt.Scale(scheme="tableau20"),
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
    return (band + line).properties(
        width=430, height=300, title=_("Gauges running dry over the day")
    )


def _success_by_type(data: ExplorerData, lang: Lang, _: Callable[[str], str]) -> Any:
    """The chosen policy's P(success) by roll type, its gauge empty or not, with its
    interval."""
    import altair as alt

    states = [_(s) for s in GAUGE_STATES]
    types = (
        alt.Chart(alt.Data(values=_records(data.day_types)))
        .transform_filter(_PICKED)
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
    return (bars + whiskers + labels).properties(
        width=330, height=300, title=_("Success by roll type, its gauge empty or not")
    )


def _gauges_table(data: ExplorerData, lang: Lang, _: Callable[[str], str]) -> Any:
    """The chosen policy's gauges at the end of the day: P(empty), drain per day."""
    import altair as alt

    names = {"empty_text": _("P(empty by evening)"), "drain_text": _("drain per day")}
    gauges = (
        alt.Chart(alt.Data(values=_records(data.day_gauges)))
        .transform_filter(_PICKED)
        .transform_calculate(
            empty_text=_vega_percent("p_empty", lang), drain_text="format(datum.caused_mean, '.1f')"
        )
        .transform_fold(["empty_text", "drain_text"], as_=["part", "text"])
        .transform_calculate(
            column=f"({json.dumps(names)})[datum.part]",
            cell="'gauge @ ' + datum.who + ' @ ' + datum.part",
        )
    )
    return (
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


def _day_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """The party's day per policy: gauge depletion curves and success by roll type."""
    import altair as alt

    lang = data.meta["lang"]
    pol = alt.param(
        name="day_policy",
        value=OWN_POLICIES,
        bind=alt.binding_select(
            options=[OWN_POLICIES, *(c.key for c in POLICY_CHOICES)],
            labels=[_(OWN_POLICIES)] + [choice_label(c, lang) for c in POLICY_CHOICES],
            name=_("the party's rule-of-1 policy") + " ",
            element="#controls-day",
        ),
    )
    depletion = _depletion_chart(data, lang, _)
    success = _success_by_type(data, lang, _)
    table = _gauges_table(data, lang, _)
    # concatenated views share colour scales by default: gauges and states have their own
    top = alt.hconcat(depletion, success, spacing=40).resolve_scale(color="independent")
    return alt.vconcat(top, table, spacing=30).add_params(pol)


def _bestiary_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """The monster picker: one monster's chances (the mean over the reference builds at its
    level), 5e and 3d6x side by side, with its AC and VD."""
    import altair as alt

    from explodice.game.bestiary import SRD_SOURCE
    from explodice.present.plots.bestiary import CHANCE_LABELS

    lang = data.meta["lang"]
    fmt = Formatter(lang)
    frame = data.bestiary.assign(
        # a designer's monster says where it comes from: it may share a name with the SRD's
        monster=lambda f: [
            _("{name} (FP {fp}, AC {ac} → VD {vd})").format(name=n, fp=fp, ac=ac, vd=vd)
            + ("" if src == SRD_SOURCE or not src else f" — {src}")
            for n, fp, ac, vd, src in zip(f.name, f.fp, f.ac, f.vd, f.source)
        ],
        row=lambda f: [
            _("{chance}: {item}").format(
                chance=_(CHANCE_LABELS[c]),
                item=ABILITY[lang].get(i, _(i)) if c == "monster_saves" else i,
            )
            if i
            else _(CHANCE_LABELS[c])
            for c, i in zip(f.chance, f["item"])
        ],
    )
    # a difference of two probabilities: percentage points, signed (each value written once:
    # a few hundred values in some 3,000 rows)
    change = functools.lru_cache(maxsize=None)(lambda c: fmt.cell(c, "change"))
    frame = frame.assign(
        change=lambda f: [change(c) for c in f.largest_change],
        build=lambda f: [_(b) for b in f.worst_build],
    )[["monster", "row", "p_d20", "p_3d6x", "change", "build"]].rename(
        columns={"p_d20": "d20", "p_3d6x": "3d6x"}
    )
    names = sorted(frame.monster.unique(), key=str.casefold)
    first = next((n for n in names if n.startswith("Goblin ")), names[0])
    pick = alt.param(
        name="monster",
        value=first,
        bind=alt.binding_select(options=names, name=_("monster") + " "),
    )
    chart = (
        alt.Chart(alt.Data(values=_records(frame)))
        .transform_filter("datum.monster == monster")
        .transform_fold(["d20", "3d6x"], as_=["system", "p"])
        .transform_calculate(shown=_vega_percent("p", lang))
        .transform_calculate(
            description="'bestiary @ ' + datum.row + ' @ ' + datum.system + ' @ ' + datum.shown"
        )
        .mark_point(filled=True, size=70)
        .encode(
            x=alt.X("p:Q", title=_("P"), scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
            y=alt.Y("row:N", title=None, sort=None, axis=alt.Axis(labelLimit=380)),
            description="description:N",
            color=alt.Color(
                "system:N",
                title=_("system"),
                scale=alt.Scale(domain=list(SYSTEM_COLOURS), range=list(SYSTEM_COLOURS.values())),
            ),
            tooltip=[
                alt.Tooltip("row:N", title=_("chance")),
                alt.Tooltip("system:N", title=_("system")),
                alt.Tooltip("shown:N", title=_("P")),
                alt.Tooltip("change:N", title=_("largest change")),
                alt.Tooltip("build:N", title=_("build")),
            ],
        )
        .add_params(pick)
    )
    return chart.properties(
        width=520, title=_("The chosen monster against the reference builds at its level")
    )


def _attack_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """An attack: P(hit) and P(critical) by AC (or the VD it reads), 3d6x beside d20, for the
    chosen attack modifier, advantage state, reading of disadvantage and 3d6x critical."""
    import altair as alt

    from explodice.present.plots.combat import reading_label

    lang = data.meta["lang"]
    here = "#controls-attack"
    mods = sorted(set(data.attack.modifier))
    params = [
        alt.param(name="atk_mod", value=5, bind=alt.binding_range(
            min=mods[0], max=mods[-1], step=1, name=_("attack modifier") + " ", element=here)),
        alt.param(name="atk_adv", value="normal", bind=alt.binding_radio(
            options=list(ADVANTAGE_STATES), labels=[_(a) for a in ADVANTAGE_STATES],
            name=_("advantage") + " ", element=here)),
        alt.param(name="atk_reading", value=data.meta["switches"]["disadvantage"],
                  bind=alt.binding_radio(options=["subtract", "drop"],
                                         labels=[_("subtract"), _("drop")],
                                         name=_("disadvantage reading") + " ", element=here)),
        alt.param(name="atk_crit", value=data.meta.get("critical", "none"), bind=alt.binding_select(
            options=[c for c in dict.fromkeys(data.attack.critical) if c != "-"],
            labels=[_("none") if c == "none" else reading_label(
                c if not c.isdigit() else f"margin {c}", lang)
                for c in dict.fromkeys(data.attack.critical) if c != "-"],
            name=_("3d6x critical") + " ", element=here)),
        alt.param(name="atk_axis", value="ac", bind=alt.binding_radio(
            options=["ac", "vd"], labels=[_("5e AC"), _("3d6x VD")],
            name=_("target") + " ", element=here)),
    ]  # fmt: skip
    base = (
        alt.Chart(alt.InlineData(values=_records(data.attack)))
        .transform_calculate(
            chosen_state="atk_adv == 'disadvantage' ? 'disadvantage (' + atk_reading + ')' "
            ": atk_adv",
            target="atk_axis == 'vd' ? datum.vd : datum.ac",
            hit_text=_vega_percent("p_hit", lang),
            crit_text=_vega_percent("p_crit", lang),
        )
        .transform_calculate(
            hit_key="'hit @ ' + datum.system + ' @ ' + datum.target + ' = ' + datum.hit_text",
            crit_key="'crit @ ' + datum.system + ' @ ' + datum.target + ' = ' + datum.crit_text",
        )
        .transform_filter(
            "datum.modifier == atk_mod && datum.state == datum.chosen_state"
            " && (datum.system == 'd20' || datum.critical == atk_crit)"
        )
    )
    colour = alt.Color(
        "system:N",
        scale=alt.Scale(domain=list(SYSTEM_COLOURS), range=list(SYSTEM_COLOURS.values())),
        # bottom left: the curves fall from the top left, and the legend hid the 90% tick
        legend=alt.Legend(title=None, orient="bottom-left"),
    )
    x = alt.X("target:Q", title=_("target (5e AC, or the 3d6x VD it reads)"))
    tooltip = [
        alt.Tooltip("system:N", title=_("system")),
        alt.Tooltip("ac:Q", title=_("5e AC")),
        alt.Tooltip("vd:Q", title=_("3d6x VD")),
        alt.Tooltip("hit_text:N", title=_("P(hit)")),
        alt.Tooltip("crit_text:N", title=_("P(critical)")),
    ]
    hit = base.mark_line(point=alt.OverlayMarkDef(size=14)).encode(
        x=x, y=alt.Y("p_hit:Q", title=_("P(hit)"), axis=alt.Axis(format="%")),
        color=colour, tooltip=tooltip, description="hit_key:N",
    ).properties(width=430, height=320, title=_("P(hit) against each target"))  # fmt: skip
    crit = base.mark_line(point=alt.OverlayMarkDef(size=14)).encode(
        # whole percents, as on every other axis (not 5.0%)
        x=x, y=alt.Y("p_crit:Q", title=_("P(critical)"),
                     axis=alt.Axis(format=".0%", tickMinStep=0.01)),
        color=colour, tooltip=tooltip, description="crit_key:N",
    ).properties(width=430, height=320,
                 title=_("P(critical): the 3d6x reading beside the natural 20"))  # fmt: skip
    return alt.hconcat(hit, crit, spacing=30).add_params(*params)


def explorer_charts(data: ExplorerData) -> dict[str, Any]:
    """The explorer's views as Altair charts, by section id: ``roll``, ``equivalent``, ``day``,
    ``attack``."""
    _ = i18n.translator(data.meta["lang"])
    charts = {"roll": _roll_chart(data, _), "equivalent": _equivalent_chart(data, _)}
    if not data.day_empty.empty:
        charts["day"] = _day_chart(data, _)
    if not data.bestiary.empty:
        charts["bestiary"] = _bestiary_chart(data, _)
    if not data.attack.empty:
        charts["attack"] = _attack_chart(data, _)
    return charts
