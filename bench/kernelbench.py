"""KernelBench problems as kopt tasks: how many give a task that `kopt validate` accepts (CPU), and, on a GPU, whether
the naive candidates in bench/kernelbench/ run correct under kopt's tolerances and under KernelBench's
(atol = rtol = 1e-2).

The problems are third-party data read from a KernelBench checkout (not part of this repository):
    python bench/kernelbench.py validate --problems KernelBench/level1 --tasks /tmp/kb_tasks --out results.json
    python bench/kernelbench.py run --problems KernelBench/level1 --tasks /tmp/kb_tasks --out results.json  (GPU)
    python bench/kernelbench.py merge --out results.json part1.json part2.json  (device calls run parts; the newest
                                                                              part's row wins, each row keeps its commit)
A candidate bench/kernelbench/NAME.cu runs against problem NAME.py.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CANDIDATES = HERE / "kernelbench"
KB_TOLERANCE = '\ntolerance = { f32 = { rtol = 1e-2, atol = 1e-2, l2 = 1.0 }, f16 = { rtol = 1e-2, atol = 1e-2, l2 = 1.0 }, ' \
               'bf16 = { rtol = 1e-2, atol = 1e-2, l2 = 1.0 } }\n'


def kopt(*args, timeout=900) -> tuple[int, dict | None, str]:
    """(exit code, the --json document or None, stderr's last line)."""
    try:
        p = subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args), "--json"], capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, None, f"timed out after {timeout} s"
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return p.returncode, doc, (p.stderr.strip().splitlines() or [""])[-1]


def problems(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.py"), key=lambda p: int(re.match(r"\d+", p.name).group()))


def task_dir(tasks: Path, problem: Path) -> Path:
    return tasks / problem.stem


def validate(args) -> dict:
    rows = []
    for problem in problems(args.problems):
        t0 = time.perf_counter()
        folder = task_dir(args.tasks, problem)
        row = {"problem": problem.stem}
        if not (folder / "task.toml").exists():
            rc, doc, err = kopt("task", "new", "--from-torch", problem, "--out", folder)
            if rc != 0:
                rows.append({**row, "ok": False, "stage": "task new", "reason": err})
                continue
        rc, doc, err = kopt("validate", folder, "--reference-timeout", str(args.reference_timeout))
        ok = rc == 0 and doc is not None and doc["ok"]
        reason = None if ok else (doc["problems"][0]["rule"] + ": " + doc["problems"][0]["message"][:200]
                                  if doc and doc.get("problems") else err)
        rows.append({**row, "ok": ok, "stage": "validate", "reason": reason,
                     "seconds": round(time.perf_counter() - t0, 1)})
        print(f"{problem.stem:70s} {'ok' if ok else 'FAILED: ' + str(reason)[:100]}", flush=True)
    return {"validated": sum(r["ok"] for r in rows), "problems": len(rows), "rows": rows}


def run(args) -> dict:
    rows = []
    for cand in sorted(CANDIDATES.glob("*.cu")):
        if args.only and not any(cand.stem.startswith(p) for p in args.only.split(",")):
            continue
        problem = args.problems / f"{cand.stem}.py"
        folder = task_dir(args.tasks, problem)
        row = {"problem": cand.stem, "kind": kind_of(cand)}
        if not (folder / "task.toml").exists():
            rc, _, err = kopt("task", "new", "--from-torch", problem, "--out", folder)
            if rc != 0:
                rows.append({**row, "kopt_tolerance": False, "kernelbench_tolerance": False, "status": err})
                continue
        t0 = time.perf_counter()
        rc, doc, err = kopt("run", folder, cand)
        row.update(kopt_tolerance=rc == 0, status=doc["status"] if doc else err,
                   seconds=round(time.perf_counter() - t0, 1))
        if doc:
            row["shapes"] = [s["shape"] for s in doc.get("shapes", [])]
            row["diagnostics"] = [d["rule"] + ": " + d["message"][:160] for d in doc["diagnostics"]][:3]
        if rc == 0:
            # kopt's bound (atol 1e-5 + rtol 1e-4 against a float64 reference, for f32) lies inside KernelBench's
            # allclose(atol=rtol=1e-2) against the problem's own precision: a pass under kopt is one under KernelBench
            row["kernelbench_tolerance"] = True
            row["kernelbench_tolerance_how"] = "implied by the kopt pass"
        else:  # measured: the same task with KernelBench's tolerances
            loose = folder.parent / f"{folder.name}__kb_tolerance"
            if not loose.exists():
                loose.mkdir()
                (loose / "reference.py").write_bytes((folder / "reference.py").read_bytes())
                text = (folder / "task.toml").read_text()
                (loose / "task.toml").write_text(text.replace("\nargs = [", KB_TOLERANCE + "args = [", 1))
            rc2, _, _ = kopt("run", loose, cand)
            row["kernelbench_tolerance"] = rc2 == 0
            row["kernelbench_tolerance_how"] = "run with KernelBench's tolerances"
        rows.append(row)
        print(f"{cand.stem:70s} kopt {'ok' if row['kopt_tolerance'] else 'FAILED'}; kernelbench "
              f"{'ok' if row['kernelbench_tolerance'] else 'FAILED'} ({row.get('seconds')} s) {row['status']}",
              flush=True)
    if args.append and args.out.is_file():  # a second device call adds its rows to the first one's
        earlier = json.loads(args.out.read_text())["results"][0]["rows"]
        rows = [r for r in earlier if r["problem"] not in {x["problem"] for x in rows}] + rows
    return summary(rows)


def merge(parts: list[Path]) -> tuple[dict, dict]:
    """The rows of several run documents (oldest first), each tagged with its run's commit and date; the device of
    the newest."""
    rows: dict[str, dict] = {}
    for part in parts:
        doc = json.loads(part.read_text())
        for r in doc["results"][0]["rows"]:
            rows[r["problem"]] = {**r, "commit": r.get("commit", doc["commit"]), "date": r.get("date", doc["date"])}
    return summary(list(rows.values())), doc["device"]


def summary(rows: list[dict]) -> dict:
    by_kind: dict[str, int] = {}
    for r in rows:
        by_kind[r["kind"]] = by_kind.get(r["kind"], 0) + bool(r["kopt_tolerance"])
    return {"kopt_tolerance": sum(bool(r["kopt_tolerance"]) for r in rows),
            "kernelbench_tolerance": sum(bool(r["kernelbench_tolerance"]) for r in rows), "candidates": len(rows),
            "correct_by_kind": by_kind, "rows": sorted(rows, key=lambda r: int(re.match(r"\d+", r["problem"]).group()))}


def kind_of(candidate: Path) -> str:
    m = re.search(r"//\s*kind:\s*(\w+)", candidate.read_text())
    return m.group(1) if m else "?"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["validate", "run", "merge"])
    ap.add_argument("parts", nargs="*", type=Path, help="merge: run documents, oldest first")
    ap.add_argument("--problems", type=Path, help="KernelBench's level folder")
    ap.add_argument("--tasks", type=Path, help="where the task folders go (outside the repo)")
    ap.add_argument("--reference-timeout", type=float, default=300.0)
    ap.add_argument("--corpus-commit", default="", help="the KernelBench commit, for the record")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", default="", help="run: only candidates whose names start with one of these (a,b,...)")
    ap.add_argument("--append", action="store_true", help="run: merge into the rows already in --out")
    args = ap.parse_intermixed_args(argv)
    sys.path.insert(0, str(HERE))
    import envelope

    if args.what == "merge":
        if not args.parts:
            ap.error("merge needs the run documents")
        results, device = merge(args.parts)
        first = json.loads(args.parts[0].read_text())
        envelope.write(args.out, "kernelbench_run", first["method"] + " (merged from several device calls; each row "
                       "names its commit)", [{**{k: v for k, v in first["results"][0].items() if k in
                                                 ("corpus", "commit", "level")}, **results}], device)
        return 0
    if args.problems is None or args.tasks is None:
        ap.error("validate and run need --problems and --tasks")
    args.tasks.mkdir(parents=True, exist_ok=True)
    results = validate(args) if args.what == "validate" else run(args)
    device = envelope.cpu_device() if args.what == "validate" else envelope.gpu_device()
    envelope.write(args.out, f"kernelbench_{args.what}", f"kopt task new --from-torch, then kopt {args.what} --json, "
                   f"per problem of {args.problems.name}",
                   [{"corpus": "ScalingIntelligence/KernelBench", "commit": args.corpus_commit,
                     "level": args.problems.name, **results}], device)
    return 0


if __name__ == "__main__":
    sys.exit(main())
