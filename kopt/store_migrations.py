"""Run-store schema migrations. Each step takes a store of version N to N + 1 in place, inside one transaction,
after a backup copy of the file (``runs.db.vN.bak``); a later schema change adds a step here."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from .errors import InputError


def migrate(db: sqlite3.Connection, path: Path, version: int, target: int) -> Path:
    """Bring ``db`` from ``version`` to ``target``; returns the backup's path."""
    backup = path.with_name(f"{path.name}.v{version}.bak")
    n = 1
    while backup.exists():
        backup, n = path.with_name(f"{path.name}.v{version}.bak{n}"), n + 1
    with sqlite3.connect(backup) as copy:
        db.backup(copy)
    copy.close()
    start = version
    try:
        db.execute("BEGIN")
        while version < target:
            STEPS[version](db)
            version += 1
        db.execute("UPDATE schema_version SET version = ?", (version,))
        db.execute("COMMIT")
    except Exception as exc:
        db.execute("ROLLBACK")
        raise InputError(f"{path}: migrating the run store from schema version {start} to {target} failed "
                         f"({type(exc).__name__}: {exc}); nothing was changed, and a copy is at {backup}")
    return backup


def _v1_to_v2(db: sqlite3.Connection) -> None:
    """v2: each evaluation row holds one Evaluation (kopt.measurement) whatever wrote it; runs name the aggregate
    their speedups mean (v1 tuner runs stored the geometric mean over shapes, agent runs the worst shape);
    candidates keep the path an agent wrote them to (v1 kept it inside the measurement)."""
    db.execute("ALTER TABLE runs ADD COLUMN aggregate TEXT NOT NULL DEFAULT 'geomean'")
    db.execute("UPDATE runs SET aggregate = 'worst' WHERE workflow != 'tune'")
    db.execute("ALTER TABLE candidates ADD COLUMN path TEXT")
    rows = db.execute("SELECT e.id, e.candidate, e.verdict, e.measurement, e.diagnostics, r.task, r.aggregate "
                      "FROM evaluations e JOIN candidates c ON e.candidate = c.id JOIN runs r ON c.run = r.id")
    for eid, cid, verdict, measurement, diagnostics, task, aggregate in rows.fetchall():
        m, v, diags = json.loads(measurement), json.loads(verdict), json.loads(diagnostics)
        if "result" in m:  # an agent's record: the evaluate tool's view, under the path it wrote the candidate to
            doc, v = _agent_record(task, m.get("path") or "", m["result"], v, diags)
            db.execute("UPDATE candidates SET path = ? WHERE id = ?", (m.get("path"), cid))
        else:
            doc = {"task": task, "shapes": m.get("shapes", []), "diagnostics": diags, "warnings": m.get("warnings", []),
                   "ceilings": {}, "seconds": m.get("seconds", 0.0), "baseline": None}
        doc.update({"format": 2, "aggregate": aggregate})
        db.execute("UPDATE evaluations SET measurement = ?, verdict = ? WHERE id = ?",
                   (json.dumps(doc), json.dumps(v), eid))


def _agent_record(task: str, path: str, result: dict, verdict: dict, diagnostics: list) -> tuple[dict, dict]:
    """A v1 agent record (medians and speedups per shape, the verdict's status only) as an Evaluation's dict."""
    status = verdict.get("status") or result.get("status") or "run-failed"
    note = "migrated from a v1 agent record: only the medians were kept"

    def measured(name: str, median) -> dict | None:
        if median is None:
            return None
        summary = {"n": 0, "discarded": 0, "median": median, "mean": median, "stdev": 0.0, "cv": 0.0, "p10": median,
                   "p90": median, "min": median, "max": median, "ci_low": median, "ci_high": median,
                   "ci_exact": False}
        return {"name": name, "summary": summary, "method_note": note}

    shapes = []
    for s in result.get("shapes", []):
        cmp = None
        if s.get("speedup") is not None:
            lo, hi = s.get("speedup_ci") or [s["speedup"], s["speedup"]]
            cmp = {"speedup": s["speedup"], "ci_low": lo, "ci_high": hi, "verdict": s.get("verdict") or "AMBIGUOUS"}
        cand = measured(f"candidate:{path}", s.get("candidate_us")) or {"name": f"candidate:{path}", "summary": None,
                                                                           "valid": False, "method_note": note}
        cand["method"] = s.get("method") or ""
        if s.get("pct_of_roofline") is not None:
            cand["figures"] = {"pct_of_roofline": s["pct_of_roofline"]}
        shapes.append({"shape": s["shape"], "candidate": cand, "baseline": measured("baseline", s.get("baseline_us")),
                       "comparison": cmp})
    new_verdict = {"task": task, "candidate": path, "config": {}, "arch": "", "compiled": status != "compile-failed",
                   "ran": status in ("correct", "incorrect"), "correct": status == "correct",
                   "diagnostics": diagnostics}
    return {"task": task, "shapes": shapes, "diagnostics": [], "warnings": result.get("warnings", []),
            "ceilings": {}, "seconds": 0.0, "baseline": None}, new_verdict


STEPS = {1: _v1_to_v2}
