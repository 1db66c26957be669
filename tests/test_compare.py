"""Error figures, tolerances, poison/unwritten detection and input-mutation detection on host arrays."""
import numpy as np
import pytest

from kopt.worker.compare import compare_output, diagnose, mutated_inputs
from kopt.dtypes import dtype, poison_array

F32 = dtype("f32")
TOL = {"rtol": 1e-4, "atol": 1e-5, "l2": 1e-5}


def test_exact_output_passes():
    ref = np.linspace(-3, 3, 1000)
    rep = compare_output("y", ref.astype(np.float32), F32, ref, TOL)
    assert rep.ok and rep.mismatches == 0 and rep.rel_l2 < 1e-7


def test_unwritten_tail_is_found_with_its_region():
    ref = np.ones((4, 8))
    out = ref.astype(np.float32)
    out[2:, :] = poison_array(F32, (2, 8))
    rep = compare_output("y", out, F32, ref, TOL)
    assert not rep.ok and rep.unwritten == 16
    assert rep.unwritten_region == {"first": (2, 0), "last": (3, 7), "count": 16}
    rules = [d.rule for d in diagnose(rep, "n=32", "cand.cu")]
    assert rules[0] == "check.unwritten-output"


def test_single_bad_element_reports_worst_index_and_fraction():
    ref = np.arange(100, dtype=np.float64) + 1
    out = ref.astype(np.float32)
    out[37] += 0.5
    rep = compare_output("y", out, F32, ref, TOL)
    assert not rep.ok and rep.mismatches == 1 and rep.worst_index == (37,)
    assert rep.mismatch_fraction == pytest.approx(0.01)
    assert [d.rule for d in diagnose(rep, "n=100", "c.cu")] == ["check.mismatch"]


def test_small_rounding_passes_but_l2_catches_systematic_bias():
    ref = np.random.default_rng(0).standard_normal(10000)
    assert compare_output("y", (ref * (1 + 1e-7)).astype(np.float32), F32, ref, TOL).ok
    biased = compare_output("y", (ref * (1 + 5e-5)).astype(np.float32), F32, ref, TOL)
    assert not biased.ok and biased.mismatches == 0 and biased.rel_l2 > TOL["l2"]


def test_nan_and_inf_mismatches_fail_but_matching_specials_pass():
    ref = np.array([1.0, np.nan, np.inf, 2.0])
    good = np.array([1.0, np.nan, np.inf, 2.0], np.float32)
    assert compare_output("y", good, F32, ref, TOL).ok
    bad = np.array([np.nan, np.nan, np.inf, -np.inf], np.float32)
    rep = compare_output("y", bad, F32, ref, TOL)
    assert not rep.ok and rep.nan_mismatch == 2


def test_bf16_round_trip_and_tolerance():
    bf16 = dtype("bf16")
    ref = np.random.default_rng(1).standard_normal(4096)
    stored = bf16.from_float64(ref)
    assert np.max(np.abs(bf16.to_float64(stored) - ref) / np.abs(ref)) <= 2 ** -8
    assert compare_output("y", stored, bf16, ref, {"rtol": 2e-2, "atol": 1e-2, "l2": 1e-2}).ok


def test_integer_outputs_are_exact_and_poison_equal_reference_is_not_unwritten():
    i32 = dtype("i32")
    ref = np.array([1, 2, i32.poison - (1 << 32) if i32.poison >= 1 << 31 else i32.poison, 4])
    out = ref.astype(np.int32)
    assert compare_output("y", out, i32, ref, {"rtol": 0, "atol": 0, "l2": 0}).ok
    out[0] = 2
    assert not compare_output("y", out, i32, ref, {"rtol": 0, "atol": 0, "l2": 0}).ok


def test_input_mutation_detected_bitwise():
    before = np.random.default_rng(2).standard_normal((8, 8)).astype(np.float32)
    after = before.copy()
    assert mutated_inputs(before, after) == (0, None)
    after[3, 5] = -after[3, 5]
    assert mutated_inputs(before, after) == (1, (3, 5))


def test_l2_has_an_absolute_floor_for_near_zero_references():
    """One tiny output off by far less than atol passes; the same relative error on normal values fails."""
    from kopt.worker.compare import compare_output
    from kopt.dtypes import dtype

    f32 = dtype("f32")
    tol = {"rtol": 1e-4, "atol": 1e-5, "l2": 1e-4}
    tiny = compare_output("y", np.array([-7.21e-7], np.float32), f32, np.array([-6.51e-7]), tol)
    assert tiny.ok and tiny.rel_l2 > tol["l2"]
    big = compare_output("y", np.full(1000, 1.1, np.float32), f32, np.full(1000, 1.0), tol)
    assert not big.ok and not big.l2_ok
    # every element within atol + rtol (1.1e-4 here), yet all biased by 1.05e-4: the relative L2 bound (1e-4) fails
    biased = compare_output("y", np.full(1000, 1.0 + 1.05e-4, np.float32), f32, np.full(1000, 1.0), tol)
    assert biased.mismatches == 0 and not biased.l2_ok and not biased.ok


def test_a_tiny_output_is_judged_by_its_elements():
    """One element in a function's tail (a float32 GELU of -3.8: 1 + tanh cancels): its error is far below atol,
    yet relative to the element it exceeds l2. Under 32 elements the L2 bound also allows atol per element."""
    from kopt.dtypes import dtype

    tol = {"rtol": 1e-4, "atol": 1e-5, "l2": 1e-4}
    rep = compare_output("y", np.array([[-1.788830e-4]], np.float32), dtype("f32"), np.array([[-1.7883918e-4]]), tol)
    assert rep.mismatches == 0 and rep.rel_l2 > tol["l2"] and rep.ok
