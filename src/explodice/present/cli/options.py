"""The options several commands share, each defined once, and what the commands read from them.

- :func:`rules_options`: one option per switch of :class:`~explodice.Rules` that a command
  can apply (:data:`RULES_SWITCHES`, read from ``Rules`` itself: its flag, values, default,
  scope and help are the switch's declaration, so a new switch or value needs no edit here),
  read back by
  :func:`rules_from` (or :func:`config_rules`, over a configuration's rules);
- :func:`roll_options`: the roll (advantage, kind, actor, rule-of-1 policy, reroll);
- :func:`sampling_options`: ``--exact``/``--simulate``, ``--n``, ``--seed``, ``--threads``,
  ``--no-progress``, read back by :func:`sampling_from`;
- :func:`output_options`: ``--format text|csv|json`` and ``--lang en|fr``.

Each is a factory returning a parent parser, so every command gets its own copy (argparse's
``set_defaults`` changes the actions a parent shares). Numbers are read strictly
(:mod:`explodice.present.cli.numbers`) within the engines' limits.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from explodice.core.errors import ExplodiceError, message_of
from explodice.core.words import Phrase
from explodice.day.simulate import MAX_DAYS
from explodice.engine.chunks import MAX_THREADS
from explodice.engine.sampling import Sampling
from explodice.engine.seeding import MAX_ROLLS
from explodice.game.reroll import Reroll
from explodice.game.rules import (
    ACTORS,
    ADVANTAGE_STATES,
    KINDS,
    Policy,
    Roll,
    Rules,
    parse_policy,
)
from explodice.game.rules import Switch as RulesSwitch
from explodice.game.rules import switches as rule_switches
from explodice.game.tables import MAX_DC, MAX_GAUGE, System
from explodice.present.cli.base import type_error
from explodice.present.cli.numbers import integer
from explodice.present.i18n import LANGS, Lang
from explodice.sweeps.run import MAX_WORKERS

__all__ = [
    "DAYS",
    "DC",
    "FORCE_HELP",
    "GAUGE",
    "LUCKY_SOURCES",
    "NO_LUCKY_RULES",
    "ROLL_COMMAND",
    "MODIFIER",
    "ROLLS",
    "RULES_SWITCHES",
    "SCOPES",
    "SEED",
    "THREADS",
    "TOP",
    "WORKERS",
    "Switch",
    "config_argument",
    "config_rules",
    "given",
    "output_options",
    "policy",
    "progress",
    "refuse",
    "refuse_drain_switches",
    "refuse_unread_readings",
    "reroll_from",
    "resolve_policy",
    "roll_options",
    "rules_from",
    "rules_options",
    "roll_policy",
    "rules_text",
    "sampling_from",
    "sampling_options",
    "switch_defaults",
]

# every number read strictly (``--n 1.25e1`` or ``1e400`` refused), within the engines' limits
ROLLS = integer(1, MAX_ROLLS)
DAYS = integer(1, MAX_DAYS)
THREADS = integer(1, MAX_THREADS)
GAUGE = integer(1, MAX_GAUGE)
WORKERS = integer(1, MAX_WORKERS)
SEED = integer(0)
MODIFIER = integer(-100, 100)
DC = integer(-MAX_DC, MAX_DC)
TOP = integer(1, 10**6)  # rows of a table to list

DEFAULTS = Rules()  # the switches' defaults, read from the rules, never restated


# -- the rules switches ---------------------------------------------------------------------
#: Where a command's rolls may get Lucky, for :func:`rules_options`: from ``--lucky``
#: (``"option"``), from its own inputs (``"own"``: a configuration's characters, a grid), or
#: nowhere (``"none"``: ``--lucky-timing`` could change nothing, so it is not offered).
LuckySource = Literal["option", "own", "none"]
LUCKY_SOURCES: tuple[LuckySource, ...] = get_args(LuckySource)
#: The field of the switch that says when Lucky rerolls (offered only where a roll has Lucky).
LUCKY_TIMING = "lucky_timing"


@dataclass(frozen=True)
class Switch:
    """One switch of :class:`~explodice.Rules` as an option: the field it sets, its flag and
    help, and where it is read (``scope``), all from the switch's declaration
    (:func:`explodice.game.rules.switches`). A
    switch with ``choices`` takes a value (``many``: one or more, read as a set); one without
    is an on/off flag."""

    field: str
    flag: str
    help: str
    choices: tuple[str, ...] | None = None
    many: bool = False
    metavar: str | None = None
    scope: str = "roll"
    #: an integer switch (``defence_base``, ``critical``): the switch, whose check reads the
    #: text given (a word of its choices or an integer of its range)
    integer: RulesSwitch | None = None

    @classmethod
    def of(cls, sw: RulesSwitch) -> Switch:
        """The option of one switch of :func:`~explodice.game.rules.switches`."""
        integer = sw if sw.kind in ("integer", "choice_or_integer") else None
        return cls(
            sw.name,
            sw.flag or "--" + sw.name.replace("_", "-"),
            sw.help.replace("%", "%%"),  # argparse formats a help with %
            None if sw.kind == "flag" else (sw.choices if integer else tuple(sw.values)),
            many=sw.kind == "set",
            metavar="KIND" if sw.kind == "set" else ("N" if sw.kind == "integer" else None),
            scope=sw.scope,
            integer=integer,
        )

    @property
    def dest(self) -> str:
        """The name argparse gives the option's value (``--rule-of-one``: ``rule_of_one``)."""
        return self.flag.removeprefix("--").replace("-", "_")

    def add_to(self, group: Any) -> None:
        default = getattr(DEFAULTS, self.field)
        if self.choices is None:  # --flag turns the switch on, --no-flag off (over a configuration)
            group.add_argument(
                self.flag, action=argparse.BooleanOptionalAction, default=default, help=self.help
            )
            return
        if self.integer is not None:  # a word of its choices, or an integer of its range
            sw = self.integer
            group.add_argument(
                self.flag,
                type=_switch_value(sw),
                default=default,
                metavar=self.metavar or "{" + ",".join((*sw.choices, f"{sw.lo}..{sw.hi}")) + "}",
                help=f"{self.help} (default: {default})",
            )
            return
        shown = " ".join(sorted(default)) if self.many else default
        among = f" (any of {', '.join(self.choices)})" if self.many else ""
        group.add_argument(
            self.flag,
            choices=self.choices,
            nargs="+" if self.many else None,
            default=sorted(default) if self.many else default,
            metavar=self.metavar,
            help=f"{self.help}{among} (default: {shown})",
        )

    def read(self, args: argparse.Namespace) -> Any:
        value = getattr(args, self.dest)
        return frozenset(value) if self.many and value is not None else value


def _switch_value(sw: RulesSwitch) -> Any:
    """The argparse ``type`` of an integer switch: its own check (one line, exit 2)."""

    def read(text: str) -> Any:
        try:
            given: dict[str, Any] = {
                sw.name: text if sw.kind == "choice_or_integer" else _int(text)
            }
            return Rules(**given)
        except ExplodiceError as err:
            raise type_error(
                Phrase(
                    "must be {allowed}, but {text!r} was passed", allowed=sw.allowed(), text=text
                )
            ) from err

    def value(text: str) -> Any:
        return getattr(read(text), sw.name)

    value.__name__ = sw.name  # argparse names the type in its message
    return value


def _int(text: str) -> Any:
    try:
        return int(text.strip())
    except ValueError:
        return text


#: Every switch of Rules as an option, in the order of ``--help`` (the fields' order).
RULES_SWITCHES = tuple(Switch.of(sw) for sw in rule_switches())
#: Every scope a switch is read in (``"roll"``, ``"day"``, ``"hiding"``, ``"haggle"``).
SCOPES = tuple(dict.fromkeys(s.scope for s in RULES_SWITCHES))


def rules_options(
    scopes: Iterable[str] | None = ("roll",), *, lucky: LuckySource = "option"
) -> argparse.ArgumentParser:
    """The rules switches a command can apply: those read in ``scopes`` (``None``: every
    scope; each switch declares its own, :data:`explodice.game.switch.SCOPES`), so that one
    it cannot apply is refused by the parser, never ignored (``odds --hiding-ties observer``:
    unrecognized arguments). ``lucky`` says where its rolls get Lucky (:data:`LUCKY_SOURCES`): ``"option"``
    adds ``--lucky`` (the roll's Reroll('one')); with ``"none"`` ``--lucky-timing`` is left out
    too. Use it through ``functools.partial`` in a command's ``shared``.
    """
    reads = SCOPES if scopes is None else tuple(scopes)
    for scope in reads:
        if scope not in SCOPES:
            raise ValueError(f"rules_options: unknown scope {scope!r} (one of {SCOPES})")
    if lucky not in LUCKY_SOURCES:
        raise ValueError(f"rules_options: `lucky` must be one of {LUCKY_SOURCES}")
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    g = p.add_argument_group("rules switches (docs/rules.md)")
    for switch in RULES_SWITCHES:
        if switch.scope in reads and not (switch.field == LUCKY_TIMING and lucky == "none"):
            switch.add_to(g)
    if lucky == "option":
        g.add_argument(
            "--lucky",
            action="store_true",
            help="the roll carries Reroll('one'): a die showing 1 is rerolled (Chanceux)",
        )
    return p


#: The options a d20 roll cannot apply: its rules have no malus die and no rule of 1.
D20_REFUSED = (
    *(s.flag for s in RULES_SWITCHES if s.field != "close_contest"),  # lutte serrée: both
    "--policy",
    "--actor",
)


def rules_from(args: argparse.Namespace, system: System = "3d6x") -> Rules:
    """The :class:`~explodice.Rules` the options of :func:`rules_options` ask for (a switch
    the command does not offer keeps its default). With ``system="d20"``, a 3d6x switch
    given (or the rule-of-1 policy, the actor) is refused: a d20 roll could not apply it."""
    if system == "d20":
        refuse(
            args,
            D20_REFUSED,
            Phrase(
                "is a rule of 3d6x: a d20 roll has no malus die and no rule of 1 (--system d20)."
            ),
        )
    return Rules(**{s.field: s.read(args) for s in RULES_SWITCHES if hasattr(args, s.dest)})


#: The help of a command's --force, for the file ``flag`` names.
FORCE_HELP = "replace the file of {flag} if it exists (never a folder, a FIFO or a device)"


def rules_text(rules: Rules, system: System, lang: Lang = "en") -> str:
    """The rules a result was computed under, as its header says them: 3d6x's switches (in
    ``lang``; a CSV's column keeps English), or ``d20`` (with lutte serrée, which both systems
    play)."""
    if system == "3d6x":
        if lang != "en":
            from explodice.present.labels import rules_text as in_words

            return in_words(rules, lang)
        return rules.describe()
    return "d20, close_contest" if rules.close_contest else "d20"


# -- options given, and those a call cannot apply --------------------------------------------
def _dest(flag: str) -> str:
    return {"--exact": "method", "--simulate": "method"}.get(
        flag, flag.removeprefix("--").replace("-", "_")
    )


def given(args: argparse.Namespace, flag: str) -> bool:
    """True when ``flag`` (a long option of this command) was written on the command line
    (``--policy keep`` too, keep being its default), or has a value other than its default:
    the command line asks for something with it."""
    dest = _dest(flag)
    if not hasattr(args, dest):
        return False
    if dest != "method" and dest in getattr(args, "explicit", ()):
        return True
    value, default = getattr(args, dest), args.command_parser.get_default(dest)
    if isinstance(value, list) and isinstance(default, list):  # --rule-of-one save check
        return sorted(value) != sorted(default)
    return bool(value != default)


def refuse(args: argparse.Namespace, flags: Any, why: str | Phrase) -> None:
    """Refuse the first of ``flags`` that was given: one line, ```--flag` <why>``. An option
    that a call cannot apply is refused, never ignored (a wrong number is worse)."""
    for flag in flags:
        if given(args, flag):
            raise ExplodiceError(Phrase("`{flag}` {why}", flag=flag, why=why))


def refuse_unread_readings(args: argparse.Namespace, rolls: Iterable[Roll], rules: Rules) -> None:
    """Refuse a reading given on the command line that none of the command's ``rolls`` (the
    ones its options built) reads: ``--lucky-timing`` on rolls without Lucky, ``--malus-die``
    on rolls that subtract no die (no disadvantage, or disadvantage read as "drop"). For the
    commands whose rolls are all on the command line (a scenario's or a configuration's
    rolls may read them).

    >>> from explodice.present.cli.app import build_parser
    >>> args = build_parser().parse_args(["odds", "--lucky", "--lucky-timing", "after_choice"])
    >>> refuse_unread_readings(args, [Roll(0, reroll=Reroll("one"))], Rules())  # read: kept
    """
    rolls = list(rolls)
    if not any(r.lucky for r in rolls):
        refuse(
            args,
            ("--lucky-timing",),
            Phrase(
                "says when Lucky rerolls a 1, and the roll has no Lucky: it applies with --lucky."
            ),
        )
    if not any(r.has_malus_die(rules) for r in rolls):
        at_disadvantage = any(r.advantage == "disadvantage" for r in rolls)
        needs = [
            *([] if at_disadvantage else ["--advantage disadvantage"]),
            *([] if rules.disadvantage == "subtract" else ["--disadvantage subtract"]),
        ]
        refuse(
            args,
            ("--malus-die",),
            Phrase(
                "is the die that disadvantage subtracts, and the roll subtracts "
                "none: it applies with {needs}.",
                needs=" ".join(needs),
            ),
        )


def switch_defaults(p: argparse.ArgumentParser) -> None:
    """Leave every rules switch unset by default (``None``), so that :func:`config_rules`
    tells a switch given on the command line from the configuration's value (for a command
    that reads a configuration)."""
    p.set_defaults(**{s.dest: None for s in RULES_SWITCHES})


def config_rules(args: argparse.Namespace, config: Any) -> Rules:
    """The configuration's rules (``config.rules``; the default rules without one), each
    switch given on the command line replacing its value (see :func:`switch_defaults`)."""
    rules = getattr(config, "rules", None) or Rules()
    chosen = {
        s.field: s.read(args) for s in RULES_SWITCHES if getattr(args, s.dest, None) is not None
    }
    return dataclasses.replace(rules, **chosen) if chosen else rules


# -- the roll -------------------------------------------------------------------------------
def policy(text: str) -> str:
    """'keep', 'cancel', 'best:λ' or 'best:λ@dc' (the DC defaults to the roll's --dc)."""
    try:
        parse_policy(text, dc=0)  # the grammar is checked now; the DC is the roll's, later
    except ExplodiceError as err:
        raise type_error(message_of(err).replace("`policy`", "`--policy`")) from None
    return text


def resolve_policy(text: str, dc: int | None) -> Policy:
    """The policy of ``--policy`` for a roll against ``dc``."""
    return parse_policy(text, dc=dc, field_name="--policy")


def roll_policy(args: argparse.Namespace, dc: int | None) -> Policy:
    """The rule-of-1 policy of the roll of :func:`roll_options` against ``dc``; ``--policy``
    with ``--actor npc`` is refused: an NPC always cancels, whatever the policy."""
    if args.actor == "npc":
        refuse(
            args,
            ("--policy",),
            Phrase(
                "does not apply with --actor npc: an NPC always cancels its 1s "
                "against 6s and drains nothing, whatever the policy."
            ),
        )
    return resolve_policy(args.policy, dc)


def roll_options() -> argparse.ArgumentParser:
    """The roll: its advantage state, kind, actor, rule-of-1 policy and reroll on failure."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    g = p.add_argument_group("the roll")
    g.add_argument(
        "--advantage",
        choices=ADVANTAGE_STATES,
        default="normal",
        help="net advantage state (default: normal)",
    )
    g.add_argument("--kind", choices=KINDS, default="check")
    g.add_argument(
        "--actor", choices=ACTORS, default="pc", help="an NPC always cancels and drains nothing"
    )
    g.add_argument(
        "--policy",
        type=policy,
        default="keep",
        help="rule-of-1 policy: keep, cancel, or best:λ (e.g. best:0.05)",
    )
    g.add_argument(
        "--reroll-on-failure",
        action="store_true",
        help="the roll carries Reroll('failure') against the (first) DC",
    )
    return p


def reroll_from(args: argparse.Namespace, dc: int | None) -> Reroll | None:
    """The roll's reroll from --lucky / --reroll-on-failure (one of them)."""
    lucky, failure = getattr(args, "lucky", False), getattr(args, "reroll_on_failure", False)
    if lucky and failure:
        raise ExplodiceError(
            Phrase(
                "`--lucky` and `--reroll-on-failure` cannot both be given: a roll "
                "carries one reroll."
            )
        )
    if failure:
        if dc is None:
            raise ExplodiceError(
                Phrase("`--reroll-on-failure` needs a DC, and this command has none.")
            )
        return Reroll("failure", dc)
    return Reroll("one") if lucky else None


# -- exact or simulated ---------------------------------------------------------------------
def sampling_options(default: str = "exact") -> argparse.ArgumentParser:
    """--exact / --simulate and the simulation's options; ``default`` says in the help which
    method a command uses when neither is given."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    g = p.add_argument_group("exact or simulated")
    m = g.add_mutually_exclusive_group()
    m.add_argument(
        "--exact",
        dest="method",
        action="store_const",
        const="exact",
        help="use the exact engine" + (" (default)" if default == "exact" else f" ({default})"),
    )
    m.add_argument(
        "--simulate",
        dest="method",
        action="store_const",
        const="simulate",
        help="use the Monte Carlo engine (with --n, --seed, --threads)",
    )
    g.add_argument("--n", type=ROLLS, default=1_000_000, help="rolls to simulate")
    g.add_argument(
        "--seed",
        type=SEED,
        default=None,
        help="seed of the simulation (default: fresh, printed with the results)",
    )
    g.add_argument("--threads", type=THREADS, default=None, help="threads (default: all)")
    g.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(method="exact")
    return p


def refuse_drain_switches(args: argparse.Namespace, policy: Any, what: str) -> None:
    """Refuse the switches that change only the drain, for a command whose output shows no
    drain (``what`` names it): ``--ones-on-explosions`` always, ``--rule-of-one`` when the
    roll keeps its 1s (a PC under keep: which kinds drain cannot change its total)."""
    refuse(
        args,
        ("--ones-on-explosions",),
        Phrase("changes the drain only, which {what} does not show.", what=what),
    )
    if policy == "keep" and getattr(args, "actor", "pc") == "pc":
        refuse(
            args,
            ("--rule-of-one",),
            Phrase(
                "changes the drain of a roll that keeps its 1s, which {what} does "
                "not show (with --policy cancel or best:λ it changes what is "
                "cancelled).",
                what=what,
            ),
        )


#: The options that set how a simulation samples.
SAMPLING_FLAGS = ("--n", "--seed", "--threads")


def sampling_from(args: argparse.Namespace) -> Sampling:
    """The :class:`~explodice.Sampling` the options of :func:`sampling_options` ask for;
    ``--n``, ``--seed`` or ``--threads`` without ``--simulate`` is refused."""
    if args.method != "simulate":
        refuse(
            args,
            SAMPLING_FLAGS,
            Phrase("sets a simulation (--simulate); the exact engine samples nothing."),
        )
    return Sampling(args.method, n=args.n, seed=args.seed, threads=args.threads)


def progress(args: argparse.Namespace) -> bool | None:
    """False with --no-progress; else None: the engine shows a bar on long runs."""
    return False if args.no_progress else None


# -- output ---------------------------------------------------------------------------------
def config_argument(p: argparse.ArgumentParser) -> None:
    """The optional positional ``config``: a report configuration TOML file."""
    p.add_argument(
        "config",
        nargs="?",
        default=None,
        help="a configuration TOML file (default: the embedded one)",
    )


def output_options() -> argparse.ArgumentParser:
    """--format text|csv|json and --lang en|fr (the text table's language)."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    p.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        default="text",
        help="aligned text (default), csv or json (tidy rows) for scripts",
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        default="en",
        help="language of the text table's headers and numbers (csv/json stay as they are)",
    )
    return p


#: The shared options of a command about rolls: the roll, the rules switches, exact or
#: simulated, and the output.
ROLL_COMMAND = (roll_options, rules_options, sampling_options, output_options)
#: The rules switches of a command about single rolls that carry no Lucky (``table``,
#: ``compare``, ``frontier``).
NO_LUCKY_RULES = functools.partial(rules_options, ("roll",), lucky="none")
