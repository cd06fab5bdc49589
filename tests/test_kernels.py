"""The single-roll kernel's building blocks, against Python's own integers."""

import numpy as np
import pytest
from numba import njit, uint64
from scipy import stats

from explodice import Roll, Rules, exact, simulate
from explodice.engine import _kernels as k
from explodice.engine.seeding import stream_seeds


@njit(cache=False)
def _mul_wide(a, b):
    return k.mul_wide(uint64(a), uint64(b))


@njit(cache=False)
def _digits(seed_row, n, th, count, per_draw):
    st = k.seed_state(seed_row)
    out = np.empty((count, per_draw), dtype=np.int64)
    for i in range(count):
        if per_draw == 4:
            a, b, c, d, st = k.digits4(uint64(n), th, st)
            out[i, 0], out[i, 1], out[i, 2], out[i, 3] = a, b, c, d
        else:
            a, b, c, st = k.digits3(uint64(n), th, st)
            out[i, 0], out[i, 1], out[i, 2] = a, b, c
    return out


@njit(cache=False)
def _outputs(seed_row, count):
    st = k.seed_state(seed_row)
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i], st = k.next_u64(st)
    return out


def test_mul_wide_is_the_128_bit_product():
    rng = np.random.default_rng(0)
    for a, b in [(2**64 - 1, 2**64 - 1), (0, 5), (2**63, 2)] + [
        tuple(int(x) for x in rng.integers(0, 2**64, 2, dtype=np.uint64)) for _ in range(50)
    ]:
        hi, lo = _mul_wide(np.uint64(a), np.uint64(b))
        assert (int(hi) << 64) + int(lo) == a * b


@pytest.mark.parametrize("n, per_draw", [(6**5, 4), (6**6, 3), (7, 4)])
def test_digits_are_lemires_integer_below_n_to_the_k_written_in_base_n(n, per_draw):
    seed_row = stream_seeds(np.random.SeedSequence(5), 1)[0]
    count = 2000
    digits = _digits(seed_row, n, k.digits_threshold(n, per_draw), count, per_draw)
    # the same generator's outputs, read by Python integers: Lemire's method below n**k
    outputs = [int(x) for x in _outputs(seed_row, count + 10)]
    big = n**per_draw
    threshold = 2**64 % big
    expected = []
    for r in outputs:
        if (r * big) % 2**64 >= threshold:
            v = (r * big) >> 64
            expected.append([v // n ** (per_draw - 1 - j) % n for j in range(per_draw)])
        if len(expected) == count:
            break
    assert digits.tolist() == expected


@njit(cache=False)
def _mixed(seed_row, radices, th, count):
    st = k.seed_state(seed_row)
    out = np.empty((count, 3), dtype=np.int64)
    for i in range(count):
        a, b, c, st = k.digits_mixed3(radices[0], radices[1], radices[2], th, st)
        out[i, 0], out[i, 1], out[i, 2] = a, b, c
    return out


@pytest.mark.parametrize("radices", [(6**6, 6**5, 6**5), (6**5, 6**5, 6**5), (7, 3, 1000)])
def test_mixed_digits_are_lemires_integer_below_the_product_in_mixed_radix(radices):
    """The day kernel's three digits per output: an integer below n1 n2 n3, Lemire's method,
    read most significant digit first (checked with Python's integers)."""
    seed_row = stream_seeds(np.random.SeedSequence(9), 1)[0]
    count = 2000
    th = k.mixed_threshold(*radices)
    digits = _mixed(seed_row, np.array(radices, dtype=np.uint64), th, count)
    n1, n2, n3 = radices
    big = n1 * n2 * n3
    expected = []
    for r in (int(x) for x in _outputs(seed_row, count + 10)):
        if (r * big) % 2**64 >= 2**64 % big:
            x = (r * big) >> 64
            expected.append([x // (n2 * n3), x // n3 % n2, x % n3])
        if len(expected) == count:
            break
    assert digits.tolist() == expected
    with pytest.raises(ValueError, match="do not fit"):
        k.mixed_threshold(6**8, 6**8, 6**8)  # 2**62: a draw in 4 rejected


def test_digits_are_uniform():
    seed_row = stream_seeds(np.random.SeedSequence(6), 1)[0]
    digits = _digits(seed_row, 7, k.digits_threshold(7, 4), 30_000, 4)
    for j in range(4):  # each position uniform, and positions 0 and 3 independent
        assert stats.chisquare(np.bincount(digits[:, j], minlength=7)).pvalue > 1e-6
    pairs = np.bincount(digits[:, 0] * 7 + digits[:, 3], minlength=49)
    assert stats.chisquare(pairs).pvalue > 1e-6


def test_digits_threshold_refuses_what_does_not_fit():
    assert int(k.digits_threshold(6**5, 4)) == 2**64 % 6**20
    with pytest.raises(ValueError, match="do not fit"):
        k.digits_threshold(6**6, 4)
    with pytest.raises(ValueError, match="do not fit"):
        k.digits_threshold(6, 24)  # fits in 64 bits, but a draw in four would be rejected


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 5, 1000])
@pytest.mark.parametrize(
    "roll, rules",
    [
        (Roll(0), Rules()),  # pool 3: 4 rolls per output
        (Roll(0, advantage="advantage"), Rules()),  # pool 4: 3 rolls per output
        (Roll(0, advantage="disadvantage", kind="check"), Rules()),  # malus die and drain
    ],
)
def test_every_roll_is_counted_whatever_the_chunk_size(roll, rules, chunk_size):
    d = simulate(roll, rules, n=2_003, seed=1, chunk_size=chunk_size, threads=2)
    assert d.counts.sum() == 2_003 and d.omitted == 0
    # and the same seed gives the same counts on one thread
    assert (
        simulate(roll, rules, n=2_003, seed=1, chunk_size=chunk_size, threads=1).counts == d.counts
    ).all()


def test_rare_entries_and_drains_follow_the_exact_law():
    """A roll that explodes past the table and drains: the tail bins that only the slow paths fill."""
    roll, rules = Roll(0, kind="check", advantage="disadvantage"), Rules(ones_on_explosions=True)
    d = simulate(roll, rules, n=400_000, seed=3)
    e = exact(roll, rules)
    for dc in (20, 25, 30):  # totals the throw table leaves open (past 5 faces)
        p = float(e.p_success(dc))
        assert abs(float(d.p_success(dc)) - p) <= 5 * np.sqrt(p * (1 - p) / d.n) + 1 / d.n
    p_big_drain = float(e.drain_pmf[7:].sum())  # more than one d6's first face
    got = float(d.drain_pmf[7:].sum())
    assert abs(got - p_big_drain) <= 5 * np.sqrt(p_big_drain * (1 - p_big_drain) / d.n)


def test_day_drain_table_reads_the_first_faces_of_each_count_of_dice():
    """The day kernel's one-byte drain table, by hand: ``c`` exploding dice read from the five
    base-6 digits of ``u``, least significant first (a 6 rolls the same die again, any other
    face ends it)."""
    from explodice.day._kernel import DAY_DRAIN

    rng = np.random.default_rng(3)
    for c in range(8):
        for u in list(rng.integers(0, 6**5, 300)) + [0, 6**5 - 1]:
            faces = [int(u) // 6**j % 6 + 1 for j in range(5)]  # least significant first
            total, left = 0, c
            for f in faces:
                if left == 0:
                    break
                total += f
                left -= f != 6
            x = int(DAY_DRAIN[c, u])
            assert (x & 31, x >> 5) == (total, left), (c, u, faces)
