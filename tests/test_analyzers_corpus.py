"""Accuracy of the static analyzers on the labeled corpus (tests/analyzers/corpus, labels in each file's header).

Per rule: precision = files where the rule is reported and expected / files where it is reported; recall =
files where it is reported and expected / files where it is expected. Bank-conflict degrees must match exactly.
"""
from __future__ import annotations

import pytest

from kopt.analyze import analyze

from analyzer_labels import corpus_files, observed, parse_labels

STRICT = ["race.shared", "race.global", "barrier.divergent", "sync.missing"]
OTHER = ["warp.implicit-sync", "bounds.shared", "bank-conflict", "coalescing", "async.proxy-fence",
         "async.cp-async-wait", "async.mbarrier-phase", "race.atomic-plain", "race.curand-state", "race.precondition"]


def _score(frontend: str):
    rows = []
    for f in corpus_files():
        expected = parse_labels(f.read_text())
        got = observed(analyze(f, frontend=frontend))
        rows.append((f.name, expected, got))
    return rows


def _pr(rows, rule):
    tp = sum(1 for _, e, g in rows if rule in e and rule in g)
    fp = sum(1 for _, e, g in rows if rule not in e and rule in g)
    fn = sum(1 for _, e, g in rows if rule in e and rule not in g)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, tp, fp, fn


@pytest.fixture(scope="module")
def libclang_rows():
    return _score("auto")


def test_corpus_is_big_and_labeled():
    files = corpus_files()
    assert len(files) >= 200
    rules = set()
    for f in files:
        rules |= set(parse_labels(f.read_text()))
    assert set(STRICT) <= rules and {"bank-conflict", "coalescing", "bounds.shared", "warp.implicit-sync"} <= rules
    assert sum(1 for f in files if not parse_labels(f.read_text())) >= 25  # plenty of hazard-free kernels


# False alarms the analyzer is known to raise, with why; each must still be reported (remove the entry once fixed),
# and none counts against the thresholds below. bench/analyzer_accuracy.py counts them.
KNOWN_FALSE_ALARMS: dict = {}


def test_known_false_alarms_are_still_reported(libclang_rows):
    got = {(n, r) for n, _, g in libclang_rows for r in g}
    assert set(KNOWN_FALSE_ALARMS) <= got, "a known false alarm is gone: remove it from KNOWN_FALSE_ALARMS"


@pytest.mark.parametrize("rule", STRICT)
def test_precision_recall_strict_rules(libclang_rows, rule):
    rows = [(n, e, {k: v for k, v in g.items() if (n, k) not in KNOWN_FALSE_ALARMS}) for n, e, g in libclang_rows]
    precision, recall, tp, fp, fn = _pr(rows, rule)
    assert tp >= 4, f"{rule}: too few labeled positives to measure"
    wrong = [n for n, e, g in rows if (rule in e) != (rule in g)]
    assert precision >= 0.95 and recall >= 0.90, (
        f"{rule}: precision {precision:.2f} recall {recall:.2f} (tp={tp} fp={fp} fn={fn}); files: {wrong}")


@pytest.mark.parametrize("rule", OTHER)
def test_precision_recall_other_rules(libclang_rows, rule):
    precision, recall, tp, fp, fn = _pr(libclang_rows, rule)
    wrong = [n for n, e, g in libclang_rows if (rule in e) != (rule in g)]
    assert precision >= 0.9 and recall >= 0.9, (
        f"{rule}: precision {precision:.2f} recall {recall:.2f} (tp={tp} fp={fp} fn={fn}); files: {wrong}")


def test_bank_conflict_degrees_exact(libclang_rows):
    cases = [(n, e["bank-conflict"], g.get("bank-conflict")) for n, e, g in libclang_rows if "bank-conflict" in e]
    assert len(cases) >= 6
    wrong = [c for c in cases if c[1] != c[2]]
    assert not wrong, f"(file, expected degree, reported degree): {wrong}"


def test_tree_sitter_fallback_keeps_most_findings():
    """The fallback has no type information (struct layouts), so it is held to a lower bar."""
    rows = _score("tree-sitter")
    for rule in STRICT:
        precision, recall, *_ = _pr(rows, rule)
        assert precision >= 0.9 and recall >= 0.8, (rule, precision, recall)


# Files whose every labelled rule (and no other) must be reported: the precondition classes and their idioms, and
# pairs whose ok half a change fixed, so that a false alarm on them fails a test instead of only moving a precision
# figure.
EXACT = ["i23_rows_grid_wider_precondition.cu", "i23_rows_grid_wider_stated.cu", "i23_rows_in_row_race.cu",
    "i23_rows_pitch_bytes_precondition.cu", "i23_mask_pow2_precondition.cu", "i23_mask_pow2_stated.cu",
    "i23_layout_slices_ok.cu", "i23_layout_pitch_offbyone.cu", "i23_assume_stride_missing.cu",
    "i23_host_grid_ceil_unguarded.cu", "i23_host_pitch_half.cu", "i23_volatile_member_ok.cu",
    "i23_plain_member_atomic.cu", "i23_grid_sync_block_phases_ok.cu", "i23_grid_sync_block_phases_race.cu",
    "i23_awbarrier_ref_ok.cu", "i23_awbarrier_ref_no_wait.cu", "i23_ffs_loop_bound_ok.cu",
    "i23_ffs_loop_bound_oob.cu", "i23_sign_precondition.cu", "i23_host_ifdef_block_ok.cu",
    "i23_host_field_before_launch_race.cu", "i23_host_field_maybe_race.cu", "i23_host_grid_field_ok.cu",
    "i23_host_grid_field_race.cu", "i23_rows_guard_inside_precondition.cu", "i23_rows_guard_offbyone_race.cu",
    "i23_loop_times_assign_ok.cu", "i23_loop_times_assign_divergent.cu", "i23_loop_uniform_result_ok.cu",
    "i23_loop_thread_result_divergent.cu", "i23_slot_param_precondition.cu", "i23_slot_loop_race.cu",
    "i23_const_row_param_guard_ok.cu", "i23_const_row_guard_offbyone_race.cu", "i23_const_row_one_dim_race.cu",
    "i23_const_row_loop_column_ok.cu", "i23_const_row_loop_column_race.cu", "i23_const_row_reversed_ok.cu",
    "i23_const_row_reversed_race.cu", "i23_const_row_block_decomposition_race.cu",
    "i23_loop_result_same_value_ok.cu", "i23_loop_result_thread_value_race.cu",
    "i23_loop_result_carried_thread_race.cu", "i23_dependent_3d_shared_ok.cu", "i23_dependent_3d_shared_oob.cu",
    "i23_fixed_parameters_tile_race.cu", "i23_fixed_parameters_tile_guarded_ok.cu", "i23_counter_queue_ok.cu",
    "i23_counter_queue_from_minus_one_race.cu", "i23_barrier_loop_count_divergent.cu",
    "i23_barrier_loop_count_uniform_ok.cu", "i23_view_ctor_ok.cu", "i23_view_ctor_race.cu",
    "i23_loop_offset_by_thread_ok.cu", "i23_loop_offset_by_thread_divergent.cu", "i23_loop_test_repeated_ok.cu",
    "i23_loop_test_repeated_race.cu", "i23_implied_block_lower_guard_ok.cu", "i23_implied_block_lower_guard_oob.cu",
    "i23_template_function_arg_ok.cu", "i23_template_function_arg_race.cu", "i23_grid_height_limit_ok.cu",
    "i23_grid_height_limit_race.cu", "i23_warp_vote_no_z_ok.cu", "i23_warp_vote_no_z_race.cu",
    "i23_warp_allreduce_local_ok.cu", "i23_warp_allreduce_local_overwritten_race.cu", "i23_warp_shfl_down_race.cu",
    "i23_warp_allreduce_max_up_ok.cu", "i23_carried_inner_break_ok.cu", "i23_carried_outer_break_divergent.cu",
    "i23_carried_const_table_ok.cu", "i23_carried_table_by_thread_divergent.cu", "i23_carried_by_value_helper_ok.cu",
    "i23_carried_by_reference_helper_divergent.cu", "i23_warp_allreduce_rows_ok.cu", "i23_warp_allreduce_rows_race.cu",
    "i23_loop_init_helper_barrier_ok.cu", "i23_launch_bounds_named_ok.cu", "i23_launch_bounds_named_overrun.cu",
    "i23_helper_2d_reduce_in_1d_kernel_ok.cu", "i23_helper_2d_reduce_in_2d_kernel_race.cu",
    "i23_ticket_two_sites_ok.cu", "i23_ticket_two_counters_race.cu", "i23_template_named_arg_guard_ok.cu",
    "i23_template_named_arg_guard_race.cu", "i23_roi_pitch_ok.cu", "i23_roi_pitch_given_race.cu",
    "i23_asm_laneid_guard_ok.cu", "i23_asm_laneid_guard_race.cu", "i23_shared_counter_block_slots_ok.cu",
    "i23_shared_counter_block_slots_loop_race.cu", "i23_csr_segments_precondition.cu",
    "i23_csr_segments_inclusive_race.cu", "i23_shfl_uniform_value_ok.cu", "i23_shfl_lane_value_race.cu",
    "i23_nwarps_named_block_ok.cu", "i23_nwarps_named_block_race.cu"]


@pytest.mark.parametrize("name", EXACT)
def test_exact_labels(libclang_rows, name):
    (expected, got), = [(e, g) for n, e, g in libclang_rows if n == name]
    assert got == expected
