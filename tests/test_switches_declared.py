"""Every switch of the rules is declared once, whole, on its field of ``Rules``: its help, its
words and the designer's question with their French, its scope and the modules that read it,
and the documentation's tables of switches are the declarations' own (CONTRIBUTING.md, "A
rules switch")."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import typing
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from explodice.game.rules import READING_SWITCHES, Rules, switches
from explodice.game.switch import DECLARATION, SCOPES, Declaration, read_switches, switch
from explodice.present import labels

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "explodice"


def _french() -> dict[str, str]:
    """The French catalogue's translated entries (a fuzzy or empty one is not translated)."""
    path = resources.files("explodice.present").joinpath("locale/fr/LC_MESSAGES/explodice.po")
    with path.open("rb") as f:
        catalog = read_po(f, locale="fr_FR")
    return {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}


def _table_script():
    spec = importlib.util.spec_from_file_location(
        "switches_table", ROOT / "scripts" / "switches_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("field", dataclasses.fields(Rules), ids=lambda f: f.name)
def test_every_field_of_rules_has_a_complete_declaration(field):
    declared = field.metadata.get(DECLARATION)
    assert isinstance(declared, Declaration), f"Rules.{field.name}: declare it with switch()"
    for fact in ("help", "label", "question", "why"):
        assert getattr(declared, fact).strip(), f"Rules.{field.name} declares no {fact}"
    assert declared.label == field.name  # English footers name the [rules] key
    assert declared.scope in SCOPES
    # the modules that read it exist, and they name it (its meaning is coded there)
    assert declared.read_by
    sources = {m: (SRC / m).read_text(encoding="utf-8") for m in declared.read_by}
    # an attribute read (rules.overflow), not the word: overflow.py names itself, "critical"
    # is an English word
    assert any(re.search(rf"\.{field.name}\b", text) for text in sources.values()), declared.read_by


@pytest.mark.parametrize("sw", switches(), ids=lambda sw: sw.name)
def test_every_word_of_a_switch_has_its_french(sw):
    french = _french()
    words = [sw.label, sw.question, *sw.answers.values(), *sw.words.values()]
    words += [w for w in (sw.number, sw.footer) if w and w != "{name}={value}" and w != "{name}"]
    missing = [w for w in words if w not in french]
    assert missing == [], "run pybabel extract/update and translate (locale/README.md)"


@pytest.mark.parametrize("sw", switches(), ids=lambda sw: sw.name)
def test_a_switch_says_each_value_it_declares_and_each_reading(sw):
    values = set(sw.values)
    assert set(sw.answers) <= values and set(sw.words) <= values  # no word of another value
    if sw.name in READING_SWITCHES:  # the title page and the explorer say each one's answer
        assert all(v in sw.answers for v in sw.choices), sw.name
    if sw.kind in ("integer", "choice_or_integer"):
        assert sw.lo is not None and sw.hi is not None
        integers = [v for v in sw.values if isinstance(v, int)]
        assert integers and all(sw.lo <= v <= sw.hi for v in integers)
        assert isinstance(sw.default, str) or sw.lo <= sw.default <= sw.hi


def test_the_values_and_default_come_from_the_annotation_and_the_field():
    hints = typing.get_type_hints(Rules)
    for f, sw in zip(dataclasses.fields(Rules), switches(), strict=True):
        assert sw.name == f.name and sw.default == f.default == getattr(Rules(), f.name)
        if typing.get_origin(hints[f.name]) is typing.Literal:
            assert sw.values == typing.get_args(hints[f.name])


def test_a_field_without_a_declaration_is_refused():
    @dataclasses.dataclass(frozen=True)
    class Bare:
        loud: bool = False

    with pytest.raises(TypeError, match="declare it with switch"):
        read_switches(Bare)

    @dataclasses.dataclass(frozen=True)
    class Toy:
        level: int = switch(3, help="h", label="level", question="q", why="w")

    with pytest.raises(TypeError, match="needs a `range`"):
        read_switches(Toy)


def test_a_declared_switch_reaches_the_command_line_and_the_captions():
    # nothing else is written for a switch: its option and help, its words in both languages
    from explodice.present.cli.options import RULES_SWITCHES

    options = {o.field: o for o in RULES_SWITCHES}
    for sw in switches():
        assert options[sw.name].flag == sw.flag and options[sw.name].scope == sw.scope
        assert labels.switch_label(sw.name, "en") == sw.name
    assert labels.switch_label("critical", "fr") == "critique"
    assert labels.switch_value("critical", 6, "fr") == "marge 6"  # its declared `number`
    assert labels.reading_line("malus_die", "plain", "fr") == (
        "le dé de malus du désavantage (soustraire)",
        "un d6 simple (1 à 6)",
    )


def test_the_docs_tables_of_switches_are_the_declarations():
    script = _table_script()
    for name, table in script.TABLES.items():
        text = (ROOT / name).read_text(encoding="utf-8")
        assert script.rewritten(text, table(), name) == text, (
            f"{name}: run python scripts/switches_table.py"
        )
    rows = script.rules_table().splitlines()[2:]
    assert [r.split("|")[1].strip() for r in rows] == [f"`Rules.{s.name}`" for s in switches()]
    assert (
        '| `Rules.malus_die` | `--malus-die` | `"exploding"`, `"plain"` |' in script.rules_table()
    )
