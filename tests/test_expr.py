"""kopt's one expression language and the annotation grammar: values, bounds, located errors, and fuzzing (every
input gives a value or kopt's input error, never a hang, a crash or a traceback)."""
from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kopt import expr
from kopt.candidate import Candidate
from kopt.errors import InputError
from kopt.expr import ExprError

# hypothesis' deadline is a hang guard only, not a speed claim
FUZZ = settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("text,env,value", [
    ("cdiv(n, 256)", {"n": 1000}, 4), ("round_up(n, 128)", {"n": 129}, 256), ("2 ** k", {"k": 3}, 8),
    ("a if a > b else b", {"a": 2, "b": 5}, 5), ("next_pow2(n)", {"n": 1000}, 1024), ("n // 4 * 4", {"n": 7}, 4),
    ("n / 256", {"n": 1000}, 3.90625), ("round_up(n, 128) // 128", {"n": 1000}, 8),
    ("BLOCK * 2", {"BLOCK": "128"}, 256), ("STAGES * MAXC * 2", {"STAGES": 4, "MAXC": "4096"}, 32768),
    ("BLOCK << 2", {"BLOCK": 256}, 1024), ("1024 if BLOCK < 256 else 0", {"BLOCK": 128}, 1024),
    ("max(a, b, 7)", {"a": 1, "b": 2}, 7), ("2 ** 63", {}, 2 ** 63), ("-(2 ** 63)", {}, -(2 ** 63)),
])
def test_values(text, env, value):
    assert expr.evaluate(text, env) == value


@pytest.mark.parametrize("text,rule", [
    ("__import__('os')", "expr.unknown-function"), ("n.real", "expr.syntax"), ("[x for x in y]", "expr.syntax"),
    ("open('f')", "expr.unknown-function"), ("m + 1", "expr.unknown-name"), ("DIV_UP(n, 256)", "expr.unknown-function"),
    ("9**9**9", "expr.out-of-range"), ("1 << (10**10)", "expr.out-of-range"), ("2 ** 64", "expr.out-of-range"),
    ("+".join(["1"] * 20000), "expr.too-complex"), ("-" * 3000 + "1", "expr.too-complex"),
    ("(" * 300 + "1" + ")" * 300, "expr.syntax"), ("1e308 * 10", "expr.out-of-range"),
    ("int(1e300)", "expr.out-of-range"),
    ("n / 0", "expr.division-by-zero"), ("cdiv(n, 0)", "expr.division-by-zero"), ("'a' * 3", "expr.type"),
    ("min()", "expr.type"), ("log2(0)", "expr.type"), ("x\x00", "expr.syntax"), ("", "expr.syntax"),
    ("A", "expr.too-complex"),  # A = "B", B = "A": a cycle of names
])
def test_refused_with_a_rule(text, rule):
    t0 = time.perf_counter()
    with pytest.raises(ExprError) as exc:
        expr.evaluate(text, {"n": 3, "A": "B", "B": "A"})
    assert exc.value.rule == rule, exc.value.message
    assert isinstance(exc.value, InputError)
    assert time.perf_counter() - t0 < 2  # a hang guard, not a speed claim


def test_the_error_span_points_at_the_offending_part():
    with pytest.raises(ExprError) as exc:
        expr.evaluate("cdiv(n, BLOK) * 2", {"n": 1})
    assert exc.value.span == (8, 12) and "BLOK" in exc.value.message
    with pytest.raises(ExprError) as exc:
        expr.evaluate("1 + 2 ** 99", {})
    assert exc.value.span == (4, 11)


def test_positive_int_rejects_fractions():
    with pytest.raises(InputError, match="cdiv"):
        expr.positive_int(expr.evaluate("n / 3", {"n": 10}), "grid")


def test_c_mode_reads_c_constant_text():
    assert expr.evaluate("7 / 2", {}, c=True) == 3 and expr.evaluate("-7 % 3", {}, c=True) == -1
    assert expr.evaluate("(256u * 2UL) >> 1", {}, c=True) == 256 and expr.evaluate("!0 && 1", {}, c=True) is True
    assert expr.evaluate("TILE + 1", {"TILE": "(32 / 3)"}, c=True) == 11


# --- the annotation grammar ----------------------------------------------------------------------------------
KERNEL = "__global__ void k(float* a) {}\n"


def load(*lines: str) -> Candidate:
    return Candidate.load("\n".join(lines) + "\n" + KERNEL)


@pytest.mark.parametrize("smem", ["(BLOCK << 2)", "(1024 if BLOCK < 256 else 0)", "BLOCK * 4", "(BLOCK >> 1)"])
def test_a_less_than_that_is_not_a_template_bracket(smem):
    c = load("// kopt: tune BLOCK in [128]", f"// kopt: launch k grid=(1) block=(BLOCK) smem={smem} args=(a)")
    assert c.launches[0].args == ["a"] and c.launches[0].block == ["BLOCK"]


def test_template_names_keep_parsing():
    c = load("// kopt: tune A in [1]; B in [2]", "// kopt: launch k<A, B> grid=(1) block=(32) args=(a)")
    assert c.launches[0].kernel == "k<A, B>" and c.kernel_expr(c.launches[0], {"A": 1, "B": 2}) == "k<1, 2>"
    assert [t.name for t in c.tunables] == ["A", "B"]


@pytest.mark.parametrize("line,rule,col", [
    ("// kopt: tune BLOCK in [256, 9**9**9]", "expr.out-of-range", 30),
    ("// kopt: launch k grid=(1) block=(32) args=(a) colour=red", "annotation.unknown", 48),
    ("// kopt: launch k grid=(1) args=(a)", "annotation.syntax", 17),
    ("// kopt: launch k grid=(1) block=(32) block=(64) args=(a)", "annotation.duplicate", 39),
    ("// kopt: frobnicate", "annotation.unknown", 10),
    ("// kopt: tune B in [1, 1]", "annotation.duplicate", 24),
    ("// kopt: launch k grid=(cdiv(n,,1)) block=(32) args=(a)", "expr.syntax", 32),
])
def test_malformed_annotations_are_located(line, rule, col):
    with pytest.raises(InputError) as exc:
        load("// header", line)
    (d,) = exc.value.diagnostics
    assert (d.rule, d.locations[0].line, d.locations[0].col) == (rule, 2, col), exc.value.message
    assert exc.value.message.startswith(f"kernel.cu:2:{col}: ")


def test_launch_expressions_are_bounded_when_resolved():
    from kopt.geometry import launch_geometry

    c = load("// kopt: launch k grid=(1) block=(32) smem=1<<(10**10) args=(a)")
    (g,) = launch_geometry(c)
    (d,) = g.problems
    assert g.smem is None and g.origin["smem"] == "error"
    assert (d.rule, d.locations[0].line, d.locations[0].col, d.locations[0].end_col) == ("expr.out-of-range", 1, 44, 54)


# --- fuzzing -------------------------------------------------------------------------------------------------
_ATOMS = st.one_of(st.integers(-(2 ** 70), 2 ** 70).map(str), st.sampled_from(["n", "BLOCK", "x", "1e308", "0.5"]))
_EXPRS = st.recursive(_ATOMS, lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "==",
                                      " and ", " or "]), inner).map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
    st.tuples(st.sampled_from(["cdiv", "min", "max", "round_up", "next_pow2", "log2", "abs", "int", "float",
                               "DIV_UP"]), st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
    inner.map(lambda e: f"-{e}"), inner.map(lambda e: f"not {e}"),
    st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
), max_leaves=40)


@FUZZ
@given(st.one_of(_EXPRS, st.text(max_size=200)))
def test_fuzz_the_evaluator(text):
    try:
        value = expr.evaluate(text, {"n": 1000, "BLOCK": "256", "x": 2.5})
    except InputError:
        return
    assert isinstance(value, (int, float, bool, tuple, list))


_WORDS = ["task", "arch", "tune", "define", "restrict", "scratch", "tensormap", "launch", "TODO", "bogus"]


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.one_of(_EXPRS, st.text(max_size=80),
                                                             st.sampled_from(["k grid=(1) block=(32) args=(a)",
                                                                              "B in [1, 2]", "X=3", "sm_90"]))),
                min_size=1, max_size=6))
def test_fuzz_the_annotation_parser(lines):
    src = "".join(f"// kopt: {w} {rest}\n".replace("\r", " ") for w, rest in lines) + KERNEL
    try:
        c = Candidate.load(src)
    except InputError as exc:
        assert exc.message
        return
    assert c.launches
