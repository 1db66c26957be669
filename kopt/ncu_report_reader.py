"""An Nsight Compute report (``.ncu-rep``) read through NVIDIA's Python report interface (``ncu_report``, the
``ncu-report`` wheel or an Nsight Compute install's ``extras/python``), into the shapes ``kopt.profile`` builds a
Profile from: the kernels as ``parse_ncu_csv`` gives them, with typed values and their units, and the source lines'
warp-stall samples as ``parse_source_csv`` gives them, correlated through each sample's program counter.

Without ``ncu_report`` kopt exports the same report as CSV (``ncu --import --csv``) and parses the text.
"""
from __future__ import annotations

from pathlib import Path

# per-PC counts of PC samples (instance values, correlated by program counter): all samples first
SAMPLE_METRICS = ("smsp__pcsamp_sample_count", "smsp__pcsamp_warps_issue_stalled_all")


def available() -> bool:
    try:
        import ncu_report  # noqa: F401
    except ImportError:
        return False
    return True


def _value_text(metric) -> str | None:
    value = metric.value()
    if value is None:
        return None
    return repr(value) if isinstance(value, float) else str(value)


def _hot_lines(action, sources: dict[str, list[str]]) -> list[tuple[str, int, float, str]]:
    """(file, line, samples, text) per CUDA source line, from a per-PC sample metric (none when it is missing)."""
    names = set(action.metric_names())
    metric = next((action.metric_by_name(n) for n in SAMPLE_METRICS if n in names), None)
    if metric is None or not metric.has_correlation_ids():
        return []
    pcs = metric.correlation_ids()
    per_line: dict[tuple[str, int], float] = {}
    for i in range(metric.num_instances()):
        info = action.source_info(pcs.as_uint64(i))
        if info is None or not info.line():
            continue
        key = (info.file_name(), info.line())
        per_line[key] = per_line.get(key, 0.0) + metric.as_double(i)
    out = []
    for (file, line), samples in per_line.items():
        text = sources.get(file, [])
        out.append((file, line, samples, text[line - 1] if 0 < line <= len(text) else ""))
    return sorted((t for t in out if t[2]), key=lambda t: -t[2])


def read(report: str | Path) -> tuple[list[dict], list[tuple[str, int, float, str]]]:
    """(kernels, hot source lines) of every profiled kernel in ``report``, in report order. ImportError without
    ``ncu_report``; a ValueError when it cannot load the file."""
    import ncu_report

    try:
        ctx = ncu_report.load_report(str(report))
    except Exception as exc:  # the interface raises plain RuntimeErrors for unreadable reports
        raise ValueError(f"ncu_report cannot load {report}: {exc}") from None
    kernels, hot = [], []
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            action = rng.action_by_idx(a)
            metrics = {}
            for name in action.metric_names():
                m = action.metric_by_name(name)
                text = _value_text(m) if m is not None else None
                if text is not None:
                    metrics[name] = [(text, m.unit() or "")]
            kernels.append({"id": str(len(kernels)), "name": action.name(), "metrics": metrics})
            sources = {f: body.splitlines() for f, body in action.source_files().items()}
            hot += _hot_lines(action, sources)
    return kernels, sorted(hot, key=lambda t: -t[2])
