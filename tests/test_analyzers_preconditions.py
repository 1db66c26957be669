"""Races that need parameter values a kernel's indexing presumes away are the note race.precondition, and the
idioms it rests on (each corpus kernel of these classes must give exactly its labelled rules: EXACT in
test_analyzers_corpus.py)."""
from __future__ import annotations

from kopt.analyze import analyze
from kopt.diagnostic import Severity

from analyzer_labels import CORPUS, observed


def test_precondition_note_names_the_assumption():
    res = analyze(CORPUS / "i23_rows_grid_wider_precondition.cu")
    (d,) = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert d.severity == Severity.NOTE
    assert d.witness["rule"] == "race.global"
    assert "< width" in d.witness["precondition"] and "< width" in d.message


def test_mask_note_names_power_of_two():
    res = analyze(CORPUS / "i23_mask_pow2_precondition.cu")
    notes = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert notes and all("stride a power of two" in d.witness["precondition"] for d in notes)


def test_a_bound_on_a_masked_stride_keeps_the_power_of_two_precondition_and_a_stated_value_is_checked(tmp_path):
    # the host's `stride >= 1024` (a loop that halves a power of two down to 1024) says nothing against the idiom
    src = (CORPUS / "i23_mask_pow2_precondition.cu").read_text()
    got = {}
    for name, fact in (("bound", "stride >= 64"), ("odd", "stride == 3"), ("pow2", "stride == 64 || stride == 128")):
        k = tmp_path / f"{name}.cu"
        k.write_text(src.replace("// kopt: launch", f"// kopt: assume {fact}\n// kopt: launch"))
        got[name] = observed(analyze(k))
    assert "race.precondition" in got["bound"] and "race.global" not in got["bound"]
    assert "race.global" in got["odd"] and "race.precondition" not in got["odd"]
    assert "race.global" not in got["pow2"] and "race.precondition" not in got["pow2"]


def test_a_parameter_given_values_is_pinned_and_a_bound_is_not():
    from analyzers.assume import Assumption
    assert Assumption("n == 4 and (m == 8 || 16 == m) and k >= 2 and (j == 1 || j > 4)", "test").pinned == {"n", "m"}


def test_stated_stride_is_checked_as_stated(tmp_path):
    src = (CORPUS / "i23_rows_grid_wider_precondition.cu").read_text()
    ok = tmp_path / "k.cu"
    ok.write_text(src.replace("// kopt: launch", "// kopt: assume width == 128\n// kopt: launch"))
    assert "race.global" not in observed(analyze(ok))  # the grid covers 128 columns: rows do not overlap
    bad = tmp_path / "k2.cu"
    bad.write_text(src.replace("// kopt: launch", "// kopt: assume width == 100\n// kopt: launch"))
    got = observed(analyze(bad))
    assert "race.global" in got and "race.precondition" not in got


def test_sign_note_names_the_parameter():
    res = analyze(CORPUS / "i23_sign_precondition.cu")
    (d,) = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert d.witness["precondition"] == "0 <= gap < 2^31" and d.witness["parameters"] == {"gap": -1}


def test_stated_negative_parameter_is_checked_as_stated(tmp_path):
    src = (CORPUS / "i23_sign_precondition.cu").read_text()
    k = tmp_path / "k.cu"
    k.write_text(src.replace("// kopt: launch", "// kopt: assume gap == -1\n// kopt: launch"))
    got = observed(analyze(k))
    assert "race.global" in got and "race.precondition" not in got


def test_witness_keeps_parameters_non_negative_where_it_can():
    # the race holds for non-negative parameters too: the witness shows such values, not the first model found
    res = analyze(CORPUS / "i23_layout_pitch_offbyone.cu")  # a first model had pitch = -1
    (d,) = [d for d in res.diagnostics if d.rule == "race.global"]
    assert all(0 <= v < 2 ** 31 for v in d.witness["parameters"].values())


def test_a_parameter_stated_alone_in_a_conjunct_is_checked_as_stated_and_a_relation_states_no_sign():
    from analyzers.assume import Assumption
    assert Assumption("gap == -1 && n == 2 and m > n", "test").alone == {"gap", "n"}
    assert Assumption("j1 == Size - t", "the host's launch").alone == set()


def test_a_constant_row_length_bounds_the_guards_parameter_and_says_so(tmp_path):
    f = CORPUS / "i23_const_row_param_guard_ok.cu"
    assert "(nj <= 1024)" in analyze(f).assumed
    stated = tmp_path / "k.cu"
    stated.write_text(f.read_text().replace("// kopt: launch", "// kopt: assume nj == 2000\n// kopt: launch"))
    res = analyze(stated)
    assert "race.global" in observed(res) and "nj <= 1024" not in res.assumed  # checked as the caller states it


def test_a_race_found_only_at_a_negative_size_and_undecided_otherwise_is_no_error():
    # the packed upper triangle (t = n*i - i*(i+1)/2 + j - i - 1) is one-to-one for n >= 1, a nonlinear fact the
    # solver cannot show within its budget under this grid relation; the race it finds needs a negative n: a note
    # and an incomplete analysis, not an error (the grid relation the host states says nothing of n's sign)
    src = """
__global__ void pack(const float *m, float *upper, int n) {
  size_t idx = blockDim.x * blockIdx.x + threadIdx.x;
  if (idx < (size_t)n * n) {
    size_t i = idx / n;
    size_t j = idx % n;
    if (i < j) {
      size_t t = n * i - i * (i + 1) / 2 + j - i - 1;
      upper[t] = m[j * n + i];
    }
  }
}
void run(const float *m, float *u, int n) { pack<<<1 + ((n * n - 1) / 1024), 1024>>>(m, u, n); }
"""
    res = analyze(src, path="pack.cu")
    rules = {d.rule for d in res.diagnostics}
    assert "race.global" not in rules and "race.precondition" in rules and "analysis.incomplete" in rules
    (note,) = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert "could not decide" in note.message and note.witness["precondition"] == "1 <= n < 2^31"


def test_a_grid_relation_does_not_state_a_parameter_alone():
    from analyzers.assume import parse

    assert parse("gridDim.x == (n + 255) / 256 and m == 4", "host").alone == {"m"}


def test_a_witness_never_divides_by_zero():
    # the padded row width divides by `alignment`: a witness with alignment = 0 (z3 gives n % 0 any value) is no
    # execution; the race at a negative alignment is the precondition note, its witness dividing by no zero
    res = analyze(CORPUS / "i23_divisor_not_zero_precondition.cu")
    notes = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert notes and all(d.witness["parameters"]["alignment"] != 0 for d in notes)


def test_a_stride_in_one_arm_of_a_conditional_index_is_presumed_at_least_one():
    # `interleaved ? i : i * n`: the contiguous arm strides by n as `i * n` alone would
    res = analyze(CORPUS / "i23_conditional_stride_precondition.cu")
    assert "race.global" not in observed(res)
    notes = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert notes and all("1 <= n" in d.witness["precondition"] for d in notes)


PIXEL_PAIRS = """
__global__ void pairs(unsigned char *dst, int pitch, int width, int height) {
  int x = threadIdx.x + blockIdx.x * blockDim.x, y = threadIdx.y + blockIdx.y * blockDim.y;
  int px = 2 * x, py = 2 * y;
  if (px + 1 >= width || py + 1 >= height) return;
  unsigned char *p = dst + px + (py + 1) * pitch;
  *(uchar2 *)p = make_uchar2(1, 2);
  *(uchar2 *)(p - pitch) = make_uchar2(3, 4);
}
"""


def test_a_row_pitch_is_presumed_no_wider_than_the_columns_the_guard_allows():
    # rows `(2 * y + 1) * pitch` bytes apart (a unit of one byte), columns `2 * x` kept below width by the guard:
    # the presumption is `pitch >= width`, not twice that (the column's step of 2 is no bound on the row)
    res = analyze(PIXEL_PAIRS, path="pairs.cu", block=(32, 8, 1))
    assert "pitch >= width" in res.assumed and "2 * width" not in res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith("race") or d.rule == "analysis.incomplete"]


PADDED_ROWS = """
struct info_t { int x_max, y_max, halo, kx, ky, x_off, y_off; };
__global__ void stencil(info_t ki, double *w, const double *u) {
  const int x_max = ki.x_max, y_max = ki.y_max, H = ki.halo;
  const int column = blockIdx.x * blockDim.x + threadIdx.x + ki.x_off;
  const int row = blockIdx.y * blockDim.y + threadIdx.y + ki.y_off;
  if (row <= (y_max - 1) + H + ki.ky && column <= (x_max - 1) + H + ki.kx)
    w[column + row * (x_max + 2 * H)] = 2.0 * u[column + row * (x_max + 2 * H)];
}
"""


def test_a_row_padded_by_its_halo_is_presumed_to_cover_the_column_the_guard_allows():
    # a stencil's row pitch is a sum of a struct parameter's fields (`x_max + 2 * halo`); the guard lets the column
    # reach `x_max + halo + kx`: rows overlap only if the pitch is narrower, which the presumption rules out. The
    # fields are integers, so a column below its row's start (a negative offset) is the precondition note
    res = analyze(PADDED_ROWS, path="stencil.cu")
    assert "ki.x_max + 2 * ki.halo >= ki.x_max + ki.halo + ki.kx" in res.assumed
    assert not [d for d in res.diagnostics if d.severity.rank >= 2], res.diagnostics
    (note,) = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert "ki.x_off" in note.witness["precondition"]
    # stated by the caller (fields may be named in an assumption): no note either
    stated = "// kopt: assume ki.x_off >= 0 && ki.y_off >= 0\n" + PADDED_ROWS
    assert not [d for d in analyze(stated, path="stencil.cu").diagnostics if d.rule.startswith(("race", "analysis"))]
    # a pitch narrower than the guard's columns, stated by the caller, is checked as stated: the rows overlap
    narrow = "// kopt: assume ki.halo == 0 && ki.kx == 2\n" + PADDED_ROWS
    assert "race.global" in observed(analyze(narrow, path="stencil.cu"))


def test_a_padded_row_bounded_by_an_early_return_is_presumed_to_cover_its_column():
    src = """
__global__ void halo_copy(int nx, int ny, int halo, int kx, double *w, const double *u) {
  int column = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= ny || column >= nx + halo + kx) return;
  w[column + row * (nx + 2 * halo)] = 2.0 * u[column + row * (nx + 2 * halo)];
}
"""
    res = analyze(src, path="halo_copy.cu")
    assert "nx + 2 * halo >= nx + halo + kx" in res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith("race") or d.rule == "analysis.incomplete"]


def test_rows_of_a_padded_pitch_are_compared_row_by_row_where_the_columns_stay_inside():
    # an update in place (`p[i] = alpha[step] * p[i] + r[i]`) at a padded row: under the presumed signs the store
    # and the read meet only in one row (implied where both columns lie inside it), which decides the pair; a
    # negative offset is the precondition note
    src = PADDED_ROWS.replace("double *w, const double *u", "const double *alpha, double *w, const double *u, int s") \
        .replace("2.0 * u[column", "alpha[s] * w[column + row * (x_max + 2 * H)] + u[column")
    res = analyze(src, path="stencil.cu", block=(32, 4, 1))
    assert [d.rule for d in res.diagnostics if d.rule.startswith(("race", "analysis", "sync"))] == ["race.precondition"]


def test_an_element_update_through_an_index_list_presumes_distinct_entries_and_says_so():
    res = analyze(CORPUS / "i23_index_list_update_precondition.cu")
    notes = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert notes and all(d.severity == Severity.NOTE for d in notes)
    assert "distinct entries in index list `members`" in notes[0].message
    src = (CORPUS / "i23_index_list_update_precondition.cu").read_text()
    # a list the kernel itself stores to is no list the caller built: the race is reported
    res = analyze(src.replace("pos[p] = pos[p] + vel[p] * dt;", "pos[p] = pos[p] + vel[p] * dt;\n    members[i] = 0;")
                  .replace("const unsigned* members", "unsigned* members"))
    assert [d.rule for d in res.diagnostics if d.severity == Severity.ERROR] == ["race.global"]
    # a count through the list (`bins[key[i]]++`) is written for repeated entries: reported
    res = analyze(src.replace("pos[p] = pos[p] + vel[p] * dt;", "pos[p] = pos[p] + 1.0f;"))
    assert [d.rule for d in res.diagnostics if d.severity == Severity.ERROR] == ["race.global"]


def test_a_mask_by_a_halved_loop_variable_presumes_its_start_a_power_of_two():
    # bitonic merge: `pos = 2 * t - (t & (stride - 1))` for stride = n / 2, n / 4, ...: written for n a power of two
    src = """
__global__ void k(unsigned *g, unsigned n) {
  __shared__ unsigned s[1024];
  s[threadIdx.x] = g[threadIdx.x];
  s[threadIdx.x + 512] = g[threadIdx.x + 512];
  for (unsigned stride = n / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    unsigned a = s[pos], b = s[pos + stride];
    if (a > b) { s[pos] = b; s[pos + stride] = a; }
  }
}
"""
    res = analyze(src, path="b.cu", block=(512, 1, 1), assume=["n <= 1024"])
    assert not [d for d in res.diagnostics if d.rule == "race.shared"]
    notes = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert notes and all("n / 2 a power of two" in d.message for d in notes)


def test_a_divisor_in_a_guard_is_not_zero_in_a_witness():
    # with a template value G >= 1 only thread 0 passes (n <= 1); z3 gives n / 0 any value, which let more threads
    # through (a template value or `sizeof` a guard divides by is no zero; a parameter there is not asked again)
    src = """
template <unsigned G>
__global__ void first(float *out, unsigned n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > 1 || t >= n / G) return;
  out[0] = (float)t;
}
template <unsigned G> void run(float *x, unsigned n) { first<G><<<1, 256>>>(x, n); }
"""
    res = analyze(src, path="f.cu")
    assert not [d for d in res.diagnostics if d.rule.startswith("race.")], res.diagnostics


def test_a_row_is_presumed_to_hold_the_width_its_guard_names():
    # lmdeploy's activation: `dim /= V; if (c >= dim) return;` then `row[c]` of `row = x + blockIdx.x * stride`:
    # rows overlap only where stride is below the dim the guard names, the caller's layout: a note naming the
    # presumption, not an error (`x <= width` beside `y * pitch` stays one: corpus i23_layout_pitch_offbyone.cu)
    src = """
template <int V>
__global__ void act(float *x, long stride, int dim) {
  int c = threadIdx.x + blockIdx.y * blockDim.x;
  dim /= V;
  if (c >= dim) return;
  float4 *row = reinterpret_cast<float4 *>(x + blockIdx.x * stride);
  float4 v = row[c];
  v.x *= 2.f;
  row[c] = v;
}
template <int V> void run(float *x, long s, int n, int d) { act<V><<<dim3(n, (d / V + 511) / 512), 512>>>(x, s, d); }
"""
    res = analyze(src, path="a.cu")
    rules = {d.rule for d in res.diagnostics}
    assert "race.global" not in rules and "race.precondition" in rules, res.diagnostics
    (note,) = [d for d in res.diagnostics if d.rule == "race.precondition"]
    assert "dim / <template value V> * 16 <= 4 * stride" in note.witness["precondition"], note.witness


def test_an_assertion_is_a_fact_of_the_threads_that_pass_it_not_a_branch():
    # `assert(blockDim.x == 64)`: the kernel runs on 64-thread blocks or traps, so wider blocks' collisions are not
    # races; a thread-dependent assertion before a barrier is no divergence (a failed one stops every thread)
    src = """
__global__ void fill(float *out, const float *in) {
  %s
  out[blockIdx.x * 64 + threadIdx.x %% 64] = in[threadIdx.x];
}
__global__ void stage(float *out, const float *in) {
  __shared__ float s[128];
  assert(threadIdx.x < 128);
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
}
"""
    checked = analyze(src % "assert(blockDim.x == 64);", path="a.cu", block=None)
    unchecked = analyze(src % "", path="a.cu", block=None)
    assert not [d for d in checked.diagnostics if d.rule.startswith(("race", "barrier", "bounds"))], \
        [d.message for d in checked.diagnostics]
    assert {d.witness.get("kernel") for d in unchecked.diagnostics if d.rule == "race.global"} == {"fill"}


def test_a_stride_typed_by_a_template_parameter_is_a_precondition_not_a_race():
    # MinkowskiEngine style: `size_type const coordinate_size`, analyzed generically; rows collide only at stride 0
    src = """template <typename T, typename size_type>
__global__ void copy_rows(const T* src, T* dst, size_type const n, size_type const coordinate_size) {
  auto const x = blockDim.x * blockIdx.x + threadIdx.x;
  if (x < n) dst[x * coordinate_size] = src[x];
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    rules = {d.rule for d in res.diagnostics}
    assert "race.precondition" in rules and "race.global" not in rules, rules


def test_a_region_given_by_a_struct_of_unsigned_fields_gets_the_row_pitch_of_its_width():
    src = """struct Rect { unsigned x, y, width, height; };
__global__ void fill(float* dst, unsigned step, Rect roi) {
  const int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= roi.width || iy >= roi.height) return;
  dst[(ix + roi.x) + (iy + roi.y) * step] = ix;
}
"""
    res = analyze(src, path="k.cu", block=(32, 6, 1))
    assert "step >= roi.width" in res.assumed and not [d for d in res.diagnostics if d.rule.startswith("race.")], (
        res.assumed, [d.rule for d in res.diagnostics])


def test_each_inner_index_of_a_tensor_layout_is_presumed_inside_its_dimension():
    # `((n * C + c) * H + h) * W + w` with n, c, h the block's indices (a grid the size of the tensor): two blocks
    # meet only if an index leaves its dimension (c >= C or h >= H), the layout's own precondition; each factor of
    # an outer row had been taken as a row stride of its own, and a block index past H was a race
    src = """__global__ void k(float *out, int C, int H, int W) {
  if (threadIdx.x < W)
    out[((blockIdx.z * C + blockIdx.y) * H + blockIdx.x) * W + threadIdx.x] = blockIdx.x + 2 * blockIdx.y;
}
"""
    res = analyze(src, path="nchw.cu", block=(64, 1, 1))
    races = [d for d in res.diagnostics if d.rule.startswith("race")]
    assert [d.rule for d in races] == ["race.precondition"], res.diagnostics
    assert "< 4 * C * H * W (bytes)" in races[0].witness["precondition"], races[0].witness
    told = analyze("// kopt: assume C >= 1 and H >= 1 and W >= 1 and gridDim.x <= H and gridDim.y <= C\n" + src,
                   path="nchw.cu", block=(64, 1, 1))
    assert not [d for d in told.diagnostics if d.rule.startswith("race")], told.diagnostics


def test_a_tensor_layout_with_its_channel_outermost_is_presumed_inside_each_dimension():
    # `((z * D1 + y) * D2 + x) * C` (channel 0 of a pixel, nvdiffrec's `nhwcIndexContinuous`) has no term without a
    # stride: its inner indices still lie inside their dimensions; channel 1 (`... * C + 1`) inside its row of C.
    # Each had been a race at D1 = 0 or C = 1
    src = """__global__ void k(float *d, const float *v, int D1, int D2, int C, int gx, int gy, int gz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  if (x >= gx || y >= gy || z >= gz) return;
  d[((z * D1 + y) * D2 + x) * C] = v[x];
  d[((z * D1 + y) * D2 + x) * C + 1] = v[y];
}
"""
    res = analyze(src, path="nhwc.cu", block=(8, 8, 1))
    races = [d for d in res.diagnostics if d.rule.startswith("race")]
    assert races and {d.rule for d in races} == {"race.precondition"}, res.diagnostics
    assert any("0 <= 1 < C" in d.witness["precondition"] for d in races), [d.witness for d in races]


OFFSET_COMPONENTS = """
__global__ void components(const int N, const int N1, const int N2, const double *in, double *virial) {
  const int n1 = blockIdx.x * blockDim.x + threadIdx.x + N1;
  if (n1 >= N2) return;
  virial[n1 + 0 * N] = in[n1];
  virial[n1 + 1 * N] = 2.0 * in[n1];
  virial[n1 + 2 * N] = 3.0 * in[n1];
}
"""


def test_a_layout_of_components_holds_the_range_an_offset_column_covers():
    # atoms N1 <= n1 < N2 of N, their components N apart: the range is presumed to fit a component's N elements
    # (N >= N2 - N1), the column's offset N1 taken off the guard's bound, so the components never meet
    res = analyze(OFFSET_COMPONENTS, path="components.cu", block=(128, 1, 1))
    assert "N >= N2 - N1" in res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith("race") or d.rule == "analysis.incomplete"]
