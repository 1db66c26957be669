"""Index equality split into digits (analyzers/digits.py): each split is an equivalence, so races are neither
added nor lost; z3 confirms it on the split and unsplit forms."""
from __future__ import annotations

import z3

from analyzers import digits, sym
from analyzers.launch import LaunchConfig
from analyzers.solver import Enc
from kopt.analyze import analyze

tx, ty, bx = sym.var("tx", "thread"), sym.var("ty", "thread"), sym.var("bx", "block")
bdx, gdx = sym.var("bdx", "uniform"), sym.var("gdx", "uniform")
k = sym.var("k0", "iter")
W, gw = sym.var("p:width", "uniform"), sym.var("p:gw", "uniform")


def add(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = sym.binop("+", out, x)
    return out


def mul(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = sym.binop("*", out, x)
    return out


def c(v):
    return sym.const(v)


def ranges(block=(None, 1, 1), grid=(None, 1, 1)):
    launch = LaunchConfig(block=list(block), grid=list(grid))
    return digits.launch_ranges(launch, {"x", "y"} if block[1] != 1 else {"x"}, {"x"})


def _names(alts):
    """The pairs of a split with one alternative."""
    assert alts is not None and len(alts) == 1, alts
    return [(sym.show(x), sym.show(y)) for x, y in alts[0]]


def test_grid_stride_index_splits_into_thread_block_and_iteration():
    i = add(mul(bx, bdx), tx, mul(k, gdx, bdx))
    got = digits.equal_parts(mul(i, c(4)), 4, mul(i, c(4)), 4, sym.ONE, sym.ONE, ranges())
    assert sorted(_names(got)) == sorted([("k0", "k0"), ("blockIdx.x", "blockIdx.x"),
                                          ("threadIdx.x", "threadIdx.x")])


def test_row_major_index_splits_only_under_the_column_guard():
    col, row = add(mul(bx, c(16)), tx), ty
    idx = add(mul(row, W), col)
    guard = sym.binop("<", col, W)
    r = ranges(block=(16, 16, 1))
    assert _names(digits.equal_parts(idx, 1, idx, 1, guard, guard, r)) == [
        ("threadIdx.y", "threadIdx.y"), ("blockIdx.x", "blockIdx.x"), ("threadIdx.x", "threadIdx.x")]
    # col <= width lets col reach the next row: no split (the caller compares the indices whole)
    loose = sym.binop("<=", col, W)
    assert digits.equal_parts(idx, 1, idx, 1, loose, loose, r) is None
    # the guard must hold for both accesses
    assert digits.equal_parts(idx, 1, idx, 1, guard, sym.ONE, r) is None


def test_equal_quotient_and_remainder_mean_equal_dividends():
    tile = add(bx, mul(k, gdx))
    x = add(mul(c(16), sym.binop("%", tile, gw)), tx)
    y = add(mul(c(16), sym.binop("/", tile, gw)), ty)
    pixel = add(mul(W, y), x)
    guard = sym.binop("<", x, W)
    got = digits.equal_parts(pixel, 1, pixel, 1, guard, guard, ranges(block=(16, 16, 1)))
    assert sorted(_names(got)) == sorted([("threadIdx.y", "threadIdx.y"), ("threadIdx.x", "threadIdx.x"),
                                          ("k0", "k0"), ("blockIdx.x", "blockIdx.x")])


def test_fields_of_one_element():
    i = add(mul(bx, bdx), tx)
    base = mul(i, c(4))
    # .x (byte 0) and .y (byte 1) of a uchar4: never the same byte
    assert _names(digits.equal_parts(base, 1, add(base, c(1)), 1, sym.ONE, sym.ONE, ranges())) == [("0", "1")]
    # the whole element (4 bytes) and its .z: the same element
    got = digits.equal_parts(base, 4, add(base, c(2)), 1, sym.ONE, sym.ONE, ranges())
    assert sorted(_names(got)) == sorted([("blockIdx.x", "blockIdx.x"), ("threadIdx.x", "threadIdx.x")])
    # a neighbour (index - 1): the same block and the next thread, or the next block's first thread and the last
    # thread of this block (a carry)
    nb = mul(add(i, c(-1)), c(4))
    got = digits.equal_parts(base, 4, nb, 4, sym.ONE, sym.ONE, ranges())
    assert [[(sym.show(x), sym.show(y)) for x, y in pairs] for pairs in got] == [
        [("blockIdx.x", "blockIdx.x"), ("(threadIdx.x + 1)", "threadIdx.x")],
        [("(blockIdx.x + 1)", "blockIdx.x"), ("(threadIdx.x + 1)", "(threadIdx.x + blockDim.x)")]]


def test_split_is_equivalent_to_the_whole_equation():
    """For the grid-stride and row-major forms, z3 finds no assignment (within the launch, for a few concrete
    sizes, which keeps the check linear) where the split and the whole equation disagree."""
    col = add(mul(bx, c(16)), tx)
    cases = [(add(mul(bx, bdx), tx, mul(k, gdx, bdx)), None, sym.ONE, (None, 1, 1)),
             (add(mul(ty, W), col), None, sym.binop("<", col, W), (16, 16, 1)),
             # a neighbour: the pixel to the left, which may be the last pixel of the previous row
             (add(mul(ty, W), col), add(mul(ty, W), col, c(-1)), sym.binop("<", col, W), (16, 16, 1))]
    for idx, other, guard, block in cases:
        other = other if other is not None else idx
        e1, e2 = Enc("@1", ("thread", "iter", "block")), Enc("@2", ("thread", "iter", "block"))
        s = z3.Solver()
        for e in (e1, e2):
            bd = [e.var("bdx", "uniform") if block[0] is None else e.const(block[0]), e.const(block[1])]
            s.add(e.var("tx", "thread") >= 0, e.var("tx", "thread") < bd[0], e.var("ty", "thread") >= 0,
                  e.var("ty", "thread") < bd[1], e.var("bx", "block") >= 0,
                  e.var("bx", "block") < e.var("gdx", "uniform"), e.var("k0", "iter") >= 0, e.bool(guard))
        parts = digits.equal_parts(idx, 1, other, 1, guard, guard, ranges(block=block))
        split = z3.Or(*[z3.And(*[e1.int(x) == e2.int(y) for x, y in pairs]) for pairs in parts])
        s.add(split != (e1.int(idx) == e2.int(other)))
        for bdx_v, gdx_v, width in ((8, 3, 40), (32, 5, 17), (1, 1, 1)):
            sizes = [e1.var("bdx", "uniform") == bdx_v, e1.var("gdx", "uniform") == gdx_v,
                     e1.var("p:width", "uniform") == width]
            assert s.check(*sizes) == z3.unsat


def test_common_factor_comes_out_of_quotient_and_remainder():
    """(8 * b) / 256 is b / 32 and (8 * b) % 256 is 8 * (b % 32): a tile index scaled by its width still splits."""
    b8 = mul(bx, c(8))
    lane = sym.binop("%", tx, c(8))
    idx = add(mul(sym.binop("/", b8, c(256)), c(256)), sym.binop("%", b8, c(256)), lane)
    got = digits.equal_parts(idx, 1, idx, 1, sym.ONE, sym.ONE, ranges(block=(8, 1, 1)))
    assert sorted(_names(got)) == sorted([("blockIdx.x", "blockIdx.x"), ("(threadIdx.x % 8)", "(threadIdx.x % 8)")])


def test_never_two_threads():
    r = ranges(block=(16, 16, 1))
    t = [(tx, tx), (ty, ty)]
    assert digits.never([t], r, across_blocks=False)  # one block: equal thread indices are one thread
    assert not digits.never([t], r, across_blocks=True)  # any blocks: blockIdx.x may differ
    assert digits.never([t + [(bx, bx)]], r, across_blocks=True)
    assert digits.never([[(k, k), (c(0), c(1))]], r, across_blocks=True)  # different fields of one element
    assert not digits.never([[(tx, tx), (k, k)]], r, across_blocks=False)  # threadIdx.y free
    assert not digits.never([t, [(tx, tx), (k, k)]], r, across_blocks=False)  # one alternative may hold


def test_a_neighbour_carries_into_the_next_digit():
    """row * width + col + 1 against row' * width + col': the same row and col + 1 == col', or the next row's
    first column (col + 1 == width)."""
    col = add(mul(bx, c(16)), tx)
    guard = sym.binop("<", col, W)
    idx = add(mul(ty, W), col)
    alts = digits.equal_parts(add(idx, c(1)), 1, idx, 1, guard, guard, ranges(block=(16, 16, 1)))
    assert alts is not None and len(alts) > 1
    got = [sorted((sym.show(x), sym.show(y)) for x, y in pairs) for pairs in alts]
    assert [("threadIdx.y", "threadIdx.y")] == [p for p in got[0] if p[0].startswith("threadIdx.y")]
    assert any(("(threadIdx.y + 1)", "threadIdx.y") in pairs for pairs in got)
    assert not digits.never(alts, ranges(block=(16, 16, 1)), across_blocks=True)


NESTED_LOOPS = """
#define NU 4
__global__ void init_face(const int ne, const int na, const int X, const int Y, float *face) {
  int ix = blockDim.x * blockIdx.x + threadIdx.x;
  int iy = blockDim.y * blockIdx.y + threadIdx.y;
  int octant = blockDim.z * blockIdx.z + threadIdx.z;
  if (ix >= X || iy >= Y || octant >= 8) return;
  for (int ie = 0; ie < ne; ++ie)
    for (int iu = 0; iu < NU; ++iu)
      for (int ia = 0; ia < na; ++ia)
        face[ia + na * (iu + NU * (ie + ne * (ix + X * (iy + Y * octant))))] = ia + ie + ix;
}
"""


def test_loop_variables_are_digits_bounded_by_their_loops_own_test():
    # `ia < na` is the digit's bound (not the loop's trip count the model adds beside it): every block decided
    res = analyze(NESTED_LOOPS, path="face.cu")
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete" or d.rule.startswith("race")]
    assert res.launches[0]["all_blocks"]
    # a digit past its radix, a column with no bound: threads meet
    for old, new in (("ia < na", "ia <= na"), ("ix >= X || ", "")):
        src = NESTED_LOOPS.replace(old, new)
        assert "race.global" in {d.rule for d in analyze(src, path="face.cu").diagnostics}, new


def test_a_remainder_by_a_parameter_is_a_digit_only_where_the_parameter_is_presumed_positive():
    i = add(mul(bx, c(256)), tx)
    h = sym.var("p:h", "uniform")
    gate = mul(add(sym.binop("%", i, h), mul(c(4), sym.binop("/", i, h), h)), c(4))  # a float's bytes
    r = ranges(block=(256, 1, 1))
    args = (gate, 4, gate, 4, sym.ONE, sym.ONE, r)
    assert digits.equal_parts(*args) is None  # h may be negative: the remainder bounds nothing
    parts = digits.equal_parts(*args, frozenset({"p:h"}))
    assert parts is not None and digits.never(parts, r, True)


LSTM = """
__global__ void gates(int h, int batch, const float* x, float* out) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= batch * h) return;
  int gate = (index % h) + 4 * (index / h) * h;
  for (int i = 0; i < 4; i++)
    out[gate + i * h] = x[gate + i * h] * 2.0f;
}
"""


def test_a_race_check_too_hard_otherwise_is_decided_presuming_sizes_not_negative():
    # the LSTM gate layout: z3 cannot decide the nonlinear equation over an h of any sign; with h >= 1 (a divisor,
    # never 0) and batch >= 0 the digits show the threads apart, and the result says what was presumed
    res = analyze(LSTM, path="lstm.cu", block=(256, 1, 1))
    assert not [d for d in res.diagnostics if d.rule.startswith("race") or d.rule == "analysis.incomplete"]
    assert "decided presuming 1 <= h < 2^31; 0 <= batch < 2^31 (other values undecided)" in res.assumed


def test_a_mixed_radix_unflattening_merges_back_into_the_linear_index():
    """`(i / (d2*d3)) % d1`, `(i / d3) % d2`, `i % d3` (a permute's unflattened digits), with `i < d1*d2*d3` and the
    dimensions positive, are equal in two threads only with equal i; written through remainders first
    (`r = i % (d2*d3); r / d3; r % d3`), the same. Before, the digits stayed apart and z3 had to relate divisions by
    products of unknowns."""
    d1, d2, d3 = (sym.var(f"p:d{n}", "uniform") for n in (1, 2, 3))
    i = add(mul(bx, c(256)), tx)
    guard = sym.binop("<", i, mul(d1, d2, d3))
    out = add(mul(sym.binop("%", i, d3), d1, d2), mul(sym.binop("%", sym.binop("/", i, d3), d2), d1),
              sym.binop("%", sym.binop("/", i, mul(d2, d3)), d1))
    r = sym.binop("%", i, mul(d2, d3))
    out2 = add(mul(sym.binop("%", r, d3), d1, d2), mul(sym.binop("/", r, d3), d1), sym.binop("/", i, mul(d2, d3)))
    # llm.c's unpermute: the remainder taken twice (`rest = i % (d1*d2*d3); rest = rest % (d2*d3)`) before dividing
    r3 = sym.binop("%", sym.binop("%", i, mul(d1, d2, d3)), mul(d2, d3))
    guard3 = sym.binop("<", i, mul(c(4), d1, d2, d3))
    out3 = add(mul(sym.binop("/", i, mul(d1, d2, d3)), d1, d2, d3), mul(sym.binop("/", r3, d3), d1, d3),
               mul(sym.binop("/", sym.binop("%", i, mul(d1, d2, d3)), mul(d2, d3)), d3), sym.binop("%", r3, d3))
    pos = frozenset({"p:d1", "p:d2", "p:d3"})
    got = digits.equal_parts(mul(out3, c(4)), 4, mul(out3, c(4)), 4, guard3, guard3, ranges(block=(256, 1, 1)), pos)
    assert got is not None and digits.never(got, ranges(block=(256, 1, 1)), True), got
    for o in (out, out2):
        got = digits.equal_parts(mul(o, c(4)), 4, mul(o, c(4)), 4, guard, guard, ranges(block=(256, 1, 1)), pos)
        assert got is not None and digits.never(got, ranges(block=(256, 1, 1)), True), got


def test_chained_divisions_are_one_division_by_the_product():
    """`i / d2 / d3` (the gated linear unit's row) is `i / (d2*d3)` for a non-negative i and positive divisors, so
    `i / d2 / d3`, `(i / d3) % d2`, `i % d3` merge back into i. Before, z3 was left relating the two quotients and gave
    up."""
    d1, d2, d3 = (sym.var(f"p:d{n}", "uniform") for n in (1, 2, 3))
    i = add(mul(bx, c(256)), tx)
    guard = sym.binop("<", i, mul(d1, d2, d3))
    out = add(mul(sym.binop("/", sym.binop("/", i, d2), d3), d2, d3), mul(sym.binop("%", sym.binop("/", i, d3), d2), d3),
              sym.binop("%", i, d3))
    pos = frozenset({"p:d1", "p:d2", "p:d3"})
    got = digits.equal_parts(mul(out, c(4)), 4, mul(out, c(4)), 4, guard, guard, ranges(block=(256, 1, 1)), pos)
    assert got is not None and digits.never(got, ranges(block=(256, 1, 1)), True), got
    # with a divisor that may be negative the quotients are not merged
    got = digits.equal_parts(mul(out, c(4)), 4, mul(out, c(4)), 4, guard, guard, ranges(block=(256, 1, 1)),
                             frozenset({"p:d1", "p:d3"}))
    assert got is None or not digits.never(got, ranges(block=(256, 1, 1)), True)


def test_a_guard_below_a_product_of_unsigned_sizes_makes_each_size_positive():
    """`flat < B*C*H*W` with unsigned (never negative) sizes: each is at least 1 where the guard holds, so
    `flat / (C*H*W)`, `(flat / (H*W)) % C`, `(flat / W) % H`, `flat % W` are digits of flat (an upsampling kernel's
    unflattening). Before, nothing made W a positive divisor and z3 gave up."""
    b_, c_, h_, w_ = (sym.var(f"p:{n}", "uniform") for n in "BCHW")
    i = add(mul(bx, c(256)), tx)
    guard = sym.binop("<", i, mul(b_, c_, h_, w_))
    out = add(mul(sym.binop("/", i, mul(c_, h_, w_)), c_, h_, w_),
              mul(sym.binop("%", sym.binop("/", i, mul(h_, w_)), c_), h_, w_),
              mul(sym.binop("%", sym.binop("/", i, w_), h_), w_), sym.binop("%", i, w_))
    unsigned = frozenset({"p:B", "p:C", "p:H", "p:W"})
    got = digits.equal_parts(mul(out, c(4)), 4, mul(out, c(4)), 4, guard, guard, ranges(block=(256, 1, 1)),
                             frozenset(), unsigned)
    assert got is not None and digits.never(got, ranges(block=(256, 1, 1)), True), got
    # signed sizes: two negative ones make the product positive too, so no size is known positive
    got = digits.equal_parts(mul(out, c(4)), 4, mul(out, c(4)), 4, guard, guard, ranges(block=(256, 1, 1)))
    assert got is None or not digits.never(got, ranges(block=(256, 1, 1)), True)


def test_a_race_check_too_hard_otherwise_is_decided_presuming_sizes_also_for_any_block():
    # the same layout with no launch known: the presumed digits hold for every block (blockDim.x is a positive
    # radix), so the pair is decided for all of them instead of being left undecided
    res = analyze(LSTM, path="lstm.cu")
    assert not [d for d in res.diagnostics if d.rule.startswith("race") or d.rule == "analysis.incomplete"], \
        [d.message for d in res.diagnostics]
    assert "decided presuming 1 <= h < 2^31; 0 <= batch < 2^31 (other values undecided)" in res.assumed


def _hash_chain(depth: int):
    """h = h * 31 + h % 7, ``depth`` times: each level names the one below twice, so the key's repr doubles per level."""
    h = tx
    for _ in range(depth):
        h = add(mul(h, sym.const(31)), sym.binop("%", h, sym.const(7)))
    return h


def test_the_order_of_keys_is_their_repr_and_stays_short_for_a_deep_chain():
    small = sym.binop("%", add(mul(tx, W), bx), sym.const(7)).key()
    assert sym.order(small) == repr(small)
    deep = sym.binop("%", _hash_chain(60), W).key()  # its repr would have about 2**60 characters
    assert len(sym.order(deep)) < 64 and sym.order(deep) == sym.order(sym.binop("%", _hash_chain(60), W).key())
    assert sym.order(small) < sym.order(deep)  # a digest sorts after every repr


def test_an_offset_with_a_deep_hash_chain_factor_is_split_without_expanding_its_key():
    # a product of two atoms whose keys are deep chains: ordering the monomial's factors once wrote out their reprs
    # (a real kernel's string-hash index hung the analysis for minutes)
    a = sym.binop("%", _hash_chain(60), W)
    b = sym.binop("/", _hash_chain(59), W)
    off = mul(a, b, sym.const(4))
    ranges = digits.launch_ranges(LaunchConfig(block=(64, 1, 1)), {"x"}, {"x"})
    got = digits.equal_parts(off, 4, off, 4, sym.ONE, sym.ONE, ranges)
    assert got is None or isinstance(got, list)


def test_whether_a_deep_chain_needs_bit_vectors_is_decided_visiting_each_shared_subterm_once():
    from analyzers.solver import needs_bv

    assert not needs_bv(_hash_chain(60))  # products, sums and remainders only; a tree walk would visit 2**60 nodes
    assert needs_bv(sym.binop("^", tx, _hash_chain(60)))
    assert needs_bv(add(_hash_chain(60), sym.binop("|", tx, bx)))
