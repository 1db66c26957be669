"""A .cu file with host code as ``kopt import`` reads it: libclang's AST (the analyzers' front end, with the runtime's
host API declared and host-only headers read as empty files) for the meaning, a token scan for the extent of each
top-level declaration (host code rarely parses cleanly without its headers, and error recovery shortens extents).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

from .compat import HOST_ONLY, is_host_only
from .errors import InputError, ToolchainError

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
# Standard headers host code includes that libclang should read as empty (not found, they would stop the parse).
_EMPTY_HEADERS = sorted({h for h in HOST_ONLY if not h.endswith("/")} | set(
    "functional numeric array tuple memory chrono atomic iterator optional variant complex bitset span ranges "
    "execution ratio new cstdarg stdarg.h cerrno cctype ctype.h cinttypes inttypes.h stdbool.h ctime time.h "
    "cstring string.h cstdio stdio.h cstdlib stdlib.h".split()))


def kids(c) -> list:
    """Expression children written in the source (default arguments have no extent)."""
    return [x for x in c.get_children() if x.kind.is_expression() and x.extent.end.offset > x.extent.start.offset]


@dataclass
class Chunk:
    """A top-level declaration (or a run of them) by token scan: byte offsets [start, end)."""
    start: int
    end: int
    cursors: list = field(default_factory=list)
    role: str = "other"  # kernel | device | main | host | other | unparsed
    keep: bool = False


class HostSource:
    """The parsed file: its top-level chunks with their cursors, macros, includes and the TU's kernels."""

    def __init__(self, path: Path, text: str, include_dirs):
        from analyzers import clang_front

        # host-only includes of the file are not read at all (same length: offsets stay put)
        parsed = _INCLUDE.sub(lambda m: "//" + m.group(0)[2:] if is_host_only(m.group(2)) else m.group(0), text)
        try:
            clang_front._setup()
            tu = clang_front.translation_unit(path, parsed, include_dirs=include_dirs, host=True,
                                              empty_headers=_EMPTY_HEADERS)
        except clang_front.FrontendError as exc:
            raise (InputError if "could not parse" in str(exc) else ToolchainError)(f"cannot read {path}: {exc}")
        self.ci, self.evaluate, self.binop = clang_front.ci, clang_front._evaluate, clang_front._binop
        self.tu, self.fname, self.text = tu, str(path), text
        self.src = text.encode()
        self.line_starts = [0] + [i + 1 for i, b in enumerate(self.src) if b == 0x0A]
        K = self.ci.CursorKind
        extent = tu.get_extent(self.fname, (0, len(self.src)))
        self.tokens = [t for t in tu.get_tokens(extent=extent) if t.kind.name != "COMMENT"]
        self.tok_starts = [t.extent.start.offset for t in self.tokens]
        self.macros: dict[str, object] = {}  # name -> MACRO_DEFINITION cursor
        self.expansions: list[tuple[int | None, str]] = []  # (offset in the file or None in a header, macro)
        self.includes = [(text.count("\n", 0, m.start()) + 1, m.group(2), m.group(1) == '"')
                         for m in _INCLUDE.finditer(text)]  # (line, header, quoted)
        self.kernels: dict[str, object] = {}  # every __global__ function of the unit (headers too), by name
        decls = []
        for c in tu.cursor.get_children():
            self._collect_kernels(c)
            if not self.mine(c):
                if c.kind == K.MACRO_INSTANTIATION and c.location.file is not None:
                    self.expansions.append((None, c.spelling))
                continue
            if c.kind == K.MACRO_DEFINITION:
                self.macros[c.spelling] = c
            elif c.kind == K.MACRO_INSTANTIATION:
                self.expansions.append((c.extent.start.offset, c.spelling))
            elif c.kind != K.INCLUSION_DIRECTIVE:
                decls.append(c)
        self.chunks = self._scan(0, len(self.tokens))
        self.starts = [ch.start for ch in self.chunks]
        for c in decls:
            self._attach(c)
        self.errors = [d for d in tu.diagnostics if d.severity >= 3 and d.location.file
                       and d.location.file.name == self.fname]

    def mine(self, c) -> bool:
        return c.location.file is not None and c.location.file.name == self.fname

    def header_references(self):
        """Declarations of this file that code in its local headers (included after them) refers to."""
        from analyzers import clang_front

        system = (str(clang_front.HERE), clang_front._EMPTY)
        for c in self.tu.cursor.get_children():
            f = c.location.file
            if f is None or f.name == self.fname or f.name.startswith(system) or "site-packages" in f.name:
                continue
            for sub in c.walk_preorder():
                ref = sub.referenced if sub.kind.is_reference() or sub.kind.is_expression() else None
                if ref is not None and self.mine(ref):
                    yield ref

    def _collect_kernels(self, c):
        K = self.ci.CursorKind
        if c.kind in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
            for sub in c.get_children():
                self._collect_kernels(sub)
        elif c.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE) and self.is_kernel(c):
            if c.spelling not in self.kernels or c.is_definition():
                self.kernels[c.spelling] = c

    def _attach(self, c):
        K = self.ci.CursorKind
        if c.kind in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL) and any(True for _ in c.get_children()):
            for sub in c.get_children():
                if self.mine(sub):
                    self._attach(sub)
            return
        i = self.chunk_at(c.extent.start.offset)
        if i is not None:
            self.chunks[i].cursors.append(c)

    # --- text helpers
    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset)

    def line_text(self, n: int) -> str:
        end = self.line_starts[n] if n < len(self.line_starts) else len(self.src)
        return self.src[self.line_starts[n - 1]:end].decode(errors="replace")

    def text_of(self, c) -> str:
        e = c.extent
        if e.start.file is None or e.start.file.name != self.fname:
            return c.spelling or ""
        return " ".join(self.src[e.start.offset:e.end.offset].decode(errors="replace").split())

    def macro_body(self, c) -> str:
        """The replacement text of a MACRO_DEFINITION cursor (its extent starts at the name)."""
        return self.text_of(c)[len(c.spelling):].strip()

    def chunk_at(self, offset: int) -> int | None:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i if i >= 0 and offset < self.chunks[i].end else None

    # --- the token scan
    def _is_directive(self, i: int) -> bool:
        t = self.tokens[i]
        return t.spelling == "#" and (i == 0 or self.tokens[i - 1].extent.start.line != t.extent.start.line)

    def _directive_end(self, i: int) -> int:
        """Index of the first token after the preprocessor directive starting at token ``i``."""
        last = self.tokens[i].extent.start.line
        while self.line_text(last).rstrip("\r\n").endswith("\\"):
            last += 1
        j = i
        while j < len(self.tokens) and self.tokens[j].extent.start.line <= last:
            j += 1
        return j

    def _scan(self, i: int, end: int) -> list[Chunk]:
        """Top-level declarations between tokens ``i`` and ``end``: each ends at a ``;`` outside brackets or at the
        ``}`` closing a function body; namespaces and ``extern "C" {`` blocks are scanned inside."""
        out, toks = [], self.tokens
        while i < end:
            if self._is_directive(i):
                i = self._directive_end(i)
                continue
            s = toks[i].spelling
            if s == "namespace" or (s == "extern" and i + 2 < end and toks[i + 1].kind.name == "LITERAL"
                                    and toks[i + 2].spelling == "{"):
                block = next((j for j in range(i, end) if toks[j].spelling in ("{", ";")), None)
                if block is not None and toks[block].spelling == "{":
                    close = self._matching(block, end)
                    out += self._scan(block + 1, close)
                    i = close + 1 + (close + 1 < end and toks[close + 1].spelling == ";")
                    continue
            j, depth, body, typeish = i, 0, False, False
            while j < end:
                if self._is_directive(j):
                    j = self._directive_end(j)
                    continue
                t = toks[j].spelling
                if t in ("(", "[", "{"):
                    if t == "{" and depth == 0:
                        body = not typeish
                    depth += 1
                elif t in (")", "]", "}"):
                    depth -= 1
                    if t == "}" and depth == 0 and body:
                        if j + 1 < end and toks[j + 1].spelling == ";":
                            j += 1
                        break
                elif t == ";" and depth <= 0:
                    break
                elif depth == 0 and t in ("=", "class", "struct", "union", "enum", "typedef"):
                    typeish = True
                j += 1
            j = min(j, end - 1)
            out.append(Chunk(toks[i].extent.start.offset, toks[j].extent.end.offset))
            i = j + 1
        return out

    def _matching(self, i: int, end: int) -> int:
        depth = 0
        for j in range(i, end):
            s = self.tokens[j].spelling
            depth += (s == "{") - (s == "}")
            if depth == 0:
                return j
        return end - 1

    # --- cursor helpers
    def attrs(self, c) -> set[str]:
        return {x.kind.name for x in c.get_children() if x.kind.is_attribute()}

    def is_kernel(self, c) -> bool:
        return "CUDAGLOBAL_ATTR" in self.attrs(c)


class Scope:
    """A host function's writes to its variables (assignments, member assignments, ``+=``/``++``) and loop
    variables, read once. A write inside a branch or loop that does not also hold the launch is not on the
    launch's default path (``if (argc > 1) n = atoi(argv[1]);``) and is passed over."""

    _BRANCHES = ("IF_STMT", "SWITCH_STMT", "FOR_STMT", "WHILE_STMT", "DO_STMT", "CXX_FOR_RANGE_STMT")

    def __init__(self, u: HostSource, cursors):
        self.u = u
        self.events: dict[int, list] = {}  # hash(decl) -> [(offset, kind, member, value, (branch start, end))]
        self.loop_vars: set[int] = set()
        for f in cursors:
            self._walk(f, None)

    def _walk(self, c, branch):
        K, u = self.u.ci.CursorKind, self.u
        k = c.kind
        if k.name in self._BRANCHES:
            branch = (c.extent.start.offset, c.extent.end.offset)
            if k == K.FOR_STMT:
                first = next(iter(c.get_children()), None)
                if first is not None and first.kind == K.DECL_STMT:
                    self.loop_vars |= {hash(v) for v in first.get_children() if v.kind == K.VAR_DECL}
        elif k == K.BINARY_OPERATOR:
            ch = kids(c)
            if len(ch) == 2 and u.binop(c) == "=":
                lhs = strip_implicit(u, ch[0])
                if lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None:
                    self._add(lhs.referenced, (c.extent.start.offset, "assign", None, ch[1], branch))
                elif lhs.kind == K.MEMBER_REF_EXPR:
                    base = kids(lhs)
                    ref = strip_implicit(u, base[0]).referenced if base else None
                    if ref is not None:
                        self._add(ref, (c.extent.start.offset, "member", lhs.spelling, ch[1], branch))
        elif k in (K.COMPOUND_ASSIGNMENT_OPERATOR, K.UNARY_OPERATOR):
            ch = kids(c)
            text = u.text_of(c)  # (not get_tokens(): inside a macro expansion it spans the macro's definition)
            if ch and (k == K.COMPOUND_ASSIGNMENT_OPERATOR or text[:2] in ("++", "--") or text[-2:] in ("++", "--")):
                target = strip_implicit(u, ch[0])
                if target.kind == K.DECL_REF_EXPR and target.referenced is not None:
                    self._add(target.referenced, (c.extent.start.offset, "modify", None, None, branch))
        for sub in c.get_children():
            self._walk(sub, branch)

    def _add(self, decl, event):
        self.events.setdefault(hash(decl), []).append(event)

    def before(self, decl, pos: int) -> list:
        """Writes to ``decl`` on the way to ``pos``: (offset, "assign" | "member" | "modify", member, value)."""
        return [e[:4] for e in sorted(self.events.get(hash(decl), ()), key=lambda e: e[0])
                if e[0] < pos and (e[4] is None or e[4][0] <= pos < e[4][1])]


def strip_implicit(u: HostSource, c):
    K = u.ci.CursorKind
    while c.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
        ch = kids(c)
        if len(ch) != 1:
            break
        c = ch[0]
    return c
