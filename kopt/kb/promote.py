"""Promote a validated winner of a run into the user's knowledge base, with its provenance.

Only an evaluation the run store records as correct and timed (status "ok") can be promoted: its candidate source
(tunables baked in) is written under the user's KB folder next to a sidecar .toml that says where it came from (run,
candidate, proposer, parent, configuration) and what kopt measured, and the folder is indexed so `kopt kb search`
finds it at once."""
from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

from ..errors import InputError
from .tags import tags_of


def added_dir() -> Path:
    from . import _kb_dir

    return _kb_dir() / "added"


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return json.dumps(str(v))  # a TOML basic string: JSON's escapes are valid TOML


def add(run: int, *, store=None, title: str | None = None) -> dict:
    """Promote run ``run``'s best correct evaluation; returns the written files and the index figures."""
    from ..runstore import RunStore
    from . import index

    store = store or RunStore()
    info = store.run(run)
    best = store.best(run)
    if best is None:
        raise InputError(f"run {run} has no correct, timed evaluation: only validated winners can be added")
    verdict = best.get("verdict") or {}
    if not verdict.get("correct", True):
        raise InputError(f"run {run}'s best evaluation is not marked correct: it cannot be added")
    safe_task = re.sub(r"[^A-Za-z0-9_]", "_", info["task"])
    stem = f"{safe_task}_run{run}_{best['hash'][:8]}"
    folder = added_dir()
    folder.mkdir(parents=True, exist_ok=True)
    cu, meta = folder / f"{stem}.cu", folder / f"{stem}.toml"
    cu.write_text(best["source"])
    measurement = best.get("measurement") or {}
    shapes = [{"shape": s["shape"], "us": s["candidate"]["summary"]["median"],
               **({"baseline_us": s["baseline"]["summary"]["median"]} if s.get("baseline") and
                  (s["baseline"].get("summary") or {}).get("median") else {})}
              for s in measurement.get("shapes", []) if (s.get("candidate") or {}).get("summary")]
    task, workflow = info["task"], info["workflow"]
    about = (f"Promoted from kopt run {run} ({workflow} workflow) on task {task}; checked on fresh inputs and timed "
             "by kopt before promotion.")
    lines = [f"title = {_toml_value(title or f'{task}: best of run {run} ({workflow})')}",
             f"task = {_toml_value(task)}",
             f"arch = {_toml_value(verdict.get('arch') or 'any')}",
             f"demonstrates = {_toml_value(about)}",
             f"techniques = {_toml_value(sorted(tags_of(best['source'])))}",
             "", "[provenance]",
             f"run = {run}", f"workflow = {_toml_value(info['workflow'])}", f"candidate = {best['candidate']}",
             f"evaluation = {best['id']}", f"proposer = {_toml_value(best['proposer'])}",
             f"source_hash = {_toml_value(best['hash'])}",
             f"promoted = {_toml_value(dt.datetime.now(dt.timezone.utc).isoformat(timespec='seconds'))}"]
    if best.get("parent") is not None:
        lines.append(f"parent = {best['parent']}")
    if best.get("config"):
        lines.append(f"config = {_toml_value(best['config'])}")
    lines += ["", "[measured]", f"time_us = {best['time_us']!r}"]
    if best.get("speedup") is not None:
        lines.append(f"speedup_vs_baseline = {best['speedup']!r}")
    for s in shapes:
        lines += ["", "[[measured.shapes]]"] + [f"{k} = {_toml_value(v)}" for k, v in s.items()]
    meta.write_text("\n".join(lines) + "\n")
    stats = index(folder)
    return {"source": str(cu), "metadata": str(meta), "index": stats["index"], "chunks": stats["chunks"]}
