"""The report's (and its explorer's) configuration: the TOML a designer edits (rules, seed, table rows, sample
sizes, party, day), read into a frozen :class:`ReportConfig`.

The names a designer writes (the title, the day's, the profiles', the builds') are shown as
written, in any language. The names that are explodice's own (those of the embedded default,
and the defaults filled in for a key a file leaves out) are written in the report's language:
:func:`in_language` translates them through the catalogue (:data:`DEFAULT_NAMES`).

>>> load_config().seed
2026
>>> french = load_config(lang="fr")
>>> french.title, list(french.profiles), french.day.name
('explodice — le rapport du concepteur', ['non entraîné', 'entraîné', 'expert'], 'Une journée dans les vieilles mines')
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from explodice.core.errors import ExplodiceError, check_choice, check_int, clip, shown
from explodice.core.files import atomic_write_text, check_writable, parse_toml, read_text
from explodice.core.words import Phrase
from explodice.day.scenario import scenario_from_tables
from explodice.game.build import builds_from_tables
from explodice.game.character import characters_from_tables
from explodice.game.monster import monsters_from_tables
from explodice.game.rules import Rules, switches
from explodice.game.tables import PROFILES
from explodice.present.i18n import LANGS, Lang, check_lang, translator
from explodice.present.labels import N_
from explodice.questions.answer import METHODS as DAY_METHODS
from explodice.questions.answer import Method as DayMethod

__all__ = [
    "DEFAULT_NAMES",
    "NAMED",
    "ConfigError",
    "ReportConfig",
    "default_config_text",
    "in_language",
    "load_config",
    "write_default_config",
]

CONFIG_KEYS = (
    "title",
    "seed",
    "lang",
    "rules",
    "table",
    "simulation",
    "character",
    "day",
    "build",
    "monster",
)


class ConfigError(ExplodiceError):
    """A report configuration file is unreadable, not TOML, or holds a value not allowed."""


#: The configuration's names that can be explodice's own: ``title``, ``profiles`` (their
#: names), ``day`` (its name) and ``builds`` (their names).
NAMED = ("title", "profiles", "day", "builds")
#: explodice's own names, in English: the embedded default's (``data/default.toml``: its title,
#: day, profiles and builds) and the name of a day a configuration leaves unnamed. They are
#: translated where the report is written; ``tests/test_report_fr.py`` checks that every name
#: of the embedded default is here.
DEFAULT_NAMES = (
    N_("explodice — the designer's report"),
    N_("A day in the old mines"),
    N_("a day"),
    N_("untrained"),
    N_("trained"),
    N_("expert"),
    N_("fighter"),
    N_("rogue"),
    N_("mage"),
    N_("priest"),
    N_("envoy"),
)


# -- configuration --------------------------------------------------------------------------
@dataclass(frozen=True)
class ReportConfig:
    """What a report shows: rules switches, seed, table rows, sample sizes, party and day."""

    title: str = "explodice — the designer's report"
    seed: int = 2026
    rules: Rules = field(default_factory=Rules)
    modifiers: tuple[int, ...] = (-1, 0, 2, 4, 6, 8, 10)
    profiles: Mapping[str, int] = field(default_factory=lambda: dict(PROFILES))
    n: int = 200_000
    days: int = 2_000
    #: how the day's pages, the readings' day and the explorer's party day are computed:
    #: ``"exact"`` (the default) or ``"simulate"`` (``days`` days from ``seed``, every number
    #: with its interval)
    day_method: DayMethod = "exact"
    party: tuple[Any, ...] = ()
    day: Any = None  # a Scenario
    source: str = "embedded default"
    lang: Lang = "en"  # the language of the report and the explorer
    builds: tuple[Any, ...] = ()  # the [[build]] tables: characters across levels 1-20
    #: the [[monster]] tables: the designer's own monsters (the bestiary's, beside the SRD's)
    monsters: tuple[Any, ...] = ()
    #: which of the names (:data:`NAMED`) are explodice's own, written in ``lang`` by
    #: :func:`in_language`; the others are the designer's, shown as written
    default_names: frozenset[str] = frozenset(NAMED)


@functools.cache
def _english_names() -> dict[str, str]:
    """Each of explodice's own names, in every language, to its English original."""
    return {translator(lang)(name): name for lang in LANGS for name in DEFAULT_NAMES}


def _own_name(name: str, lang: Lang) -> str:
    """One of explodice's own names in ``lang`` (whatever language it is written in now); any
    other name as it is."""
    english = _english_names().get(name, name)
    return translator(lang)(english) if english in DEFAULT_NAMES else name


def in_language(config: ReportConfig, lang: Lang) -> ReportConfig:
    """``config`` for a report in ``lang``: its ``lang``, and its names that are explodice's
    own (``config.default_names``) in that language; the designer's names stay as written.

    >>> in_language(load_config(), "fr").builds[0].name
    'guerrier'
    """
    lang = check_lang(lang)
    ours = config.default_names
    changes: dict[str, Any] = {"lang": lang}
    if "title" in ours:
        changes["title"] = _own_name(config.title, lang)
    if "profiles" in ours:
        changes["profiles"] = {_own_name(k, lang): v for k, v in config.profiles.items()}
    if "day" in ours and config.day is not None:
        changes["day"] = config.day.replace(name=_own_name(config.day.name, lang))
    if "builds" in ours:
        changes["builds"] = tuple(
            dataclasses.replace(b, name=_own_name(b.name, lang)) for b in config.builds
        )
    return dataclasses.replace(config, **changes)


def default_config_text() -> str:
    """The text of the embedded default configuration (a TOML file a designer can copy)."""
    return resources.files("explodice").joinpath("data/default.toml").read_text("utf-8")


def write_default_config(path: str | os.PathLike[str], *, replace: bool = False) -> Path:
    """Write a copy of the default configuration to ``path``: a file that exists is
    refused unless ``replace`` (and a folder, a FIFO or a device always)."""
    path = check_writable(path, error=ConfigError, what="path", replace=replace)
    atomic_write_text(path, default_config_text())
    return path


def load_config(
    path: str | os.PathLike[str] | None = None, *, lang: Lang | None = None
) -> ReportConfig:
    """Read a report configuration; ``None`` reads the embedded default. ``lang`` (``"en"``
    or ``"fr"``) overrides the file's ``lang``; explodice's own names are written in the
    configuration's language (:func:`in_language`).

    Errors name the file, the key and what is allowed (a :class:`ConfigError`, or the
    character module's error for a bad ``[[character]]`` table).
    """
    if lang is not None:
        check_lang(lang)
    if path is None:
        text, source = default_config_text(), "embedded default"
    else:
        source = str(path)
        text = read_text(path, error=ConfigError)
    config = _config_from_data(parse_toml(text, source=source, error=ConfigError), source)
    return in_language(config, config.lang if lang is None else lang)


def _own_names(data: dict[str, Any], table: dict[str, Any], source: str) -> frozenset[str]:
    """The names of a configuration that are explodice's own (written in the report's
    language): all of the embedded default's, and the defaults filled in for the keys a file
    leaves out."""
    if source == "embedded default":
        return frozenset(NAMED)
    return frozenset(
        name
        for name, absent in (
            ("title", "title" not in data),
            ("profiles", "profiles" not in table),
            ("day", "name" not in data.get("day", {})),
        )
        if absent
    )


def _refusal(source: str, key: str, value: Any, allowed: str | Phrase) -> ConfigError:
    """A value of the configuration file refused: the file, the key, the value, what is allowed."""
    return ConfigError(
        Phrase(
            "{source}: `{key}` must be {allowed}, but {value} was passed.",
            source=source,
            key=clip(key),
            allowed=allowed,
            value=shown(value),
        )
    )


def _config_from_data(data: dict[str, Any], source: str) -> ReportConfig:
    fail = functools.partial(_refusal, source)

    unknown = [k for k in data if k not in CONFIG_KEYS]
    if unknown:
        known = Phrase("absent: it is not a known key {CONFIG_KEYS}", CONFIG_KEYS=CONFIG_KEYS)
        raise fail(unknown[0], data[unknown[0]], known)

    def section(name: str, keys: tuple[str, ...]) -> dict[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict):
            raise fail(name, value, Phrase("a table"))
        extra = [k for k in value if k not in keys]
        if extra:
            keys_of = Phrase("one of the keys {keys}", keys=list(keys))
            raise fail(f"{name}.{extra[0]}", value[extra[0]], keys_of)
        return value

    def integer(key: str, value: Any, lo: int, hi: int) -> int:
        try:
            return check_int(key, value, lo=lo, hi=hi)
        except ExplodiceError as err:
            raise ConfigError(Phrase("{source}: {err}", source=source, err=err)) from None

    defaults = ReportConfig()
    title = data.get("title", defaults.title)
    if not isinstance(title, str):
        raise fail("title", title, Phrase("a string"))
    seed = integer("seed", data.get("seed", defaults.seed), 0, 2**63 - 1)
    lang = data.get("lang", defaults.lang)
    try:
        lang = check_choice("lang", lang, LANGS, ConfigError)
    except ExplodiceError as err:  # the file's name first, as every refusal of this file
        raise ConfigError(Phrase("{source}: {err}", source=source, err=err)) from None

    # every switch of Rules (a new one is a key here by itself)
    rules_table = section("rules", (*(sw.name for sw in switches()), "lucky"))
    if "lucky" in rules_table:
        trait = Phrase(
            'absent: Lucky is a trait of a character, not a rule (reroll = "one" '
            "in its [[character]] table)"
        )
        raise fail("rules.lucky", rules_table["lucky"], trait)
    try:
        rules = Rules(**rules_table)
    except ExplodiceError as err:
        raise ConfigError(Phrase("{source}: [rules] {err}", source=source, err=err)) from None

    table = section("table", ("modifiers", "profiles"))
    mods = table.get("modifiers", list(defaults.modifiers))
    if not isinstance(mods, list) or not mods:
        raise fail("table.modifiers", mods, Phrase("a non-empty list of integers"))
    modifiers = tuple(integer("table.modifiers", m, -20, 30) for m in mods)
    profiles = table.get("profiles", dict(defaults.profiles))
    if not isinstance(profiles, dict) or not profiles:
        raise fail("table.profiles", profiles, Phrase("a table of names to modifiers"))
    profiles = {str(k): integer(f"table.profiles.{k}", v, -20, 30) for k, v in profiles.items()}

    sim = section("simulation", ("n", "days", "day"))
    n = integer("simulation.n", sim.get("n", defaults.n), 1_000, 10**9)
    days = integer("simulation.days", sim.get("days", defaults.days), 10, 10**7)
    day_method = sim.get("day", defaults.day_method)
    if day_method not in DAY_METHODS:
        one_of = Phrase("one of {DAY_METHODS}", DAY_METHODS=list(DAY_METHODS))
        raise fail("simulation.day", day_method, one_of)

    party = tuple(characters_from_tables(data.get("character"), source=source))
    day = scenario_from_tables(
        {"day": data.get("day", {})}, characters=party, source=source, default_name="a day"
    )
    builds = tuple(builds_from_tables(data["build"], source=source)) if "build" in data else ()
    monsters = (
        tuple(monsters_from_tables(data["monster"], source=source, tag=Path(source).name))
        if "monster" in data
        else ()
    )
    ours = _own_names(data, table, source)
    return ReportConfig(
        title=title,
        seed=seed,
        rules=rules,
        modifiers=modifiers,
        profiles=profiles,
        n=n,
        days=days,
        day_method=day_method,
        party=party,
        day=day,
        source=source,
        lang=lang,
        builds=builds,
        monsters=monsters,
        default_names=ours,
    )
