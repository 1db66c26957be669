"""Promote a validated kernel into the user's knowledge base, with its provenance.

Two ways in, one rule: only a kernel kopt has checked and timed is promoted.
- ``add_run(RUN)``: the run's best evaluation the run store records as correct and timed (status "ok").
- ``add_candidate(FILE, TASK)``: ``kopt bench`` runs now (a GPU is needed) and the kernel is promoted if it passes.
The source is written under the user's KB folder next to a sidecar .toml saying where it came from and what kopt
measured (GPU, date, per-shape times), and the folder is indexed so `kopt kb search` finds it at once."""
from __future__ import annotations

import datetime as dt
import hashlib
import re
import shutil
from pathlib import Path

import tomli_w

from ..errors import InputError, KoptError
from ..resources import data_dir
from .tags import tags_of


class NotValidated(KoptError):
    """The kernel did not pass kopt bench, so it is not promoted (the checked thing failed: exit code 1)."""

    exit_code = 1


def added_dir() -> Path:
    """Promoted kernels are the user's data: they live in the data folder, not the cache. A folder left in the cache
    by an older kopt is moved over the first time."""
    from . import _kb_dir

    folder = data_dir() / "kb" / "added"
    old = _kb_dir() / "added"
    if old.is_dir() and not folder.exists():
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(old), str(folder))
    return folder


def _plain(v):
    """``v`` as TOML can hold it: TOML has no null, so None entries are left out; numpy scalars become Python
    numbers; lone surrogates (undecodable argv or paths) are replaced. tomli-w rejects anything else."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items() if x is not None}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v if x is not None]
    if isinstance(v, str):
        return v.encode("utf-8", "replace").decode("utf-8")
    if not isinstance(v, (bool, int, float)) and callable(getattr(v, "item", None)):
        return v.item()
    return v


def _shapes(evaluation) -> list[dict]:
    """Per-shape medians (and the baseline's, and the speedup) of an Evaluation."""
    out = []
    for s in evaluation.shapes:
        if s.candidate.median is None:
            continue
        row = {"shape": s.shape, "us": s.candidate.median}
        if s.baseline is not None and s.baseline.median is not None:
            row["baseline_us"] = s.baseline.median
        if s.speedup is not None:
            row["speedup_vs_baseline"] = s.speedup
        out.append(row)
    return out


def _write(stem: str, source: str, head: dict, provenance: dict, measured: dict, shapes: list[dict]) -> dict:
    from . import index

    folder = added_dir()
    folder.mkdir(parents=True, exist_ok=True)
    cu, meta = folder / f"{stem}.cu", folder / f"{stem}.toml"
    cu.write_text(source, encoding="utf-8")
    provenance = {**provenance, "promoted": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
    doc = {**head, "techniques": sorted(tags_of(source)), "provenance": provenance,
           "measured": {**measured, "shapes": shapes}}
    meta.write_text(tomli_w.dumps(_plain(doc)), encoding="utf-8")
    stats = index(folder)
    return {"source": str(cu), "metadata": str(meta), "index": stats["index"], "chunks": stats["chunks"]}


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def add_run(run: int, *, store=None, title: str | None = None) -> dict:
    """Promote run ``run``'s best correct evaluation; returns the written files and the index figures."""
    from ..runstore import RunStore, evaluation

    store = store or RunStore()
    info = store.run(run)
    best = store.best(run)
    if best is None:
        raise InputError(f"run {run} has no correct, timed evaluation: only validated winners can be added")
    ev = evaluation(best)
    if not ev.candidate.correct:
        raise InputError(f"run {run}'s best evaluation is not marked correct: it cannot be added")
    task, workflow = info["task"], info["workflow"]
    head = {"title": title or f"{task}: best of run {run} ({workflow})", "task": task,
            "arch": ev.candidate.arch or "any",
            "demonstrates": f"Promoted from kopt run {run} ({workflow} workflow) on task {task}; checked on fresh "
                            "inputs and timed by kopt before promotion."}
    provenance = {"run": run, "workflow": workflow, "candidate": best["candidate"], "evaluation": best["id"],
                  "proposer": best["proposer"], "parent": best.get("parent"), "path": best.get("path"),
                  "source_hash": best["hash"], "config": best.get("config") or None}
    measured = {"time_us": best["time_us"], "speedup_vs_baseline": best.get("speedup"),
                "speedup_aggregate": ev.aggregate}
    return _write(f"{_safe(task)}_run{run}_{best['hash'][:8]}", best["source"], head, provenance, measured,
                  _shapes(ev))


def add_candidate(path, task_dir, *, title: str | None = None, config: dict | None = None,
                  max_time: float = 2.0) -> dict:
    """Check and time the candidate at ``path`` on the task (against its baseline), then promote it if it passed."""
    from ..evaluation import bench
    from ..candidate import Candidate
    from ..device import require_gpu
    from ..torch_problem import open_task

    task = open_task(task_dir)
    cand = Candidate.load(Path(path))
    info = require_gpu("kopt kb add")  # validation is kopt bench: correctness on fresh inputs, then timing
    result = bench(task, cand, baseline=task.baseline, config=config, options={"max_time": max_time})
    if not result.ok:
        why = "; ".join(d.message for d in (result.candidate.diagnostics + result.diagnostics) if d.is_error)[:500]
        raise NotValidated(f"{cand.name} did not pass kopt bench on {task.name} ({result.candidate.status}): "
                           f"{why or 'no timing'}; only validated kernels can be added")
    cfg = result.candidate.config
    source = cand.baked_source(cfg) if cand.tunables else cand.source
    head = {"title": title or f"{task.name}: {Path(path).stem}", "task": task.name,
            "arch": result.candidate.arch or "any",
            "demonstrates": f"Promoted from {Path(path).name} after kopt bench on task {task.name}."}
    provenance = {"file": str(Path(path).resolve()), "config": cfg or None, "gpu": info.name,
                  "driver": info.driver, "source_hash": hashlib.sha256(source.encode()).hexdigest()}
    shapes = _shapes(result)
    measured = {"time_us": sum(s["us"] for s in shapes)}
    digest = provenance["source_hash"][:8]
    return _write(f"{_safe(task.name)}_{_safe(Path(path).stem)}_{digest}", source, head, provenance, measured, shapes)
