"""RunStore: every run, candidate and evaluation in one SQLite file per workspace (WAL; schema versioned).

Each evaluation is committed as it finishes, so a killed process loses at most the evaluation in flight.
The database lives at ``$KOPT_WORKSPACE/.kopt/runs.db`` (default workspace: the current directory).
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from pathlib import Path

from .errors import InputError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY, task TEXT NOT NULL, started REAL NOT NULL, status TEXT NOT NULL,
  options TEXT NOT NULL, workflow TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS candidates (
  id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id), source TEXT NOT NULL, hash TEXT NOT NULL,
  parent INTEGER REFERENCES candidates(id), proposer TEXT NOT NULL, config TEXT NOT NULL, UNIQUE (run, hash));
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


class RunStore:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        with self.db:
            self.db.executescript(_SCHEMA)
            found = self.db.execute("SELECT version FROM schema_version").fetchone()
            if found is None:
                self.db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
            elif found[0] != SCHEMA_VERSION:
                raise InputError(f"{self.path}: run store schema version {found[0]}, this kopt reads "
                                 f"{SCHEMA_VERSION}; move the file aside to start a new store")

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- writes (each committed at once) ------------------------------------------------------------------------
    def create_run(self, task: str, *, workflow: str, options: dict) -> int:
        with self.db:
            cur = self.db.execute("INSERT INTO runs (task, started, status, options, workflow) VALUES (?, ?, ?, ?, ?)",
                                  (task, time.time(), "running", json.dumps(options), workflow))
        return cur.lastrowid

    def finish_run(self, run: int, status: str, summary: dict) -> None:
        with self.db:
            self.db.execute("UPDATE runs SET status = ?, summary = ? WHERE id = ?", (status, json.dumps(summary), run))

    def add_candidate(self, run: int, source: str, *, config: dict, proposer: str, parent: int | None = None) -> int:
        """The candidate's id; a source already in this run (same hash) returns the existing id."""
        h = source_hash(source)
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO candidates (run, source, hash, parent, proposer, config) "
                            "VALUES (?, ?, ?, ?, ?, ?)", (run, source, h, parent, proposer, json.dumps(config)))
        return self.db.execute("SELECT id FROM candidates WHERE run = ? AND hash = ?", (run, h)).fetchone()[0]

    def record_evaluation(self, candidate: int, *, status: str, time_us: float | None, speedup: float | None,
                          verdict: dict, measurement: dict, resources: dict, diagnostics: list, started: float,
                          finished: float) -> int:
        with self.db:
            cur = self.db.execute(
                "INSERT INTO evaluations (candidate, verdict, measurement, resources, diagnostics, time_us, speedup, "
                "status, started, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (candidate, json.dumps(verdict, default=str), json.dumps(measurement, default=str),
                 json.dumps(resources), json.dumps(diagnostics, default=str), time_us, speedup, status, started,
                 finished))
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
            "SELECT e.*, c.hash, c.config, c.proposer, c.parent FROM evaluations e JOIN candidates c "
            "ON e.candidate = c.id WHERE c.run = ? ORDER BY e.id", (run,)).fetchall()
        return [_row(r) for r in rows]

    def best(self, run: int) -> dict | None:
        """The fastest correct evaluation, with its candidate's source; None when none is correct."""
        self.run(run)
        row = self.db.execute(
            "SELECT e.*, c.hash, c.config, c.proposer, c.parent, c.source FROM evaluations e JOIN candidates c "
            "ON e.candidate = c.id WHERE c.run = ? AND e.status = 'ok' AND e.time_us IS NOT NULL "
            "ORDER BY e.time_us, e.id LIMIT 1", (run,)).fetchone()
        return _row(row) if row else None

    def turns(self, run: int) -> list[dict]:
        rows = self.db.execute("SELECT idx, role, content FROM turns WHERE run = ? ORDER BY idx", (run,)).fetchall()
        return [{"idx": r["idx"], "role": r["role"], "content": json.loads(r["content"])} for r in rows]

    def export(self, run: int) -> dict:
        cands = self.db.execute("SELECT * FROM candidates WHERE run = ? ORDER BY id", (run,)).fetchall()
        return {"schema_version": SCHEMA_VERSION, "run": self.run(run), "candidates": [_row(c) for c in cands],
                "evaluations": self.evaluations(run)}
