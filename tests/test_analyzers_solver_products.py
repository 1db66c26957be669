"""The count of nonlinear products that guards every solver query (analyzers/solver.py) is the one z3's Python
wrappers give: the fast walk through the C API must not change which queries are sent to z3."""
from __future__ import annotations

import random

import z3

from analyzers import solver


def _reference(terms) -> int:
    seen, n, todo = set(), 0, list(terms)
    while todo:
        e = todo.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        kids = e.children()
        if z3.is_mul(e) and sum(not z3.is_int_value(c) and not z3.is_bv_value(c) for c in kids) >= 2:
            n += 1
        todo.extend(kids)
    return n


def _random_term(rng, leaves, depth):
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(leaves)
    a, b = _random_term(rng, leaves, depth - 1), _random_term(rng, leaves, depth - 1)
    return rng.choice([lambda: a + b, lambda: a * b, lambda: a - b, lambda: z3.If(a > b, a, b)])()


def test_fast_count_matches_the_wrappers():
    rng = random.Random(23)
    ints = [*z3.Ints("x y z"), z3.IntVal(3), z3.IntVal(-1)]
    bvs = [*z3.BitVecs("a b", 64), z3.BitVecVal(4, 64)]
    for _ in range(200):
        leaves = ints if rng.random() < 0.7 else bvs
        terms = [_random_term(rng, leaves, 4) == _random_term(rng, leaves, 3) for _ in range(rng.randint(1, 4))]
        assert solver._nonlinear_products(terms) == _reference(terms)
    assert solver._nonlinear_products([]) == 0


def test_an_operator_no_encoding_knows_is_a_value_of_its_operands():
    """An operator a front end hands over unmapped (the fallback's `not` before it read alternative tokens) is an
    uninterpreted value of its operands, not a crash of the pass that asked."""
    from analyzers import sym

    x = sym.var("x", "thread")
    for e in (sym.S("not", (x,)), sym.S("<=>", (x, sym.const(1)))):
        for bv in (False, True):
            got = solver.Enc(bv=bv).int(e)
            assert isinstance(got, z3.ArithRef if not bv else z3.BitVecRef)
