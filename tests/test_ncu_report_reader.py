"""kopt.ncu_report_reader: Nsight Compute reports through NVIDIA's Python interface (the ncu-report wheel).

On the CPU there is no report to read: the loader is exercised on files it must refuse or find empty, and the
per-PC correlation on a small stand-in written to the interface's documented methods (IAction / IMetric /
ISourceInfo). Real reports are read on the H200 (tests/gpu/test_gpu_structured.py), next to the CSV path."""
import pytest

from kopt import ncu_report_reader


def test_missing_and_unreadable_reports(tmp_path):
    pytest.importorskip("ncu_report")
    with pytest.raises(ValueError, match="cannot load"):
        ncu_report_reader.read(tmp_path / "none.ncu-rep")
    bad = tmp_path / "bad.ncu-rep"
    bad.write_text("not a report")
    assert ncu_report_reader.read(bad) == ([], [])  # nothing read: kopt.profile falls back to the CSV export


class _Metric:
    """Stand-in for ncu_report.IMetric: per-instance values with correlation ids (program counters)."""

    def __init__(self, values, pcs=None, unit=""):
        self.values, self.pcs, self._unit = values, pcs, unit

    def value(self):
        return self.values if not isinstance(self.values, list) else None

    def unit(self):
        return self._unit

    def has_correlation_ids(self):
        return self.pcs is not None

    def correlation_ids(self):
        return _Metric(self.pcs)

    def num_instances(self):
        return len(self.values)

    def as_double(self, i):
        return float(self.values[i])

    def as_uint64(self, i):
        return int(self.values[i])


class _Info:
    def __init__(self, file, line):
        self._file, self._line = file, line

    def file_name(self):
        return self._file

    def line(self):
        return self._line


class _Action:
    def __init__(self, metrics, lines):
        self.metrics, self.lines = metrics, lines

    def metric_names(self):
        return list(self.metrics)

    def metric_by_name(self, name):
        return self.metrics[name]

    def source_info(self, pc):
        return _Info(*self.lines[pc]) if pc in self.lines else None


def test_samples_are_summed_per_source_line_through_the_program_counter():
    samples = _Metric([5, 3, 7, 1], pcs=[0x10, 0x20, 0x30, 0x40])
    action = _Action({"smsp__pcsamp_sample_count": samples, "gpu__time_duration.sum": _Metric(1234, unit="nsecond")},
                     {0x10: ("k.cu", 4), 0x20: ("k.cu", 4), 0x30: ("k.cu", 6)})  # 0x40: no source line
    src = {"k.cu": ["", "", "", "  float v = x[i];", "", "  y[i] = v;"]}
    hot = ncu_report_reader._hot_lines(action, src)
    assert hot == [("k.cu", 4, 8.0, "  float v = x[i];"), ("k.cu", 6, 7.0, "  y[i] = v;")]
    assert ncu_report_reader._hot_lines(_Action({}, {}), src) == []  # no sampling metric: the CSV source page
    assert ncu_report_reader._value_text(action.metrics["gpu__time_duration.sum"]) == "1234"


NCU = __import__("pathlib").Path(__file__).parent / "data" / "ncu"
CANDIDATES = {"memory_bound": "baseline.cu", "compute_bound": "fma_chain.cu", "strided": "strided.cu",
              "register_heavy": "register_heavy.cu",
              "bandwidth_low_occupancy": "bandwidth_low_occupancy.cu"}  # bench/capture_structured.py's cases


@pytest.mark.parametrize("rep", sorted(NCU.glob("h200_*.ncu-rep")), ids=lambda p: p.name)
def test_captured_report_agrees_with_its_csv_export(rep):
    """A report captured on the H200 and ncu's CSV export of it: the same Profile through both readers."""
    pytest.importorskip("ncu_report")
    from kopt.profile import build
    from structured_checks import profile_differences

    case = rep.name[len("h200_"):-len(".ncu-rep")]
    candidate = CANDIDATES[case]  # hot lines are kept only for the candidate's own file
    kernels, hot = ncu_report_reader.read(rep)
    raw, src = (NCU / f"h200_{case}_raw.csv").read_text(), (NCU / f"h200_{case}_source.csv").read_text()
    via_report = build("vector_add", candidate, "s", "", report=(kernels, hot))
    via_csv = build("vector_add", candidate, "s", raw, src)
    assert kernels and not profile_differences(via_report, via_csv), profile_differences(via_report, via_csv)
