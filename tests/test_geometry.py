"""One launch geometry: for every candidate in the repository, every configuration that survives `restrict` and
(where it names a task) every shape, each consumer reports the (kernel, grid, block, smem, cluster) that
`kopt.geometry.launch_geometry` gives: `validate --json`, the runner's plan, `explain --json` (its launches and its
occupancy figure) and `check --json` (the launch the analyzers were given). Compiles go through the cache, so the
CLI commands reuse what `validate` compiled."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kopt.candidate import Candidate
from kopt.cli import app
from kopt.geometry import launch_geometry
from kopt.plan import resolve
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "bench" / "tasks"
CANDIDATES = sorted([*TASKS.glob("*/*.cu"), *(ROOT / "kb" / "cutlass_examples").glob("*.cu"),
                     *[p for p in (ROOT / "tests" / "data").glob("*.cu") if "// kopt:" in p.read_text()]])
CORPUS = sorted(p for p in (ROOT / "tests" / "analyzers" / "corpus").glob("*.cu") if "// kopt:" in p.read_text())


def five(launch: dict) -> tuple:
    def t(dims):
        return tuple(dims) if dims is not None else None
    return launch["kernel"], t(launch["grid"]), t(launch["block"]), launch["smem"], t(launch["cluster"])


def expected(cand, config, shape=None, arch=None) -> list[tuple]:
    return [five(g.to_dict()) for g in launch_geometry(cand, config, shape, arch=arch)]


def cli(*args) -> dict:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), (args, result.output)
    return json.loads(result.stdout)


def defines(config: dict) -> list[str]:
    return [f"-D{k}={v}" for k, v in config.items()]


def sample(cand) -> list[dict]:
    """The first, middle and last configurations (the geometry code does not depend on which): for the CuTe GEMMs,
    whose compiles take a minute each on a small machine, the first alone."""
    configs = list(cand.configs())
    if "cute/" in cand.source:
        return configs[:1]
    return [configs[i] for i in sorted({0, len(configs) // 2, len(configs) - 1})]


@pytest.fixture
def no_passes(monkeypatch):
    """`kopt check` as it runs, minus the hazard passes: the launch each kernel is analyzed under is decided before
    any pass runs, and the passes' solver time (seconds per configuration for the largest GEMM) is not the subject
    here."""
    import analyzers.driver

    monkeypatch.setattr(analyzers.driver, "PASSES", [])


@pytest.mark.timeout(600)  # a hang guard: a CuTe GEMM compiles for up to a minute on 2 cores
@pytest.mark.parametrize("path", CANDIDATES, ids=[f"{p.parent.name}/{p.stem}" for p in CANDIDATES])
def test_every_consumer_reports_the_geometry(path, no_passes):
    cand = Candidate.load(path)
    task = Task.load(TASKS / cand.task) if cand.task else None
    arch = cand.arch or (task.arch if task else None) or "sm_90"
    for config in sample(cand):
        validated = cli("validate", task.path if task else path, path, "--arch", arch, "--json",
                        *[f"--set={k}={v}" for k, v in config.items()])
        assert validated["ok"], validated["problems"]
        [c] = validated["candidates"][0]["configs"]
        assert c["config"] == config
        for shape, s in zip(task.shapes if task else [None], c["shapes"]):
            want = expected(cand, config, shape.symbols if shape else None, arch)
            assert [five(launch) for launch in s["launches"]] == want, (config, s["shape"])
            if task:
                plan = resolve(task, cand, shape, config, {k: k for k in cand.kernels(config)}, arch)
                assert [(lp.kernel, lp.grid, lp.block, lp.smem, lp.cluster) for lp in plan.launches] == want
        explained = cli("explain", path, "--arch", arch, "--no-lines", "--json", *defines(config))
        assert [five(launch) for launch in explained["launches"]] == expected(cand, config, arch=arch)
        for g in launch_geometry(cand, config, arch=arch):
            occ = explained["lowering"][g.kernel]["occupancy"]
            assert occ["block_size"] == (g.threads or 256) and occ["dynamic_smem"] == (g.smem or 0), (config, occ)
        analyzed = cli("check", path, "--json", *defines(config))["files"][0]["launches"]
        assert {five(launch) for launch in analyzed} == set(expected(cand, config)), config


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_the_analyzers_are_given_the_geometry(path, no_passes):
    cand = Candidate.load(path)
    analyzed = cli("check", path, "--json")["files"][0]["launches"]
    assert {five(launch) for launch in analyzed} == set(expected(cand, cand.default_config()))


# --- the disagreements that one geometry removes ---------------------------------------------------------------
VADD = """// kopt: tune STAGES in [4]
// kopt: define MAXC=4096
// kopt: launch vadd grid=(cdiv(n, 256)) block=(256) smem=(STAGES * MAXC * 2) args=(a, b, c, n)
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
"""


def test_a_define_is_seen_by_every_consumer(tmp_path, no_passes):
    path = tmp_path / "vadd.cu"
    path.write_text(VADD)
    cand, task = Candidate.load(path), Task.load(TASKS / "vector_add")
    assert launch_geometry(cand)[0].smem == 32768
    assert cli("compile", path, "--arch", "sm_90", "--json")["launches"][0]["smem"] == 32768
    explained = cli("explain", path, "--arch", "sm_90", "--no-lines", "--json")
    assert explained["launches"][0]["smem"] == 32768
    assert explained["lowering"]["vadd"]["occupancy"]["dynamic_smem"] == 32768
    assert cli("check", path, "--json")["files"][0]["launches"][0]["smem"] == 32768
    assert resolve(task, cand, task.shapes[1], {"STAGES": 4}, {"vadd": "vadd"}, "sm_90").launches[0].smem == 32768
    assert cli("validate", TASKS / "vector_add", path, "--json")["ok"]


def test_a_fractional_grid_is_refused_everywhere_not_rounded(tmp_path, no_passes):
    path = tmp_path / "vadd.cu"
    path.write_text(VADD.replace("grid=(cdiv(n, 256))", "grid=(n / 256)"))
    checked = cli("check", path, "--json")["files"][0]
    assert checked["launches"][0]["grid"] == [None, 1, 1]  # x unknown without a shape, never 3
    validated = cli("validate", TASKS / "vector_add", path, "--json")
    assert not validated["ok"] and {p["rule"] for p in validated["problems"]} == {"expr.not-positive-integer"}
    with pytest.raises(Exception, match="positive integer"):
        task = Task.load(TASKS / "vector_add")
        resolve(task, Candidate.load(path), task.shapes[2], {}, {"vadd": "vadd"}, "sm_90")


def test_sanitize_and_check_analyze_the_same_launch(no_passes):
    """sanitize hands the analyzers its Candidate; check a path: both at the candidate's default tunables."""
    from kopt.analyze import analyze

    path = TASKS / "softmax_rows" / "baseline.cu"
    by_path, by_candidate = analyze(path), analyze(Candidate.load(path))
    assert by_path.launches == by_candidate.launches and by_path.launches[0]["block"] == [256, 1, 1]
    assert by_path.assumed == by_candidate.assumed and "BLOCK=256" in by_path.assumed


def test_explain_refuses_a_block_the_arch_cannot_launch():
    result = CliRunner().invoke(app, ["explain", str(ROOT / "tests" / "data" / "copy_float4.cu"), "--block", "2000"])
    assert result.exit_code != 0 and "1 to 1024 threads" in str(result.exception or result.output)
