"""The real-code suites of bench/results/analyzer_accuracy*.json, reproducible: extract them, run them.

bench/analyzer_suites.json names each suite (a public repository at a commit, the paths of it the benchmark reads,
submodules it needs) and, per results file, the analyzer_accuracy.py processes that produced it.

  python bench/analyzer_suites.py extract --clones DIR --into ROOT [SUITE...]
      DIR holds one git clone per repository, named OWNER+NAME (a bare or a working clone, or OWNER+NAME/repo);
      each suite's paths at its commit are written to ROOT/SUITE (``git archive``; no checkout is changed).
  python bench/analyzer_suites.py run --root ROOT --out-dir OUT [--jobs 2] [RESULTS...]
      runs the processes of each results file (all by default) against ROOT and writes OUT/<results file>,
      the processes' results lists joined in order. Then compare with bench/results/ or copy over it. Run it
      from the checkout kopt is installed from (the benchmark refuses another), with no change to kopt/ or
      analyzers/ while it runs: each process imports them when it starts.
"""
from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "analyzer_suites.json"
HECBENCH_SAMPLE = "hecbench-sample:"  # every 8th src/*-cuda folder in sorted order, NR % 8 == R, with src/include


def _clone(clones: Path, repo: str) -> Path:
    base = clones / repo.replace("/", "+")
    for cand in (base / "repo", base):
        if cand.is_dir():
            return cand
    sys.exit(f"no clone of {repo} at {base}: clone https://github.com/{repo} there first")


def _git(clone: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(clone), *args], check=True, capture_output=True).stdout


def _paths(clone: Path, commit: str, paths: list[str]) -> list[str]:
    out = []
    for p in paths:
        if p.startswith(HECBENCH_SAMPLE):
            r = int(p[len(HECBENCH_SAMPLE):])
            names = _git(clone, "ls-tree", "-d", "--name-only", commit, "src/").decode().split()
            cuda = sorted(n for n in names if n.endswith("-cuda"))
            out += ["src/include"] + [n for i, n in enumerate(cuda, start=1) if i % 8 == r]
        else:
            out.append(p)
    return out


def _archive(clone: Path, commit: str, paths: list[str], dest: Path) -> int:
    """Write the files of ``paths`` at ``commit`` under ``dest``; returns how many blobs the clone lacks (a partial
    clone's large binaries: the benchmark reads only sources, so they are left out)."""
    listing = _git(clone, "ls-tree", "-r", "-z", commit, "--", *paths).split(b"\0")
    entries = []  # (object id, path) of regular files; symlinks and submodules are not needed
    for line in filter(None, listing):
        meta, path = line.split(b"\t", 1)
        mode, kind, oid = meta.split()
        if kind == b"blob" and mode in (b"100644", b"100755"):
            entries.append((oid, path.decode()))
    batch = subprocess.run(["git", "-C", str(clone), "cat-file", "--batch"], check=True, capture_output=True,
                           input=b"".join(oid + b"\n" for oid, _ in entries)).stdout
    stream, missing = io.BytesIO(batch), 0
    for _, path in entries:
        header = stream.readline().split()
        if header[-1] == b"missing":
            missing += 1
            continue
        data = stream.read(int(header[2]))
        stream.read(1)  # the newline after each object
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return missing


def extract(clones: Path, root: Path, names: list[str]) -> None:
    suites = json.loads(MANIFEST.read_text())["suites"]
    for name in names or suites:
        s = suites[name]
        clone = _clone(clones, s["repo"])
        missing = _archive(clone, s["commit"], _paths(clone, s["commit"], s["paths"]), root / name)
        for where, ref in s.get("submodules", {}).items():
            repo, commit = ref.split("@")
            missing += _archive(_clone(clones, repo), commit, [], root / name / where)
        print(f"{name}: {s['repo']}@{s['commit']}" + (f" ({missing} blobs absent from the clone)" if missing else ""),
              flush=True)


def _process(root: Path, args: list[str], out: Path, corpus: bool) -> dict:
    cmd = [sys.executable, str(HERE / "analyzer_accuracy.py"), *([] if corpus else ["--real-only"]), *args,
           "--out", str(out)]
    log = out.with_suffix(".log")
    with log.open("w") as fh:
        rc = subprocess.run(cmd, cwd=root, stdout=fh, stderr=subprocess.STDOUT).returncode
    if rc:
        raise SystemExit(f"{' '.join(cmd)} failed (rc {rc}); see {log}")
    return json.loads(out.read_text())


def run(root: Path, out_dir: Path, results: list[str], jobs: int) -> None:
    runs = json.loads(MANIFEST.read_text())["runs"]
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = [(name, i, args) for name in results or runs for i, args in enumerate(runs[name])]
    with ThreadPoolExecutor(jobs) as pool:  # each process is single-threaded; the pool only waits
        docs = list(pool.map(lambda t: _process(root, t[2], out_dir / f"{Path(t[0]).stem}.part{t[1]}.json",
                                                t[0] == "analyzer_accuracy.json"), todo))
    for name in results or runs:
        parts = [d for (n, _, _), d in zip(todo, docs) if n == name]
        joined = dict(parts[0], results=[r for d in parts for r in d["results"]])
        (out_dir / name).write_text(json.dumps(joined, indent=2) + "\n")
        print(f"{name}: {len(parts)} process(es)", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("extract")
    ex.add_argument("--clones", type=Path, required=True)
    ex.add_argument("--into", type=Path, required=True)
    ex.add_argument("suites", nargs="*")
    rn = sub.add_parser("run")
    rn.add_argument("--root", type=Path, required=True)
    rn.add_argument("--out-dir", type=Path, required=True)
    rn.add_argument("--jobs", type=int, default=2)
    rn.add_argument("results", nargs="*")
    a = ap.parse_args(argv)
    if a.cmd == "extract":
        extract(a.clones, a.into, a.suites)
    else:
        run(a.root.resolve(), a.out_dir.resolve(), a.results, a.jobs)


if __name__ == "__main__":
    main()
