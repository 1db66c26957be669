"""The rule catalogue (kopt/rules.py): every rule id the code can emit is catalogued, `kopt rules` lists them,
docs/rules.md is current, and the ids chosen at run time (CUDA errors, sanitizer records, ptxas lines) land on
catalogued ids."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kopt.diagnostic import Diagnostic, Location, Severity
from kopt.render import to_sarif
from kopt.rules import RULES, Rule, lookup, markdown
from kopt.protocol import Failed

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(p for d in ("kopt", "analyzers") for p in (ROOT / d).rglob("*.py"))
# Strings shaped like rule ids that are not rules: PTX mnemonics the analyzers match (analyzers/asm.py), and file
# names such as task.toml and reference.py.
NOT_RULES = {"barrier.sync", "barrier.cta.sync", "barrier.cta.red"}
_FILE_NAME = re.compile(r"\.(toml|py|cu|cuh|json|md|txt|db)$")
_PREFIXES = sorted({r.split(".")[0] for r in RULES if "." in r})
_ID_SHAPE = re.compile(r"^(?:%s)(?:\.[a-z0-9][a-z0-9-]*)+$" % "|".join(map(re.escape, _PREFIXES)))


def _strings(node) -> list[ast.Constant]:
    """The string constants an expression can evaluate to (through `a if c else b`, `a or b` and tuples/lists/sets)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [c for v in node.values for c in _strings(v)]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [c for e in node.elts for c in _strings(e)]
    return []


def _name(node) -> str | None:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _is_rule_ref(node) -> bool:
    """``x.rule`` or ``x["rule"]``."""
    return (isinstance(node, ast.Attribute) and node.attr == "rule") or (
        isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "rule")


def rule_literals(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, string, context) for every string constant used as a rule id."""
    found = []

    def add(nodes, why):
        found.extend((c.lineno, c.value, why) for c in nodes)

    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            fn = _name(n.func)
            if fn in ("Diagnostic", "lookup") and n.args:
                add(_strings(n.args[0]), f"{fn}(...) first argument")
            if fn == "get" and isinstance(n.func, ast.Attribute) and _name(n.func.value) == "RULES" and n.args:
                add(_strings(n.args[0]), "RULES.get(...)")
            for kw in n.keywords:
                if kw.arg == "rule":
                    add(_strings(kw.value), "rule= argument")
        elif isinstance(n, ast.Subscript) and _name(n.value) == "RULES":
            add(_strings(n.slice), "RULES[...]")
        elif isinstance(n, ast.Dict):
            keys = [k.value if isinstance(k, ast.Constant) else None for k in n.keys]
            if "rule" in keys:  # a record, e.g. a worker reply
                add(_strings(n.values[keys.index("rule")]), '"rule": value')
            else:
                strs = [c for v in n.values for c in _strings(v)]
                if any(c.value in RULES and "." in c.value for c in strs):  # a table whose values are rule ids
                    add(strs, "value of a dict that maps to rules")
        elif isinstance(n, ast.Compare):
            sides = [n.left, *n.comparators]
            if any(_is_rule_ref(s) for s in sides):
                add([c for s in sides for c in _strings(s)], "compared with a .rule")
        elif isinstance(n, (ast.Assign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if n.value is not None and any(_name(t) == "rule" for t in targets):
                add(_strings(n.value), "assigned to `rule`")
    return found


def rule_shaped(tree: ast.AST) -> list[tuple[int, str, str]]:
    """Every string constant shaped like a dotted rule id of a known prefix, wherever it appears."""
    return [(n.lineno, n.value, "shaped like a rule id") for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and _ID_SHAPE.match(n.value)
            and n.value not in NOT_RULES and not _FILE_NAME.search(n.value)]


def uncatalogued(text: str) -> list[tuple[int, str, str]]:
    tree = ast.parse(text)
    return sorted({x for x in rule_literals(tree) + rule_shaped(tree) if x[1] not in RULES})


def test_every_rule_id_in_the_source_is_catalogued():
    bad = [f"{p.relative_to(ROOT)}:{line}: {value!r} ({why})" for p in SOURCES
           for line, value, why in uncatalogued(p.read_text())]
    assert not bad, "rule ids not in kopt.rules.RULES:\n" + "\n".join(bad)
    seen = {v for p in SOURCES for _, v, _ in rule_literals(ast.parse(p.read_text()))}
    assert {"race.shared", "runtime.no-gpu", "worker.protocol", "runtime.crash", "launch.mismatch",
            "compile.ptxas-error", "runtime.cuda-error", "runtime.illegal-address"} <= seen  # the scan reaches them


@pytest.mark.parametrize("snippet", [
    'Diagnostic("made.up-rule", Severity.ERROR, "m")',
    'RULES["made.up-rule"].diag("m")',
    'lookup("coalesing")',
    'reply = {"event": "error", "rule": "made.up-rule", "message": "m"}',
    'f(rule="made.up-rule")',
    'STICKY = {"CUDA_ERROR_X": "runtime.illegal-address", "CUDA_ERROR_Y": "runtime.ilegal-address"}',
    'ok = d.rule in ("race.shared", "race.shard")',
    'rule = "compile.error" if bad else "compile.warnings"',
    'x = "runtime.made-up"',
])
def test_the_scan_catches_an_uncatalogued_id(snippet):
    assert uncatalogued(snippet)


def test_catalogue_entries_are_complete():
    families = {r.family for r in RULES.values()}
    assert {"race", "barrier", "bounds", "bank", "coalescing", "async", "compile", "runtime", "check", "timing",
            "profile", "analysis", "launch"} <= families
    for r in RULES.values():
        assert r.id and isinstance(r.severity, Severity) and r.family in families
        assert r.summary and "\n" not in r.summary and len(r.summary) < 100, r.id
        assert r.help.endswith(".") and len(r.help) > len(r.summary), r.id
        assert r.hint is None or r.hint.strip(), r.id


def test_diag_defaults_and_lookup():
    loc = Location("k.cu", 3, role="write")
    d = RULES["race.shared"].diag("msg", loc, witness={"t": 1})
    assert (d.rule, d.severity, d.message, d.locations, d.witness) == ("race.shared", Severity.ERROR, "msg", [loc],
                                                                        {"t": 1})
    assert d.hint == RULES["race.shared"].hint
    d = RULES["bounds.shared"].diag("msg", severity=Severity.WARNING, hint="h")
    assert (d.severity, d.hint, d.locations) == (Severity.WARNING, "h", [])
    assert lookup("coalescing") is RULES["coalescing"] and isinstance(lookup("coalescing"), Rule)
    with pytest.raises(KeyError, match="unknown rule id 'made.up-rule'.*kopt/rules.py"):
        lookup("made.up-rule")
    with pytest.raises(KeyError, match="made.up-rule"):
        RULES["made.up-rule"]
    assert RULES.get("made.up-rule") is None


def test_unknown_ids_from_old_stores_still_load_and_render():
    d = Diagnostic.from_dict({"rule": "old.retired-rule", "severity": "warning", "message": "m"})
    assert d.rule == "old.retired-rule"
    doc = to_sarif([d, RULES["race.shared"].diag("r")])
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rules[0] == {"id": "old.retired-rule"}
    assert rules[1]["shortDescription"]["text"] == RULES["race.shared"].summary
    assert [r["ruleIndex"] for r in doc["runs"][0]["results"]] == [0, 1]


def test_kopt_rules_json_lists_every_rule():
    p = subprocess.run([sys.executable, "-m", "kopt.cli", "rules", "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    listed = json.loads(p.stdout)
    assert [r["id"] for r in listed] == list(RULES)
    assert listed == [r.to_dict() for r in RULES.values()]
    assert set(listed[0]) == {"id", "severity", "family", "summary", "help", "hint"}
    p = subprocess.run([sys.executable, "-m", "kopt.cli", "rules"], capture_output=True, text=True)
    assert p.returncode == 0 and "race.shared" in p.stdout and "runtime.illegal-address" in p.stdout


def test_docs_rules_md_is_current():
    doc = ROOT / "docs" / "rules.md"
    assert doc.read_text() == markdown(), "docs/rules.md is stale: run `kopt rules --markdown > docs/rules.md`"
    assert all(f"## {r}\n" in doc.read_text() for r in RULES)


def test_every_rule_the_analyzer_corpus_emits_is_catalogued():
    sys.path.insert(0, str(ROOT / "tests"))
    from analyzer_labels import corpus_files, parse_labels

    from analyzers import analyze

    emitted, labelled = set(), set()
    for f in corpus_files():
        emitted |= {d.rule for d in analyze(f).diagnostics}
        labelled |= set(parse_labels(f.read_text()))
    emitted |= {d.rule for d in analyze("int x = ;", path="broken.cu").diagnostics}
    assert len(emitted) >= 10 and "analysis.incomplete" in emitted
    assert emitted <= set(RULES), emitted - set(RULES)
    assert labelled <= set(RULES), labelled - set(RULES)


# --- ids chosen at run time -------------------------------------------------------------------------------------
@pytest.mark.parametrize("error, rule, fatal, sticky", [
    (("CUDA_ERROR_ILLEGAL_ADDRESS", "cuLaunchKernel"), "runtime.illegal-address", True, True),
    (("CUDA_ERROR_OUT_OF_MEMORY", "cuMemAlloc(L2 flush buffer)"), "runtime.out-of-memory", False, False),
    (("CUDA_ERROR_SOMETHING_NEW", "cuEventElapsedTime"), "runtime.cuda-error", False, False),
    (("CUDA_ERROR_SOMETHING_NEW", "kernel execution", 999, True), "runtime.cuda-error", True, False),
])
def test_cuda_errors_become_failed_replies_with_catalogued_rules(error, rule, fatal, sticky):
    from kopt import _harness
    from kopt.rules import CUDA_RECOVERABLE, CUDA_STICKY
    from kopt.worker.serve import failure
    from kopt.worker.session import CudaError

    assert {*CUDA_STICKY.values(), *CUDA_RECOVERABLE.values()} <= {r for r in RULES if r.startswith("runtime.")}
    for exc in (_harness.CudaError(*error), CudaError(error[0], error[1], during_wait=len(error) > 2)):
        f = failure(exc, "timing")
        assert (f.rule, f.fatal, f.sticky, f.cuda_error, f.phase) == (rule, fatal, sticky, error[0], "timing")
        assert error[0] in f.message and f.rule in RULES


def test_a_harness_failure_that_is_not_a_cuda_error():
    from kopt.worker.serve import failure
    from kopt.worker.timing import HarnessError

    f = failure(HarnessError("CUPTI requested but unavailable: no libcupti"), "timing")
    assert f.rule == "timing.harness-error" and not f.fatal and f.cuda_error is None


def test_sanitizer_records_map_to_catalogued_rules():
    from kopt.sanitize import TOOLS, diagnostics

    records = {
        "memcheck": ["Invalid __global__ read of size 4 bytes", "Invalid __shared__ write of size 4 bytes",
                     "Invalid __global__ atomic of size 4 bytes", "Misaligned Address",
                     "Some record kopt does not know"],
        "racecheck": ["Error: Race reported between Write access at k()+0x10 in k.cu:3",
                      "Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x4 in block "
                      "(0,0,0) :", "Some record kopt does not know"],
        "synccheck": ["Barrier error detected. Divergent thread(s) in warp.",
                      "Barrier error detected. Invalid arguments.", "Some record kopt does not know"],
        "initcheck": ["Uninitialized __global__ memory read of size 4 bytes", "Some record kopt does not know"],
    }
    got = set()
    for tool in TOOLS:
        for header in records[tool]:
            (d,) = diagnostics(f"========= {header}\n=========     at k()+0x10 in k.cu:3\n", tool)
            assert d.rule.startswith(f"sanitize.{tool}.") and d.rule in RULES
            got.add(d.rule)
    assert got == {r for r in RULES if r.startswith("sanitize.")}  # and every catalogued sanitizer rule is reachable


class _StubWorker:
    """Answers every request with one canned reply (a worker failure), on the CPU."""

    def __init__(self, reply):
        self.reply = reply

    def call(self, request, on_phase=None):
        return self.reply


@pytest.mark.parametrize("reply, rule", [
    (Failed(RULES["runtime.crash"].diag("the worker died during kernel (signal 11): last words"), fatal=True,
            phase="kernel"), "runtime.crash"),
    (Failed(RULES["runtime.illegal-address"].diag("cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS"), fatal=True,
            phase="kernel", cuda_error="CUDA_ERROR_ILLEGAL_ADDRESS", sticky=True), "runtime.illegal-address"),
    (Failed(RULES["worker.exception"].diag("ValueError: no"), detail="tb"), "worker.exception"),
])
def test_worker_failures_become_catalogued_diagnostics(reply, rule):
    from kopt.task import Task

    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    from kopt.checker import check

    v = check(task, ROOT / "bench" / "tasks" / "vector_add" / "baseline.cu", worker=_StubWorker(reply),
                   shapes=[s for s in task.shapes if not s.timed][:1])
    (d,) = [d for d in v.diagnostics if d.rule == rule]
    assert d.severity is Severity.ERROR and d.hint == RULES[rule].hint and d.locations[0].role == "launch"
    assert not v.ran and not v.correct


def test_ptxas_lines_map_to_catalogued_rules():
    from kopt.nvrtc_log import parse_diagnostics

    ds = parse_diagnostics("ptxas error   : bad\nptxas fatal   : worse\nptxas warning : meh\n"
                           "k.cu(3): warning #177-D: unused\nk.cu(4): remark: r\nk.cu(5): error: e\n")
    assert [d.rule for d in ds] == ["compile.ptxas-error", "compile.ptxas-error", "compile.ptxas-warning",
                                    "compile.warning", "compile.remark", "compile.error"]
    assert [d.severity for d in ds] == [RULES[d.rule].severity for d in ds]


def test_ptxas_errors_at_ptx_lines_name_the_target_an_arch_specific_instruction_needs():
    from kopt.nvrtc_log import parse_diagnostics

    log = ("ptxas application ptx input, line 33; error   : Instruction 'wgmma.fence' not supported on .target "
           "'sm_90'\nptxas application ptx input, line 9; error   : Instruction 'cp.async.bulk' not supported on "
           ".target 'sm_80'\nptxas fatal   : Ptx assembly aborted due to errors\n")
    wg, bulk, fatal = parse_diagnostics(log)
    assert wg.rule == bulk.rule == fatal.rule == "compile.ptxas-error"
    assert wg.witness == {"instruction": "wgmma.fence", "target": "sm_90", "needs": "sm_90a"}
    assert "// kopt: arch sm_90a" in wg.hint
    assert bulk.witness is None and bulk.message.startswith("Instruction 'cp.async.bulk'")  # a newer arch, not "a"


def test_sanitize_families_come_from_the_catalogue():
    from kopt.sanitize import family

    assert [family(r) for r in ("race.shared", "race.global", "race.shared.possible", "sync.missing",
                                "barrier.divergent", "bounds.shared", "sanitize.memcheck.invalid-write",
                                "sanitize.racecheck.hazard", "sanitize.synccheck.divergent-barrier",
                                "sanitize.initcheck.uninitialized")] == \
        ["race", "race", "race", "race", "barrier", "bounds", "bounds", "race", "barrier", "init"]
    assert family("warp.implicit-sync") == "warp" and family("old.retired-rule") is None
