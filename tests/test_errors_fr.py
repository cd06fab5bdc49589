"""The one-line errors in the user's language (issue 31): every message of the package is a
:class:`~explodice.core.words.Phrase` (an English template and the values of its holes), and
the command line says it in French under ``--lang fr``: argparse's own messages, the frame
("explodice : erreur : ..."), the numbers (``1 000``), never a class name."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

import pytest

from explodice.core.errors import RulesError, check_int, fail, message_of
from explodice.core.words import Phrase
from explodice.present.cli.app import main
from explodice.present.cli.base import said, written_lang
from explodice.present.i18n import say

SRC = Path(__file__).resolve().parents[1] / "src" / "explodice"

#: English words that a French sentence does not hold (code in backticks and quoted values
#: are taken out first: they are data, the same in both languages).
ENGLISH = re.compile(
    r"\b(must|but|was|were|passed|the|is|are|not|given|expected|unknown|allowed|missing|"
    r"needs?|only|with|without|which|cannot|error|see|choose|from|invalid)\b"
)


def _prose(line: str) -> str:
    """The words of a line a person reads: code (`...`), quoted values and paths removed."""
    line = re.sub(r"`[^`]*`", " ", line)
    line = re.sub(r"'[^']*'|\"[^\"]*\"", " ", line)
    line = re.sub(r"\S*/\S*|--[\w-]+|\S+\.toml", " ", line)
    return line


def test_a_phrase_is_its_english_sentence_and_says_numbers_as_each_language_writes_them():
    p = Phrase(
        "`{field}` must be {allowed}, but {value} was passed.",
        field="seed",
        allowed=Phrase("an integer in {lo}..{hi}", lo=0, hi=1_000_000),
        value=repr(-1),
    )
    assert str(p) == "`seed` must be an integer in 0..1,000,000, but -1 was passed."
    french = say(p, "fr")
    assert "1\u202f000\u202f000" in french and "-1" in french
    assert not ENGLISH.search(_prose(french)), french


def test_an_error_keeps_its_phrase_when_it_is_copied_to_another_process():
    with pytest.raises(RulesError) as caught:
        check_int("level", 0, lo=1, hi=20)
    err = caught.value
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is RulesError and str(copy) == str(err)
    assert copy.phrase == err.phrase and say(copy.phrase, "fr") != str(err)


def test_a_message_said_again_under_another_name_is_renamed_in_every_language():
    err = fail("policy", "x", Phrase("one of {choices}", choices="['keep']"))
    renamed = message_of(err).replace("`policy`", "`--policy`")
    assert str(renamed).startswith("`--policy` must be")
    assert say(renamed, "fr").startswith("`--policy` ")
    assert message_of(ValueError("plain")) == "plain"


def test_the_language_is_read_before_the_line_is_parsed():
    assert written_lang(["odds", "--dc", "x", "--lang", "fr"]) == "fr"
    assert written_lang(["odds", "--lang=fr"]) == "fr"
    assert written_lang(["odds", "--", "--lang", "fr"]) == "en"
    assert written_lang(["odds", "--lang", "de"]) == "en"


def test_argparse_s_own_messages_are_said_in_french():
    line = said("argument --advantage: invalid choice: 'x' (choose from 'normal')", "fr")
    assert "--advantage" in line and "'x'" in line and "'normal'" in line
    assert not ENGLISH.search(_prose(line)), line
    assert said("the following arguments are required: DC", "fr").endswith(": DC")
    assert said("something argparse never says", "fr") == "something argparse never says"


#: Bad command lines, one of each way a line is refused: a value's type function, argparse's
#: own checks, an option given twice, a value given twice, the package's checks, a file.
BAD_LINES = [
    ["odds", "--dc", "x"],
    ["odds", "4"],
    ["odds", "--dc", "16", "--dc", "12"],
    ["odds", "--advantage", "maybe"],
    ["odds", "--nope"],
    ["table", "--modifiers", "0", "0"],
    ["levels", "--builds", "nobody"],
    ["day", "nofile.toml"],
    ["size-gauges", "--risk", "2"],
    ["odds", "--n", "100"],
    ["compare", "--profiles", "x"],
    ["odds", "--policy", "best:x"],
    ["dc", "--target", "150%"],
    ["odds", "--malus-die", "plain"],
    ["levels", "--levels", "5-2"],
    ["levels", "--targets", "moderate=2"],  # a type function's refusal said again in a phrase
    ["initiative", "Bo=x", "Al=2"],
]


def _status(argv: list[str]) -> int:
    """The exit status of a command line (argparse's refusals exit through SystemExit)."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.mark.parametrize("argv", BAD_LINES, ids=" ".join)
def test_a_refusal_is_one_french_line_under_lang_fr_and_one_english_line_without(argv, capsys):
    assert _status([*argv, "--lang", "fr"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert re.match(r"explodice( [\w-]+)? : erreur : ", err), err
    assert not ENGLISH.search(_prose(err.split(" : erreur : ", 1)[1])), err
    assert "Error" not in err  # never a class name
    assert _status(argv) == 2
    english = capsys.readouterr().err
    assert re.match(r"explodice( [\w-]+)?: error: ", english) and english.count("\n") == 1


#: The package's error classes (every one an ExplodiceError), by the names they are raised by.
PACKAGE_ERRORS = {
    m.group(1)
    for path in SRC.rglob("*.py")
    for m in re.finditer(r"^class (\w+Error)\(", path.read_text(encoding="utf-8"), re.M)
}


def _literal_messages(tree: ast.AST):
    """The places a message is written as a plain string (or f-string) where a phrase goes:
    an error class's message, ``fail``'s allowed, a refusal's reason."""
    text_arg = {"fail": 2, "_fail": 2, "recast": 2, "bad": 1, "refuse": 2, "refuse_grid": 1}
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        f = call.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if (name in PACKAGE_ERRORS or name in {"error", "klass", "kind"}) and call.args:
            args = [call.args[0]]
        else:
            i = text_arg.get(name)
            args = [call.args[i]] if i is not None and len(call.args) > i else []
        args += [
            k.value
            for k in call.keywords
            if (k.arg, name)
            in {
                ("what", "check_items"),
                ("what", "check_mapping"),
                ("what", "check_text"),
                ("message", "recast"),
                ("allowed", "fail"),
            }
        ]
        for a in args:
            if isinstance(a, ast.BinOp) and any(  # "..." + ("..." if x else "")
                isinstance(c, (ast.Constant, ast.JoinedStr))
                and (isinstance(c, ast.JoinedStr) or isinstance(c.value, str))
                for c in ast.walk(a)
            ):
                yield call.lineno
            elif isinstance(a, ast.JoinedStr) or (
                isinstance(a, ast.Constant) and isinstance(a.value, str) and " " in a.value
            ):
                yield call.lineno


def test_every_message_of_the_package_is_a_phrase():
    found = [
        f"{path.relative_to(SRC)}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        for line in _literal_messages(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == [], "write these messages as Phrase(...) (core/words.py)"


def test_a_file_that_is_not_toml_is_refused_in_french(tmp_path, capsys):
    bad = tmp_path / "day.toml"
    bad.write_text("x = = 3\n", encoding="utf-8")
    assert _status(["day", str(bad), "--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert "(à la ligne 1, colonne 5)" in err, err
    assert not ENGLISH.search(_prose(err.split(" : erreur : ", 1)[1])), err
    assert _status(["day", str(bad)]) == 2
    assert "not valid TOML: Invalid value (at line 1, column 5)" in capsys.readouterr().err
