"""The README's table of issue 23's figures, written from the results files (no figure copied by hand).

    python bench/analyzer_table.py            # print the table (markdown)
    python bench/analyzer_table.py --readme   # replace the table in README.md

One column for the labeled corpus, then one per results file of real code (its suites named; a file of several
suites gives their joint figure, each suite's in parentheses), in the order of ``GROUPS``. A suite's first run (the
``*_first_run.json`` beside it, when kept) is named beside its latest figure.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
# results files of real code, in the order the suites were first run
GROUPS = ["analyzer_accuracy.json", "analyzer_accuracy_shoc.json", "analyzer_accuracy_hecbench.json",
          "analyzer_accuracy_hecbench_dev.json", "analyzer_accuracy_hecbench_heldout.json",
          "analyzer_accuracy_hecbench_heldout2.json", "analyzer_accuracy_hecbench_dev2.json",
          "analyzer_accuracy_hecbench_heldout3.json", "analyzer_accuracy_hecbench_heldout4.json",
          "analyzer_accuracy_hecbench_heldout5.json", *(f"analyzer_accuracy_heldout{i}.json" for i in range(6, 44))]
_SAMPLES = {"analyzer_accuracy_hecbench.json": "first sample",
            "analyzer_accuracy_hecbench_dev.json": "development sample",
            "analyzer_accuracy_hecbench_heldout.json": "second sample",
            "analyzer_accuracy_hecbench_heldout2.json": "third sample",
            "analyzer_accuracy_hecbench_dev2.json": "second development sample",
            "analyzer_accuracy_hecbench_heldout3.json": "fourth sample",
            "analyzer_accuracy_hecbench_heldout4.json": "fifth sample",
            "analyzer_accuracy_hecbench_heldout5.json": "held-out sample"}
_START, _END = "<!-- analyzer table: bench/analyzer_table.py -->", "<!-- end of analyzer table -->"


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f} %".replace(".0 %", " %")


def _real(results: list) -> list:
    return [s for s in results if "rows" in s]


def _first_runs(name: str) -> dict:
    p = RESULTS / name.replace(".json", "_first_run.json")
    return {s["source"]: s for s in _real(json.loads(p.read_text())["results"])} if p.exists() else {}


def _joint(suites: list) -> tuple:
    kernels = sum(s["kernels"] for s in suites)
    false = sum(s.get("kernels_with_false_alarm", 0) for s in suites)
    complete = sum(round(s["analyzed_completely_with_geometry"] * s["kernels"]) for s in suites if s["kernels"])
    return kernels, false, complete


def columns() -> list[dict]:
    acc = json.loads((RESULTS / "analyzer_accuracy.json").read_text())
    lab = next(s for s in acc["results"] if "rows" not in s)
    speed = json.loads((RESULTS / "analyzer_speed.json").read_text())
    sp = speed["results"][0]["summary"]
    rd, fa = lab["race_divergence"], lab["false_alarms"]
    cols = [{"head": f"labeled corpus ({lab['files']} files written for kopt)",
             "recall": f"{rd['recall']:.2f} / {rd['precision']:.2f} ({rd['tp']} of {rd['tp'] + rd['fn']}, "
                       f"{rd['fp']} false positive{'' if rd['fp'] == 1 else 's'})",
             "false": f"{_pct(fa['rate'])} ({fa['files_with_alarm']} of {fa['clean_files']} clean files)",
             "complete": _pct(lab["analyzed_completely"]["rate"]),
             "time": f"**{sp['median_ms']:.1f} / {sp['p90_ms']:.1f} / {sp['max_ms']:.0f} ms** per kernel "
                     f"(`analyzer_speed.py`, at {speed['commit']})"}]
    for name in GROUPS:
        p, only_first = RESULTS / name, False
        if not p.exists():  # a suite kept as its first run only
            p, only_first = RESULTS / name.replace(".json", "_first_run.json"), True
            if not p.exists():
                continue
        data = json.loads(p.read_text())
        suites = [s for s in _real(data["results"]) if s["kernels"]]
        if not suites:
            continue
        first = {} if only_first else _first_runs(name)
        kernels, false, complete = _joint(suites)
        files = sum(s["files_with_kernels"] for s in suites)
        head = "; ".join(f"{s['source'].replace('@', ' @ ')}" + (f", {_SAMPLES[name]}" if name in _SAMPLES else "") +
                         f" ({s['files_with_kernels']} files, {s['kernels']} kernels)" for s in suites) + (
            f" (first run only, at {data.get('commit')})" if only_first else "")
        each = len(suites) > 1

        def per(s, key):
            f = first.get(s["source"])
            mine = _pct(s.get("false_alarm_rate_per_kernel") if key == "false" else
                        s["analyzed_completely_with_geometry"])
            then = None if f is None else _pct(f.get("false_alarm_rate_per_kernel") if key == "false" else
                                                f["analyzed_completely_with_geometry"])
            return mine + (f", first run {then}" if then is not None and then != mine else "")

        true_n = sum(s.get("reviewed_true_findings", 0) for s in suites)
        false_n = sum(s.get("reviewed_false_findings", 0) for s in suites)
        fkernels, ffalse, fcomplete = _joint(list(first.values())) if first else (None, None, None)
        first_false = f"; first run {_pct(ffalse / fkernels)}" if first and fkernels else ""
        first_complete = f" (first run {_pct(fcomplete / fkernels)})" if first and fkernels else ""
        ms = [r["ms"] for s in suites for r in s["rows"] if "ms" in r]
        cols.append({
            "head": head,
            "recall": "not labeled",
            "false": f"**{_pct(false / kernels)}** ({false} of {kernels}{first_false})" +
                     (" (" + "; ".join(f"{s['source'].split('@')[0].split('/')[-1]} {per(s, 'false')}"
                                       for s in suites) + ")" if each else "") +
                     f"; findings {true_n} true, {false_n} false",
            "complete": f"{_pct(complete / kernels)}{first_complete}" +
                        (" (" + "; ".join(f"{s['source'].split('@')[0].split('/')[-1]} {per(s, 'complete')}"
                                          for s in suites) + ")" if each else ""),
            "time": (f"{statistics.median(ms):.0f} / {sorted(ms)[int(0.9 * (len(ms) - 1))]:.0f} / {max(ms):.0f} ms "
                     f"per file ({files} files with kernels)") if ms else "-",
            "kernels": kernels, "false_n": false, "complete_n": complete, "commit": data.get("commit")})
    return cols


def table() -> str:
    cols = columns()
    rows = [("figure (issue 23's definitions)", "target", "head"),
            ("race and divergence recall / precision", ">= 0.9 / >= 0.95", "recall"),
            ("false alarms: kernels with a race, barrier or bounds finding reviewed false", "<= 3 % / <= 5 %", "false"),
            ("analyzed completely (libclang, no incomplete note, launch geometry)", ">= 95 % / >= 90 %", "complete"),
            ("time: per kernel (labeled corpus, idle machine); per file (real code, one run, two suites at a time on "
             "two cores): median / p90 / max", "50 / 300 / 2000 ms per kernel", "time")]
    out = []
    for i, (name, target, key) in enumerate(rows):
        out.append("| " + " | ".join([name, target, *(c[key] for c in cols)]) + " |")
        if i == 0:
            out.append("|" + " --- |" * (len(cols) + 2))
    real = cols[1:]
    k = sum(c["kernels"] for c in real)
    f = sum(c["false_n"] for c in real)
    c = sum(c["complete_n"] for c in real)
    commits = sorted({x["commit"] for x in real if x.get("commit")})
    out.append("")
    out.append(f"All {len(real)} results files of real code together: a false alarm in **{f} of {k} kernels, "
               f"{_pct(f / k)}**, **{_pct(c / k)}** analyzed completely (at {', '.join(commits)}). Suites that miss "
               f"a target (false alarms above 5 % or fewer than 90 % analyzed completely): " +
               "; ".join(_misses()) + ".")
    return "\n".join(out)


def _misses() -> list[str]:
    out = []
    for name in GROUPS:
        p = RESULTS / name
        if not p.exists():
            continue
        for s in _real(json.loads(p.read_text())["results"]):
            if not s["kernels"]:
                continue
            rate, done = s.get("false_alarm_rate_per_kernel") or 0, s["analyzed_completely_with_geometry"]
            miss = ([f"{_pct(rate)} false alarms"] if rate > 0.05 else []) + (
                [f"{_pct(done)} complete"] if done < 0.9 else [])
            if miss:
                label = s["source"].split("@")[0] + (f" ({_SAMPLES[name]})" if name in _SAMPLES else "")
                out.append(f"{label} {', '.join(miss)}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--readme", action="store_true", help="replace the table in README.md")
    args = ap.parse_args(argv)
    text = table()
    if not args.readme:
        print(text)
        return
    readme = ROOT / "README.md"
    t = readme.read_text()
    if _START not in t:
        raise SystemExit(f"README.md has no {_START} marker")
    t = re.sub(re.escape(_START) + r".*?" + re.escape(_END), lambda m: f"{_START}\n{text}\n{_END}", t, flags=re.S)
    readme.write_text(t)


if __name__ == "__main__":
    main()
