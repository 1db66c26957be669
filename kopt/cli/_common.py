"""Shared bits of the CLI: consoles, JSON output, option parsing helpers."""
from __future__ import annotations

import json
import sys
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape

import typer

from ..errors import InputError

# Lines never wrap (a diagnostic stays one line for editors' problem matchers and grep); output that is not a
# terminal is not laid out to 80 columns either, so tables and names are never cropped when piped.
_UNBOUNDED = 1 << 16


def _console(stderr: bool) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    tty = stream is not None and stream.isatty()
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=None if tty else _UNBOUNDED)


console = _console(False)
console_err = _console(True)


def print_json(obj) -> None:
    print(json.dumps(obj, indent=2, default=str))


NumSmsOpt = typer.Option(None, "--num-sms", min=1, help="SM count for `num_sms` in launch expressions (default: "
                                                      "the GPU's, else the target architecture's documented default)")
L2BytesOpt = typer.Option(None, "--l2-bytes", min=1, help="L2 size in bytes for `l2_bytes` in launch expressions")
MaxSmemOpt = typer.Option(None, "--max-smem-per-block", min=1, help="bytes for `max_smem_per_block` in launch "
                                                                    "expressions (default: the target's opt-in limit)")


def device_overrides(num_sms: int | None, l2_bytes: int | None, max_smem: int | None) -> dict:
    """The command line's device constants for launch expressions (``kopt.archs.device_constants``)."""
    return {k: v for k, v in (("num_sms", num_sms), ("l2_bytes", l2_bytes), ("max_smem_per_block", max_smem))
            if v is not None}


def parse_defines(values: list[str] | None) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for v in values or []:
        k, sep, val = v.partition("=")
        if not k:
            raise InputError(f"bad -D {v!r}: expected NAME or NAME=VALUE")
        out[k] = val if sep else None
    return out


def with_includes(candidate, include: list[str] | None):
    """The candidate file with the command line's ``-I`` folders added (the path itself when there are none): every
    compile of it, here or in the worker's build, then searches them."""
    if not include or candidate is None:
        return candidate
    from ..candidate import Candidate

    return Candidate.load(candidate).with_include_dirs(include)


def fmt(v, spec=",.2f") -> str:
    return "-" if v is None else format(v, spec)


def evaluations_table(evals: list[dict], task: str, run: int):
    """A run's evaluations, fastest first (kopt optimize, kopt runs show)."""
    from rich.table import Table

    def gpu(e):
        return (e.get("measurement") or {}).get("gpu", {}).get("name")

    models = list(dict.fromkeys(filter(None, map(gpu, evals))))
    several = len(models) > 1  # times from different GPU models are ranked apart, model by model
    t = Table(title=f"{task} (run {run}), fastest first" + (", per GPU model" if several else ""))
    for col in ("#", "candidate", "status", "time us", "speedup") + (("gpu",) if several else ()):
        t.add_column(col, justify="left" if col in ("candidate", "status", "gpu") else "right")
    ranked = sorted(enumerate(evals, 1), key=lambda ie: (models.index(gpu(ie[1])) if several and gpu(ie[1]) in
                                                         models else 0, ie[1]["time_us"] is None,
                                                         ie[1]["time_us"] or 0))
    for i, e in ranked[:15]:
        what = " ".join(f"{k}={v}" for k, v in e["config"].items()) or e.get("path") or e["hash"][:8]
        t.add_row(str(i), what, e["status"], fmt(e["time_us"]), fmt(e["speedup"], ".3f"),
                  *((gpu(e) or "-",) if several else ()))
    return t


def parse_stop(spec: str | None) -> dict:
    """``--stop NAME[:key=value,...]`` as the harness's options ``{"stop": NAME, "stop_params": {key: value}}``;
    empty when not given. The harness checks the name, keys and values, so a typo is an input error here rather
    than a failure in the GPU worker."""
    if spec is None:
        return {}
    from .. import _harness

    name, _, rest = spec.partition(":")
    params = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        try:
            params[key.strip()] = float(value)
        except ValueError:
            raise InputError(f"bad --stop {spec!r}: expected NAME[:key=value,...] with numbers as values") from None
    options = {"stop": name.strip(), "stop_params": params}
    try:
        _harness.StoppingRule(options)
    except ValueError as exc:
        raise InputError(f"bad --stop {spec!r}: {exc}") from None
    return options


def shows_progress(json_out: bool) -> bool:
    """Progress goes to stderr, and only to a terminal: never under --json, never into a pipe or a log file."""
    return not json_out and console_err.is_terminal


@contextmanager
def progress_bars(json_out: bool):
    """While inside, the library's progress reports (``kopt.progress``) drive bars on stderr, one per kind of work."""
    if not shows_progress(json_out):
        yield
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .. import progress

    bars: dict[str, int] = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console_err, transient=True) as shown:
        def update(what: str, done: int, total: int) -> None:
            if what not in bars:
                bars[what] = shown.add_task(what, total=total)
            shown.update(bars[what], completed=done, total=total)

        with progress.listening(update):
            yield


@contextmanager
def activity(message: str, json_out: bool):
    """A spinner with ``message`` on stderr while long work with no countable steps runs (bench, profile, sanitize)."""
    if not shows_progress(json_out):
        yield
        return
    with console_err.status(escape(message)):
        yield
