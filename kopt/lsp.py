"""``kopt lsp``: a language server for .cu files. On open and save it publishes what ``kopt check`` finds and what
the compiler reports, and offers quick fixes for the mechanical ones:

- an arch-specific instruction (wgmma, setmaxnreg, tcgen05) on a plain target: add ``// kopt: arch sm_90a`` (or
  the target ptxas names), replacing an existing arch line;
- ``sync.missing``: insert ``__syncthreads();`` between the write and the read the Diagnostic names.

Each fix travels in its LSP Diagnostic's ``data``, so a code-action request needs no second analysis.
"""
from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from .diagnostic import Diagnostic, Severity

_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.NOTE: lsp.DiagnosticSeverity.Information}
_ARCH_LINE = re.compile(r"^\s*//\s*kopt:\s*arch\b")
_LAUNCH_LINE = re.compile(r"^\s*//\s*kopt:\s*launch\b")


def findings(path: Path, text: str, arch: str | None = None) -> list[Diagnostic]:
    """The static analyzers' Diagnostics for ``text`` and the compiler's for the file on disk (saved as ``text``)."""
    from .analyze import analyze
    from .errors import KoptError
    from .explain import compile_file

    out: list[Diagnostic] = []
    try:
        out += analyze(text, path=str(path)).diagnostics
    except KoptError as exc:  # a malformed annotation: its located Diagnostic
        out += exc.diagnostics
    try:
        art, launches = compile_file(path, arch=arch)
        out += art.diagnostics + [p for g in launches for p in g.problems]
    except KoptError as exc:  # compile errors; a malformed annotation the analyzers already reported is not
        # repeated; an error without Diagnostics (e.g. only templates, no kernel to compile) shows nothing
        seen = [o.to_dict() for o in out]
        out += [d for d in exc.diagnostics if d.to_dict() not in seen]
    return out


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def fixes(d: Diagnostic, lines: list[str]) -> list[dict]:
    """Quick fixes for ``d`` as ``{"title", "line", "text", "replace"}``: insert ``text`` before 0-based ``line``
    (or replace that line when ``replace``)."""
    needs = (d.witness or {}).get("needs")
    if d.rule in ("compile.ptxas-error", "compile.ptxas-warning") and needs:
        if not any(_LAUNCH_LINE.match(line) for line in lines):
            return []  # not a candidate: an annotation would make it one without launches; --arch is the way
        for i, line in enumerate(lines):
            if _ARCH_LINE.match(line):
                return [{"title": f"Target {needs}: `// kopt: arch {needs}`", "line": i,
                         "text": f"// kopt: arch {needs}\n", "replace": True}]
        return [{"title": f"Target {needs}: add `// kopt: arch {needs}`", "line": 0,
                 "text": f"// kopt: arch {needs}\n", "replace": False}]
    if d.rule == "sync.missing":
        write = next((loc for loc in d.locations if loc.role == "write"), None)
        read = next((loc for loc in d.locations if loc.role == "read"), None)
        if not (write and read) or (write.end_line or write.line) >= read.line or read.line > len(lines):
            return []  # the read comes first (a loop-carried pair): where the barrier goes is a judgement call
        w, r = lines[write.line - 1], lines[read.line - 1]
        # after the write when the read is nested deeper (inside a loop body), else just before the read's line
        # (after any closing brace of a branch the write sits in)
        at, indent = ((write.end_line or write.line), _indent(w)) if len(_indent(r)) > len(_indent(w)) else \
            (read.line - 1, _indent(r))
        return [{"title": f"Insert __syncthreads() before line {at + 1}", "line": at,
                 "text": f"{indent}__syncthreads();\n", "replace": False}]
    return []


def _range(d: Diagnostic, lines: list[str], file: str) -> lsp.Range:
    loc = next((loc for loc in d.locations if Path(loc.file).name == Path(file).name), None)
    if loc is None:  # unlocated (a ptxas error): the first line naming the instruction, else the top of the file
        insn = (d.witness or {}).get("instruction")
        row = next((i for i, line in enumerate(lines) if insn and insn in line), 0)
        return lsp.Range(lsp.Position(row, 0), lsp.Position(row, len(lines[row]) if lines else 0))
    row = max(loc.line - 1, 0)
    text = lines[row] if row < len(lines) else ""
    start = max(loc.col - 1, 0) if loc.col else len(_indent(text))
    end_row = (loc.end_line or loc.line) - 1
    end = loc.end_col if loc.end_col else len(text)  # kopt's end columns are inclusive, LSP's exclusive
    return lsp.Range(lsp.Position(row, start), lsp.Position(max(end_row, row), max(end, start)))


def to_lsp(d: Diagnostic, lines: list[str], uri: str, file: str) -> lsp.Diagnostic:
    related = [lsp.DiagnosticRelatedInformation(
        lsp.Location(Path(loc.file).resolve().as_uri() if Path(loc.file).name != Path(file).name else uri,
                     lsp.Range(lsp.Position(max(loc.line - 1, 0), max(loc.col - 1, 0)),
                               lsp.Position(max(loc.line - 1, 0), max(loc.col - 1, 0)))),
        loc.role or "related location") for loc in d.locations[1:]]
    return lsp.Diagnostic(range=_range(d, lines, file), message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
                          severity=_SEVERITY[d.severity], code=d.rule, source="kopt",
                          related_information=related or None, data={"fixes": fixes(d, lines)})


def build_server(arch: str | None = None) -> LanguageServer:
    from . import __version__

    server = LanguageServer("kopt", __version__)

    def publish(ls: LanguageServer, uri: str) -> None:
        doc = ls.workspace.get_text_document(uri)
        if not doc.path or not doc.path.endswith((".cu", ".cuh")):
            return
        lines = doc.source.splitlines()
        try:
            found = findings(Path(doc.path), doc.source, arch)
        except Exception as exc:  # an analyzer bug must not take the editor's server down with it
            ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"kopt: {doc.path}: {exc!r}"))
            found = []
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, version=doc.version, diagnostics=[to_lsp(d, lines, uri, doc.path) for d in found]))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @server.thread()
    def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams):
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    @server.thread()
    def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams):
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: LanguageServer, params: lsp.CodeActionParams):
        uri, actions = params.text_document.uri, []
        for diag in params.context.diagnostics:
            for fix in (diag.data or {}).get("fixes", []) if isinstance(diag.data, dict) else []:
                row = fix["line"]
                end = lsp.Position(row + 1, 0) if fix["replace"] else lsp.Position(row, 0)
                edit = lsp.TextEdit(lsp.Range(lsp.Position(row, 0), end), fix["text"])
                actions.append(lsp.CodeAction(title=fix["title"], kind=lsp.CodeActionKind.QuickFix,
                                              diagnostics=[diag], is_preferred=True,
                                              edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
        return actions

    return server


def serve(arch: str | None = None) -> None:
    build_server(arch).start_io()
