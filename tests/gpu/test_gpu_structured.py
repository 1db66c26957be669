"""GPU acceptance for NVIDIA's structured outputs (needs a GPU, ncu with the ncu-report wheel, compute-sanitizer
with --xml): on the planted cases, sanitize finds the same through its XML records as through its text output, and
profile the same through ncu_report as through ncu's CSV export of the same report. bench/capture_structured.py
records these outputs as the CPU fixtures (tests/data/sanitizer, tests/data/ncu)."""
import subprocess
from pathlib import Path

import pytest

from kopt.task import Task
from structured_checks import profile_differences

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).parent / "planted_sanitize"
pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def task():
    return Task.load(ROOT / "bench" / "tasks" / "vector_add")


@pytest.mark.parametrize("planted,tool", [("oob_write.cu", "memcheck"), ("shared_race.cu", "racecheck"),
                                          ("uninit_read.cu", "initcheck"), ("divergent_barrier.cu", "synccheck")])
def test_sanitize_xml_and_text_agree(task, planted, tool):
    from kopt.sanitize import _keys, diagnostics, sanitize

    res = sanitize(task, PLANTED / planted, tools=[tool], static=False)
    assert res.parsed_from[tool] == "xml", (res.notes, res.raw_xml.get(tool, "")[:2000])
    from_xml = diagnostics(res.raw_xml[tool], tool, xml=True)
    from_text = diagnostics(res.raw[tool], tool)
    assert from_xml and _keys(from_xml) == _keys(from_text), (res.raw_xml[tool][:3000], res.raw[tool][:3000])
    assert not [n for n in res.notes if "disagree" in n], res.notes


@pytest.mark.parametrize("case,candidate", [("memory_bound", None), ("compute_bound", "fma_chain.cu"),
                                            ("strided", "strided.cu"), ("register_heavy", "register_heavy.cu")])
def test_profile_report_and_csv_agree(task, tmp_path, case, candidate):
    pytest.importorskip("ncu_report", reason="pip install ncu-report")
    from kopt.profile import build, parse_ncu_csv, parse_source_csv, profile, source_page_command
    from kopt.toolchain import require_tool

    cand = PLANTED / candidate if candidate else task.baseline
    rep = tmp_path / f"{case}.ncu-rep"
    via_report = profile(task, cand, report=rep)
    assert via_report.read_from == {"metrics": "ncu_report", "source": "ncu_report"}, via_report.notes
    ncu = require_tool("ncu")
    raw = subprocess.run([ncu, "--import", str(rep), "--csv", "--page", "raw"], capture_output=True, text=True)
    src = subprocess.run(source_page_command(ncu, str(rep), cand), capture_output=True, text=True)
    via_csv = build(task.name, cand.name, via_report.shape, raw.stdout, src.stdout, work_bytes=via_report.work_bytes,
                    launch_lines=[k.line for k in via_report.kernels], source_text=cand.read_text())
    assert parse_ncu_csv(raw.stdout) and parse_source_csv(src.stdout)
    assert not profile_differences(via_report, via_csv), profile_differences(via_report, via_csv)
