"""bench/analyzer_suites.py: a suite's paths at its commit are written from a clone (a HeCBench sample's folders
chosen by their sorted position, a submodule from its own clone), and the manifest names a clone-able suite for
every process of every results file."""
from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("analyzer_suites", ROOT / "bench" / "analyzer_suites.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _repo(path: Path, files: dict) -> str:
    path.mkdir(parents=True)
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git = ["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "x"], check=True)
    return subprocess.run(git[:3] + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def test_a_suite_is_written_from_its_clone_at_its_commit(tmp_path, monkeypatch):
    suites = _module()
    folders = {f"src/k{i}-cuda/main.cu": f"__global__ void k{i}() {{}}\n" for i in range(1, 10)}
    commit = _repo(tmp_path / "clones" / "o+hec", {**folders, "src/include/h.h": "// h\n", "README": "r\n"})
    glm = _repo(tmp_path / "clones" / "o+glm", {"glm/glm.hpp": "// glm\n"})
    manifest = tmp_path / "suites.json"
    manifest.write_text(json.dumps({"suites": {
        "HEC": {"repo": "o/hec", "commit": commit[:7], "paths": ["hecbench-sample:2"]},
        "WHOLE": {"repo": "o/hec", "commit": commit, "paths": [], "submodules": {"third_party/glm": f"o/glm@{glm}"}}},
        "runs": {}}))
    monkeypatch.setattr(suites, "MANIFEST", manifest)
    suites.extract(tmp_path / "clones", tmp_path / "out", [])
    written = sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*") if p.is_file())
    # the sorted -cuda folders at positions 2, 10, 18... (here k2), with src/include; a whole tree and its submodule
    assert [w for w in written if w.startswith("HEC/")] == ["HEC/src/include/h.h", "HEC/src/k2-cuda/main.cu"]
    assert "WHOLE/README" in written and "WHOLE/third_party/glm/glm/glm.hpp" in written


def test_every_process_names_suites_of_the_manifest():
    doc = json.loads((ROOT / "bench" / "analyzer_suites.json").read_text())
    for name, processes in doc["runs"].items():
        assert (ROOT / "bench" / "results" / name).is_file(), name
        for args in processes:
            reals = [args[i + 1] for i, a in enumerate(args) if a == "--real"]
            provs = [args[i + 1] for i, a in enumerate(args) if a == "--provenance"]
            assert reals and len(reals) == len(provs), name
            for real, prov in zip(reals, provs):
                suite = doc["suites"][real.split("/")[0]]
                assert prov == f"{suite['repo']}@{suite['commit']}", (name, real)
