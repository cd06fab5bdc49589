import pytest

from explodice import Best, ExplodiceError, Roll, Rules, RulesError, net_advantage


def test_defaults_follow_the_rules():
    r = Roll()
    assert (r.modifier, r.advantage, r.kind, r.actor, r.policy) == (
        0,
        "normal",
        "check",
        "pc",
        "keep",
    )
    rules = Rules()
    assert rules.disadvantage == "subtract"
    assert rules.rule_of_one_kinds == frozenset({"check", "save"})
    assert rules.ones_on_explosions is False and rules.overflow == "fullest"
    assert rules.drain_gauge == "skill" and r.reroll is None


@pytest.mark.parametrize(
    "adv, dis, expected",
    [
        (0, 0, "normal"),
        (1, 0, "advantage"),
        (3, 0, "advantage"),
        (0, 2, "disadvantage"),
        (1, 1, "normal"),
        (3, 1, "normal"),
        (1, 4, "normal"),
    ],
)
def test_sources_are_netted(adv, dis, expected):
    assert net_advantage(adv, dis) == expected
    assert Roll.from_sources(2, advantages=adv, disadvantages=dis).advantage == expected


def test_pools_follow_the_switches():
    assert Roll().pool_size(Rules()) == 3
    assert Roll(advantage="advantage").pool_size(Rules()) == 4
    assert Roll(advantage="disadvantage").pool_size(Rules()) == 3
    assert Roll(advantage="disadvantage").has_malus_die(Rules())
    assert Roll(advantage="disadvantage").pool_size(Rules(disadvantage="drop")) == 2
    assert not Roll(advantage="disadvantage").has_malus_die(Rules(disadvantage="drop"))
    assert not Roll(kind="attack").drains(Rules())
    assert not Roll(actor="npc").drains(Rules())


@pytest.mark.parametrize(
    "build, field, value",
    [
        (lambda: Roll(policy="sometimes"), "policy", "sometimes"),
        (lambda: Roll(policy=Best(dc=16, weight=-0.5)), "Best.weight", "-0.5"),
        (lambda: Roll(modifier=2.5), "modifier", "2.5"),
        (lambda: Roll(modifier=True), "modifier", "True"),
        (lambda: Roll(advantage="super"), "advantage", "super"),
        (lambda: Roll(kind="parry"), "kind", "parry"),
        (lambda: Roll(actor="gm"), "actor", "gm"),
        (lambda: Rules(disadvantage="halve"), "disadvantage", "halve"),
        (lambda: Rules(overflow="nowhere"), "overflow", "nowhere"),
        (lambda: Rules(rule_of_one_kinds={"check", "dance"}), "rule_of_one_kinds", "dance"),
        (lambda: Rules(ones_on_explosions="yes"), "ones_on_explosions", "yes"),
        (lambda: Best(dc=16.5), "Best.dc", "16.5"),
        (lambda: Best(dc=16, weight=float("nan")), "Best.weight", "nan"),
        (lambda: net_advantage(-1, 0), "advantages", "-1"),
    ],
)
def test_bad_input_names_field_value_and_what_is_allowed(build, field, value):
    with pytest.raises(RulesError) as info:
        build()
    message = str(info.value)
    assert f"`{field}`" in message and value in message and "must be" in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, ExplodiceError)


def test_rules_and_rolls_are_frozen_and_hashable():
    r = Roll(3, policy=Best(16, 0.1))
    with pytest.raises(AttributeError):
        r.modifier = 4  # type: ignore[misc]
    assert hash(r) == hash(Roll(3, policy=Best(16, 0.1)))
    assert hash(Rules(rule_of_one_kinds=["check"])) == hash(Rules(rule_of_one_kinds={"check"}))


def test_one_sided_bounds_are_stated_plainly():
    with pytest.raises(
        RulesError, match=r"`advantages` must be an integer >= 0, but -1 was passed"
    ):
        net_advantage(-1, 0)
    with pytest.raises(RulesError, match=r"`modifier` must be an integer in -100\.\.100, but 2\.5"):
        Roll(modifier=2.5)
