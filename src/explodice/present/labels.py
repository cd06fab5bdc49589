"""Every word explodice shows, in one home: the report, the explorer and the command line read
their labels from here.

Labels are English in the code and translated where they are shown, by the catalogue of
:mod:`explodice.present.i18n` (``_ = i18n.translator(lang)``). Three kinds live here:

- the game's words as data, each marked with :func:`N_` so that ``pybabel`` puts it in the
  catalogue: advantage states and readings, policies, rerolls, gauges, difficulties, where
  drain goes (:data:`WORDS`, :data:`OVERFLOW`, :data:`DRAIN_GAUGE`, :data:`REROLL` ...);
- the column names of the tables (:data:`COLUMNS`), translated as headers;
- functions that build a label from a result, never by editing a translated string: a policy
  (:func:`policy_label`), a test (:func:`test_label`), a day's roll type
  (:func:`roll_type_label`, :func:`roll_type_lines`), the rules switches (:func:`rules_text`).

A sentence that belongs to one page or one command (a caption, a header) stays there, in
``_()``. To add a label: write it here (a word of data, with ``N_``) or where it is shown
(with ``_()``), run ``pybabel extract`` and ``update`` (``locale/README.md``) and translate the
new entry of ``locale/fr/LC_MESSAGES/explodice.po``; ``tests/test_i18n.py`` fails until then.

>>> from explodice.game.rules import Best
>>> policy_label(Best(16, 0.05), "fr"), test_label("save WIS", "fr"), test_label("Stealth", "fr")
('meilleur(DD 16, λ=0,05)', 'sauvegarde SAG', 'Discrétion')
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from explodice.core.words import N_
from explodice.game.bestiary import SRD_ATTRIBUTION, SRD_LICENSE
from explodice.game.character import GAUGES, SKILLS_FR
from explodice.game.rules import KINDS, Advantage, Best, Disadvantage, Roll, switches
from explodice.game.switch import Switch, fill
from explodice.game.tables import DIFFICULTY_FR, HAGGLE_DCS_FR, System
from explodice.present import i18n
from explodice.present.i18n import Lang

__all__ = [
    "ABILITY",
    "COLUMNS",
    "DRAIN_GAUGE",
    "DRAIN_GAUGE_LONG",
    "MODIFIER_CHOICE",
    "N_",
    "OVERFLOW",
    "OVERFLOW_SHORT",
    "OWN_POLICIES",
    "REROLL",
    "STATES",
    "SWITCHES",
    "WORDS",
    "State",
    "best_label",
    "bid_words",
    "build_test_label",
    "day_description",
    "difficulty_label",
    "item_label",
    "policy_label",
    "roll_label",
    "roll_test_label",
    "roll_type_label",
    "roll_type_lines",
    "overflow_label",
    "reading_line",
    "rules_text",
    "switch_label",
    "switch_value",
    "test_label",
]


#: Ability abbreviations in each language (the seeds write FOR and SAG).
ABILITY = {
    "en": {a: a for a in ("STR", "DEX", "CON", "INT", "WIS", "CHA")},
    "fr": {"STR": "FOR", "DEX": "DEX", "CON": "CON", "INT": "INT", "WIS": "SAG", "CHA": "CHA"},
}
#: Every switch of the rules by name, with its declared words (``game/rules.py``).
SWITCHES: dict[str, Switch] = {sw.name: sw for sw in switches()}
#: Where drain beyond an empty gauge goes, as a reader says it (a gauge's name: see
#: :func:`overflow_label`; ``best`` is docs/rules.md's "au choix du joueur"): the answers of
#: ``Rules.overflow`` ...
OVERFLOW = dict(SWITCHES["overflow"].answers)
#: ... and its words, as a footer writes them.
OVERFLOW_SHORT = dict(SWITCHES["overflow"].words)
#: The gauge a drain hits (Rules.drain_gauge), in a word ...
DRAIN_GAUGE = dict(SWITCHES["drain_gauge"].words)
#: ... and in a phrase ("a skill check drains the skill's gauge").
DRAIN_GAUGE_LONG = dict(SWITCHES["drain_gauge"].answers)
#: A reroll's trigger as the game names it.
REROLL = {"one": N_("Lucky"), "failure": N_("reroll on failure")}
#: The explorer's subject that rolls a bare modifier, and its choice of each one's policy.
MODIFIER_CHOICE = N_("the modifier of the slider")
OWN_POLICIES = N_("each character's own")

#: Words that results and controls hold as values (advantage states and readings, policies,
#: kinds, gauge states, difficulties, sources, notes), translated where shown.
WORDS = (
    N_("normal"),
    N_("advantage"),
    N_("disadvantage"),
    N_("disadvantage (subtract)"),
    N_("disadvantage (drop)"),
    N_("subtract"),
    N_("drop"),
    N_("keep"),
    N_("cancel"),
    N_("best fixed λ"),
    N_("optimal"),
    N_("npc"),
    N_("pc"),
    N_("none"),
    N_("check"),
    N_("save"),
    N_("attack"),
    N_("gauge not empty"),
    N_("gauge empty"),
    # the difficulty bands' names: the catalogue takes them from game/tables.py (i18n.SEED_WORDS)
    N_("exact"),
    N_("simulate"),
    N_("embedded default"),
    N_("certain in d20"),
    N_("impossible in d20"),
    N_("a day"),  # the name of a day the configuration leaves unnamed
    N_("advantage, keep"),
    N_("ability"),
)

#: Column names of the tables (text tables of the command line, the report's tables).
COLUMNS = (
    N_("system"),
    N_("modifier"),
    N_("dc"),
    N_("difficulty"),
    N_("advantage"),
    N_("policy"),
    N_("method"),
    N_("p"),
    N_("ci_low"),
    N_("ci_high"),
    N_("p_complication"),
    N_("drain_mean"),
    N_("total"),
    N_("win"),
    N_("tie"),
    N_("loss"),
    N_("mean margin"),
    N_("d20_dc"),
    N_("p_d20"),
    N_("dc_3d6x"),
    N_("p_3d6x"),
    N_("gap"),
    N_("difficulty_3d6x"),
    N_("matched_on"),
    N_("note"),
    N_("profile"),
    N_("character"),
    N_("gauge"),
    N_("start"),
    N_("p_empty"),
    N_("first_empty_mean"),
    N_("first_empty_median"),
    N_("caused_mean"),
    N_("absorbed_mean"),
    N_("end_mean"),
    N_("lost_mean"),
    N_("count"),
    N_("clamped"),
    N_("lambda_lo"),
    N_("lambda_hi"),
    N_("p_success"),
    N_("ones_mean"),
    N_("price"),
    N_("knee"),
    N_("mean"),
    N_("median"),
    N_("roll"),
    N_("type"),
    N_("state"),
    N_("rolls"),
    N_("successes"),
    N_("creature"),
    N_("rank"),
    N_("order"),
    N_("side first"),
    N_("side second"),
    N_("observer"),
    N_("p_hidden_from"),
    N_("p_win_a"),
    N_("p_win_b"),
    N_("hp_a_mean"),
    N_("hp_b_mean"),
    N_("rounds_mean"),
    N_("trigger"),
    N_("p_reroll"),
    N_("gain"),
    N_("drain"),
    N_("drain_reroll"),
    N_("drain_added"),
    N_("name"),
    N_("level"),
    N_("actor"),
    N_("item"),
    N_("expected"),
    N_("optimal_gain"),
    # combat (explodice attack, defence-base)
    N_("ac"),
    N_("vd"),
    N_("p_hit_d20"),
    N_("p_crit_d20"),
    N_("p_hit_3d6x"),
    N_("p_crit_3d6x"),
    N_("equivalent_vd"),
    N_("p_hit_equivalent"),
    N_("rmse"),
    N_("max_error"),
    N_("current"),
    N_("chosen"),
)


# -- labels built from results ----------------------------------------------------------------
@dataclass(frozen=True)
class State:
    """An advantage state and, for disadvantage under a reading of the rules, the reading:
    ``key`` is how the tables write it (``"disadvantage (drop)"``, the ``advantage`` column of
    :func:`~explodice.success_table`), :meth:`label` how a reader sees it."""

    advantage: Advantage
    reading: Disadvantage | None = None

    @property
    def key(self) -> str:
        return f"{self.advantage} ({self.reading})" if self.reading else self.advantage

    def label(self, lang: Lang, sep: str = " ") -> str:
        """``disadvantage (drop)`` (``désavantage (écarter)``); ``sep="\n"`` puts the reading
        on a line of its own."""
        _ = i18n.translator(lang)
        return _(self.advantage) + (f"{sep}({_(self.reading)})" if self.reading else "")


#: The four states a 3d6x table shows: disadvantage under each reading.
STATES = (
    State("normal"),
    State("advantage"),
    State("disadvantage", "subtract"),
    State("disadvantage", "drop"),
)


def policy_label(policy: Any, lang: Lang) -> str:
    """A rule-of-1 policy as the report names it: ``keep``, ``cancel``, ``best(DC 16, λ=0.05)``
    (``meilleur(DD 16, λ=0,05)`` in French)."""
    _ = i18n.translator(lang)
    if isinstance(policy, Best):
        return _("best(DC {dc}, λ={weight})").format(
            dc=policy.dc, weight=i18n.number(policy.weight, lang, None)
        )
    return _(str(policy))


def roll_label(roll: Roll, lang: Lang, system: System = "3d6x") -> str:
    """One roll in words, in ``lang``: ``3d6x+4, advantage, check, pc, keep`` (``3d6x+4,
    avantage, test, PJ, garder``), its system's name first (``d20+3, ...``) and its reroll
    last.

    >>> from explodice.game.rules import Roll
    >>> roll_label(Roll(4, advantage="advantage"), "fr")
    '3d6x+4, avantage, test, PJ, garder'
    """
    if lang == "en":  # the roll's own words (Roll.describe)
        return system + roll.describe().removeprefix("3d6x")
    _ = i18n.translator(lang)
    sign = "+" if roll.modifier >= 0 else "-"
    words = [
        f"{system}{sign}{abs(roll.modifier)}",
        _(roll.advantage),
        _(roll.kind),
        _(roll.actor),
        policy_label(roll.policy, lang),
    ]
    if roll.reroll is not None:
        words.append(_(REROLL[roll.reroll.trigger]))
    return ", ".join(words)


def best_label(weight: float, lang: Lang) -> str:
    """``best(λ=0.05)``: a best(λ) policy whose DC is each roll's own (``meilleur(λ=0,05)``)."""
    _ = i18n.translator(lang)
    return _("best(λ={weight})").format(weight=i18n.number(weight, lang, None))


def test_label(test: str, lang: Lang) -> str:
    """'Athletics' or 'save STR' in ``lang`` ('Athlétisme', 'sauvegarde FOR')."""
    _ = i18n.translator(lang)
    if test.startswith("save "):
        return _("save {ability}").format(ability=ABILITY[lang][test.split()[1]])
    if test in ABILITY["en"]:
        return ABILITY[lang][test]
    return SKILLS_FR.get(test, test) if lang == "fr" else test


def build_test_label(test: str, kind: str, ability: str, lang: Lang) -> str:
    """A build's test as the level tables name it (their ``test``, ``kind`` and ``ability``
    columns): ``Athletics``, ``DEX save``, ``STR check`` (``Athlétisme``, ``sauvegarde DEX``,
    ``test de FOR``).

    >>> build_test_label("WIS save", "save", "WIS", "fr"), build_test_label("STR check",
    ...     "ability", "STR", "fr")
    ('sauvegarde SAG', 'test de FOR')
    """
    if lang == "en":
        return test
    _ = i18n.translator(lang)
    name = ABILITY[lang][ability]
    if kind == "save":
        return _("save {ability}").format(ability=name)
    if kind == "ability":
        return _("{ability} check").format(ability=name)
    return SKILLS_FR.get(test, test) if lang == "fr" else test


def difficulty_label(name: str, lang: Lang) -> str:
    """A band of the DC table as the seed names it in ``lang`` (``Très facile``)."""
    return DIFFICULTY_FR[name] if lang == "fr" else name


def item_label(item: str, lang: Lang) -> str:
    """An item type of the haggling table as the seed names it in ``lang``."""
    return HAGGLE_DCS_FR.get(item, item) if lang == "fr" else item


def roll_test_label(day_roll: Any, lang: Lang, *, kind: bool = True) -> str:
    """The test a day's roll makes: ``Athletics check``, ``CON save``, ``STR ability``
    (``Athlétisme (test)``, ``sauvegarde CON``); ``kind=False`` leaves out the word of a check
    (``Athletics``)."""
    _ = i18n.translator(lang)
    said = kind or day_roll.kind != "check"
    if lang == "en":
        what = day_roll.skill or day_roll.ability
        return f"{what} {day_roll.kind}" if said else what
    if day_roll.kind == "save":
        return test_label(f"save {day_roll.ability}", lang)
    test = test_label(day_roll.skill or day_roll.ability, lang)
    if not said:
        return test
    if day_roll.kind == "check":  # French puts the kind after: Discrétion (test)
        return _("{test} check").format(test=test)
    return f"{test} {_(day_roll.kind)}"


def roll_type_label(day_roll: Any, lang: Lang) -> str:
    """A day's roll type as the pages name it: its own label when the scenario gave one, else
    ``Gudulf: Athletics check DC 16`` (``Gudulf : Athlétisme (test) DD 16``)."""
    if not day_roll.label_is_default:
        return day_roll.label
    _ = i18n.translator(lang)
    return _("{name}: {test} DC {dc}").format(
        name=day_roll.character, test=roll_test_label(day_roll, lang), dc=day_roll.dc
    )


def roll_type_lines(day_roll: Any, lang: Lang, width: int = 16) -> str:
    """A day's roll type under a bar of a chart: ``Gudulf:\\nAthletics\\nDC 16`` (a check
    without its word); a label the scenario gave, wrapped at ``width`` characters."""
    if not day_roll.label_is_default:
        return "\n".join(textwrap.wrap(day_roll.label, width)) or day_roll.label
    _ = i18n.translator(lang)
    test = roll_test_label(day_roll, lang, kind=False)  # "sauvegarde CON" on two lines
    return _("{name}:\n{test}\nDC {dc}").format(
        name=day_roll.character, test="\n".join(textwrap.wrap(test, 11)) or test, dc=day_roll.dc
    )


def day_description(name: str | None, party: Any, rolls: int, lang: Lang) -> str:
    """A day in one sentence: ``A day in the old mines: Gudulf, Aelis, Corbin; 40 rolls a
    day.`` (a day without a name is ``a day``). The name is shown as it is: the report's
    configuration writes its own names in the report's language."""
    _ = i18n.translator(lang)
    return _("{name}: {party}; {rolls} rolls a day.").format(
        name=name or _("a day"), party=", ".join(party), rolls=i18n.number(rolls, lang, 0)
    )


def rules_text(rules: Any, lang: Lang, readings: Any = None) -> str:
    """The rules switches in one short line, in ``lang``, for captions and footers: each
    switch as its declaration's ``footer`` says it, when its ``shown`` says so (English:
    ``Rules.describe()``); ``readings`` names the disadvantage readings a table mixes, when it
    mixes several.

    >>> from explodice.game.rules import Rules
    >>> rules_text(Rules(), "fr")
    'désavantage=soustraire, règle du 1 sur test,sauvegarde, 1 sur explosion=non, excédent=plus pleine, jauge=de la compétence'
    """
    _ = i18n.translator(lang)
    readings = list(readings) if readings else [rules.disadvantage]
    parts = []
    for sw in switches():
        value = getattr(rules, sw.name)
        if not sw.named(value):
            continue
        values = readings if sw.name == "disadvantage" else [value]
        if lang == "en":  # the words of the rules themselves, as Rules.describe() writes them
            name, said = sw.name, "/".join(sw.text(v) for v in values)
        else:
            name = switch_label(sw.name, lang)
            said = "/".join(switch_value(sw.name, v, lang) for v in values)
        parts.append(_(sw.footer).format(name=name, value=said))
    return ", ".join(parts)


# -- the rules switches, as a reader says them -------------------------------------------------
# Each switch's words are declared with it, in game/rules.py (``switch(..., label=N_(...),
# words=..., question=..., answers=...)``): English keeps the name that a configuration's
# ``[rules]`` writes (``malus_die``) and the value itself (``after_choice``), as
# ``Rules.describe()`` does; French says them in words.
def changed_readings(rules: Any) -> list[tuple[str, Any]]:
    """The readings (the switches declared ``shown="off_default"``) that ``rules`` sets off
    their default, in order: footers name these alone, as ``Rules.describe()`` does."""
    return [
        (sw.name, getattr(rules, sw.name))
        for sw in switches()
        if sw.shown == "off_default" and sw.named(getattr(rules, sw.name))
    ]


def switch_label(name: str, lang: Lang) -> str:
    """A switch's name in ``lang`` (its declared ``label``): ``malus_die`` (``dé de malus``)."""
    sw = SWITCHES.get(name)
    return i18n.translator(lang)(sw.label if sw is not None else name)


def switch_value(name: str, value: Any, lang: Lang) -> str:
    """One value of a switch in ``lang``, as a footer writes it: ``plain`` (``simple``), a set
    of kinds ``check,save`` (``test,sauvegarde``), a flag ``True`` (``oui``), an integer as its
    declaration's ``number`` says it (``margin 6``, ``marge 6``) or as itself; a value without
    a word of its own (a gauge's name) as it is written.

    >>> switch_value("lucky_timing", "after_choice", "fr"), switch_value("overflow", "PA", "fr")
    ('après le choix', 'PA')
    """
    _ = i18n.translator(lang)
    if isinstance(value, (set, frozenset)):
        kinds = [k for k in KINDS if k in value]
        if lang == "en":
            return ",".join(kinds) or "none"
        return ",".join(_(k) for k in kinds) or _("none")
    sw = SWITCHES.get(name)
    if sw is not None and sw.number and isinstance(value, int) and not isinstance(value, bool):
        return fill(_(sw.number), value)
    if lang == "en":
        return str(value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if sw is not None and value in sw.words:
        return _(sw.words[value])
    return str(value)


def written_value(name: str, text: str, lang: Lang) -> str:
    """A value of switch ``name`` written as text (a provenance's ``True``, ``check,save``,
    ``6``; the readings' ``+attack``), said as :func:`switch_value` says the value itself:
    ``oui``, ``test,sauvegarde``, ``marge 6`` (``marge`` being the declared ``number``),
    ``+attaque``.

    >>> written_value("ones_on_explosions", "True", "fr"), written_value("rule_of_one_kinds", "check,save", "fr")
    ('oui', 'test,sauvegarde')
    """
    _ = i18n.translator(lang)
    if text[:1] in "+-" and text[1:] in KINDS:  # a kind added to (removed from) a set
        return text[0] + (text[1:] if lang == "en" else _(text[1:]))
    value: Any = text
    if text in ("True", "False"):
        value = text == "True"
    elif text.lstrip("-").isdigit():
        value = int(text)
    elif text and all(k in KINDS for k in text.split(",")):
        value = frozenset(text.split(","))
    return switch_value(name, value, lang)


def overflow_label(value: str, lang: Lang, *, long: bool = False) -> str:
    """Where excess drain goes (``Rules.overflow``) in ``lang``, in a word (``fullest``,
    ``plus pleine``; a gauge's name as it is) or, ``long``, in a phrase (``moves to the
    fullest gauge``; ``goes to PA``)."""
    _ = i18n.translator(lang)
    if value in GAUGES:
        return _("goes to {gauge}").format(gauge=value) if long else value
    words = OVERFLOW if long else OVERFLOW_SHORT
    if lang == "en" and not long:
        return value
    return _(words[value]) if value in words else value


def reading_line(name: str, value: Any, lang: Lang) -> tuple[str, str]:
    """A reading as the title page and the explorer say it: (question, answer), e.g.
    ``("Lucky rerolls a 1", "before the rule of 1's choice")``: the switch's declared question
    and the answer of its value; a value without an answer of its own is said by
    :func:`switch_value`."""
    _ = i18n.translator(lang)
    sw = SWITCHES.get(name)
    answer = sw.answers.get(value) if sw is not None else None
    return _(sw.question if sw is not None else name), (
        _(answer) if answer else switch_value(name, value, lang)
    )


#: What a day's roll does that the day engines cannot play yet
#: (``explodice.analysis.sensitivity.DayBlindSpot.needs``).
DAY_BLIND_NEEDS = (
    N_("has Lucky after the choice"),
    N_("subtracts a plain malus die"),
    N_("can tie its DC (bids of HP)"),
)


def blind_spot_text(spot: Any, day: Any, lang: Lang) -> str:
    """Why the day is not computed (a :class:`~explodice.analysis.sensitivity.DayBlindSpot`
    of ``day``), in ``lang``: ``the day engines do not read malus_die=plain yet, and
    'Gudulf: Athletics check DC 16' subtracts a plain malus die when its gauge is at 0``."""
    if lang == "en":
        return str(spot)
    _ = i18n.translator(lang)
    rolls = {r.label: r for r in getattr(day, "rolls", ())}
    roll = _("the roll") if spot.roll is None else spot.roll
    if spot.roll in rolls:
        roll = "« " + roll_type_label(rolls[spot.roll], lang) + " »"
    text = _("the day engines do not read {reading} yet, and {roll} {needs}").format(
        reading=f"{switch_label(spot.switch, lang)}={switch_value(spot.switch, spot.value, lang)}",
        roll=roll,
        needs=_(spot.needs),
    )
    return text + (" " + _("when its gauge is at 0") if spot.gauge_empty else "")


def bid_words(model: Any, lang: Lang) -> str:
    """A bid model of the close contest as a reader says it: ``uniform 0-5``, ``fixed 3``,
    else as written (probabilities of bids 0, 1, ...).

    >>> bid_words("uniform:5", "fr"), bid_words(3, "en")
    ('uniforme 0-5', 'fixed 3')
    """
    _ = i18n.translator(lang)
    text = str(model).strip()
    if text.lower().startswith("uniform:"):
        return _("uniform 0-{top}").format(top=text.split(":", 1)[1].strip())
    if isinstance(model, int) and not isinstance(model, bool):
        return _("fixed {bid}").format(bid=model)
    if isinstance(model, (tuple, list)):
        return ", ".join(i18n.number(float(p), lang, None) for p in model)
    return text


def srd_attribution(lang: Lang) -> str:
    """The SRD's attribution wherever its monsters are shown (the bestiary and combat pages,
    the explorer): the words around it in ``lang``, the licence's own attribution quoted
    whole, in English (its wording, with its URLs), and the licence's name as written.

    >>> srd_attribution("fr")[:50]
    'Données\\xa0: SRD 5.1 de Wizards of the Coast LLC, lic'
    """
    _ = i18n.translator(lang)
    text = _(
        "Data: SRD 5.1 by Wizards of the Coast LLC, licence {licence}; monster names are the "
        "SRD's, left in English. The attribution the licence asks for: {attribution}"
    ).format(licence=SRD_LICENSE, attribution=SRD_ATTRIBUTION)
    return i18n.keep_together(text) if lang == "fr" else text
