"""Analyzer accuracy and completeness: the labeled corpus, and (separately) real kernels from public repositories.

Usage:
  python bench/analyzer_accuracy.py [--out bench/results/analyzer_accuracy.json]
      [--real DIR --provenance OWNER/REPO@COMMIT [--include DIR] [--review bench/analyzer_real_review.json]
       [--skip RELPATH] [--only GLOB]]... [--real-only]
  python bench/analyzer_accuracy.py --rescore   # apply the review file to the recorded results

The recorded figures: bench/analyzer_suites.json names each suite (a public repository at a commit, the paths read)
and the processes, with their --real, --provenance and --include arguments, behind each results file;
bench/analyzer_suites.py extracts the suites and reruns them. The labeled corpus runs in the process that writes
analyzer_accuracy.json.

Definitions (issue 23):
- Race and divergence families: race.*, sync.missing, warp.implicit-sync, barrier.divergent. A true positive is an
  expected rule reported for its file (the corpus labels name rules per file, not lines); a false positive is a
  reported rule of those families the file does not expect.
- False alarm: a file whose labels expect no race, barrier or bounds rule, with any error or warning of those
  families. Performance rules (bank conflicts, coalescing) are excluded. Real kernels carry no labels: a finding
  reviewed false is a false alarm, counted per kernel (the issue's definition: the kernel whose analysis reported
  it, from the finding's witness) and, stricter, per file.
- Analyzed completely: every kernel was read by libclang, no `analysis.incomplete` note, and the launch geometry
  is known (labeled corpus: per file; real kernels: per kernel, a note counting against the kernel it names, or
  against every kernel of the file when it names none) (an annotation, --block, __launch_bounds__, or the constant
  blocks of its launches in host code: the file's own, or a file of its folder that launches it; not a block
  presumed from the kernel's own names, ``presumed_block``); a kernel also
  launched with a block kopt cannot evaluate is analyzed for those launches as for an unknown block. A kernel whose
  block is not known (a run-time value, or no launch found) counts as known geometry only when its race, barrier and
  bounds checks were decided for every block it allows (the launch's ``all_blocks``; no block bound inferred from its
  arrays, no check left to concrete block shapes); their number is reported (``of_which_decided_for_every_block``).
Real kernels are read from DIR (outside the repository) at benchmark time; every flagged finding is looked up in
the review file ("relative/path.cu:LINE:RULE", or "...:RULE@KERNEL" for one kernel's finding at a header line
several kernels reach, either prefixed "OWNER/REPO:" where two suites share relative paths, -> {"verdict": "true" |
"false", "why": ...}) and unreviewed ones
are counted as such. Real code declares no launch to kopt (some blocks are read from its own launches), so its
completeness is reported with and without the geometry condition.
"""
from __future__ import annotations

import _thread
import argparse
import json
import re
import signal
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from analyzer_labels import corpus_files, observed, parse_labels  # noqa: E402

import envelope  # noqa: E402
from kopt.annotations import split_kernel  # noqa: E402
from kopt.errors import KoptError  # noqa: E402

import analyzers  # noqa: E402
from analyzers import solver  # noqa: E402
import kopt  # noqa: E402

envelope.require_this_tree(kopt, analyzers)

FAMILIES = ("race", "barrier", "bounds")  # the families a false alarm is counted in (kopt.rules families)
RACE_DIV = ("race.", "sync.missing", "warp.implicit-sync", "barrier.")


def _family(rule: str) -> str | None:
    from kopt.rules import RULES

    try:
        return RULES[rule].family
    except KeyError:
        return None


def _race_div(rule: str) -> bool:
    return rule.startswith(RACE_DIV)


def _elsewhere(d, analyzed: Path, folder: Path) -> str | None:
    """Where a finding is when its line is in another file than the one analyzed (a header's helper inlined into
    the kernel): that file (relative to the suite's folder when inside it) and line. Keys keep the analyzed file, so
    a header line reached from two files is reviewed once per file."""
    loc = d.locations[0] if d.locations else None
    if loc is None or not loc.file or Path(loc.file).resolve() == analyzed.resolve():
        return None
    p = Path(loc.file).resolve()
    return f"{p.relative_to(folder.resolve()) if p.is_relative_to(folder.resolve()) else p.name}:{loc.line}"


def _flags(res) -> list:
    """Errors and warnings of the race, barrier and bounds families."""
    return [d for d in res.diagnostics if d.severity.value in ("error", "warning") and
            (_family(d.rule) in FAMILIES or d.rule.startswith(("race.", "sync.", "bounds.", "barrier.")))]


def _parsed(res) -> bool:
    return bool(res.kernels) and all(p.startswith("libclang") for p in res.paths.values()) and not any(
        d.rule == "analysis.incomplete" for d in res.diagnostics)


def _launch_known(l) -> bool:
    """A launch configuration whose geometry counts as known: a constant block from an annotation, --block,
    __launch_bounds__ or a host launch (a kernel's host launches with a runtime block are a configuration of their
    own); or an unknown block whose race, barrier and bounds checks were decided for every block it allows
    (``all_blocks``: the verdict holds whatever block the program picks). A block dimension presumed from the
    kernel's own names (``presumed_block``) is not known."""
    return bool(l["block"] and None not in l["block"] and l["source"] in ("annotation", "cli", "host", "launch_bounds")
                and not l.get("presumed_block") or l.get("all_blocks"))


def _geometry_known(res) -> bool:
    return bool(res.launches) and all(_launch_known(l) for l in res.launches)


_NAMED = re.compile(r"analysis incomplete: (?:in )?`([^`]+)`")


def _complete_kernels(res) -> tuple[set, set]:
    """(kernels parsed completely, kernels analyzed completely) of one file's result, per issue 23's per-kernel
    definition: read by libclang, no ``analysis.incomplete`` note that names the kernel or the whole file, and
    (the second set) every launch configuration of the kernel with a known block."""
    file_wide = False
    named = set()
    for d in res.diagnostics:
        if d.rule != "analysis.incomplete":
            continue
        m = _NAMED.match(d.message)
        if m and m.group(1) in res.kernels:
            named.add(m.group(1))
        else:
            file_wide = True
    parsed = set() if file_wide else {k for k in res.kernels if res.paths.get(k, "").startswith("libclang") and
                                      k not in named}
    by_kernel: dict = {}
    for launch in res.launches:
        by_kernel.setdefault(split_kernel(launch["kernel"])[0].split("::")[-1], []).append(launch)
    geo = {k for k in parsed if by_kernel.get(k) and all(_launch_known(l) for l in by_kernel[k])}
    return parsed, geo


def _every_block(res, kernels) -> set:
    """Of ``kernels``, those counted complete through a verdict decided for every block (no constant block)."""
    by_kernel: dict = {}
    for launch in res.launches:
        by_kernel.setdefault(split_kernel(launch["kernel"])[0].split("::")[-1], []).append(launch)
    return {k for k in kernels if any(l.get("all_blocks") for l in by_kernel.get(k, ()))}


def _pct(xs, q):
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def _speed(ms: list[float]) -> dict:
    return {"median_ms": round(statistics.median(ms), 1), "p90_ms": round(_pct(ms, 0.9), 1),
            "max_ms": round(max(ms), 1)} if ms else {}


def labeled(analyze) -> dict:
    tp = fp = fn = 0
    clean = alarms = complete = 0
    misses, extras, alarm_files, incomplete, ms = [], [], [], [], []
    files = corpus_files()
    for f in files:
        expected = parse_labels(f.read_text())
        t = time.perf_counter()
        res = analyze(f)
        ms.append((time.perf_counter() - t) * 1e3)
        got = observed(res)
        for rule in {r for r in expected if _race_div(r)} | {r for r in got if _race_div(r)}:
            if rule in expected and rule in got:
                tp += 1
            elif rule in expected:
                fn += 1
                misses.append(f"{f.name}: {rule}")
            else:
                fp += 1
                extras.append(f"{f.name}: {rule}")
        if not any(_family(r) in FAMILIES for r in expected):
            clean += 1
            if _flags(res):
                alarms += 1
                alarm_files.append(f"{f.name}: {sorted({d.rule for d in _flags(res)})}")
        if _parsed(res) and _geometry_known(res):
            complete += 1
        else:
            incomplete.append(f.name)
    return {"files": len(files), "race_divergence": {
        "recall": round(tp / (tp + fn), 3) if tp + fn else None,
        "precision": round(tp / (tp + fp), 3) if tp + fp else None, "tp": tp, "fp": fp, "fn": fn,
        "missed": misses, "unexpected": extras},
        "false_alarms": {"rate": round(alarms / clean, 3) if clean else None, "clean_files": clean,
                         "files_with_alarm": alarms, "which": alarm_files},
        "analyzed_completely": {"rate": round(complete / len(files), 3), "not": incomplete},
        "speed_single_run": _speed(ms)}


STOP_S = 20.0  # the benchmark's own deadline per file (see _Deadline)
STOP_PER_KERNEL_S = 1.0  # and per kernel the file defines (a file of 139 kernels is not one of 3)
ABANDON_S = 120.0  # after the deadline, how long an analysis that does not return is waited for (see _Deadline)


def _globals_in(path: Path) -> int:
    try:
        return path.read_text(errors="replace").count("__global__")
    except OSError:
        return 0


class _Deadline:
    """Interrupts the solver once a file has run STOP_S seconds (and STOP_PER_KERNEL_S per `__global__` in its
    text), and every second after, until the analysis returns.

    The analyzers bound each query by resource units only (deterministic); should z3 still spend a long time
    between its resource checks, the benchmark must finish, so it stops such files and records them as stopped
    (not analyzed completely, time > STOP_S). Should the analysis still not return ABANDON_S later (time spent
    outside the solver), the main thread is interrupted and the file recorded as one that did not finish. This is
    the benchmark's guard, not the analyzer's."""

    def __init__(self, seconds: float = STOP_S):
        self.fired = False
        self.abandoned = False
        self.timer = None
        self.seconds = seconds
        self.waited = 0.0
        # _fire runs on the timer's thread: without the lock and the flag, a firing under way while the file's
        # analysis returned armed the next timer after __exit__ had cancelled the last, and it went on interrupting
        # every later file's queries once a second (found by tests failing in the full run only)
        self.lock = threading.Lock()
        self.done = False

    def _fire(self):
        with self.lock:
            if self.done:
                return
            self.fired = True
            solver.interrupt()
            if self.waited >= ABANDON_S and not self.abandoned:
                self.abandoned = True
                _thread.interrupt_main()  # (a KeyboardInterrupt in the analysis, which ``real`` catches)
            self.waited += 1.0
            self.timer = threading.Timer(1.0, self._fire)
            self.timer.start()

    def __enter__(self):
        # (a process started in the background ignores SIGINT, which interrupt_main raises: handled while it runs)
        self.handler = signal.signal(signal.SIGINT, signal.default_int_handler)
        self.timer = threading.Timer(self.seconds, self._fire)
        self.timer.start()
        return self

    def __exit__(self, *exc):
        with self.lock:
            self.done = True
            self.timer.cancel()
        if self.fired:
            # an interrupt leaves its z3 context cancelled for good: the next file's first z3 work (before its
            # first kernel's own context) must not run there
            solver.fresh_context()
        signal.signal(signal.SIGINT, self.handler)


# the CUDA source files of a suite: `.cuknl` is the UK-MAC mini-apps' kernel files, included by their `.cu` drivers;
# `.cu.cc` is the TensorFlow-style name of a CUDA file
_CUDA_EXTENSIONS = (".cu", ".cuh", ".cuknl", ".cu.cc")


def real(analyze, folder: Path, provenance: str, include: list[str], review: dict, skip=(), only=()) -> dict:
    files = sorted(p for ext in _CUDA_EXTENSIONS for p in folder.rglob(f"*{ext}"))
    if only:
        files = [f for f in files if any(f.relative_to(folder).match(g) for g in only)]
    skipped = [str(f.relative_to(folder)) for f in files if str(f.relative_to(folder)) in skip]
    files = [f for f in files if str(f.relative_to(folder)) not in skip]
    rows, ms = [], []
    kernels = parsed = geo = stopped = every = 0
    flagged_files = false_files = unreviewed = 0
    for f in files:
        rel = str(f.relative_to(folder))
        print(f"{rel} ...", end="", file=sys.stderr, flush=True)  # progress: long suites take minutes
        t = time.perf_counter()
        deadline = _Deadline(STOP_S + STOP_PER_KERNEL_S * _globals_in(f))
        try:
            with deadline:
                res = analyze(f, include_dirs=include)
        except KoptError as exc:  # kopt refused the file (not text, say): the row says why, the suite goes on
            print(f" refused: {exc}", file=sys.stderr, flush=True)
            rows.append({"file": rel, "kernels": 0, "refused": str(exc)})
            continue
        except KeyboardInterrupt:
            if not deadline.abandoned:
                raise
            print(" did not finish", file=sys.stderr, flush=True)  # listed like a --skip file, not counted
            skipped.append(rel)
            continue
        ms.append((time.perf_counter() - t) * 1e3)
        stopped += deadline.fired
        print(f" {ms[-1]:.0f} ms" + (" (stopped)" if deadline.fired else ""), file=sys.stderr, flush=True)
        n = len(res.kernels)
        kernels += n
        ok, ok_geo = _complete_kernels(res) if not deadline.fired else (set(), set())
        parsed += len(ok)
        geo += len(ok_geo)
        every += len(_every_block(res, ok_geo))
        findings = []
        for d in _flags(res):
            key = f"{rel}:{d.locations[0].line if d.locations else 0}:{d.rule}"
            r = _reviewed(review, key, (d.witness or {}).get("kernel"), provenance)
            if r is None:
                unreviewed += 1
            at = _elsewhere(d, f, folder)
            findings.append({"key": key, "kernel": (d.witness or {}).get("kernel"), "severity": d.severity.value,
                             **({"at": at} if at else {}), "message": d.message[:300],
                             "verdict": r["verdict"] if r else "unreviewed", "why": r["why"] if r else ""})
        if findings:
            flagged_files += 1
            false_files += any(x["verdict"] == "false" for x in findings)
        rows.append({"file": rel, "kernels": n, "kernel_names": res.kernels, "paths": res.paths, "ms": round(ms[-1], 1),
                     "not_analyzed_completely": sorted(set(res.kernels) - ok_geo),
                     "launches": [{k: v for k, v in l.items() if k in ("kernel", "block", "source", "all_blocks")}
                                  for l in res.launches],
                     "stopped_by_benchmark_deadline": deadline.fired, "findings": findings,
                     "assumed": res.assumed.split("\n") if res.assumed else [],
                     "incomplete": [d.message[:200] for d in res.diagnostics if d.rule == "analysis.incomplete"]})
    analyzed_files = sum(1 for r in rows if r["kernels"])
    return {"source": provenance, "files": len(files), "skipped_files_that_did_not_finish": skipped,
            "files_refused": [r["file"] for r in rows if "refused" in r], "files_with_kernels": analyzed_files, "kernels": kernels,
            "parsed_completely": round(parsed / kernels, 3) if kernels else None,
            "analyzed_completely_with_geometry": round(geo / kernels, 3) if kernels else None,
            "of_which_decided_for_every_block": every,
            "flagged_files": flagged_files, "files_with_false_alarm": false_files,
            "false_alarm_rate": round(false_files / analyzed_files, 3) if analyzed_files else None,
            "unreviewed_findings": unreviewed, "speed_single_run_per_file": _speed(ms),
            "files_stopped_at_deadline_s": {"deadline_s": STOP_S, "plus_per_kernel_s": STOP_PER_KERNEL_S,
                                            "files": stopped}, "rows": rows}


def _reviewed(review: dict, key: str, kernel, provenance: str) -> dict | None:
    """The review of a finding: one for its kernel (``KEY@KERNEL``) first, for a line of a header that several
    kernels reach with different verdicts, else the line's; each first under its repository (``OWNER/REPO:KEY``,
    for suites whose relative paths coincide), else under the path alone."""
    repo = provenance.split("@")[0]
    return next((review[k] for k in (f"{repo}:{key}@{kernel}", f"{repo}:{key}", f"{key}@{kernel}", key)
                 if k in review), None)


def rescore(suite: dict, review: dict) -> dict:
    """Apply the review file to a real-kernel suite's recorded findings (reviews are written after a run)."""
    flagged = false = unreviewed = 0
    for row in suite["rows"]:
        for f in row.get("findings", ()):
            r = _reviewed(review, f["key"], f.get("kernel"), suite["source"])
            f["verdict"], f["why"] = (r["verdict"], r["why"]) if r else ("unreviewed", "")
            unreviewed += r is None
        if row.get("findings"):
            flagged += 1
            false += any(f["verdict"] == "false" for f in row["findings"])
    # the definition is per kernel: a kernel whose analysis gave a finding reviewed false (a finding in a
    # device function counts for each kernel whose analysis reported it)
    false_kernels = {(r["file"], f.get("kernel")) for r in suite["rows"] for f in r.get("findings", ())
                     if f["verdict"] == "false"}
    suite.update(kernels_with_false_alarm=len(false_kernels),
                 false_alarm_rate_per_kernel=round(len(false_kernels) / suite["kernels"], 3) if suite["kernels"] else None)
    suite.update(flagged_files=flagged, files_with_false_alarm=false, unreviewed_findings=unreviewed,
                 reviewed_false_findings=sum(f["verdict"] == "false" for r in suite["rows"] for f in r.get("findings", ())),
                 reviewed_true_findings=sum(f["verdict"] == "true" for r in suite["rows"] for f in r.get("findings", ())),
                 false_alarm_rate=round(false / suite["files_with_kernels"], 3) if suite["files_with_kernels"] else None,
                 false_alarm_rate_note="false_alarm_rate: files with a finding reviewed false / files with kernels; "
                                       "false_alarm_rate_per_kernel (issue 23's definition): kernels with a finding "
                                       "reviewed false / kernels; unreviewed findings are not counted either way")
    return suite


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "analyzer_accuracy.json"))
    ap.add_argument("--real", action="append", default=[], help="folder of real .cu files (outside the repo)")
    ap.add_argument("--provenance", action="append", default=[], help="OWNER/REPO@COMMIT, one per --real")
    ap.add_argument("--include", action="append", default=[], help="header folder for the real kernels")
    ap.add_argument("--review", default=str(ROOT / "bench" / "analyzer_real_review.json"))
    ap.add_argument("--rescore", action="store_true", help="apply --review to the results in --out and rewrite it")
    ap.add_argument("--skip", action="append", default=[], help="a real file (relative to its folder) to leave "
                    "out because the analysis did not finish in an earlier run; listed in the results")
    ap.add_argument("--only", action="append", default=[], help="analyze only the real files matching this glob "
                    "(relative to the folder; repeatable), for a quick look while iterating")
    ap.add_argument("--real-only", action="store_true", help="leave out the labeled corpus")
    args = ap.parse_args(argv)
    if len(args.provenance) != len(args.real):
        ap.error("give one --provenance per --real")
    from kopt.analyze import analyze

    review = json.loads(Path(args.review).read_text()) if Path(args.review).is_file() else {}
    if args.rescore:
        doc = json.loads(Path(args.out).read_text())
        doc["results"] = [rescore(r, review) if r["suite"] == "real kernels" else r for r in doc["results"]]
        Path(args.out).write_text(json.dumps(doc, indent=2) + "\n")
        return
    results = [] if args.real_only else [{"suite": "labeled corpus (tests/analyzers/corpus)", **labeled(analyze)}]
    for folder, prov in zip(args.real, args.provenance):
        results.append(rescore({"suite": "real kernels", **real(analyze, Path(folder), prov, args.include, review,
                                                                  set(args.skip), args.only)}, review))
    envelope.write(args.out, "analyzer_accuracy",
                   "kopt.analyze over each file once, in one process; figures per issue 23's definitions (see "
                   "bench/analyzer_accuracy.py). The machine is shared with other work, so times are pessimistic.",
                   results, envelope.cpu_device())
    for r in results:
        print(json.dumps({k: v for k, v in r.items() if k != "rows"}, indent=1)[:3000])


if __name__ == "__main__":
    main()
