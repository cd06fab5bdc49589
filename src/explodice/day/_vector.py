"""The chain's Horner scheme in explicit vector code (:mod:`explodice.day._chain_kernel`).

A roll's drain along a column is a Horner scheme in the exploding-d6 operator ``R``,

    a_C = k_C x,    a_c = k_c x + R a_{c+1},    (R y)(j) = (y(j+1) + ... + y(j+5) + (R y)(j+6)) / 6,

played from the top level down. Each step ``c`` reads, at level ``j``, the five levels above
of the step before it and its own ``R`` six levels above: numba's loops keep those rows in
memory (about thirteen loads and stores per level and step), while here every step's last
rows stay in registers as the sweep goes down, eight columns side by side in one vector
register, so that a level costs one load of ``x`` and one store of ``a_0``: three times
faster for three dice. Numba cannot express a loop that keeps vectors in registers across
its iterations, so the sweep is written in LLVM's own instructions (a numba
``@intrinsic``): :func:`horner_columns` is the kernel the chain calls.

>>> import numpy as np
>>> x = np.zeros(8 * 9); x[8 * 6] = 1.0          # 9 levels, 8 columns: all at level 6
>>> coef = np.zeros((2, 8)); coef[1] = 1.0       # exactly one die
>>> a = np.zeros(8 * 9)
>>> horner_columns(x, 0, 8, 9, coef, a, 8, a, 0, 8, 9, False, 8, 1)
>>> [round(6 * float(v), 12) for v in a[0:48:8]]   # levels 0-5: a 1-5 from 6 (1/6 each), not a 6
[0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from explodice.engine.numba_cache import prepare_cache

prepare_cache(__file__)  # before the first @njit(cache=True): see engine/numba_cache.py

WIDTH = 8  # columns in one vector register (AVX-512; LLVM splits it where the CPU has less)
MAX_STEPS = 8  # the most dice a drain law sums (explodice.day.rolls.MAX_DICE)
_FLAGS = ("contract", "reassoc", "nsz")  # as the numba kernels' fastmath: sums of positive terms


def _address(builder: ir.IRBuilder, base: ir.Value, index: ir.Value, vec: ir.Type) -> ir.Value:
    """A pointer to the ``vec`` starting at element ``index`` of the doubles at ``base``."""
    f64 = ir.DoubleType()
    if getattr(base.type, "is_opaque", False):
        return builder.gep(base, [index], source_etype=f64)
    return builder.bitcast(builder.gep(base, [index]), vec.as_pointer())


def _load(builder: ir.IRBuilder, base: ir.Value, index: ir.Value, vec: ir.Type) -> ir.Value:
    ptr = _address(builder, base, index, vec)
    if getattr(ptr.type, "is_opaque", False):
        return builder.load(ptr, typ=vec, align=8)
    return builder.load(ptr, align=8)


def _store(builder: ir.IRBuilder, value: ir.Value, base: ir.Value, index: ir.Value) -> None:
    builder.store(value, _address(builder, base, index, value.type), align=8)


def _prefetch(builder, base, index, write):  # type: ignore[no-untyped-def]
    """Ask for the cache line of element ``index`` of the doubles at ``base`` ahead of use."""
    i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
    fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
    fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
    ptr = builder.bitcast(builder.gep(base, [index]), i8p)
    builder.call(fn, [ptr, ir.Constant(i32, int(write)), ir.Constant(i32, 3 if write else 0), ir.Constant(i32, 1)])


AHEAD = 4  # groups of columns ahead whose lines a sweep asks for (the rows are far apart)


def _sweep(builder, ptrs, ints, steps, width, first, count):  # type: ignore[no-untyped-def]
    """Emit the sweep of ``count`` groups of ``width`` columns from column ``first``."""
    src, coef, dst, out = ptrs
    s0, step, m, ncoef, dstep, o0, ostep, rows_a, overwrite = ints
    i64, f64 = ir.IntType(64), ir.DoubleType()
    vec = ir.VectorType(f64, width)
    zero = ir.Constant(vec, [0.0] * width)
    sixth = ir.Constant(vec, [1.0 / 6.0] * width)
    # the rings: a_{c+1} at the five levels above, R a_{c+1} at the six above (stack slots
    # that LLVM keeps in registers)
    above = [[cgutils.alloca_once(builder, vec) for _ in range(5)] for _ in range(steps)]
    r_above = [[cgutils.alloca_once(builder, vec) for _ in range(6)] for _ in range(steps)]
    k = [cgutils.alloca_once(builder, vec) for _ in range(steps + 1)]
    with cgutils.for_range(builder, count) as group:
        b0 = builder.add(first, builder.mul(group.index, ir.Constant(i64, width)))
        for c in range(steps + 1):
            at = builder.add(builder.mul(ir.Constant(i64, c), ncoef), b0)
            builder.store(_load(builder, coef, at, vec), k[c])
        for ring in above + r_above:
            for slot in ring:
                builder.store(zero, slot)
        with cgutils.for_range(builder, m) as level:
            j = builder.sub(builder.sub(m, ir.Constant(i64, 1)), level.index)
            at_x = builder.add(builder.add(s0, builder.mul(j, step)), b0)
            if width > 1:  # the same level of a later group: another cache line
                _prefetch(builder, src, builder.add(at_x, ir.Constant(i64, AHEAD * width)), False)
                at_o = builder.add(builder.add(o0, builder.mul(j, ostep)), b0)
                _prefetch(builder, out, builder.add(at_o, ir.Constant(i64, AHEAD * width)), True)
            x = _load(builder, src, at_x, vec)
            a = builder.fmul(builder.load(k[steps]), x, flags=_FLAGS)
            for c in range(steps - 1, -1, -1):
                ups = [builder.load(slot) for slot in above[c]]
                rs = [builder.load(slot) for slot in r_above[c]]
                total = ups[0]
                for u in ups[1:]:
                    total = builder.fadd(total, u, flags=_FLAGS)
                r = builder.fmul(builder.fadd(total, rs[5], flags=_FLAGS), sixth, flags=_FLAGS)
                for i in range(4, 0, -1):  # one level down: the rings move by one
                    builder.store(ups[i - 1], above[c][i])
                builder.store(a, above[c][0])
                for i in range(5, 0, -1):
                    builder.store(rs[i - 1], r_above[c][i])
                builder.store(r, r_above[c][0])
                kx = builder.fmul(builder.load(k[c]), x, flags=_FLAGS)
                a = builder.fadd(kx, r, flags=_FLAGS)
            kept = builder.icmp_signed("<", j, rows_a)
            with builder.if_else(kept) as (in_a, in_out):
                with in_a:
                    _store(builder, a, dst, builder.add(builder.mul(j, dstep), b0))
                with in_out:
                    at = builder.add(builder.add(o0, builder.mul(j, ostep)), b0)
                    with builder.if_else(overwrite) as (write, add):
                        with write:
                            _store(builder, a, out, at)
                        with add:
                            old = _load(builder, out, at, vec)
                            _store(builder, builder.fadd(old, a, flags=_FLAGS), out, at)


@intrinsic
def _horner(typingctx, src, s0, step, m, coef, ncoef, dst, dstep, out, o0, ostep, rows_a,
            overwrite, nb, steps):  # type: ignore[no-untyped-def]  # fmt: skip
    """:func:`horner_columns` for a number of dice known when compiling (``steps``)."""
    if not isinstance(steps, types.IntegerLiteral):
        return None
    n_steps = steps.literal_value
    sig = types.void(src, s0, step, m, coef, ncoef, dst, dstep, out, o0, ostep, rows_a,
                     overwrite, nb, steps)  # fmt: skip

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i64 = ir.IntType(64)
        ptrs = [
            context.make_array(signature.args[i])(context, builder, args[i]).data
            for i in (0, 4, 6, 8)
        ]
        ints = [args[i] for i in (1, 2, 3, 5, 7, 9, 10, 11)] + [args[12]]
        ints = [v if v.type == ir.IntType(1) else builder.sext(v, i64)
                if v.type.width < 64 else v for v in ints]  # fmt: skip
        nb_v = args[13] if args[13].type.width == 64 else builder.sext(args[13], i64)
        whole = builder.udiv(nb_v, ir.Constant(i64, WIDTH))
        _sweep(builder, ptrs, ints, n_steps, WIDTH, ir.Constant(i64, 0), whole)
        first = builder.mul(whole, ir.Constant(i64, WIDTH))
        _sweep(builder, ptrs, ints, n_steps, 1, first, builder.sub(nb_v, first))
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True)
def horner_columns(src, s0, step, m, coef, dst, dstep, out, o0, ostep, rows_a, overwrite, nb,
                   C):  # type: ignore[no-untyped-def]  # fmt: skip
    """``a[j, b] = sum_c coef[c, b] (R^c x)[j]`` for the ``nb`` columns of a tile, levels ``j
    = 0 .. m - 1`` (none above), column ``b``'s level ``j`` of ``x`` at ``src[s0 + j step +
    b]``; ``C`` (at most :data:`MAX_STEPS`) the most dice. Levels below ``rows_a`` go to
    ``dst[j dstep + b]``, the others to ``out[o0 + j ostep + b]``, added (written with
    ``overwrite``)."""
    cw = coef.shape[1]
    if C == 0:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 0)
    elif C == 1:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 1)
    elif C == 2:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 2)
    elif C == 3:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 3)
    elif C == 4:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 4)
    elif C == 5:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 5)
    elif C == 6:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 6)
    elif C == 7:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 7)
    else:
        _horner(src, s0, step, m, coef, cw, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, 8)
