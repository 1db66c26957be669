"""`kopt lsp` as a subprocess, driven by pygls's language client over stdio: a file with a race gets its
Diagnostic on open, the quick fix inserts the barrier, and the saved file comes back clean; an arch-specific
instruction on a plain target gets the `// kopt: arch` fix."""
import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from analyzer_labels import CORPUS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _apply(text: str, edits: list) -> str:
    """Apply single-line-anchored TextEdits (as kopt's fixes are) to ``text``."""
    lines = text.splitlines(keepends=True)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = e.range.start, e.range.end
        assert start.character == 0 and end.character == 0
        lines[start.line:end.line] = [e.new_text]
    return "".join(lines)


async def _session(files: list[Path]):
    client = LanguageClient("kopt-test", "1")
    published: dict[str, asyncio.Queue] = {f.as_uri(): asyncio.Queue() for f in files}

    logged = []

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def on_log(params: lsp.LogMessageParams):
        logged.append(params.message)

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams):
        published[params.uri].put_nowait(params.diagnostics)

    await client.start_io(sys.executable, "-m", "kopt.cli", "lsp")
    result = await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(),
                                                                root_uri=files[0].parent.as_uri()))
    client.initialized(lsp.InitializedParams())
    out = {"capabilities": result.capabilities, "logged": logged}

    async def round_trip(f: Path, rule: str):
        uri = f.as_uri()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="cuda", version=1, text=f.read_text())))
        diags = await asyncio.wait_for(published[uri].get(), 120)
        target = [d for d in diags if d.code == rule]
        actions = await client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri), range=target[0].range if target else lsp.Range(
                lsp.Position(0, 0), lsp.Position(0, 0)),
            context=lsp.CodeActionContext(diagnostics=target[:1])))
        fixed = _apply(f.read_text(), actions[0].edit.changes[uri]) if actions else None
        if fixed is not None:
            f.write_text(fixed)
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
                [lsp.TextDocumentContentChangeWholeDocument(text=fixed)]))
            client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
            after = await asyncio.wait_for(published[uri].get(), 120)
        else:
            after = None
        return diags, actions, fixed, after

    for f, rule in zip(files, ("sync.missing", "compile.ptxas-error")):
        out[f.name] = await round_trip(f, rule)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return out


def test_lsp_publishes_diagnostics_and_applies_quick_fixes(tmp_path):
    race = tmp_path / "race.cu"
    race.write_text((CORPUS / "gemm_missing_first_sync.cu").read_text())
    wgmma = tmp_path / "wgmma.cu"
    wgmma.write_text(original := "// kopt: launch wg grid=(1) block=(128) args=(out, da, db)\n" + "".join(
        line for line in (ROOT / "tests" / "data" / "wgmma_sm90a.cu").read_text().splitlines(keepends=True)
        if "kopt: arch" not in line))
    out = asyncio.run(asyncio.wait_for(_session([race, wgmma]), 300))
    assert out["capabilities"].code_action_provider
    assert out["logged"] == []  # no analyzer or compiler failure inside the server

    diags, actions, fixed, after = out["race.cu"]
    (miss,) = [d for d in diags if d.code == "sync.missing"]
    assert miss.source == "kopt" and miss.severity == lsp.DiagnosticSeverity.Error
    assert miss.range.start.line == 13  # the write Bs[ty][tx] = ... (line 14, 0-based 13)
    assert [r.message for r in miss.related_information] == ["read"]
    assert "hint:" in miss.message
    assert actions[0].kind == lsp.CodeActionKind.QuickFix and "__syncthreads()" in actions[0].title
    lines = fixed.splitlines()
    assert lines[13].strip().startswith("Bs[ty][tx]") and lines[14] == "    __syncthreads();"
    assert "sync.missing" not in {d.code for d in after}

    diags, actions, fixed, after = out["wgmma.cu"]
    ptxas = [d for d in diags if d.code == "compile.ptxas-error" and "wgmma" in d.message]
    assert ptxas and "wgmma.fence" in original.splitlines()[ptxas[0].range.start.line]
    assert actions[0].title.startswith("Target sm_90a")
    assert fixed.startswith("// kopt: arch sm_90a\n")
    assert not [d for d in after if d.code.startswith("compile.")]


def test_fixes_only_where_they_are_mechanical():
    from kopt.diagnostic import Diagnostic, Location, Severity
    from kopt.lsp import fixes

    ptxas = Diagnostic("compile.ptxas-error", Severity.ERROR, "m", witness={"instruction": "wgmma.fence",
                                                                             "target": "sm_90", "needs": "sm_90a"})
    assert fixes(ptxas, ["__global__ void k() {}"]) == []  # not a candidate: the fix is --arch, not an annotation
    (fix,) = fixes(ptxas, ["// kopt: launch k grid=(1) block=(1) args=()", "// kopt: arch sm_90", "x"])
    assert fix == {"title": "Target sm_90a: `// kopt: arch sm_90a`", "line": 1, "text": "// kopt: arch sm_90a\n",
                   "replace": True}
    lines = ["  for (;;) {", "    float v = s[t + 1];", "    if (t) {", "      s[t] = v;", "    }", "  }"]
    loop_carried = Diagnostic("sync.missing", Severity.ERROR, "m", [Location("k.cu", 4, 7, role="write"),
                                                                      Location("k.cu", 2, 15, role="read")])
    assert fixes(loop_carried, lines) == []
    lines = ["    if (t) {", "      s[t] = x;", "    }", "    y = s[t + 1];"]
    branch = Diagnostic("sync.missing", Severity.ERROR, "m", [Location("k.cu", 2, 7, role="write"),
                                                                Location("k.cu", 4, 9, role="read")])
    assert fixes(branch, lines)[0] == {"title": "Insert __syncthreads() before line 4", "line": 3,
                                             "text": "    __syncthreads();\n", "replace": False}
