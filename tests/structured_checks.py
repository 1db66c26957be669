"""What "the same findings through both paths" means for profile (ncu_report vs CSV) and sanitize (XML vs text),
shared by the CPU tests on captured outputs and the GPU tests that capture them."""
from __future__ import annotations

from kopt.profile import Profile

PCT_ABS = 0.05  # CSV prints percentages rounded; the report has the full value
REL = 0.01


def _close(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= max(PCT_ABS, REL * max(abs(a), abs(b)))
    return a == b


def profile_differences(report: Profile, csv: Profile) -> list[str]:
    """Where two Profiles of one ncu report disagree: kernels, bottleneck, limiter, figures, top stalls, hottest
    line (an empty list when they agree)."""
    out = []
    if [k.name for k in report.kernels] != [k.name for k in csv.kernels]:
        return [f"kernels {[k.name for k in report.kernels]} vs {[k.name for k in csv.kernels]}"]
    for a, b in zip(report.kernels, csv.kernels):
        for attr in ("bottleneck", "limiter"):
            if getattr(a, attr) != getattr(b, attr):
                out.append(f"{a.name}.{attr}: {getattr(a, attr)} vs {getattr(b, attr)}")
        for key in sorted(set(a.figures) | set(b.figures)):
            if not _close(a.figures.get(key), b.figures.get(key)):
                out.append(f"{a.name}.{key}: {a.figures.get(key)} vs {b.figures.get(key)}")
        if [s["reason"] for s in a.stalls[:3]] != [s["reason"] for s in b.stalls[:3]]:
            out.append(f"{a.name} stalls: {a.stalls[:3]} vs {b.stalls[:3]}")
    hot_a, hot_b = [h["line"] for h in report.hot_lines[:1]], [h["line"] for h in csv.hot_lines[:1]]
    if hot_a != hot_b:
        out.append(f"hottest line {hot_a} vs {hot_b}")
    if sorted(d.rule for d in report.diagnostics) != sorted(d.rule for d in csv.diagnostics):
        out.append(f"findings {[d.rule for d in report.diagnostics]} vs {[d.rule for d in csv.diagnostics]}")
    return out
