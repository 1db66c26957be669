"""Run a candidate's declared launches once, in a process of its own (``kopt.worker.run_once``), so that ncu or
compute-sanitizer can wrap it: the parent's side. The request is pickled to a file; the process writes its reply as
JSON to a file the request names, so a tool's own output never needs to be parsed for kopt's verdict."""
from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

from .protocol import Failed, Ok, Reply, RunOnceRequest


def build_request(task, candidate, folder: str | Path, *, shape=None, config=None, arch=None, seed: int = 0,
                  warmup: int = 1, fill_outputs: bool = True):
    """Compile on the CPU and resolve the launches: (request, Candidate, Artifact); the reply will be written in
    ``folder``."""
    from .build import build

    b = build(task, candidate, config, arch)
    shape = shape or (task.timed_shapes or task.shapes)[0]
    request = RunOnceRequest(task, shape, b.plan(shape), b.artifact.cubin, seed, b.candidate.name,
                             str(Path(folder, f"reply-{seed}.json")), warmup, fill_outputs)
    return request, b.candidate, b.artifact


def write_request(request: RunOnceRequest, folder: str | Path) -> Path:
    path = Path(folder, "request.pkl")
    with open(path, "wb") as f:
        pickle.dump(request, f, protocol=pickle.HIGHEST_PROTOCOL)
    Path(request.reply_path).unlink(missing_ok=True)
    return path


def command(request_path: Path) -> list[str]:
    return [sys.executable, "-m", "kopt.worker.run_once", "--request", str(request_path)]


def read_reply(request: RunOnceRequest) -> Reply | None:
    """The run's reply, or None when the process left none (the tool killed it, or it never started)."""
    try:
        d = json.loads(Path(request.reply_path).read_text())
    except (OSError, ValueError):
        return None
    return Ok() if d.get("ok") else Failed.from_dict(d)
