"""The report's configuration: the TOML a designer edits (rules, seed, table rows, sample
sizes, party, day), read into a frozen :class:`ReportConfig`.

>>> load_config().seed
2026
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from explodice.core.errors import ExplodiceError, check_choice, check_int, clip, shown
from explodice.core.files import atomic_write_text, check_writable, parse_toml, read_text
from explodice.day.scenario import scenario_from_tables
from explodice.game.build import builds_from_tables
from explodice.game.character import characters_from_tables
from explodice.game.rules import Rules, switches
from explodice.game.tables import PROFILES
from explodice.present.i18n import LANGS, Lang

__all__ = [
    "ConfigError",
    "ReportConfig",
    "default_config_text",
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
)


class ConfigError(ExplodiceError):
    """A report configuration file is unreadable, not TOML, or holds a value not allowed."""


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
    party: tuple[Any, ...] = ()
    day: Any = None  # a Scenario
    source: str = "embedded default"
    lang: Lang = "en"  # the language of the report and the explorer
    builds: tuple[Any, ...] = ()  # the [[build]] tables: characters across levels 1-20


def default_config_text() -> str:
    """The text of the embedded default configuration (a TOML file a designer can copy)."""
    return resources.files("explodice").joinpath("data/default.toml").read_text("utf-8")


def write_default_config(path: str | os.PathLike[str], *, replace: bool = False) -> Path:
    """Write a copy of the default configuration to ``path``: a file that exists is
    refused unless ``replace`` (and a folder, a FIFO or a device always)."""
    path = check_writable(path, error=ConfigError, what="path", replace=replace)
    atomic_write_text(path, default_config_text())
    return path


def load_config(path: str | os.PathLike[str] | None = None) -> ReportConfig:
    """Read a report configuration; ``None`` reads the embedded default.

    Errors name the file, the key and what is allowed (a :class:`ConfigError`, or the
    character module's error for a bad ``[[character]]`` table).
    """
    if path is None:
        text, source = default_config_text(), "embedded default"
    else:
        source = str(path)
        text = read_text(path, error=ConfigError)
    return _config_from_data(parse_toml(text, source=source, error=ConfigError), source)


def _config_from_data(data: dict[str, Any], source: str) -> ReportConfig:
    def fail(key: str, value: Any, allowed: str) -> ConfigError:
        return ConfigError(
            f"{source}: `{clip(key)}` must be {allowed}, but {shown(value)} was passed."
        )

    unknown = [k for k in data if k not in CONFIG_KEYS]
    if unknown:
        raise fail(unknown[0], data[unknown[0]], f"absent: it is not a known key {CONFIG_KEYS}")

    def section(name: str, keys: tuple[str, ...]) -> dict[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict):
            raise fail(name, value, "a table")
        extra = [k for k in value if k not in keys]
        if extra:
            raise fail(f"{name}.{extra[0]}", value[extra[0]], f"one of the keys {list(keys)}")
        return value

    def integer(key: str, value: Any, lo: int, hi: int) -> int:
        try:
            return check_int(key, value, lo=lo, hi=hi)
        except ExplodiceError as err:
            raise ConfigError(f"{source}: {err}") from None

    defaults = ReportConfig()
    title = data.get("title", defaults.title)
    if not isinstance(title, str):
        raise fail("title", title, "a string")
    seed = integer("seed", data.get("seed", defaults.seed), 0, 2**63 - 1)
    lang = data.get("lang", defaults.lang)
    try:
        lang = check_choice("lang", lang, LANGS, ConfigError)
    except ExplodiceError as err:  # the file's name first, as every refusal of this file
        raise ConfigError(f"{source}: {err}") from None

    # every switch of Rules (a new one is a key here by itself)
    rules_table = section("rules", (*(sw.name for sw in switches()), "lucky"))
    if "lucky" in rules_table:
        raise fail(
            "rules.lucky",
            rules_table["lucky"],
            'absent: Lucky is a trait of a character, not a rule (reroll = "one" in its '
            "[[character]] table)",
        )
    try:
        rules = Rules(**rules_table)
    except ExplodiceError as err:
        raise ConfigError(f"{source}: [rules] {err}") from None

    table = section("table", ("modifiers", "profiles"))
    mods = table.get("modifiers", list(defaults.modifiers))
    if not isinstance(mods, list) or not mods:
        raise fail("table.modifiers", mods, "a non-empty list of integers")
    modifiers = tuple(integer("table.modifiers", m, -20, 30) for m in mods)
    profiles = table.get("profiles", dict(defaults.profiles))
    if not isinstance(profiles, dict) or not profiles:
        raise fail("table.profiles", profiles, "a table of names to modifiers")
    profiles = {str(k): integer(f"table.profiles.{k}", v, -20, 30) for k, v in profiles.items()}

    sim = section("simulation", ("n", "days"))
    n = integer("simulation.n", sim.get("n", defaults.n), 1_000, 10**9)
    days = integer("simulation.days", sim.get("days", defaults.days), 10, 10**7)

    party = tuple(characters_from_tables(data.get("character"), source=source))
    day = scenario_from_tables(
        {"day": data.get("day", {})}, characters=party, source=source, default_name="a day"
    )
    builds = tuple(builds_from_tables(data["build"], source=source)) if "build" in data else ()
    return ReportConfig(
        title=title,
        seed=seed,
        rules=rules,
        modifiers=modifiers,
        profiles=profiles,
        n=n,
        days=days,
        party=party,
        day=day,
        source=source,
        lang=lang,
        builds=builds,
    )
