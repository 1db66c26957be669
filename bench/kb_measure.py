"""Verify and measure every knowledge-base kernel (kb/cutlass_examples) on a GPU with kopt itself, next to the best
library call (torch / cuBLAS / SDPA) on the same shapes.

Each example is checked on all of its task's shapes (fresh random inputs), then timed against the task's baseline at
the timed shapes by ``kopt bench`` (cold L2, interleaved; then steady state). The comparators (kopt.comparators: the
task's torch expression eager, i.e. the library call, an alternative for the GEMMs, and torch.compile max-autotune)
are timed by kopt.time like the example: CUPTI kernel records, L2 flushed, the same stopping rule. Results go to
bench/results/kb_examples.json; ``--apply FILE`` then writes each example's [measured] table from such a results file
(run it where the repository is, e.g. after the GPU run).

Usage (GPU machine, repo root):  python bench/kb_measure.py [--only a,b] [--max-time 2] [--compile-limit 600]
                                 [--out FILE]
                                 python bench/kb_measure.py --apply bench/results/kb_examples.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
import traceback
from pathlib import Path

import envelope

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "kb" / "cutlass_examples"


# A second library comparator where the task's own expression is not what most callers run: the GEMM with a bf16
# result (torch.matmul), the same math writing half the output bytes of the task's f32 C.
ALTERNATIVES = {"gemm_bf16": {"torch.matmul (bf16 out)": "torch.matmul(A, B)"},
                "gemm_bf16_aligned": {"torch.matmul (bf16 out)": "torch.matmul(A, B)"}}


_LIBRARY: dict[tuple, list[dict]] = {}  # (task, shape) -> comparator rows: examples of one task share one compile


def library(task, shape, options: dict, compile_limit: float) -> list[dict]:
    """The task's comparators on kopt's clock (kopt.comparators: eager library call, any alternative, torch.compile
    max-autotune), or one row saying why there are none. Measured once per task and shape in a run."""
    from kopt import comparators

    key = (task.name, repr(shape))
    if key not in _LIBRARY:
        why = comparators.unavailable(task)
        _LIBRARY[key] = [{"name": "eager", "error": why}] if why else comparators.run(
            task, shape, options=options, compile_limit=compile_limit, extra=ALTERNATIVES.get(task.name))
    return _LIBRARY[key]


def measure(example: Path, max_time: float, compile_limit: float, task_name: str | None = None) -> dict:
    from kopt.evaluation import bench
    from kopt.candidate import Candidate
    from kopt.task import Task

    meta = tomllib.loads(example.with_suffix(".toml").read_text())
    task = Task.load(ROOT / "bench" / "tasks" / (task_name or meta["task"]))
    cand = Candidate.load(example)
    row = {"example": example.stem, "task": task.name, "config": cand.default_config()}
    r = bench(task, example, baseline=task.baseline, options={"max_time": max_time})
    row["correct"] = r.candidate.correct
    row["ok"] = r.ok  # correct, timed, and no timing voided (implausible, caching results...)
    row["status"] = r.candidate.status
    row["shapes_checked"] = len(task.shapes)
    row["diagnostics"] = [d.to_dict() for d in (r.candidate.diagnostics + r.diagnostics)][:5]
    row["copy_gbps_measured"] = r.ceilings.get("copy_gbps")
    row["ceilings"] = r.ceilings
    row["shapes"] = []
    for sr, shape in zip(r.shapes, task.timed_shapes):
        c, b, cmp = sr.candidate, sr.baseline, sr.comparison
        entry = {"shape": sr.shape, "us": c.summary.median if c.summary else None,
                 "ci95_us": [c.summary.ci_low, c.summary.ci_high] if c.summary else None,
                 "cv": c.summary.cv if c.summary else None, "steady_us": c.steady_us, "steady_note": c.steady_note,
                 "method": c.method, "valid": c.valid, **c.figures,
                 "baseline_us": b.summary.median if b and b.summary else None,
                 "baseline_steady_us": b.steady_us if b else None,
                 "speedup_vs_baseline": cmp.speedup if cmp else None, "verdict": cmp.verdict if cmp else None,
                 "steady_verdict": sr.steady_comparison.verdict if sr.steady_comparison else None}
        if entry.get("gbps") and row["copy_gbps_measured"]:
            entry["pct_of_copy_bw"] = 100 * entry["gbps"] / row["copy_gbps_measured"]
        entry["comparators"] = []
        for lib in library(task, shape, {"max_time": max_time}, compile_limit):
            lib = {k: v for k, v in lib.items() if k != "samples_us"} | {
                "vs": comparators_speedup(c, lib)}
            entry["comparators"].append(lib)
        row["shapes"].append(entry)
    return row


def comparators_speedup(c, lib: dict) -> dict | None:
    """The example against one comparator (comparator median / example median, > 1: the example is faster), with the
    bootstrap CI and verdict of kopt.stats.compare on both sets of samples."""
    from kopt.comparators import speedups

    if not lib.get("samples_us") or not c.samples_us:
        return None
    [s] = speedups(c.samples_us, [lib])
    return s


def apply(results: Path) -> None:
    """Write each example's [measured] table from a results file."""
    doc = json.loads(results.read_text())
    for row in doc["results"]:
        path = EXAMPLES / f"{row['example']}.toml"
        if not path.exists() or "error" in row or not row.get("ok", row.get("correct")):
            continue  # only examples that passed and were timed validly get figures
        text = path.read_text()
        head = text[:text.index("[measured]")] if "[measured]" in text else text.rstrip() + "\n\n"
        date, commit = row.get("date", doc["date"])[:10], row.get("commit", doc["commit"])  # a re-run row has its own
        lines = ["[measured]", f"# kopt bench on the {doc['device'].get('name')} (driver "
                 f"{doc['device'].get('driver_version') or doc['device'].get('driver')}), {date}, "
                 f"commit {commit}: produced by bench/kb_measure.py, copied from bench/results/kb_examples.json",
                 f"date = \"{date}\"", f"commit = \"{commit}\"", f"gpu = \"{doc['device'].get('name')}\"",
                 f"correct = {str(row['correct']).lower()}",
                 f"config = {{ {', '.join(f'{k} = {v}' for k, v in row['config'].items())} }}"]
        if row.get("copy_gbps_measured"):
            lines.append(f"copy_gbps_measured = {row['copy_gbps_measured']:.0f}")
        for s in row["shapes"]:
            lines.append("")
            lines.append("[[measured.shapes]]")
            lines.append(f"shape = \"{s['shape']}\"")
            for key, fmt in (("us", "{:.2f}"), ("steady_us", "{:.2f}"), ("gbps", "{:.0f}"), ("tflops", "{:.1f}"),
                             ("pct_of_copy_bw", "{:.1f}"), ("pct_of_roofline", "{:.1f}"),
                             ("pct_of_roofline_cold", "{:.1f}"), ("pct_of_tensor_peak", "{:.1f}"),
                             ("baseline_us", "{:.2f}"), ("speedup_vs_baseline", "{:.2f}")):
                if s.get(key) is not None:
                    lines.append(f"{key} = {fmt.format(s[key])}")
            if s.get("ceiling"):
                lines.append(f"bandwidth_ceiling = {json.dumps(s['ceiling'])}")
            for lib in s.get("comparators", []):
                if lib.get("median_us"):
                    key = {"eager": "library", "torch.compile max-autotune": "torch_compile"}.get(lib["name"],
                                                                                              "library_alt")
                    lines.append(f"{key} = {json.dumps(lib.get('what', lib['name']))}")
                    lines.append(f"{key}_us = {lib['median_us']:.2f}")
                    if lib.get("vs"):
                        lines.append(f"vs_{key} = {lib['vs']['speedup']:.2f}")
        path.write_text(head + "\n".join(lines) + "\n")
        print(f"updated {path.relative_to(ROOT)}")


def merge(out: Path, parts: list[Path]) -> None:
    """Rows of partial runs replace the rows of the same examples in ``out``; each keeps its run's date and commit
    (later parts win)."""
    doc = json.loads(out.read_text())
    rows = {r["example"]: r for r in doc["results"]}
    for part in parts:
        p = json.loads(part.read_text())
        for r in p["results"]:
            rows[r["example"]] = r | {"date": p["date"], "commit": p["commit"]}
        doc.update({k: p[k] for k in ("date", "commit", "device", "method")})
    doc["results"] = [rows[k] for k in sorted(rows)]
    doc["note"] = ("merged from partial runs (kb_measure.py --merge): each row carries the date and commit of the run "
                   "that measured it")
    out.write_text(json.dumps(doc, indent=2) + "\n")


def table(results: Path) -> str:
    """The README's knowledge-base table: each example's largest timed shape, its share of the roofline floor (steady
    state) or of the tensor-core peak, and the speedup over each comparator (> 1: the example is faster)."""
    def x(v):
        return f"x{v:.2f}" if isinstance(v, (int, float)) else "-"

    out = ["| example | task | shape | µs (cold / steady) | % of floor | vs eager | vs torch.compile | vs baseline |",
           "|---|---|---|---|---|---|---|---|"]
    for row in json.loads(results.read_text())["results"]:
        if not row.get("shapes"):
            continue
        s = row["shapes"][0]
        vs = {lib["name"]: (lib.get("vs") or {}).get("speedup") for lib in s.get("comparators", [])}
        share = (f"{s['pct_of_tensor_peak']:.0f} % tensor peak" if s.get("pct_of_tensor_peak") is not None else
                 f"{s['pct_of_roofline']:.0f} % ({str(s.get('ceiling', '-')).split(' (')[0]})" if s.get("pct_of_roofline") else "-")
        out.append(f"| {row['example']} | {row['task']} | {s['shape']} | {s['us']:.1f} / {s.get('steady_us') or 0:.1f} "
                   f"| {share} | {x(vs.get('eager'))} | {x(vs.get('torch.compile max-autotune'))} "
                   f"| {x(s.get('speedup_vs_baseline'))} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--max-time", type=float, default=2.0)
    ap.add_argument("--compile-limit", type=float, default=600.0,
                    help="seconds torch.compile max-autotune may take per shape (compile and autotune)")
    ap.add_argument("--task", help="measure on this bench task instead of the example's own (a task of its family, "
                                   "e.g. attention_fwd_long; write to another --out)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "kb_examples.json"))
    ap.add_argument("--apply", type=Path)
    ap.add_argument("--merge", type=Path, nargs="+", metavar="PART",
                    help="results files of partial runs (--only) whose rows replace those of --out, each row keeping "
                         "its run's date and commit")
    ap.add_argument("--table", type=Path, metavar="RESULTS", help="print a results file as the README's table")
    args = ap.parse_args()
    if args.table:
        print(table(args.table))
        return
    if args.apply:
        apply(args.apply)
        return
    if args.merge:
        merge(Path(args.out), args.merge)
        return
    only = {x for x in args.only.split(",") if x}
    rows = []
    device = envelope.gpu_device()
    for ex in sorted(EXAMPLES.glob("*.cu")):
        if only and ex.stem not in only:
            continue
        print(f"== {ex.stem}", flush=True)
        t0 = time.perf_counter()
        try:
            rows.append(measure(ex, args.max_time, args.compile_limit, args.task))
        except Exception as exc:
            rows.append({"example": ex.stem, "error": f"{type(exc).__name__}: {exc}",
                         "traceback": traceback.format_exc()[-2000:]})
        r = rows[-1]
        r["wall_s"] = round(time.perf_counter() - t0, 1)
        print(f"   {r['wall_s']} s", flush=True)
        x = lambda v, fmt: format(v, fmt) if isinstance(v, (int, float)) else "-"  # noqa: E731
        for s in r.get("shapes", []):
            libs = ", ".join(f"x{x(lib['vs']['speedup'], '.2f')} vs {lib['name']}"
                             + (f" ({lib['backend']})" if lib.get("backend") else "") if lib.get("vs") else
                             f"{lib['name']}: {lib.get('error', '-')}"[:120] for lib in s.get("comparators", []))
            print(f"   {s['shape']}: {x(s['us'], '.2f')} us cold, {x(s.get('steady_us'), '.2f')} us steady,"
                  f" {x(s.get('pct_of_roofline'), '.1f')} % roofline ({s.get('basis', '-')}, {s.get('ceiling', '-')}),"
                  f" {x(s.get('pct_of_tensor_peak'), '.1f')} % tensor peak,"
                  f" x{x(s.get('speedup_vs_baseline'), '.2f')} vs baseline; {libs}", flush=True)
        if "error" in r or not r.get("correct"):
            print(f"   FAILED: {r.get('error') or r.get('status')} {r.get('diagnostics', '')}"[:1500], flush=True)
        # written after every example, so a run cut short keeps what it measured
        envelope.write(args.out, "kb_examples", "kopt bench (check on every task shape, then cold interleaved timing "
                       "vs the task baseline, then steady-state batches); comparators (the task's torch expression "
                       "eager, alternatives, torch.compile max-autotune) timed by kopt.time like the candidate: "
                       "CUPTI kernel records, L2 flushed, the same stopping rule", rows, device)


if __name__ == "__main__":
    sys.exit(main())
