"""The chain's Horner schemes in explicit vector code (for :mod:`explodice.day._chain_kernel`).

A drain law along an axis is a Horner scheme in the exploding-d6 operator ``R``,

    a_C = y_C,    a_c = y_c + R a_{c+1},    (R y)(j) = (y(j+1) + ... + y(j+5) + (R y)(j+6)) / 6,

played from the top level down (``y_c``: the sources weighted by the chance of ``c`` dice).
Each step ``c`` reads, at level ``j``, the five levels above of the step before it and its
own ``R`` six levels above: numba's loops keep those rows in memory (about thirteen loads and
stores per level and step), while here every step's last rows stay in registers as the
sweep goes down (:class:`_Ring`), the columns of a group side by side in one vector
register, so that a level costs a load of its sources and a store of ``a_0`` (and, past the
registers the CPU has, a few loads and stores of the rings in the nearest cache).
Numba cannot express a loop that keeps vectors in registers across its iterations, so the
sweeps are written in LLVM's own instructions (numba ``@intrinsic`` s); the kernels the chain
calls are :func:`horner_columns` (a tile of columns, :func:`~explodice.day._chain_kernel.
push_columns`) and :func:`horner_stage` (the combined levels of a class of columns,
:func:`~explodice.day._chain_kernel.stage_push`), both inlined into their caller (one copy of
the code, the same in the first run and from numba's cache). The columns go :data:`WIDTH` at
a time (a *group*: 8 where the CPU has AVX-512, else 4), the last ones one at a time; the
sweeps of either width are built by :func:`columns_kernel` and :func:`stage_kernel` (an 8-wide
vector runs on any x86-64 CPU: LLVM splits it), which the tests run both, whatever the machine.
:mod:`explodice.day._plain` holds the same schemes in plain loops (the specification these
sweeps are tested against, and the fallback ``EXPLODICE_KERNELS=plain`` picks:
:mod:`explodice.day._horner`).

>>> import numpy as np
>>> x = np.zeros(8 * 9); x[8 * 6] = 1.0          # 9 levels, 8 columns: all at level 6
>>> coef = np.zeros((2, 8)); coef[1] = 1.0       # exactly one die
>>> a = np.zeros(8 * 9)
>>> horner_columns(x, 0, 8, 9, coef, a, 8, a, 0, 8, 9, False, 8, 1)
>>> [round(6 * float(v), 12) for v in a[0:48:8]]   # levels 0-5: a 1-5 from 6 (1/6 each), not a 6
[0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from explodice.day.rolls import MAX_DICE
from explodice.engine.numba_cache import prepare_cache

prepare_cache(__file__)  # before the first @njit(cache=True): see engine/numba_cache.py

__all__ = [
    "AHEAD",
    "FASTMATH",
    "SIDES",
    "SIXTH",
    "STEPS",
    "WIDTH",
    "WIDTHS",
    "check_columns",
    "check_stage",
    "columns_kernel",
    "horner_columns",
    "horner_stage",
    "stage_kernel",
    "vector_width",
]

SIDES = 6  # a d6: five faces that stop, the sixth explodes (R reads 5 levels, then 6 down)
SIXTH = 1.0 / SIDES
FASTMATH = {"contract", "reassoc", "nsz"}  # every kernel of the chain's: sums of positive terms
STEPS = 8  # the most dice the kernels are compiled for (a sweep each, chosen as they run)
if MAX_DICE > STEPS:  # a law of more dice needs a larger STEPS (one more sweep compiled)
    raise ImportError(f"explodice.day._vector plays at most {STEPS} dice, not {MAX_DICE}")
AHEAD = 4  # groups ahead whose cache lines a sweep asks for (a tile's levels are far apart)
_I64 = ir.IntType(64)
_F64 = ir.DoubleType()


def vector_width() -> int:
    """Doubles in one vector register of the CPU numba compiles for: 8 with AVX-512 (and
    its 32 registers, which hold most of a sweep's rings), else 4 (AVX2 has 16 registers:
    eight-lane vectors would be split in two and spill; measured in benchmarks/README.md)."""
    from numba.core import config

    wanted = getattr(config, "CPU_FEATURES", None) or ""  # set from the environment
    if wanted:  # NUMBA_CPU_FEATURES names the target's features itself
        return 8 if "+avx512f" in wanted.split(",") else 4
    name = getattr(config, "CPU_NAME", None)
    if name and name != "host":
        return 4  # a named CPU (a portable cache, say): the narrower vectors run anywhere
    import llvmlite.binding as llvm

    try:
        features = llvm.get_host_cpu_features()
    except RuntimeError:  # the host's features cannot be read: the narrower vectors
        return 4
    return 8 if features.get("avx512f", False) else 4


WIDTH = vector_width()  # columns in one vector register
WIDTHS = (4, 8)  # the widths the sweeps are built and tested at


class _Emit:
    """The builder of one sweep and its vector type (``width`` lanes of doubles)."""

    def __init__(self, builder: ir.IRBuilder, width: int) -> None:
        self.b = builder
        self.width = width
        self.vec = ir.VectorType(_F64, width)
        self.zero = ir.Constant(self.vec, [0.0] * width)

    @staticmethod
    def int(value: int) -> ir.Constant:
        return ir.Constant(_I64, value)

    def splat(self, value: ir.Value) -> ir.Value:
        """A double in every lane."""
        one = self.b.insert_element(ir.Constant(self.vec, ir.Undefined), value, self.int(0))
        mask = ir.Constant(ir.VectorType(ir.IntType(32), self.width), [0] * self.width)
        return self.b.shuffle_vector(one, one, mask)

    def _at(self, base: ir.Value, index: ir.Value, typ: ir.Type, elem: ir.Type) -> ir.Value:
        """A pointer to the ``typ`` at element ``index`` (of type ``elem``) from ``base``."""
        if getattr(base.type, "is_opaque", False):
            return self.b.gep(base, [index], source_etype=elem)
        return self.b.bitcast(self.b.gep(base, [index]), typ.as_pointer())

    def load(self, base: ir.Value, index: ir.Value, typ: ir.Type | None = None) -> ir.Value:
        """The vector (or ``typ``) at element ``index`` of the array at ``base``."""
        typ = typ or self.vec
        elem = typ.element if isinstance(typ, ir.VectorType) else typ
        return self.slot(self._at(base, index, typ, elem), typ)

    def slot(self, ptr: ir.Value, typ: ir.Type | None = None) -> ir.Value:
        """The value at ``ptr`` (a stack slot of the rings, or an array's element)."""
        typ = typ or self.vec
        if getattr(ptr.type, "is_opaque", False):
            return self.b.load(ptr, typ=typ, align=8)
        return self.b.load(ptr, align=8)

    def store(self, value: ir.Value, base: ir.Value, index: ir.Value) -> None:
        self.b.store(value, self._at(base, index, value.type, _F64), align=8)

    def add(self, x: ir.Value, y: ir.Value) -> ir.Value:
        return self.b.fadd(x, y, flags=tuple(sorted(FASTMATH)))

    def mul(self, x: ir.Value, y: ir.Value) -> ir.Value:
        return self.b.fmul(x, y, flags=tuple(sorted(FASTMATH)))

    def prefetch(self, base: ir.Value, index: ir.Value, write: bool) -> None:
        """Ask for the cache line of element ``index`` ahead of its use (an address past the
        end is harmless). A line to read is asked for as not to be kept long (the day's
        arrays are larger than the caches; the tile's lines are read again at once, from the
        nearest caches, to add the sources to the stages); a line to write, to be kept."""
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = self.b.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        ptr = self.b.bitcast(self._at(base, index, _F64, _F64), i8p)
        args = [ptr, ir.Constant(i32, int(write)), ir.Constant(i32, 3 if write else 0)]
        self.b.call(fn, [*args, ir.Constant(i32, 1)])


class _Ring:
    """A group's Horner scheme as it goes down: for each step ``c < C``, ``a_{c+1}`` at the
    :data:`SIDES` ``- 1`` levels above and ``R a_{c+1}`` at the :data:`SIDES` above, in
    stack slots that LLVM keeps in registers as far as the CPU has them (with AVX-512, up to
    two dice; the others go to the stack, in the nearest cache)."""

    def __init__(self, e: _Emit, steps: int) -> None:
        self.e, self.steps = e, steps
        b = e.b
        self.above = [
            [cgutils.alloca_once(b, e.vec) for _ in range(SIDES - 1)] for _ in range(steps)
        ]
        self.r_above = [[cgutils.alloca_once(b, e.vec) for _ in range(SIDES)] for _ in range(steps)]
        self.sixth = ir.Constant(e.vec, [SIXTH] * e.width)

    def clear(self) -> None:
        """Nothing above the top level."""
        for ring in self.above + self.r_above:
            for slot in ring:
                self.e.b.store(self.e.zero, slot)

    def level(self, y: list[Any]) -> ir.Value:
        """``a_0`` at the next level down, ``y[c]`` the level's sources of step ``c`` (None:
        none); the rings move down by one."""
        e, b = self.e, self.e.b
        a = y[self.steps] if y[self.steps] is not None else e.zero
        for c in range(self.steps - 1, -1, -1):
            ups = [e.slot(slot) for slot in self.above[c]]
            rs = [e.slot(slot) for slot in self.r_above[c]]
            box = ups[0]
            for u in ups[1:]:
                box = e.add(box, u)
            r = e.mul(e.add(box, rs[-1]), self.sixth)
            for i in range(len(ups) - 1, 0, -1):  # one level down: each ring moves by one
                b.store(ups[i - 1], self.above[c][i])
            b.store(a, self.above[c][0])
            for i in range(len(rs) - 1, 0, -1):
                b.store(rs[i - 1], self.r_above[c][i])
            b.store(r, self.r_above[c][0])
            a = r if y[c] is None else e.add(y[c], r)
        return a


def _groups(builder: ir.IRBuilder, n: ir.Value, width: int, body: Any) -> None:
    """``body(e, b0, count)`` over the groups of ``n`` columns: ``n // width`` groups of
    ``width`` from column 0, then the rest one by one."""
    wide, one = _Emit(builder, width), _Emit(builder, 1)
    whole = builder.udiv(n, wide.int(width))
    body(wide, wide.int(0), whole)
    first = builder.mul(whole, wide.int(width))
    body(one, first, builder.sub(n, first))


def _by_steps(builder: ir.IRBuilder, dice: ir.Value, emit: Any) -> None:
    """``emit(steps)`` for every number of dice 0 .. :data:`STEPS` (a sweep's rings are fixed
    when it is compiled), the one of ``dice`` taken when it runs."""
    done = builder.append_basic_block("dice.done")
    switch = builder.switch(dice, done)
    for steps in range(STEPS + 1):
        block = builder.append_basic_block(f"dice.{steps}")
        switch.add_case(ir.Constant(dice.type, steps), block)
        with builder.goto_block(block):
            emit(steps)
            builder.branch(done)
    builder.position_at_end(done)


def _contiguous(*arrays: Any) -> bool:
    """Whether the arrays are C-contiguous (the sweeps read their data by index alone)."""
    return all(isinstance(t, types.Array) and t.layout == "C" for t in arrays)


def _values(context: Any, builder: ir.IRBuilder, names: tuple[str, ...], arrays: set[str],
            signature: Any, args: Any) -> dict[str, ir.Value]:  # fmt: skip
    """The intrinsic's arguments by name: arrays as their data pointer, integers as i64."""
    out = {}
    for name, ty, value in zip(names, signature.args, args):
        if name in arrays:
            out[name] = context.make_array(ty)(context, builder, value).data
        elif isinstance(value.type, ir.IntType) and value.type.width not in (1, 64):
            out[name] = builder.sext(value, _I64)
        else:
            out[name] = value
    return out


# -- a tile of columns -------------------------------------------------------------------------
_COLUMN_ARGS = ("src", "s0", "step", "m", "coef", "ncoef", "dst", "dstep", "out", "o0", "ostep",
                "rows_a", "overwrite", "nb", "dice")  # fmt: skip


def _column_sweep(e: _Emit, a: dict[str, ir.Value], steps: int, first: ir.Value,
                  count: ir.Value) -> None:  # fmt: skip
    """Emit the sweep of ``count`` groups of ``e.width`` columns from column ``first``."""
    b = e.b
    ring = _Ring(e, steps)
    k = [cgutils.alloca_once(b, e.vec) for _ in range(steps + 1)]
    with cgutils.for_range(b, count) as group:
        b0 = b.add(first, b.mul(group.index, e.int(e.width)))
        for c in range(steps + 1):
            b.store(e.load(a["coef"], b.add(b.mul(e.int(c), a["ncoef"]), b0)), k[c])
        ring.clear()
        with cgutils.for_range(b, a["m"]) as level:
            j = b.sub(b.sub(a["m"], e.int(1)), level.index)
            at_x = b.add(b.add(a["s0"], b.mul(j, a["step"])), b0)
            at_o = b.add(b.add(a["o0"], b.mul(j, a["ostep"])), b0)
            if e.width > 1:  # the same level of a later group: other cache lines
                e.prefetch(a["src"], b.add(at_x, e.int(AHEAD * e.width)), False)
                with b.if_then(b.icmp_signed("<", a["rows_a"], a["m"])):  # ``out`` written
                    e.prefetch(a["out"], b.add(at_o, e.int(AHEAD * e.width)), True)
            x = e.load(a["src"], at_x)
            value = ring.level([e.mul(e.slot(kc), x) for kc in k])
            with b.if_else(b.icmp_signed("<", j, a["rows_a"])) as (in_dst, in_out):
                with in_dst:
                    e.store(value, a["dst"], b.add(b.mul(j, a["dstep"]), b0))
                with in_out:
                    with b.if_else(a["overwrite"]) as (write, add):
                        with write:
                            e.store(value, a["out"], at_o)
                        with add:
                            e.store(e.add(e.load(a["out"], at_o), value), a["out"], at_o)


def _columns_intrinsic(width: int) -> Any:
    """The intrinsic of :func:`horner_columns` with groups of ``width`` columns."""

    @intrinsic
    def sweep(typingctx, src, s0, step, m, coef, ncoef, dst, dstep, out, o0, ostep, rows_a,
              overwrite, nb, dice):  # fmt: skip
        if not _contiguous(src, coef, dst, out):
            return None
        sig = types.void(src, s0, step, m, coef, ncoef, dst, dstep, out, o0, ostep, rows_a,
                         overwrite, nb, dice)  # fmt: skip

        def codegen(context, builder, signature, args):
            arrays = {"src", "coef", "dst", "out"}
            a = _values(context, builder, _COLUMN_ARGS, arrays, signature, args)
            _by_steps(builder, a["dice"], lambda steps: _groups(
                builder, a["nb"], width,
                lambda e, first, n: _column_sweep(e, a, steps, first, n)))  # fmt: skip
            return context.get_dummy_value()

        return sig, codegen

    return sweep


def columns_kernel(width: int) -> Any:
    """:func:`horner_columns` with groups of ``width`` (one of :data:`WIDTHS`) columns."""
    if width not in WIDTHS:
        raise ValueError(f"columns_kernel: width {width!r}, not one of {list(WIDTHS)}")
    sweep = _columns_intrinsic(width)

    @njit(inline="always")
    def horner_columns(src, s0, step, m, coef, dst, dstep, out, o0, ostep, rows_a, overwrite,
                       nb, C):  # fmt: skip
        """``a[j, b] = sum_c coef[c, b] (R^c x)[j]`` for the ``nb`` columns of a tile, levels
        ``j = 0 .. m - 1`` (none above), column ``b``'s level ``j`` of ``x`` at ``src[s0 + j
        step + b]``; ``C`` (at most :data:`STEPS`) the most dice. Levels below ``rows_a`` go to
        ``dst[j dstep + b]``, the others to ``out[o0 + j ostep + b]``, added (written with
        ``overwrite``)."""
        check_columns(src, s0, step, m, coef, dst, dstep, out, o0, ostep, rows_a, nb, C)
        sweep(src, s0, step, m, coef, coef.shape[1], dst, dstep, out, o0, ostep, rows_a,
              overwrite, nb, C)  # fmt: skip

    return horner_columns


@njit(inline="always")
def check_columns(src, s0, step, m, coef, dst, dstep, out, o0, ostep, rows_a, nb, C):
    """Refuse a tile :func:`horner_columns` cannot read or write (it reads by index alone)."""
    cw = coef.shape[1]
    if not 0 <= C <= STEPS or nb < 0 or m < 0 or coef.shape[0] < C + 1 or cw < nb:
        raise ValueError("horner_columns: dice, columns or laws out of range")
    if m > 0 and nb > 0:
        last = m - 1
        kept = min(rows_a, m)
        if s0 + last * step + nb > src.size or (kept > 0 and (kept - 1) * dstep + nb > dst.size):
            raise ValueError("horner_columns: the tile reaches past its arrays")
        if kept < m and o0 + last * ostep + nb > out.size:
            raise ValueError("horner_columns: the tile reaches past its arrays")


# -- the combined levels of a class of columns ------------------------------------------------
_STAGE_ARGS = ("F", "Z", "K", "X", "zl1", "pis", "ncoef", "Phi", "dice")


def _stage_sweep(e: _Emit, a: dict[str, ir.Value], steps: int, first: ir.Value,
                 count: ir.Value) -> None:  # fmt: skip
    """Emit the stage's sweep of ``count`` groups of ``e.width`` planes from plane ``first``."""
    b = e.b
    ring = _Ring(e, steps)
    k0 = [e.splat(e.load(a["pis"], e.int(c), _F64)) for c in range(steps + 1)]
    k1 = [e.splat(e.load(a["pis"], b.add(a["ncoef"], e.int(c)), _F64)) for c in range(steps + 1)]
    law1 = b.mul(a["Z"], a["K"])  # where law 1's sources start in F
    rows = b.add(a["X"], a["Z"])
    with cgutils.for_range(b, count) as group:
        p0 = b.add(first, b.mul(group.index, e.int(e.width)))
        ring.clear()
        with cgutils.for_range(b, rows) as level:
            row = b.sub(b.sub(rows, e.int(1)), level.index)
            z = b.sub(row, a["X"])
            ys = [cgutils.alloca_once(b, e.vec) for _ in range(steps + 1)]
            for slot in ys:
                b.store(e.zero, slot)
            with b.if_then(b.icmp_signed(">=", z, e.int(0))):  # the sources, at z >= 0
                at = b.add(b.mul(z, a["K"]), p0)
                x0 = e.load(a["F"], at)
                for c in range(steps + 1):
                    b.store(e.mul(k0[c], x0), ys[c])
                with b.if_then(b.icmp_signed("<", z, a["zl1"])):
                    x1 = e.load(a["F"], b.add(law1, at))
                    for c in range(steps + 1):
                        b.store(e.add(e.slot(ys[c]), e.mul(k1[c], x1)), ys[c])
            value = ring.level([e.slot(slot) for slot in ys])
            e.store(value, a["Phi"], b.add(b.mul(row, a["K"]), p0))


def _stage_intrinsic(width: int) -> Any:
    """The intrinsic of :func:`horner_stage` with groups of ``width`` planes."""

    @intrinsic
    def sweep(typingctx, F, Z, K, X, zl1, pis, ncoef, Phi, dice):
        if not _contiguous(F, pis, Phi):
            return None
        sig = types.void(F, Z, K, X, zl1, pis, ncoef, Phi, dice)

        def codegen(context, builder, signature, args):
            a = _values(context, builder, _STAGE_ARGS, {"F", "pis", "Phi"}, signature, args)
            _by_steps(builder, a["dice"], lambda steps: _groups(
                builder, a["K"], width,
                lambda e, first, n: _stage_sweep(e, a, steps, first, n)))  # fmt: skip
            return context.get_dummy_value()

        return sig, codegen

    return sweep


def stage_kernel(width: int) -> Any:
    """:func:`horner_stage` with groups of ``width`` (one of :data:`WIDTHS`) planes."""
    if width not in WIDTHS:
        raise ValueError(f"stage_kernel: width {width!r}, not one of {list(WIDTHS)}")
    sweep = _stage_intrinsic(width)

    @njit(inline="always")
    def horner_stage(F, Z, K, X, zl1, pis, Phi, C):
        """``Phi[X + z, k] = sum_v sum_c pis[v, c] (R^c F_v)[z, k]`` for ``z = -X .. Z - 1``
        (no source below 0: an excess past the axis) and the ``K`` planes of a class: two
        laws' sources ``F`` (flat ``(2, Z, K)``, law 1's only below ``zl1``), ``C`` (at most
        :data:`STEPS`) the most dice."""
        check_stage(F, Z, K, X, zl1, pis, Phi, C)
        sweep(F, Z, K, X, zl1, pis, pis.shape[1], Phi, C)

    return horner_stage


@njit(inline="always")
def check_stage(F, Z, K, X, zl1, pis, Phi, C):
    """Refuse a class :func:`horner_stage` cannot read or write (it reads by index alone)."""
    if not 0 <= C <= STEPS or pis.shape[0] < 2 or pis.shape[1] < C + 1 or not 0 <= zl1 <= Z:
        raise ValueError("horner_stage: dice, laws or rows out of range")
    if min(Z, K, X) < 0 or F.size < 2 * Z * K or Phi.size < (X + Z) * K:
        raise ValueError("horner_stage: the class reaches past its arrays")


horner_columns = columns_kernel(WIDTH)  # the sweeps at the CPU's width
horner_stage = stage_kernel(WIDTH)
