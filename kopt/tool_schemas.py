"""What each tool promises to return, as JSON Schema (the MCP tools' ``outputSchema``), and what it may change
(the MCP tool annotations).

Every result is an object with ``ok``. A failure (``ok: false``) has ``error`` and ``diagnostics``; a success has the
tool's own keys, listed here with their types. Objects stay open (extra keys allowed) so a tool can grow a field
without breaking clients.
"""
from __future__ import annotations

_STR, _INT, _NUM, _BOOL = {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}
_OBJ, _ARR = {"type": "object"}, {"type": "array"}
_NULLABLE_NUM = {"type": ["number", "null"]}

LOCATION = {"type": "object", "required": ["file", "line"],
            "properties": {"file": _STR, "line": _INT, "col": _INT, "end_line": _INT, "end_col": _INT, "role": _STR}}
DIAGNOSTIC = {"type": "object", "required": ["rule", "severity", "message", "locations"],
              "properties": {"rule": _STR, "severity": {"enum": ["error", "warning", "note"]}, "message": _STR,
                             "locations": {"type": "array", "items": LOCATION}, "witness": _OBJ, "hint": _STR}}
DIAGNOSTICS = {"type": "array", "items": DIAGNOSTIC}

# tool -> (properties of a successful result, the required ones)
_RESULTS: dict[str, tuple[dict, list[str]]] = {
    "kb_search": ({"hits": {"type": "array", "items": _OBJ}}, ["hits"]),
    "kb_show": ({"text": _STR}, ["text"]),
    "read_candidate": ({"path": _STR, "text": _STR, "truncated": _BOOL}, ["path", "text", "truncated"]),
    "write_candidate": ({"path": _STR, "bytes": _INT}, ["path", "bytes"]),
    "list_tasks": ({"tasks": {"type": "array", "items": {"type": "object", "required": ["task"], "properties": {
        "task": _STR, "description": _STR, "timed": {"type": "array", "items": _STR}, "error": _STR}}}}, ["tasks"]),
    "compile": ({"arch": _STR, "kernels": _OBJ, "launches": _ARR, "warnings": DIAGNOSTICS},
                ["arch", "kernels", "launches", "warnings"]),
    "explain": ({"arch": _STR, "kernels": _OBJ, "launches": _ARR}, ["arch", "kernels", "launches"]),
    "check": ({"assumed": _STR, "launches": _ARR, "errors": _INT, "diagnostics": DIAGNOSTICS, "truncated": _BOOL},
              ["errors", "diagnostics", "truncated"]),
    "validate": ({"valid": _BOOL, "task": _STR, "configurations": _ARR, "diagnostics": DIAGNOSTICS,
                  "truncated": _BOOL}, ["valid", "configurations", "diagnostics", "truncated"]),
    "run_history": ({"evaluations": {"type": "array", "items": _OBJ}}, ["evaluations"]),
    "evaluate": ({"correct": _BOOL, "status": _STR, "speedup": _NULLABLE_NUM, "shapes": _ARR,
                  "diagnostics": DIAGNOSTICS}, ["correct", "status", "shapes", "diagnostics"]),
    "optimize": ({"run": _INT, "task": _STR, "stop_reason": _STR, "evaluations": _INT, "best": {"type": ["object",
                  "null"]}}, ["run", "task", "stop_reason", "evaluations", "best"]),
    "profile": ({"task": _STR, "kernels": _ARR, "diagnostics": DIAGNOSTICS},
                ["task", "kernels", "diagnostics"]),
    "sanitize": ({"task": _STR, "clean": _BOOL, "counts": _OBJ, "diagnostics": DIAGNOSTICS,
                  "truncated": _BOOL}, ["clean", "counts", "diagnostics"]),
}


def output_schema(tool: str) -> dict:
    props, required = _RESULTS[tool]
    return {"type": "object", "required": ["ok"],
            "properties": {"ok": _BOOL, "error": _STR, "diagnostics": DIAGNOSTICS, **props},
            "if": {"properties": {"ok": {"const": True}}},
            "then": {"required": required},
            "else": {"required": ["error", "diagnostics"]}}


# MCP tool annotations: what a call may change. Only write_candidate overwrites a file the agent may care about;
# optimize adds to the run store and writes its best candidate under .kopt/runs, never over an existing file.
READ_ONLY = frozenset({"kb_search", "kb_show", "read_candidate", "list_tasks", "compile", "explain", "check",
                       "validate", "run_history", "evaluate", "profile", "sanitize"})
DESTRUCTIVE = frozenset({"write_candidate"})
IDEMPOTENT = frozenset({"write_candidate"}) | READ_ONLY - {"evaluate", "profile", "sanitize"}


def annotations(tool: str) -> dict:
    return {"readOnlyHint": tool in READ_ONLY, "destructiveHint": tool in DESTRUCTIVE,
            "idempotentHint": tool in IDEMPOTENT, "openWorldHint": False}
