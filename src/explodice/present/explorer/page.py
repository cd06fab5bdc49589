"""The explorer's page: one HTML file, Vega, Vega-Lite and vega-embed inlined (from
``vl-convert-python``'s bundle, :mod:`.bundle`), the charts' specifications and their data
inside, nothing fetched when it opens; :func:`write_explorer` writes it whole or not at all.

Every name a designer writes is data: escaped in the page's text and attributes
(:func:`html.escape`), and in the JSON of its scripts (:func:`script_json`: no name can close
the script or open a comment).
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from explodice.core.errors import ExplodiceError
from explodice.core.files import atomic_write_text, check_writable
from explodice.present import i18n
from explodice.present.explorer.bundle import vega_bundle, vega_lite_version
from explodice.present.explorer.charts import explorer_specs
from explodice.present.explorer.data import ExplorerData, explorer_data
from explodice.present.i18n import Lang
from explodice.present.labels import (
    MODIFIER_CHOICE,
    OWN_POLICIES,
    day_description,
    reading_line,
    srd_attribution,
)

__all__ = ["EXPLORER_NAME", "explorer_html", "script_json", "write_explorer"]

EXPLORER_NAME = "explorer.html"

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: #1b1b1b; background: #fafafa; }
header, section, footer { max-width: 1180px; margin: 0 auto; padding: 12px 24px; }
header { border-bottom: 1px solid #ddd; }
h1 { font-size: 1.6em; margin: 0.3em 0; } h2 { font-size: 1.25em; margin: 0.6em 0 0.2em; }
p.lead { color: #333; max-width: 75em; line-height: 1.4; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 14px;
          font-size: 0.9em; margin: 8px 0; }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; font-family: ui-monospace, monospace; }
.controls { display: flex; flex-wrap: wrap; gap: 6px 22px; padding: 10px 14px;
            background: #eef3f9; border: 1px solid #cdd9e6; border-radius: 6px;
            position: sticky; top: 0; z-index: 5; font-size: 0.95em; }
.controls .vega-bind-name { font-weight: 600; }
.controls select { max-width: 22em; }
.view { background: white; border: 1px solid #e2e2e2; border-radius: 6px; padding: 10px;
        margin-top: 10px; overflow-x: auto; }
footer { color: #555; font-size: 0.85em; border-top: 1px solid #ddd; }
ul.notes { max-width: 75em; margin: 4px 0 10px; padding: 6px 14px 6px 30px; line-height: 1.4;
           background: #fff8e6; border: 1px solid #ecd9a8; border-radius: 6px; }
"""


#: Characters of JSON that could end or change the <script> it is written in, and their
#: escapes (the same string in JSON): ``</script>``, ``<!--``, and the line separators that
#: old JavaScript engines end a string at.
_SCRIPT_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe inside an HTML ``<script>``: every ``<``, ``>``, ``&``,
    U+2028 and U+2029 written as a ``\\u`` escape (JSON holds them only inside strings, where
    the escape is the same character).

    >>> script_json({"name": "</script><h1>x</h1>"})
    '{"name": "\\\\u003c/script\\\\u003e\\\\u003ch1\\\\u003ex\\\\u003c/h1\\\\u003e"}'
    """
    text = json.dumps(value, ensure_ascii=False)
    for char, escape in _SCRIPT_ESCAPES.items():
        text = text.replace(char, escape)
    return text


#: With a character chosen as who rolls, the modifier slider is disabled and shows the
#: character's modifier (it moves only the slider's own roll); choosing the slider again
#: brings back its value. ``SUBJECTS``: each character subject's modifier, as shown.
_SLIDER_SCRIPT = """
  window.explodiceReady.then(() => {
    const view = views['roll'];
    const input = document.querySelector('#controls-roll input[name=mod]');
    if (!view || !input) return;
    const shown = input.nextElementSibling;
    const subjects = SUBJECTS;
    const sync = (who) => {
      const own = subjects[who];
      input.disabled = own !== undefined;
      input.title = own === undefined ? '' : own.title;
      if (own === undefined) {
        input.value = view.signal('mod');
        if (shown) shown.textContent = view.signal('mod');
      } else {
        input.value = Math.min(Math.max(own.mod, +input.min), +input.max);
        if (shown) shown.textContent = own.text;
      }
    };
    view.addSignalListener('who', (name, who) => sync(who));
    sync(view.signal('who'));
  });
"""


def _slider_script(data: ExplorerData, _: Callable[[str], str]) -> str:
    subjects = {
        s["who"]: {
            "mod": int(s["mod3"]),
            "text": s["modifier_text"],
            "title": _(
                "{who}: the modifier is the character's; choose “{slider}” to move it"
            ).format(who=s["label"], slider=_(MODIFIER_CHOICE)),
        }
        for s in data.subjects.to_dict("records")
        if s["who"] != MODIFIER_CHOICE
    }
    return _SLIDER_SCRIPT.replace("SUBJECTS", script_json(subjects))


def _meta_html(meta: dict[str, Any], _: Callable[[str], str]) -> str:
    lang = meta["lang"]
    rows = [
        (_("explodice version"), meta["version"]),
        (_("written on"), i18n.date(meta["date"], lang)),
        (_("configuration"), _(meta["source"])),
        (_("seed"), meta["seed"]),
    ]
    # every switch of the rules, in its declared words, as the title page lists them
    # (game/rules.py ``switches()``): a new switch appears here by itself
    for name, value in meta["rules_values"].items():
        question, answer = reading_line(name, value, lang)
        if name == "disadvantage":
            answer = _("{reading} (the page's reading control can change it)").format(
                reading=answer
            )
        rows.append((question, answer))
    return (
        "<dl class='meta'>"
        + "".join(f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(str(v))}</dd>" for k, v in rows)
        + "</dl>"
    )


def _day_section(meta: dict[str, Any], charted: bool, lang: Lang, _: Callable[[str], str]) -> str:
    """The page's section of the party's day: its lead and its view when ``charted``, else
    why it is not computed (empty when the configuration has no day)."""
    esc = html.escape
    day_section = ""
    if meta.get("day_not_computed"):  # the day engines would ignore a reading of the rules
        day_section = f"""
<section id="day-section">
  <h2>{esc(_("3. The party's day"))}</h2>
  <p class="lead">{esc(_("The day is not computed: {reason}.").format(reason=meta["day_not_computed"]))}</p>
</section>"""
    if charted:
        day_lead = day_description(meta["day"], meta["party"], meta["rolls_per_day"], lang)
        if meta.get("day_method") == "simulate":
            day_method = _(
                "Each policy's day is <b>simulated</b>: {days} days with seed {seed} "
                "(explodice day --exact computes it exactly); the bands and the bars' whiskers are 95% Wilson "
                "intervals (a roll type rarely made with its gauge empty has a wide one). A gauge at "
                '0 puts every roll of its abilities at disadvantage. "{own}" plays the '
                "configuration's policies; the others give every character the same one."
            )
        else:
            day_method = _(
                "Each policy's day is computed <b>exactly</b> (a Markov chain on the gauges' "
                "levels, no sampling: the same numbers as the report's day page and explodice "
                "day). Every gauge that can empty is drawn, by its own rolls or by another "
                "gauge's overflow. A gauge at 0 puts every roll of its abilities at "
                'disadvantage. "{own}" plays the configuration\'s policies; the others give '
                "every character the same one."
            )
        day_method = day_method.format(
            days=esc(i18n.number(meta["days"], lang, 0)),
            seed=meta["seed"],
            own=esc(_(OWN_POLICIES)),
        )
        day_heading = _("3. The party's day")
        day_section = f"""
<section id="day-section">
  <h2>{esc(day_heading)}</h2>
  <p class="lead">{esc(day_lead)} {day_method}</p>
  <div class="controls" id="controls-day"></div>
  <div class="view" id="view-day"></div>
</section>"""
    return day_section


def _bestiary_section(charted: bool, lang: Lang, _: Callable[[str], str]) -> str:
    """The page's section of the bestiary, when ``charted``."""
    esc = html.escape
    bestiary_section = ""
    if charted:
        bestiary_lead = _(
            "Choose a monster (the configuration's own, then the SRD 5.1's, names as the SRD "
            "writes them, in English): its chances against the reference builds at the level "
            "of its FP (the mean over the builds), in 5e and converted flat to 3d6x (VD = AC − "
            "10 + defence base + WIS; a save DC of DC − 8 + the 3d6x save base). The tooltip "
            "gives the largest change for one build. explodice bestiary lists them all."
        )
        bestiary_heading = _("5. The bestiary")
        bestiary_section = f"""
<section id="bestiary-section">
  <h2>{esc(bestiary_heading)}</h2>
  <p class="lead">{esc(bestiary_lead)}</p>
  <p class="attribution" id="srd-attribution">{esc(srd_attribution(lang))}</p>
  <div class="view" id="view-bestiary"></div>
</section>"""
    return bestiary_section


def _attack_section(meta: dict[str, Any], charted: bool, _: Callable[[str], str]) -> str:
    """The page's section of one attack against the defence value, when ``charted``."""
    esc = html.escape
    attack_section = ""
    if charted:
        attack_lead = _(
            "One attacker (its modifier: ability + PB × proficiency + other) against every 5e "
            "AC and the VD it reads in 3d6x (VD = AC − 10 + {base} + the target's WIS, here 0), "
            "for the advantage state and the reading of disadvantage chosen: P(hit) in both "
            "systems, and P(critical) under the 3d6x reading chosen beside the d20's natural 20 "
            "(a natural 1 misses, a natural 20 hits). Exact."
        ).format(base=meta.get("defence_base", ""))
        attack_heading = _("4. An attack against the defence value")
        attack_section = f"""
<section id="attack-section">
  <h2>{esc(attack_heading)}</h2>
  <p class="lead">{esc(attack_lead)}</p>
  <div class="controls" id="controls-attack"></div>
  <div class="view" id="view-attack"></div>
</section>"""
    return attack_section


def _roll_lead(meta: dict[str, Any], _: Callable[[str], str]) -> str:
    """The lead paragraph of the roll's section (HTML)."""
    esc = html.escape
    roll_lead = _(
        "Choose who rolls (a bare modifier from the slider, or a character's skill or "
        "save), the advantage state, the reading of disadvantage (<i>subtract</i>: 3 "
        "dice minus an exploding malus die; <i>drop</i>: 2 dice) and the rule-of-1 "
        "policy (<i>keep</i> every 1, <i>cancel</i> each 1 against a 6, or "
        "<i>best(λ)</i>: the cancellations that maximise P(success) − λ·E[drain] for "
        "that DC). The d20 reads the same modifier and advantage state. E[drain] is "
        "the expected number of gauge points one roll costs."
    )
    roll_lead += " " + _(
        'The rule-of-1 control starts at "{own}": a character or a build plays its own '
        "policy (and its reroll trait), as the report's pages do; choose another policy to "
        "see every subject play it instead (the control shows which is played)."
    ).format(own=esc(_(OWN_POLICIES)))
    if meta.get("builds"):
        roll_lead += " " + _(
            "The builds ({names}) roll at the level the level control chooses (1 to 20): "
            "their scores, increases and proficiency at that level; the line above the table "
            "shows who rolls with which modifier."
        ).format(names=esc(", ".join(meta["builds"])))
    return roll_lead


def _equivalent_lead(meta: dict[str, Any], _: Callable[[str], str]) -> str:
    """The lead paragraph of the equivalent DCs' section (HTML)."""
    esc = html.escape
    profiles = ", ".join(f"{esc(k)} {v:+d}" for k, v in meta["profiles"].items())
    equivalent_lead = _(
        "For each profile ({profiles}), rolling without advantage and keeping "
        "its 1s: which 3d6x DC gives the odds closest to each d20 DC. The "
        "colour is the remaining gap in percentage points (blue: 3d6x easier; "
        "red: harder)."
    ).format(profiles=profiles)
    return equivalent_lead


def _footer(meta: dict[str, Any], lang: Lang, _: Callable[[str], str]) -> str:
    """Who made the page, when, from what."""
    return _(
        "Made by explodice {version} on {date} from {source} (seed {seed}), with "
        "Vega-Lite through Altair. Share it as it is: one file, no server, nothing "
        "fetched."
    ).format(
        version=meta["version"],
        date=i18n.date(meta["date"], lang),
        source=_(meta["source"]),
        seed=meta["seed"],
    )


def explorer_html(data: ExplorerData) -> str:
    """The explorer page for precomputed ``data``: one HTML string, every script inlined."""
    meta = data.meta
    lang = meta["lang"]
    _ = i18n.translator(lang)
    esc = html.escape
    specs = explorer_specs(data)
    vl_version = vega_lite_version()
    bundle = vega_bundle(vl_version)
    day_section = _day_section(meta, "day" in specs, lang, _)
    embeds = "\n".join(
        f"    vegaEmbed('#view-{k}', {script_json(s)}, opts).then(r => {{ views['{k}'] = r.view; }}),"
        for k, s in specs.items()
    )
    opts = {"actions": False, "renderer": "svg", "formatLocale": i18n.d3_locale(lang)}
    title = _("{title}: the explorer").format(title=meta["title"])
    intro = _(
        "3d6x (three exploding d6, advantage as a 4th die, the rule of 1) beside the d20. "
        "Change the controls; every number was computed by explodice when this file was "
        "written and the page only filters and draws them, offline. Single rolls and "
        "equivalent DCs come from the <b>exact engine</b> (the cut of the infinite "
        "explosion leaves out less than 10⁻¹²)."
    )
    roll_lead = _roll_lead(meta, _)
    equivalent_lead = _equivalent_lead(meta, _)
    footer = _footer(meta, lang, _)
    attack_section = _attack_section(meta, "attack" in specs, _)
    bestiary_section = _bestiary_section("bestiary" in specs, lang, _)
    notes = "".join(f"\n    <li>{esc(n)}</li>" for n in meta.get("notes", ()))
    notes_html = f'\n  <ul class="notes" id="roll-notes">{notes}\n  </ul>' if notes else ""
    headings = (
        _("1. One roll against the DC table"),
        _("2. Equivalent DCs for the configuration's profiles"),
    )
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="explodice {esc(meta["version"])}">
<title>{esc(title)}</title>
<style>{_STYLE}</style>
<script>
// Vega, Vega-Lite and vega-embed (bundled by vl-convert-python, Vega-Lite
// {vl_version}), inlined so that the page needs no network.
{bundle}
</script>
</head>
<body>
<header>
  <h1>{esc(title)}</h1>
  <p class="lead">{intro}</p>
  {_meta_html(meta, _)}
</header>
<section id="roll-section">
  <h2>{esc(headings[0])}</h2>
  <p class="lead">{roll_lead}</p>{notes_html}
  <div class="controls" id="controls-roll"></div>
  <div class="view" id="view-roll"></div>
</section>
<section id="equivalent-section">
  <h2>{esc(headings[1])}</h2>
  <p class="lead">{equivalent_lead}</p>
  <div class="view" id="view-equivalent"></div>
</section>{day_section}{attack_section}{bestiary_section}
<footer>
  <p>{esc(footer)}</p>
</footer>
<script>
  const views = {{}};
  const opts = {script_json(opts)};
  window.explodiceViews = views;
  window.explodiceReady = Promise.all([
{embeds}
  ]).catch(err => {{ console.error(err); throw err; }});
{_slider_script(data, _)}</script>
</body>
</html>
"""


def write_explorer(
    config: Any = None,
    out: str | os.PathLike[str] = EXPLORER_NAME,
    *,
    lang: Lang | None = None,
    date: str | None = None,
) -> Path:
    """Write the explorer for a report configuration (a ReportConfig, a TOML path, or
    ``None`` for the embedded default) to ``out``, whole or not at all; return its path.
    ``lang``: ``"en"`` or ``"fr"`` (default: the configuration's ``lang``)."""
    if lang is not None:
        i18n.check_lang(lang)
    source = config if isinstance(config, (str, os.PathLike)) else None
    out = check_writable(out, error=ExplodiceError, what="out", inputs=(source,))
    page = explorer_html(explorer_data(config, lang=lang, date=date))
    try:
        atomic_write_text(out, page)
    except OSError as err:
        # its errno kept: a full disk is still a full disk to whoever catches it (the report)
        raise OSError(err.errno, f"cannot write the explorer to {out}: {err.strerror}") from None
    return out
