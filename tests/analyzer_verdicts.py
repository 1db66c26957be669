"""Print the analyzers' verdicts on the labeled corpus as JSON (one process; used by the determinism test).

A verdict is every diagnostic's (file, rule, severity, line), analysis.incomplete notes included.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from analyzer_labels import corpus_files  # noqa: E402
from kopt.analyze import analyze  # noqa: E402


def verdicts(files) -> list[list]:
    out = []
    for f in files:
        for d in analyze(f).diagnostics:
            line = d.locations[0].line if d.locations else 0
            out.append([f.name, d.rule, d.severity.value, line])
    return sorted(out)


if __name__ == "__main__":
    json.dump(verdicts(corpus_files()), sys.stdout)
