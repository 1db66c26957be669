"""Task files: parsing, line-numbered errors for malformed input, expressions."""
import shutil
from pathlib import Path

import pytest

from kopt.errors import InputError
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[1]

GOOD = """name = "vadd"
args = [
  { name = "a", dtype = "f32", shape = ["n"], role = "in" },
  { name = "c", dtype = "f32", shape = ["cdiv(n, 2)", "2"], role = "out" },
  { name = "n", dtype = "i32", value = "n" },
]
shapes = [ { n = 1024, timed = true }, { n = 7 } ]
reference = "ref.py:f"
work = { bytes = "8 * n", flops = "n" }
"""


def write(tmp_path, text, ref=True):
    (tmp_path / "task.toml").write_text(text)
    if ref:
        (tmp_path / "ref.py").write_text("def f(a, n):\n    return a\n")
    return tmp_path


def test_good_task_loads_and_evaluates(tmp_path):
    t = Task.load(write(tmp_path, GOOD))
    assert [a.role for a in t.args] == ["in", "out", "scalar"]
    s = t.shapes[1]
    assert t.shape_of(t.arg("c"), s) == (4, 2)
    assert t.scalar(t.arg("n"), s) == 7
    # only bytes declared: split as the arguments' sizes are (a: 4 KiB read, c: 4 KiB written)
    assert t.work_figures(t.shapes[0]) == {"bytes": 8192.0, "flops": 1024.0, "bytes_read": 4096.0,
                                           "bytes_written": 4096.0}
    assert t.compute is None and t.torch is None
    assert t.timed_shapes == [t.shapes[0]]
    assert t.find_shape("n=7") == [s]


@pytest.mark.parametrize("edit,line,message", [
    (lambda s: s.replace('role = "in" }', 'role = "input" }'), 3, "role must be one of"),
    (lambda s: s.replace('dtype = "f32", shape = ["n"]', 'dtype = "f33", shape = ["n"]'), 3, "unknown dtype"),
    (lambda s: s.replace("{ n = 7 }", "{ m = 7 }"), 7, "does not bind n"),
    (lambda s: s.replace("timed = true", "timed = false"), 7, "no shape is marked timed"),
    (lambda s: s.replace('"8 * n"', '"8 * k"'), 9, "unknown size symbol"),
    (lambda s: s.replace('reference = "ref.py:f"', 'reference = "nope.py:f"'), 8, "not found"),
    (lambda s: s.replace('args = [', 'argz = 1\nargs = ['), 2, "unknown key 'argz'"),
    (lambda s: s.replace('{ n = 7 }', '{ n = -7 }'), 7, "positive integer"),
    (lambda s: s.replace('shape = ["n"], role = "in" }', 'shape = ["n"], role = "in", init = "normal", std = 0 }'), 3,
     "all-zero"),
    (lambda s: s.replace('role = "out" }', 'role = "in" }'), 2, "no output"),
    (lambda s: s.replace('"cdiv(n, 2)"', '"cdiv(n,, 2)"'), 4, "bad expression"),
    (lambda s: s + 'compute = "bf17-tensor"\n', 10, "compute must be one of"),
    (lambda s: s.replace(', flops = "n" }', ' }') + 'compute = "bf16-tensor"\n', 10, "declare work.flops too"),
    (lambda s: s.replace('bytes = "8 * n"', 'bytes_read = "4 * n"'), 9, "declare both bytes_read and bytes_written"),
    (lambda s: s.replace('bytes = "8 * n"', 'bytes = "8 * n", bytes_read = "n", bytes_written = "n"'), 9,
     "bytes is the sum"),
    (lambda s: s + 'torch = "torch.add(a,, 1)"\n', 10, "not a Python expression"),
])
def test_malformed_task_reports_line(tmp_path, edit, line, message):
    with pytest.raises(InputError) as exc:
        Task.load(write(tmp_path, edit(GOOD)))
    assert message in exc.value.message
    assert f"task.toml:{line}:" in exc.value.message
    assert exc.value.exit_code == 2


def test_invalid_toml_reports_line_and_column(tmp_path):
    with pytest.raises(InputError, match=r"task.toml:3:\d+: invalid TOML"):
        Task.load(write(tmp_path, GOOD.replace('{ name = "a"', '{ name = "a" dtype')))


def test_missing_task_dir_is_input_error(tmp_path):
    with pytest.raises(InputError, match="no task at"):
        Task.load(tmp_path / "nothing")


def test_every_bench_task_loads():
    dirs = sorted(p.parent for p in (ROOT / "bench" / "tasks").glob("*/task.toml"))
    assert len(dirs) >= 10
    for d in dirs:
        t = Task.load(d)
        # a baseline, or (a long-shape variant) a family whose candidates run here
        assert t.timed_shapes and (t.baseline.exists() if t.baseline else t.family), d


def test_work_declares_bytes_read_and_written_and_a_compute_precision(tmp_path):
    text = GOOD.replace('bytes = "8 * n"', 'bytes_read = "6 * n", bytes_written = "2 * n"')
    t = Task.load(write(tmp_path, text + 'compute = "bf16-tensor"\ntorch = "a * 2"\n'))
    assert t.work_figures(t.shapes[0]) == {"bytes_read": 6144.0, "bytes_written": 2048.0, "bytes": 8192.0,
                                           "flops": 1024.0}
    assert t.compute == "bf16-tensor" and t.torch == "a * 2"


def test_an_inout_argument_counts_as_read_and_written(tmp_path):
    text = GOOD.replace('role = "out" }', 'role = "inout" }')
    t = Task.load(write(tmp_path, text))
    assert t.footprint(t.shapes[0]) == (8192, 4096)  # a (4 KiB) and c (4 KiB) read; c written
    w = t.work_figures(t.shapes[0])
    assert w["bytes_read"] == pytest.approx(8192 * 2 / 3) and w["bytes_written"] == pytest.approx(8192 / 3)


def test_a_task_of_a_family_accepts_that_familys_candidates(tmp_path):
    from kopt.known_candidates import known_candidates

    long = Task.load(ROOT / "bench" / "tasks" / "attention_fwd_long")
    assert long.family == "attention_fwd" and long.baseline is None
    assert long.accepts("attention_fwd") and long.accepts("attention_fwd_long") and long.accepts(None)
    assert not long.accepts("softmax_rows")
    assert "kb:attention_fwd_flash" in [k.label for k in known_candidates(long)]
    assert not Task.load(ROOT / "bench" / "tasks" / "softmax_rows").accepts("attention_fwd")
    shutil.copytree(ROOT / "bench" / "tasks" / "vector_add", tmp_path / "t")
    toml = tmp_path / "t" / "task.toml"
    toml.write_text('family = "no such name!"\n' + toml.read_text())
    with pytest.raises(InputError, match="family must name another task"):
        Task.load(toml.parent)
