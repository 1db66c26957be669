"""The run store (real SQLite): schema, dedupe, commits per evaluation, best, export; and ``kopt runs``."""
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from evaluations import evaluation as made_up_evaluation  # stands in for a GPU measurement

from kopt.errors import InputError
from kopt.runstore import SCHEMA_VERSION, RunStore, default_path, evaluation, source_hash


def record(store, cand, time_us, status="ok", speedup=None):
    return store.record(cand, made_up_evaluation("reduce_sum", time_us=time_us, speedup=speedup, status=status),
                        started=1.0, finished=2.0)


def filled(path):
    store = RunStore(path)
    run = store.create_run("reduce_sum", workflow="tune", options={"strategy": "exhaustive"})
    for i, (t, status) in enumerate([(12.0, "ok"), (None, "incorrect"), (9.5, "ok"), (11.0, "ok")]):
        cid = store.add_candidate(run, f"// source {i}\n", config={"BLOCK": 64 << i}, proposer="tuner:exhaustive")
        record(store, cid, t, status, speedup=20.0 / t if t else None)
    return store, run


def test_schema_is_versioned_and_uses_wal(tmp_path):
    RunStore(tmp_path / "runs.db").close()
    db = sqlite3.connect(tmp_path / "runs.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"runs", "candidates", "evaluations", "turns", "tool_calls", "schema_version"} <= tables
    cols = {r[1] for r in db.execute("PRAGMA table_info(evaluations)")}
    assert {"candidate", "verdict", "measurement", "resources", "diagnostics", "time_us", "speedup", "status",
            "started", "finished"} <= cols
    db.execute("UPDATE schema_version SET version = 99")
    db.commit()
    db.close()
    with pytest.raises(InputError, match="schema version 99"):
        RunStore(tmp_path / "runs.db")


def test_reopening_keeps_everything_and_each_evaluation_is_committed_at_once(tmp_path):
    store, run = filled(tmp_path / "runs.db")
    # A second connection (another process's view) sees every evaluation without any close or flush.
    other = sqlite3.connect(tmp_path / "runs.db")
    assert other.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0] == 4
    again = RunStore(tmp_path / "runs.db")
    assert [e["time_us"] for e in again.evaluations(run)] == [12.0, None, 9.5, 11.0]
    assert again.evaluations(run)[0]["config"] == {"BLOCK": 64}


def test_candidates_dedupe_by_hash_within_a_run_only(tmp_path):
    store = RunStore(tmp_path / "runs.db")
    r1 = store.create_run("t", workflow="tune", options={})
    r2 = store.create_run("t", workflow="tune", options={})
    a = store.add_candidate(r1, "src\n", config={}, proposer="p")
    assert store.add_candidate(r1, "src\n", config={}, proposer="p") == a
    assert store.add_candidate(r1, "other\n", config={}, proposer="p") != a
    assert store.add_candidate(r2, "src\n", config={}, proposer="p") != a
    assert store.export(r1)["candidates"][0]["hash"] == source_hash("src\n")


def test_best_list_and_export(tmp_path):
    store, run = filled(tmp_path / "runs.db")
    best = store.best(run)
    assert best["time_us"] == 9.5 and best["config"] == {"BLOCK": 256} and best["source"] == "// source 2\n"
    [listed] = store.list_runs()
    assert listed["evaluations"] == 4 and listed["best_us"] == 9.5 and listed["options"] == {"strategy": "exhaustive"}
    doc = json.loads(json.dumps(store.export(run)))
    assert doc["schema_version"] == SCHEMA_VERSION and len(doc["candidates"]) == 4 and len(doc["evaluations"]) == 4
    store.finish_run(run, "finished", {"pruned": {"spills": 2}})
    assert store.run(run)["summary"] == {"pruned": {"spills": 2}} and store.run(run)["status"] == "finished"
    empty = store.create_run("t", workflow="tune", options={})
    assert store.best(empty) is None
    with pytest.raises(InputError, match="no run 99"):
        store.evaluations(99)


def test_workspace_env_sets_the_default_path(tmp_path, monkeypatch):
    monkeypatch.setenv("KOPT_WORKSPACE", str(tmp_path))
    assert default_path() == tmp_path / ".kopt" / "runs.db"
    RunStore().close()
    assert (tmp_path / ".kopt" / "runs.db").exists()


def kopt(workspace, *args):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "KOPT_WORKSPACE": str(workspace)}, cwd=workspace)


def test_runs_commands(tmp_path):
    store, run = filled(tmp_path / ".kopt" / "runs.db")
    p = kopt(tmp_path, "runs", "list", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)[0]["best_us"] == 9.5
    p = kopt(tmp_path, "runs", "list")
    assert p.returncode == 0 and "reduce_sum" in p.stdout
    p = kopt(tmp_path, "runs", "show", run)
    assert p.returncode == 0 and "BLOCK=256" in p.stdout
    assert json.loads(kopt(tmp_path, "runs", "best", run, "--json").stdout)["time_us"] == 9.5
    assert json.loads(kopt(tmp_path, "runs", "export", run, "--json").stdout)["run"]["id"] == run
    p = kopt(tmp_path, "runs", "plot", run, "--out", tmp_path / "traj.png")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "traj.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_runs_unknown_run_exits_2(tmp_path):
    for cmd in ("show", "best", "export", "plot"):
        p = kopt(tmp_path, "runs", cmd, 5)
        assert p.returncode == 2 and "no run 5" in p.stderr and "Traceback" not in p.stderr, (cmd, p.stderr)


V1 = __import__("pathlib").Path(__file__).parent / "data" / "runstore_v1.db"


def test_a_v1_store_is_migrated_in_place_with_a_backup(tmp_path):
    """tests/data/runstore_v1.db was written by kopt at f456a73 (schema v1): a tuner run (geometric mean over
    shapes) and a refine run (worst shape, the evaluate tool's view under a path)."""
    import shutil

    path = tmp_path / ".kopt" / "runs.db"
    path.parent.mkdir()
    shutil.copy(V1, path)
    store = RunStore(path)
    def dump(p):
        db = sqlite3.connect(p)
        return list(db.iterdump())

    assert dump(tmp_path / ".kopt" / "runs.db.v1.bak") == dump(V1)  # the backup holds the v1 store as it was
    assert sqlite3.connect(path).execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION
    tune_run, agent_run = store.list_runs()
    assert (tune_run["workflow"], tune_run["aggregate"], tune_run["evaluations"]) == ("tune", "geomean", 4)
    assert (agent_run["workflow"], agent_run["aggregate"], agent_run["evaluations"]) == ("refine", "worst", 1)
    best = store.best(tune_run["id"])
    ev = evaluation(best)
    assert best["config"] == {"BLOCK": 512} and ev.ok and ev.candidate.correct and ev.candidate.arch == "sm_90"
    assert [s.shape for s in ev.shapes] == ["n=268435456", "n=1000003"] and ev.baseline_us > ev.time_us
    assert abs(ev.speedup - best["speedup"]) < 1e-3  # the stored geometric mean is the aggregate's
    failed = [e for e in store.evaluations(tune_run["id"]) if e["status"] != "ok"]
    assert len(failed) == 1 and evaluation(failed[0]).status == "incorrect"
    agent_best = store.best(agent_run["id"])
    ev = evaluation(agent_best)
    assert agent_best["path"] == "v1.cu" and ev.candidate.correct and ev.speedup == agent_best["speedup"] == 1.25
    assert ev.shapes[0].candidate.median == 640.0 and "migrated" in ev.shapes[0].candidate.method_note
    store.close()
    again = RunStore(path)  # a second open migrates nothing more
    assert [r["id"] for r in again.list_runs()] == [tune_run["id"], agent_run["id"]]
    assert not (tmp_path / ".kopt" / "runs.db.v2.bak").exists()
    doc = json.loads(kopt(tmp_path, "runs", "show", agent_run["id"], "--json").stdout)
    assert doc["evaluations"][0]["evaluation"]["shapes"][0]["candidate"]["summary"]["median"] == 640.0


def test_a_store_from_a_newer_kopt_is_refused(tmp_path):
    import shutil

    path = tmp_path / "runs.db"
    shutil.copy(V1, path)
    db = sqlite3.connect(path)
    db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    with pytest.raises(InputError, match="newer kopt"):
        RunStore(path)
    (tmp_path / ".kopt").mkdir()
    shutil.copy(path, tmp_path / ".kopt" / "runs.db")
    p = kopt(tmp_path, "runs", "list")
    assert p.returncode == 2 and "newer kopt" in p.stderr and "Traceback" not in p.stderr
