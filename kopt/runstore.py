"""RunStore: every run, candidate and evaluation in one SQLite file per workspace (WAL; schema versioned).

Each evaluation is committed as it finishes, so a killed process loses at most the evaluation in flight. One writer,
``record``, stores an ``Evaluation`` (kopt.measurement); every reader gets it back with ``evaluation(row)``. A store
written by an older kopt is migrated in place on open, after a backup copy next to it; one written by a newer kopt is
refused. The database lives at ``$KOPT_WORKSPACE/.kopt/runs.db`` (default workspace: the current directory).
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from pathlib import Path

from .errors import InputError
from .measurement import Evaluation, check_aggregate
from .store_migrations import migrate

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY, task TEXT NOT NULL, started REAL NOT NULL, status TEXT NOT NULL,
  options TEXT NOT NULL, workflow TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '{}',
  aggregate TEXT NOT NULL DEFAULT 'geomean');
CREATE TABLE IF NOT EXISTS candidates (
  id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id), source TEXT NOT NULL, hash TEXT NOT NULL,
  parent INTEGER REFERENCES candidates(id), proposer TEXT NOT NULL, config TEXT NOT NULL, path TEXT,
  UNIQUE (run, hash));
CREATE TABLE IF NOT EXISTS evaluations (
  id INTEGER PRIMARY KEY, candidate INTEGER NOT NULL REFERENCES candidates(id), verdict TEXT NOT NULL,
  measurement TEXT NOT NULL, resources TEXT NOT NULL, diagnostics TEXT NOT NULL, time_us REAL, speedup REAL,
  status TEXT NOT NULL, started REAL NOT NULL, finished REAL NOT NULL);
CREATE TABLE IF NOT EXISTS turns (
  id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, role TEXT NOT NULL,
  content TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tool_calls (
  id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, role TEXT NOT NULL,
  content TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS evaluations_candidate ON evaluations(candidate);
"""

_JSON_COLUMNS = ("options", "summary", "config", "verdict", "measurement", "resources", "diagnostics")


def default_path() -> Path:
    return Path(os.environ.get("KOPT_WORKSPACE", ".")) / ".kopt" / "runs.db"


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def _row(row: sqlite3.Row) -> dict:
    return {k: (json.loads(row[k]) if k in _JSON_COLUMNS else row[k]) for k in row.keys()}


def evaluation(row: dict) -> Evaluation:
    """The Evaluation an evaluation row holds (``evaluations()``, ``best()``)."""
    return Evaluation.from_dict({**row["measurement"], "candidate": row["verdict"]})


def public(row: dict) -> dict:
    """An evaluation row as readers outside the store see it: who and when, and the Evaluation in its dict form."""
    keep = ("id", "candidate", "hash", "config", "path", "proposer", "parent", "status", "time_us", "speedup",
            "started", "finished")
    return {**{k: row.get(k) for k in keep}, "evaluation": evaluation(row).to_dict()}


class RunStore:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        has_tables = self.db.execute("SELECT name FROM sqlite_master WHERE name = 'schema_version'").fetchone()
        found = self.db.execute("SELECT version FROM schema_version").fetchone() if has_tables else None
        if found is not None and found[0] > SCHEMA_VERSION:
            self.db.close()
            raise InputError(f"{self.path}: this run store was written by a newer kopt (schema version {found[0]}; "
                             f"this kopt reads up to {SCHEMA_VERSION}): upgrade kopt to read it")
        if found is not None and found[0] < SCHEMA_VERSION:
            migrate(self.db, self.path, found[0], SCHEMA_VERSION)
        with self.db:
            self.db.executescript(_SCHEMA)
            if found is None:
                self.db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- writes (each committed at once) ------------------------------------------------------------------------
    def create_run(self, task: str, *, workflow: str, options: dict, aggregate: str = "geomean") -> int:
        """A new run; ``aggregate`` names how its evaluations combine per-shape speedups into one (it is the
        meaning of every ``speedup`` the run stores)."""
        check_aggregate(aggregate)
        with self.db:
            cur = self.db.execute("INSERT INTO runs (task, started, status, options, workflow, aggregate) "
                                  "VALUES (?, ?, ?, ?, ?, ?)",
                                  (task, time.time(), "running", json.dumps(options), workflow, aggregate))
        return cur.lastrowid

    def finish_run(self, run: int, status: str, summary: dict) -> None:
        with self.db:
            self.db.execute("UPDATE runs SET status = ?, summary = ? WHERE id = ?", (status, json.dumps(summary), run))

    def add_candidate(self, run: int, source: str, *, config: dict, proposer: str, parent: int | None = None,
                      path: str | None = None) -> int:
        """The candidate's id; a source already in this run (same hash) returns the existing id. ``path``: where
        the proposer wrote it (an agent's workspace file)."""
        h = source_hash(source)
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO candidates (run, source, hash, parent, proposer, config, path) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (run, source, h, parent, proposer, json.dumps(config), path))
        return self.db.execute("SELECT id FROM candidates WHERE run = ? AND hash = ?", (run, h)).fetchone()[0]

    def record(self, candidate: int, evaluation: Evaluation, *, started: float, finished: float) -> int:
        """The one writer of evaluations: ``evaluation`` under its run's aggregate policy. The columns status,
        time_us and speedup are the Evaluation's own figures, kept for queries and ordering."""
        row = self.db.execute("SELECT r.aggregate FROM candidates c JOIN runs r ON c.run = r.id WHERE c.id = ?",
                              (candidate,)).fetchone()
        if row is None:
            raise InputError(f"no candidate {candidate} in {self.path}")
        evaluation.aggregate = row[0]
        doc = evaluation.to_dict(samples=False)
        verdict = doc.pop("candidate")
        with self.db:
            cur = self.db.execute(
                "INSERT INTO evaluations (candidate, verdict, measurement, resources, diagnostics, time_us, speedup, "
                "status, started, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (candidate, json.dumps(verdict, default=str), json.dumps(doc, default=str),
                 json.dumps(evaluation.candidate.resources), json.dumps(doc["diagnostics"], default=str),
                 evaluation.time_us, evaluation.speedup, evaluation.status, started, finished))
        return cur.lastrowid

    def add_turn(self, run: int, role: str, content: dict) -> int:
        """One agent message (role "user" / "assistant", or "marker" to start a new conversation)."""
        return self._append("turns", run, role, content)

    def start_conversation(self, run: int) -> None:
        self.add_turn(run, "marker", {"conversation": True})

    def add_tool_call(self, run: int, content: dict) -> int:
        return self._append("tool_calls", run, "tool", content)

    def _append(self, table: str, run: int, role: str, content: dict) -> int:
        with self.db:
            idx = self.db.execute(f"SELECT COALESCE(MAX(idx), -1) + 1 FROM {table} WHERE run = ?", (run,)).fetchone()[0]
            self.db.execute(f"INSERT INTO {table} (run, idx, role, content) VALUES (?, ?, ?, ?)",
                            (run, idx, role, json.dumps(content, default=str)))
        return idx

    # --- reads ---------------------------------------------------------------------------------------------------
    def run(self, run: int) -> dict:
        row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run,)).fetchone()
        if row is None:
            raise InputError(f"no run {run} in {self.path} (kopt runs list shows the runs)")
        return _row(row)

    def list_runs(self) -> list[dict]:
        rows = self.db.execute(
            "SELECT r.*, COUNT(e.id) AS evaluations, MIN(CASE WHEN e.status = 'ok' THEN e.time_us END) AS best_us "
            "FROM runs r LEFT JOIN candidates c ON c.run = r.id LEFT JOIN evaluations e ON e.candidate = c.id "
            "GROUP BY r.id ORDER BY r.id").fetchall()
        return [_row(r) for r in rows]

    def evaluations(self, run: int) -> list[dict]:
        """Finished evaluations in the order they finished, each with its candidate's hash, config and proposer."""
        self.run(run)
        rows = self.db.execute(
            "SELECT e.*, c.hash, c.config, c.proposer, c.parent, c.path FROM evaluations e JOIN candidates c "
            "ON e.candidate = c.id WHERE c.run = ? ORDER BY e.id", (run,)).fetchall()
        return [_row(r) for r in rows]

    def best(self, run: int, gpu: str | None = None) -> dict | None:
        """The fastest correct evaluation, with its candidate's source; None when none is correct. ``gpu``: among
        the evaluations on that GPU model only (times from different models are never ranked together)."""
        self.run(run)
        on_gpu = " AND json_extract(e.measurement, '$.gpu.name') = ?" if gpu else ""
        row = self.db.execute(
            "SELECT e.*, c.hash, c.config, c.proposer, c.parent, c.path, c.source FROM evaluations e JOIN candidates c "
            "ON e.candidate = c.id WHERE c.run = ? AND e.status = 'ok' AND e.time_us IS NOT NULL" + on_gpu +
            " ORDER BY e.time_us, e.id LIMIT 1", (run, gpu) if gpu else (run,)).fetchone()
        return _row(row) if row else None

    def gpu_models(self, run: int) -> list[str]:
        """The GPU models the run's evaluations recorded (an evaluator pool records them), most evaluations first."""
        rows = self.db.execute(
            "SELECT json_extract(e.measurement, '$.gpu.name') AS gpu, COUNT(*) AS n FROM evaluations e JOIN candidates "
            "c ON e.candidate = c.id WHERE c.run = ? AND gpu IS NOT NULL GROUP BY gpu ORDER BY n DESC, MIN(e.id)",
            (run,)).fetchall()
        return [r["gpu"] for r in rows]

    def turns(self, run: int) -> list[dict]:
        rows = self.db.execute("SELECT idx, role, content FROM turns WHERE run = ? ORDER BY idx", (run,)).fetchall()
        return [{"idx": r["idx"], "role": r["role"], "content": json.loads(r["content"])} for r in rows]

    def export(self, run: int) -> dict:
        cands = self.db.execute("SELECT * FROM candidates WHERE run = ? ORDER BY id", (run,)).fetchall()
        return {"schema_version": SCHEMA_VERSION, "run": self.run(run), "candidates": [_row(c) for c in cands],
                "evaluations": [public(e) for e in self.evaluations(run)]}
