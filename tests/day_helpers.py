"""What the day's tests share: a hero with the test scores, and a z-test of a simulated number."""

import dataclasses

import explodice as ex

Z = 4.5  # |z| bound per compared number: a false alarm below 1e-5 each
SCORES = dict(STR=14, DEX=12, CON=14, INT=16, WIS=10, CHA=8)


def hero(name="Hero", *, gauges=None, **kw):
    """A character with :data:`SCORES` and, optionally, stated gauge maxima."""
    return ex.Character(name, SCORES, gauge_max=gauges, **kw)


def lucky_party(scenario, lucky=True):
    """The scenario with Reroll("one") (Lucky) for every character when ``lucky`` (what a
    game-wide ``Rules(lucky=True)`` used to do)."""
    if not lucky:
        return scenario
    chars = [dataclasses.replace(c, reroll=ex.Reroll("one")) for c in scenario.characters]
    return scenario.replace(characters=chars)


def close(observed, expected, se):
    """True when ``observed`` is within :data:`Z` standard errors of ``expected``."""
    return abs(observed - expected) <= Z * se + 1e-12
