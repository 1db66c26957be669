"""``kopt import``: a candidate from a .cu file with host code.

The file is read by ``kopt.hostcode`` (libclang for the meaning, a token scan for each top-level declaration's
extent). Kept: the kernels, ``__device__`` code and device variables, and whatever else they use (types, constants,
templates, macros); removed: ``main``, host functions, host-only includes and what only they use. Each
``<<<grid, block, smem, stream>>>`` launch site in host code becomes a ``// kopt: launch`` line: its expressions are
followed through the host function's variables, template arguments and the file's macros, and mapped onto the task's
size symbols and argument names (``(N + 255) / 256`` -> ``cdiv(n, 256)``); what cannot be mapped becomes a
``// kopt: TODO`` line with the original expression. Integer ``#define``s a launch uses become ``define`` lines
(``tune`` when they set a block size or a kernel's template argument).
"""
from __future__ import annotations

import ast
import bisect
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import expr
from .compat import is_host_only
from .errors import InputError
from .hostcode import Chunk, HostSource, Scope, kids, strip_implicit
from .source import c_macros, read_source
from .task import Task

_CONFIG_CALLS = ("cudaConfigureCall", "__cudaPushCallConfiguration")
_DIV_UP = re.compile(r"(?i)^(?:i?div_?up|ceil_?div|div_?ceil|cdiv|divide_?up|div_?round_?up|ceil_?divide)$")
_MIN_MAX = {"min": "min", "max": "max", "fmin": "min", "fmax": "max", "fminf": "min", "fmaxf": "max",
            "umin": "min", "umax": "max", "llmin": "min", "llmax": "max"}
_BUFFER_AFFIXES = re.compile(r"^(?:d_|dev_|device_|gpu_|g_|p_)|(?:_d|_dev|_device|_gpu)$")
_SIZEOF = {"char": 1, "signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2, "int": 4,
           "unsigned int": 4, "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8, "float": 4,
           "double": 8, "half": 2, "__half": 2, "__nv_bfloat16": 2, "int8_t": 1, "uint8_t": 1, "int16_t": 2,
           "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8, "size_t": 8}
_TEMPLATE_PARAMS = ("TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER", "TEMPLATE_TEMPLATE_PARAMETER")


@dataclass
class Item:
    """One expression of a launch: where it came from and what the annotation says (None: a person decides)."""
    what: str  # "grid", "block", "smem", "stream", "arg NAME"
    original: str  # the host expression
    mapped: str | None
    note: str = ""

    def to_dict(self) -> dict:
        return {"what": self.what, "original": self.original, "mapped": self.mapped, "note": self.note}


@dataclass
class Launch:
    kernel: str  # name expression in the annotation
    line: int  # of the launch site in the source
    items: list[Item]
    annotation: str  # the "// kopt: launch ..." line
    todos: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"kernel": self.kernel, "line": self.line, "annotation": self.annotation, "todos": self.todos,
                "items": [i.to_dict() for i in self.items]}


@dataclass
class KernelImport:
    name: str
    line: int  # of its definition (0: in an included header)
    launches: list[Launch] = field(default_factory=list)
    todos: list[str] = field(default_factory=list)

    @property
    def needs_person(self) -> bool:
        return bool(self.todos or any(l.todos for l in self.launches))

    def to_dict(self) -> dict:
        return {"name": self.name, "line": self.line, "needs_person": self.needs_person, "todos": self.todos,
                "launches": [l.to_dict() for l in self.launches]}


@dataclass
class Imported:
    """What ``import_file`` made of a source: the candidate's text and, per kernel, what was mapped and what needs
    a person (every such point is also a ``// kopt: TODO`` line of the candidate)."""
    source: str
    candidate: str
    task: str | None
    kernels: list[KernelImport]
    annotations: list[str]  # the candidate's // kopt: lines
    removed: list[str]  # what was removed, one line each
    notes: list[str]  # observations that need no change
    todos: list[str]  # every TODO, file-level ones included

    @property
    def needs_person(self) -> bool:
        return bool(self.todos)

    def to_dict(self) -> dict:
        return {"source": self.source, "task": self.task, "needs_person": self.needs_person, "todos": self.todos,
                "kernels": [k.to_dict() for k in self.kernels], "annotations": self.annotations,
                "removed": self.removed, "notes": self.notes, "candidate": self.candidate}


class _Unmapped(Exception):
    """An expression the annotation language cannot say (the message says which part)."""


def import_file(file, *, kernel: str | None = None, task: Task | str | Path | None = None, include_dirs=(),
                out: str | Path | None = None) -> Imported:
    """Make a candidate of ``file`` (a .cu with host code): see the module docstring. ``kernel``: only this kernel
    (by name) and what it uses; ``task``: a task (or its directory) whose size symbols and argument names the
    launch expressions are mapped onto; ``include_dirs``: where the file's headers are (written into the candidate
    as ``// kopt: include`` lines); ``out``: where the candidate will be written (include lines are relative to
    its folder). Raises ``InputError`` for a file without kernels, one libclang cannot read, or an unknown
    ``kernel``."""
    text, name, path = read_source(Path(file))
    if "__global__" not in text and "<<<" not in text:
        raise InputError(f"{name} has no __global__ kernel and no <<<...>>> launch: nothing to import")
    t = task if isinstance(task, Task) or task is None else Task.load(task)
    dirs = [Path(d).resolve() for d in include_dirs]
    for d in dirs:
        if not d.is_dir():
            raise InputError(f"include directory {d} does not exist")
    unit = HostSource(path, text, dirs)
    return _Importer(unit, t, kernel, dirs, Path(out) if out else None).run()


# --- the importer ---------------------------------------------------------------------------------------------------
class _Importer:
    def __init__(self, unit: HostSource, task: Task | None, kernel: str | None, include_dirs, out: Path | None):
        self.u, self.task, self.include_dirs, self.out = unit, task, include_dirs, out
        self.want = kernel.split("<")[0].strip() if kernel else None
        self.K = unit.ci.CursorKind
        self.symbols = list(task.shapes[0].symbols) if task and task.shapes else []
        self.tunes: dict[str, int] = {}  # macros that become tune lines
        self.defines: dict[str, str] = {}  # macros that become define lines
        self.removed: list[str] = []
        self.notes: list[str] = []
        self.file_todos: list[str] = []
        self.macro_values = self._macro_values()
        self.scopes: dict[int, Scope] = {}
        self.instantiations: dict[int, list[dict]] = {}

    def run(self) -> Imported:
        u, K = self.u, self.K
        for ch in u.chunks:
            ch.role = self._role(ch)
        sites = self._launch_sites()
        defined = list(dict.fromkeys(c.spelling for ch in u.chunks if ch.role == "kernel" for c in ch.cursors
                                     if u.is_kernel(c)))
        launched = list(dict.fromkeys(k for _, _, k in sites if k in u.kernels))
        names = list(dict.fromkeys(defined + launched))
        if not names:
            why = u.errors[0].spelling if u.errors else "no __global__ function is defined or launched"
            raise InputError(f"cannot import {u.fname}: {why}")
        if self.want is not None and self.want not in names:
            raise InputError(f"unknown kernel {self.want!r}: {u.fname} defines or launches {', '.join(names)}")
        for ch in u.chunks:  # the roots; _close_over_references adds what they use
            if ch.role == "kernel":
                ch.keep = self.want is None or any(c.spelling == self.want for c in ch.cursors)
            elif ch.role == "device":
                ch.keep = self.want is None
            elif ch.role == "other":
                ch.keep = any(c.kind in (K.USING_DIRECTIVE, K.STATIC_ASSERT) for c in ch.cursors)
        self._close_over_references()
        self._host_set_symbols()
        reports = self._kernel_reports([n for n in names if self.want in (None, n)], sites)
        return self._assemble(reports)

    def _host_set_symbols(self):
        """A TODO for each kept device variable host code fills (cudaMemcpyToSymbol): no host code runs."""
        u, K = self.u, self.K
        kept = {c.spelling for ch in u.chunks if ch.keep for c in ch.cursors if c.kind == K.VAR_DECL}
        for ch in u.chunks:
            for c in ch.cursors if not ch.keep else ():
                for sub in c.walk_preorder():
                    if sub.kind == K.CALL_EXPR and sub.spelling in ("cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync"):
                        first = kids(sub)[1:2]
                        name = re.sub(r"\W", "", u.text_of(first[0])) if first else ""
                        if name in kept:
                            self.file_todos.append(
                                f"line {sub.extent.start.line}: host code fills {name} ({sub.spelling}), which "
                                f"no candidate can do: give {name} its values in its declaration, or make it a "
                                "kernel argument")

    def _role(self, ch: Chunk) -> str:
        u, K = self.u, self.K
        if not ch.cursors:
            return "unparsed"
        roles = set()
        for c in ch.cursors:
            a = u.attrs(c)
            if "CUDAGLOBAL_ATTR" in a:
                roles.add("kernel")
            elif a & {"CUDADEVICE_ATTR", "CUDACONSTANT_ATTR", "CUDASHARED_ATTR"}:
                roles.add("device")
            elif c.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE) and c.spelling == "main":
                roles.add("main")
            elif "CUDAHOST_ATTR" in a:
                roles.add("host")
            else:
                roles.add("other")
        return next((r for r in ("kernel", "device", "main", "host") if r in roles), "other")

    def _close_over_references(self):
        """Keep every declaration the kept code uses, transitively (main and __host__ functions excepted)."""
        u = self.u
        by_name: dict[str, list[int]] = {}
        for i, ch in enumerate(u.chunks):
            for c in ch.cursors:
                by_name.setdefault(c.spelling, []).append(i)
        todo = [i for i, ch in enumerate(u.chunks) if ch.keep]
        for ref in u.header_references():  # what the file's own headers use of it (they stay included)
            j = u.chunk_at(ref.extent.start.offset)
            if j is not None and not u.chunks[j].keep and u.chunks[j].role not in ("main", "host"):
                u.chunks[j].keep = True
                todo.append(j)
        seen = set(todo)
        while todo:
            for c in u.chunks[todo.pop()].cursors:
                for sub in c.walk_preorder():
                    targets = []
                    if sub.kind == self.K.OVERLOADED_DECL_REF:
                        targets = by_name.get(sub.spelling, [])
                    elif sub.kind.is_reference() or sub.kind.is_expression():
                        ref = sub.referenced
                        if ref is not None and u.mine(ref):
                            j = u.chunk_at(ref.extent.start.offset)
                            targets = [j] if j is not None else []
                    for j in targets:
                        if j not in seen and u.chunks[j].role not in ("main", "host"):
                            seen.add(j)
                            u.chunks[j].keep = True
                            todo.append(j)

    # ---- macros
    def _macro_values(self) -> dict[str, int]:
        """Integer values of the file's object-like macros (C semantics, other macros expanded)."""
        raw = c_macros(self.u.text)
        env = {k: f"({b})" for k, b in raw.items()}
        out = {}
        for name, body in raw.items():
            v = expr.try_evaluate(body, {k: b for k, b in env.items() if k != name}, c=True)
            if isinstance(v, int) and not isinstance(v, bool):
                out[name] = v
        return out

    def _macros_in_kept_code(self) -> tuple[set[str], set[str]]:
        """(macros expanded in kept code or in kept macros, macros expanded only in removed code)."""
        u = self.u
        kept, removed = set(), set()
        for off, name in u.expansions:  # offset None: in an included header (kept)
            j = u.chunk_at(off) if off is not None else None
            (kept if off is None or j is not None and u.chunks[j].keep else removed).add(name)
        todo = list(kept)
        while todo:
            c = u.macros.get(todo.pop())
            for ident in re.findall(r"[A-Za-z_]\w*", u.macro_body(c)) if c is not None else ():
                if ident in u.macros and ident not in kept:
                    kept.add(ident)
                    todo.append(ident)
        return kept, removed - kept

    # ---- launch sites
    def _launch_sites(self) -> list[tuple[int, object, str]]:
        """(chunk index, CALL_EXPR, kernel name) of every <<<...>>> launch in the file, in source order."""
        u, K = self.u, self.K
        out = []
        for i, ch in enumerate(u.chunks):
            for c in ch.cursors:
                for sub in c.walk_preorder():
                    if sub.kind == K.CALL_EXPR and any(x.kind == K.CALL_EXPR and x.spelling in _CONFIG_CALLS
                                                       for x in sub.get_children()):
                        out.append((i, sub, self._callee(sub)[0]))
        return sorted(out, key=lambda s: s[1].extent.start.offset)

    def _callee(self, call) -> tuple[str, object]:
        """(name, declaration or None) of what a launch calls: the kernel (its specialization when the arguments
        are known), or a function pointer's variable."""
        K, u = self.K, self.u
        callee = strip_implicit(u, next(iter(call.get_children())))
        ref = callee.referenced
        if ref is not None and ref.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.VAR_DECL, K.PARM_DECL,
                                            K.FIELD_DECL):
            return ref.spelling, ref
        over = next((x for x in callee.walk_preorder() if x.kind == K.OVERLOADED_DECL_REF), None)
        name = over.spelling if over is not None else (ref.spelling if ref is not None else callee.spelling)
        return name, u.kernels.get(name)  # a dependent call: the kernel template itself

    def scope(self, chunk: int) -> Scope:
        if chunk not in self.scopes:
            self.scopes[chunk] = Scope(self.u, self.u.chunks[chunk].cursors)
        return self.scopes[chunk]

    def instantiations_of(self, func) -> list[dict]:
        """Template arguments of each instantiation of the host function template ``func`` called in the file
        ({parameter name: argument text}), in source order."""
        key = hash(func)
        if key not in self.instantiations:
            K = self.K
            params = [c.spelling for c in func.get_children() if c.kind.name in _TEMPLATE_PARAMS]
            found = []
            for ch in self.u.chunks:
                for c in ch.cursors:
                    for sub in c.walk_preorder():
                        ref = sub.referenced if sub.kind == K.DECL_REF_EXPR else None
                        if ref is None or ref.spelling != func.spelling or ref.get_num_template_arguments() <= 0:
                            continue
                        args = {}
                        for i, p in enumerate(params[:ref.get_num_template_arguments()]):
                            kind = ref.get_template_argument_kind(i).name
                            args[p] = (ref.get_template_argument_type(i).spelling if kind == "TYPE" else
                                       str(ref.get_template_argument_value(i)) if kind == "INTEGRAL" else None)
                        if args and None not in args.values() and args not in found:
                            found.append(args)
            self.instantiations[key] = found
        return self.instantiations[key]

    def global_constant(self, name: str):
        """The file's namespace-scope variable ``name`` (a ``const``/``constexpr`` size), or None."""
        for ch in self.u.chunks:
            for c in ch.cursors:
                if c.kind == self.K.VAR_DECL and c.spelling == name:
                    return c
        return None

    def _kernel_reports(self, names: list[str], sites) -> list[KernelImport]:
        u = self.u
        reports = {n: KernelImport(n, u.kernels[n].extent.start.line if u.kernels.get(n) is not None and
                                   u.mine(u.kernels[n]) else 0) for n in names}
        seen = set()
        for ch in u.chunks:  # a launch in device code (dynamic parallelism): libclang drops it from the AST
            if ch.keep and ch.role in ("kernel", "device"):
                for t in u.tokens[bisect.bisect_left(u.tok_starts, ch.start):bisect.bisect_left(u.tok_starts, ch.end)]:
                    if t.spelling == "<<<":
                        self.file_todos.append(f"line {t.extent.start.line}: a kernel launch in device code "
                                               "(dynamic parallelism), which kopt does not support: launch it "
                                               "from the annotations instead")
        for i, call, name in sites:
            if u.chunks[i].role in ("kernel", "device"):
                continue
            if name not in reports:
                if name not in u.kernels and self.want is None:
                    self.file_todos.append(f"line {call.extent.start.line}: a launch through {name!r}, not a "
                                           "kernel by name: write its launch line by hand")
                continue
            launch = _LaunchMapper(self, i, call).map()
            if launch.annotation not in seen:
                seen.add(launch.annotation)
                reports[name].launches.append(launch)
        for k in reports.values():
            if not k.launches:
                decl = u.kernels[k.name]
                params = [p.spelling for p in decl.get_children() if p.kind == self.K.PARM_DECL]
                tparams = [c.spelling for c in decl.get_children() if c.kind.name in _TEMPLATE_PARAMS]
                name = f"{k.name}<{', '.join(tparams)}>" if tparams else k.name
                todo = f"no <<<...>>> launch of {k.name} in this file: grid, block" + \
                       (", template arguments" if tparams else "") + " and args are placeholders"
                ann = f"// kopt: launch {name} grid=(1) block=(1) args=({', '.join(params) or '0'})"
                k.launches.append(Launch(name, k.line, [], ann, [todo]))
            elif len(k.launches) > 1:
                lines = ", ".join(str(l.line) for l in k.launches)
                k.todos.append(f"{k.name} is launched from {len(k.launches)} sites with different configurations "
                               f"(lines {lines}): keep the launch lines that run, in order")
        launched = [k.name for k in reports.values() if any(l.items for l in k.launches)]
        if len(launched) > 1:
            self.notes.append(f"{len(launched)} kernels are launched ({', '.join(launched)}): the candidate runs "
                              "every launch line in source order; --kernel NAME imports one kernel")
        return list(reports.values())

    # ---- the candidate
    def _assemble(self, reports: list[KernelImport]) -> Imported:
        u = self.u
        cut: list[tuple[int, int]] = []  # byte ranges to remove
        what = {"main": "main()", "kernel": "kernel", "device": "device code", "host": "host function",
                "other": "host code", "unparsed": "code libclang could not read"}
        for ch in u.chunks:
            if not ch.keep:
                names = ", ".join(dict.fromkeys(c.spelling for c in ch.cursors if c.spelling))
                self.removed.append(f"line {u.line(ch.start)}: {what[ch.role]}" +
                                    (f" {names}" if names and ch.role != "main" else ""))
                cut.append(self._with_comment_above(ch.start, ch.end))
        used, only_removed = self._macros_in_kept_code()
        for name, c in u.macros.items():
            first, last = c.extent.start.line, c.extent.end.line
            if name in self.tunes or name in self.defines:
                cut.append(self._lines(first, last))
            elif name in only_removed:
                cut.append(self._lines(first, last))
                self.removed.append(f"line {first}: #define {name} (used by host code only)")
        self._check_fixed_sizes(used)
        search = self._search_dirs()
        for line, header, quoted in u.includes:
            if is_host_only(header) or not self._resolvable(header, quoted, search):
                cut.append(self._lines(line, line))
                why = "host-only" if is_host_only(header) else "not on kopt's include path"
                spelled = f'"{header}"' if quoted else f"<{header}>"
                self.removed.append(f"line {line}: #include {spelled} ({why})")
        body = self._cut(cut)
        head = [f"// kopt: task {self.task.name}"] if self.task is not None else []
        head += [f"// kopt: include {d}" for d in self._include_lines()]
        if self.tunes:
            head.append("// kopt: tune " + "; ".join(f"{k} in [{v}]" for k, v in self.tunes.items()))
        head += [f"// kopt: define {k}={v}" for k, v in self.defines.items()]
        todos = self.file_todos + [t for k in reports for t in k.todos]
        head += [f"// kopt: TODO {t}" for t in todos]
        for launch in sorted((l for k in reports for l in k.launches), key=lambda l: l.line):
            head += [f"// kopt: TODO {t}" for t in launch.todos] + [launch.annotation]
            todos += launch.todos
        note = f"// Device code of {Path(u.fname).name}, imported by `kopt import` (host code removed).\n"
        candidate = "\n".join(head) + "\n" + note + body.lstrip("\n")
        removed = sorted(self.removed, key=lambda r: int(r.split(":")[0].split()[1]))
        return Imported(u.fname, candidate, self.task.name if self.task else None, reports, head, removed,
                        self.notes, todos)

    def _check_fixed_sizes(self, used_macros: set[str]):
        """A size the device code fixes at compile time (a macro or a const global) that a launch maps onto a
        task symbol: every shape must have that value."""
        if self.task is None:
            return
        fixed = {n: self.macro_values[n] for n in used_macros if n in self.macro_values}
        for ch in self.u.chunks:
            for c in ch.cursors if ch.keep and ch.role == "other" else ():
                if c.kind == self.K.VAR_DECL and c.type.is_const_qualified():
                    v = next((self.u.evaluate(x) for x in c.get_children() if x.kind.is_expression()), None)
                    if isinstance(v, int):
                        fixed[c.spelling] = v
        for name, value in fixed.items():
            sym = self._symbol(name)
            bad = [s for s in self.task.shapes if sym and s.symbols.get(sym) != value]
            if bad:
                self.file_todos.append(f"the device code is compiled for {name} = {value}, but the task's shape "
                                       f"{bad[0].label} has {sym} = {bad[0].symbols.get(sym)}: make {name} a "
                                       f"kernel argument, or keep to shapes with {sym} = {value}")

    def _search_dirs(self) -> list[Path]:
        from .toolchain import default_headers

        return [*self.include_dirs, *(Path(d) for d in default_headers().include_dirs)]

    def _resolvable(self, header: str, quoted: bool, search) -> bool:
        return any((d / header).is_file() for d in ([Path(self.u.fname).parent] if quoted else []) + list(search))

    def _include_lines(self) -> list[str]:
        """``// kopt: include`` values, relative to the candidate's folder: the folders the kept includes are found
        in among the source's (when the candidate is written elsewhere) and the -I ones."""
        base = (self.out.parent if self.out else Path.cwd()).resolve()
        src_dir = Path(self.u.fname).parent.resolve()
        kept = [(h, q) for _, h, q in self.u.includes
                if not is_host_only(h) and self._resolvable(h, q, self._search_dirs())]
        dirs = [src_dir] if src_dir != base and any(q and (src_dir / h).is_file() for h, q in kept) else []
        dirs += [d for d in self.include_dirs if any((d / h).is_file() for h, _ in kept)]
        return [os.path.relpath(d, base) for d in dict.fromkeys(dirs)]

    def _lines(self, first: int, last: int) -> tuple[int, int]:
        u = self.u
        return u.line_starts[first - 1], u.line_starts[last] if last < len(u.line_starts) else len(u.src)

    def _with_comment_above(self, start: int, end: int) -> tuple[int, int]:
        """The byte range of a removed declaration: its whole lines when it has them to itself, with the comment
        lines directly above it."""
        u = self.u
        first, last = u.line(start), u.line(max(end - 1, start))
        if u.line_text(first)[:start - u.line_starts[first - 1]].strip() or \
                u.line_text(last)[end - u.line_starts[last - 1]:].strip():
            return start, end
        while first > 1 and u.line_text(first - 1).strip().startswith(("//", "/*", "*")):
            first -= 1
        return self._lines(first, last)

    def _cut(self, ranges: list[tuple[int, int]]) -> str:
        out, pos = [], 0
        for s, e in sorted(ranges):
            if e > pos:
                out.append(self.u.src[pos:max(s, pos)])
                pos = e
        out.append(self.u.src[pos:])
        return re.sub(r"\n[ \t]*(?:\n[ \t]*){2,}", "\n\n", b"".join(out).decode(errors="replace"))

    def _symbol(self, name: str) -> str | None:
        """The task size symbol ``name`` stands for: the same name, else the only one equal ignoring case."""
        if name in self.symbols:
            return name
        folded = [s for s in self.symbols if s.lower() == name.lower()]
        return folded[0] if len(folded) == 1 else None


class _LaunchMapper:
    """Maps one launch site onto an annotation."""

    def __init__(self, imp: _Importer, chunk: int, call):
        self.imp, self.u, self.K, self.call = imp, imp.u, imp.K, call
        self.func = self.u.chunks[chunk].cursors
        self.scope = imp.scope(chunk)
        self.pos = call.extent.start.offset
        host = next((f for f in self.func if f.kind == self.K.FUNCTION_TEMPLATE), None)
        insts = imp.instantiations_of(host) if host is not None else []
        self.template_args = insts[0] if insts else {}  # the host function template's, at its first instantiation
        self.notes: list[str] = []
        if len(insts) > 1:
            self.notes.append(f"{host.spelling} is instantiated {len(insts)} times; mapped at "
                              + ", ".join(f"{k} = {v}" for k, v in insts[0].items()))
        self.bindings: dict[str, str] = {}  # host expression text -> annotation expression
        self.unbound: set[str] = set()

    kids = staticmethod(kids)

    def map(self) -> Launch:
        u, K = self.u, self.K
        children = list(self.call.get_children())
        config = next(x for x in children if x.kind == K.CALL_EXPR and x.spelling in _CONFIG_CALLS)
        args = [x for x in self.kids(self.call) if x.extent.start.offset >= config.extent.end.offset]
        conf = self.kids(config)[1:] if self.kids(config)[:1] and self.kids(config)[0].spelling in _CONFIG_CALLS \
            else self.kids(config)
        name, decl = self.imp._callee(self.call)
        decl = decl if decl is not None else self.u.kernels.get(name)
        todos: list[str] = []
        kernel = self._kernel_name(children[0], decl, todos)
        params = [p for p in decl.get_children() if p.kind == K.PARM_DECL] if decl is not None else []
        arg_items: list[Item] = []
        arg_texts = self._args(params, args, arg_items, todos)
        items: list[Item] = []
        dims = {}
        # the block first: a macro it uses is a tunable wherever else it appears
        for what, c in sorted(zip(("grid", "block", "smem", "stream"), conf), key=lambda wc: wc[0] != "block"):
            original = u.text_of(c)
            if what == "stream":
                items.append(Item("stream", original, None, "dropped: kopt launches on its own streams"))
                continue
            value, unbound, note = self._map(c, what)
            items.append(Item(what, original, None if value is None or unbound else value, note))
            if value is None:
                todos.append(f"{what}: {original} ({note})")
                value = "0" if what == "smem" else "(1)"
            elif unbound:
                todos.append(f"{what}: bind {', '.join(unbound)} ({note}; host: {original})")
            dims[what] = value
        ann = f"// kopt: launch {kernel} grid={dims.get('grid', '(1)')} block={dims.get('block', '(1)')}"
        if dims.get("smem", "0") != "0":
            ann += f" smem={dims['smem']}"
        ann += f" args=({', '.join(arg_texts) or '0'})"
        self.imp.notes += [n for n in self.notes if n not in self.imp.notes]
        items.sort(key=lambda i: ("grid", "block", "smem", "stream").index(i.what))
        return Launch(kernel, self.call.extent.start.line, items + arg_items, ann, todos)

    # ---- the kernel's name and arguments
    def _kernel_name(self, callee, decl, todos) -> str:
        """The name expression: explicit template arguments (host template parameters and macros resolved),
        else a specialization's deduced ones, else the kernel's template parameters matched by name with the host
        function template's."""
        text = re.sub(r"\s*([<>(),*&:])\s*", r"\1", self.u.text_of(callee)).split("<<<")[0] or callee.spelling
        base, lt, rest = text.partition("<")
        if lt:
            targs = [self._template_arg(a.strip(), todos) for a in _split_args(rest.rsplit(">", 1)[0])]
            return f"{base}<{', '.join(targs)}>"
        if decl is None:
            return base
        if decl.kind == self.K.FUNCTION_DECL and decl.get_num_template_arguments() > 0:
            targs = []
            for i in range(decl.get_num_template_arguments()):
                kind = decl.get_template_argument_kind(i).name
                targs.append(decl.get_template_argument_type(i).spelling if kind == "TYPE" else
                             str(decl.get_template_argument_value(i)) if kind == "INTEGRAL" else "?")
            return f"{base}<{', '.join(targs)}>"
        tparams = [c.spelling for c in decl.get_children() if c.kind.name in _TEMPLATE_PARAMS]
        if tparams:
            return f"{base}<{', '.join(self._template_arg(p, todos) for p in tparams)}>"
        return base

    def _template_arg(self, text: str, todos) -> str:
        """A template argument of the launched kernel, with what the launch site knows substituted: the host
        function template's arguments, const locals' values; a macro becomes a tunable (kernel name expressions
        see tunables). A host variable or an uninstantiated template parameter is left for a person."""
        out = text
        for ident in dict.fromkeys(re.findall(r"[A-Za-z_]\w*", text)):
            local = self._locals().get(ident) or self.imp.global_constant(ident)
            if ident in self.template_args:
                out = re.sub(rf"\b{re.escape(ident)}\b", self.template_args[ident], out)
            elif ident in self.imp.macro_values:
                self.imp.tunes.setdefault(ident, self.imp.macro_values[ident])
            elif local is not None:
                init = next((x for x in local.get_children() if x.kind.is_expression()), None)
                v = self.u.evaluate(init) if init is not None and local.type.is_const_qualified() else None
                if isinstance(v, int):
                    out = re.sub(rf"\b{re.escape(ident)}\b", str(v), out)
                else:
                    todos.append(f"template argument {text}: {ident} is not known at the launch")
        return out

    def _locals(self) -> dict:
        """The host function's template parameters, parameters and variables, by name."""
        if not hasattr(self, "_local_decls"):
            self._local_decls = {}
            for f in self.func:
                for sub in f.walk_preorder():
                    if sub.kind.name in _TEMPLATE_PARAMS or sub.kind in (self.K.PARM_DECL, self.K.VAR_DECL):
                        self._local_decls.setdefault(sub.spelling, sub)
        return self._local_decls

    def _args(self, params, args, items, todos) -> list[str]:
        """Each kernel argument: a task argument (by the parameter's name or the host variable's, less d_/_d), or
        an expression over the task's size symbols. Scalar arguments also bind the host expressions they pass."""
        task = self.imp.task
        task_args = {a.name: a for a in task.args} if task else {}
        folded = {n.lower(): n for n in task_args}

        def task_arg(name):
            return task_args.get(name) or task_args.get(folded.get(name.lower(), "")) if name else None

        for p, a in zip(params, args):  # bind the host expressions passed to scalar parameters the task declares
            ta, host = task_arg(p.spelling), self._key(a)
            if ta is not None and not ta.is_buffer and host:
                self.bindings[host] = ta.value or ta.name
            elif task is not None and host and ta is None and self.imp._symbol(p.spelling):
                self.bindings[host] = self.imp._symbol(p.spelling)
        out = []
        for k, (p, a) in enumerate(zip(params, args)):
            pname, original, host = p.spelling or f"arg{k}", self.u.text_of(a), self._key(a)
            pointer = p.type.get_canonical().kind.name in ("POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY") or \
                "*" in p.type.spelling
            choice, unbound, note = None, [], ""
            if task is None and pointer:
                choice, note = pname, "no --task: named after the kernel's parameter"
            for cand in (pname, host, _BUFFER_AFFIXES.sub("", host or "")) if task is not None else ():
                ta = task_arg(cand)
                if ta is not None and ta.is_buffer == pointer:
                    choice = ta.name
                    break
            if choice is None and not pointer:
                choice, unbound, note = self._map(a, "arg")
                ptype = self.template_args.get(p.type.spelling.replace("const ", "").strip(),
                                               p.type.get_canonical().spelling)
                if choice is not None and ptype in ("float", "double"):  # passed as a float of the parameter's size
                    choice = f"{'f32' if ptype == 'float' else 'f64'}({choice})"
            if choice is None:
                note = note or "no task argument matches"
                todos.append(f"arg {pname}: {original} ({note})")
                items.append(Item(f"arg {pname}", original, None, note))
                choice = pname
            elif unbound:
                todos.append(f"arg {pname}: bind {', '.join(unbound)} ({note}; host: {original})")
                items.append(Item(f"arg {pname}", original, None, note))
            else:
                items.append(Item(f"arg {pname}", original, choice, note))
            out.append(choice)
        if params and len(args) != len(params):
            todos.append(f"args: the launch passes {len(args)} arguments, the kernel takes {len(params)}")
        return out

    def _key(self, c) -> str | None:
        """The host expression an argument passes, through casts (``(float*)d_a`` -> ``d_a``), as binding key."""
        K = self.K
        for _ in range(8):
            c = strip_implicit(self.u, c)
            if c.kind in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR):
                c = self.kids(c)[-1] if self.kids(c) else c
                continue
            break
        text = re.sub(r"\s+", "", self.u.text_of(c))
        return text if re.fullmatch(r"[A-Za-z_]\w*(?:(?:\.|->)[A-Za-z_]\w*)*", text) else None

    def _map(self, c, what: str) -> tuple[str | None, list[str], str]:
        """(annotation expression or None, host names left unbound, note) of a launch expression."""
        self.unbound = set()
        try:
            parts = self._dims(c) if what in ("grid", "block") else [c]
            mapped = [_simplify(self._tr(x, block=what == "block")) for x in parts]
        except _Unmapped as exc:
            return None, [], str(exc)
        while len(mapped) > 1 and mapped[-1] == "1":
            mapped.pop()
        value = f"({', '.join(mapped)})" if what in ("grid", "block") else mapped[0]
        unbound = sorted(self.unbound)
        note = ""
        if unbound:
            note = "not a size symbol or argument of the task" if self.imp.task else "no --task to bind it to"
        return value, unbound, note

    # ---- dimensions and expressions
    def _dims(self, c) -> list:
        """The components of a grid or block expression: a dim3 construction, a dim3 variable, or one integer."""
        K = self.K
        for _ in range(8):
            c = self._strip(c)
            kids = self.kids(c)
            if c.kind == K.INIT_LIST_EXPR or c.kind in (K.CALL_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR) and \
                    c.spelling == "dim3":
                if len(kids) == 1 and "dim3" in kids[0].type.spelling:
                    c = kids[0]
                    continue
                return kids
            if c.kind == K.DECL_REF_EXPR and "dim3" in c.type.spelling:
                return self._dim3_var(c)
            if "dim3" in c.type.spelling and len(kids) == 1:
                c = kids[0]
                continue
            return [c]
        raise _Unmapped(f"{self.u.text_of(c)}: not a dimension kopt can follow")

    def _dim3_var(self, ref) -> list:
        """A dim3 variable's components at the launch: its initializer, then member assignments before it."""
        decl = ref.referenced
        if decl is None or decl.kind != self.K.VAR_DECL:
            raise _Unmapped(f"{ref.spelling}: a dim3 the launch receives from outside this function")
        init = self._definition(decl)
        parts = list(self._dims(init)) if init is not None else []
        parts += [None] * (3 - len(parts))
        for _, kind, member, value in self.scope.before(decl, self.pos):
            if kind == "member" and member in ("x", "y", "z"):
                parts["xyz".index(member)] = value
            elif kind == "modify":
                raise _Unmapped(f"{ref.spelling}: changed in place before the launch")
        while parts and parts[-1] is None:
            parts.pop()
        if not parts or any(p is None for p in parts):
            raise _Unmapped(f"{ref.spelling}: its dimensions are not all set before the launch")
        return parts

    def _macro_name(self, c) -> str | None:
        """The object-like macro whose expansion ``c`` is (its whole text is the macro's name)."""
        text = self.u.text_of(c)
        return text if text in self.u.macros else None

    def _strip(self, c):
        while c.kind == self.K.UNEXPOSED_EXPR and not self._macro_name(c):
            kids = self.kids(c)
            if len(kids) != 1:
                break
            c = kids[0]
        return c

    def _tr(self, c, block: bool = False) -> str:
        """``c`` in the annotation language (not yet simplified); raises ``_Unmapped``."""
        u, K = self.u, self.K
        key = re.sub(r"\s+", "", u.text_of(c))
        if key in self.bindings:
            return f"({self.bindings[key]})"
        macro = self._macro_name(c) or self._macro_name(self._strip(c))
        if macro:
            return self._name(macro, None, block, macro=True)
        c = self._strip(c)
        kids = self.kids(c)
        k = c.kind
        if k in (K.INTEGER_LITERAL, K.CXX_BOOL_LITERAL_EXPR, K.CHARACTER_LITERAL):
            v = u.evaluate(c)
            if v is None:
                raise _Unmapped(f"{u.text_of(c)}: a literal kopt cannot read")
            return str(int(v))
        if k == K.FLOATING_LITERAL:
            return repr(float(u.evaluate(c)))
        if k == K.PAREN_EXPR and kids:
            return f"({self._tr(kids[0], block)})"
        if k == K.BINARY_OPERATOR and len(kids) == 2:
            op = u.binop(c)
            if op == "/":
                op = "//" if self._integral(c) else "/"
            elif op in ("&&", "||"):
                op = "and" if op == "&&" else "or"
            elif op not in ("+", "-", "*", "%", "<<", ">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!="):
                raise _Unmapped(f"{u.text_of(c)}: operator {op} in a launch expression")
            return f"{self._tr(kids[0], block)} {op} {self._tr(kids[1], block)}"
        if k == K.UNARY_OPERATOR and kids:
            op = u.text_of(c)[:1]
            if op not in ("-", "+", "~", "!"):
                raise _Unmapped(f"{u.text_of(c)}: operator {op} in a launch expression")
            return f"{'not ' if op == '!' else op}({self._tr(kids[0], block)})"
        if k == K.CONDITIONAL_OPERATOR and len(kids) == 3:
            a, b, d = (self._tr(x, block) for x in kids)
            return f"({b} if {a} else {d})"
        cast = re.fullmatch(r"(?:static_cast<\s*([\w:\s]+?)\s*>|\(\s*([\w:\s]+?)\s*\)|([\w:]+))\s*\((.*)\)|"
                            r"\(\s*([\w:\s]+?)\s*\)\s*(.+)", u.text_of(c))
        if k in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR) and kids or (
                k in (K.CALL_EXPR, K.UNEXPOSED_EXPR) and cast and len(kids) == 1 and self._type_name(cast)):
            inner = self._tr(kids[-1], block)
            to = self._type_name(cast) if cast else None
            if (to or "") in ("float", "double", "half", "__half") or not to and not self._integral(c):
                return f"float({inner})"
            return inner if self._integral(kids[-1]) else f"int({inner})"
        if k == K.CXX_UNARY_EXPR:  # sizeof / alignof
            v = u.evaluate(c)
            m = re.fullmatch(r"sizeof\s*\(\s*(\w+)\s*\)", u.text_of(c))
            if v is None and m and self.template_args.get(m.group(1)) in _SIZEOF:  # a host template's type
                v = _SIZEOF[self.template_args[m.group(1)]]
            if isinstance(v, int):
                return str(v)
            raise _Unmapped(f"{u.text_of(c)}: a size kopt cannot compute")
        if k == K.CALL_EXPR:
            return self._call(c, kids, block)
        if k == K.DECL_REF_EXPR:
            return self._name(c.spelling, c.referenced, block)
        if k == K.MEMBER_REF_EXPR and kids and c.spelling in ("x", "y", "z") and "dim3" in kids[0].type.spelling:
            try:
                parts = self._dims(kids[0])
            except _Unmapped:
                parts = None
            if parts is not None:
                i = "xyz".index(c.spelling)
                return f"({self._tr(parts[i], block)})" if i < len(parts) else "1"
        if k == K.MEMBER_REF_EXPR and re.fullmatch(r"[\w.>-]+", key):  # a host struct's field: a name to bind
            name = re.sub(r"\W+", "_", key)
            self.unbound.add(name)
            return name
        raise _Unmapped(f"{u.text_of(c)}: not an expression of sizes and constants")

    def _call(self, c, kids, block) -> str:
        """min/max, round-up divisions (``ceil(a / (float)b)``, ``iDivUp(a, b)``) as kopt functions."""
        u, K = self.u, self.K
        name = c.spelling
        fargs = kids[1:] if kids and self._strip(kids[0]).kind in (K.DECL_REF_EXPR, K.OVERLOADED_DECL_REF) and \
            self._strip(kids[0]).spelling == name else kids
        if name.split("::")[-1] in _MIN_MAX and len(fargs) == 2:
            return f"{_MIN_MAX[name.split('::')[-1]]}({self._tr(fargs[0], block)}, {self._tr(fargs[1], block)})"
        if name in ("ceil", "ceilf") and len(fargs) == 1:
            q = self._strip(fargs[0])
            while q.kind == K.PAREN_EXPR and self.kids(q):
                q = self._strip(self.kids(q)[0])
            if q.kind == K.BINARY_OPERATOR and u.binop(q) == "/":
                a, b = self.kids(q)
                return f"cdiv({self._uncast(a, block)}, {self._uncast(b, block)})"
        if _DIV_UP.match(name) and len(fargs) == 2:
            return f"cdiv({self._tr(fargs[0], block)}, {self._tr(fargs[1], block)})"
        raise _Unmapped(f"{u.text_of(c)}: a call kopt cannot evaluate")

    def _uncast(self, c, block) -> str:
        """``(float)n`` -> ``n`` inside ``ceil(a / b)``: the quotient is rounded up either way."""
        K = self.K
        c = self._strip(c)
        while c.kind in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR, K.PAREN_EXPR):
            if not self.kids(c):
                break
            c = self._strip(self.kids(c)[-1])
        if c.kind == K.FLOATING_LITERAL and float(self.u.evaluate(c)).is_integer():
            return str(int(self.u.evaluate(c)))
        return self._tr(c, block)

    def _type_name(self, m) -> str | None:
        """The builtin type a cast names (through the host template's arguments), or None."""
        name = next((g for g in m.groups()[:3] + m.groups()[4:5] if g), "").strip()
        name = self.template_args.get(name, name)
        return name if name in _SIZEOF else None

    def _integral(self, c) -> bool:
        return c.type.get_canonical().kind.name not in ("FLOAT", "DOUBLE", "LONGDOUBLE", "HALF", "FLOAT128")

    def _name(self, name: str, decl, block: bool, macro: bool = False) -> str:
        """A name in a launch expression: bound by the kernel's arguments, a task symbol, a tunable or define, a
        macro's or constant's value, or a host variable followed to its value; else left unbound."""
        imp, K = self.imp, self.K
        if name in self.bindings:
            return f"({self.bindings[name]})"
        sym = imp._symbol(name) if imp.task else None
        if sym:
            return sym
        if name in imp.tunes:
            return name
        if name in imp.defines:
            if block:
                imp.tunes[name] = imp.macro_values[name]
                del imp.defines[name]
            return name
        if macro:
            if name not in imp.macro_values:
                body = self.u.macro_body(self.u.macros[name])
                raise _Unmapped(f"{name} ({body}): a macro kopt cannot evaluate")
            if imp.task is None and _looks_like_size(name) and not block:
                self.unbound.add(name)
            elif block:  # a block size set by a macro: a tunable
                imp.tunes[name] = imp.macro_values[name]
            else:
                imp.defines[name] = str(imp.macro_values[name])
            return name
        if decl is not None and decl.kind.name == "TEMPLATE_NON_TYPE_PARAMETER" and name in self.template_args:
            return self.template_args[name]
        if decl is not None and decl.kind == K.ENUM_CONSTANT_DECL:
            return str(decl.enum_value)
        if decl is not None and decl.kind == K.VAR_DECL:
            local = any(f.extent.start.offset <= decl.extent.start.offset < f.extent.end.offset for f in self.func)
            if local and hash(decl) not in self.scope.loop_vars:
                value = self._definition(decl)
                if value is not None and not any(e[1] == "modify" for e in self.scope.before(decl, self.pos)):
                    if imp.task is None and _looks_like_size(name) and self._constant_expr(value):
                        self.unbound.add(name)  # a problem size: left to bind to the task
                        return name
                    return f"({self._tr(value, block)})"
            elif not local and decl.type.is_const_qualified():  # a global constant
                init = next((x for x in decl.get_children() if x.kind.is_expression()), None)
                v = self.u.evaluate(init) if init is not None else None
                if isinstance(v, int):
                    if imp.task is None and _looks_like_size(name):
                        self.unbound.add(name)
                        return name
                    return str(v)
        self.unbound.add(name)
        return name

    def _constant_expr(self, c) -> bool:
        try:
            return expr.try_evaluate(_simplify(self._tr(c)), {}) is not None
        except _Unmapped:
            return False

    def _definition(self, decl):
        """The value ``decl`` holds at the launch: the last plain assignment before it, else its initializer."""
        value = next((x for x in decl.get_children() if x.kind.is_expression()), None)
        for _, kind, _, rhs in self.scope.before(decl, self.pos):
            if kind == "assign":
                value = rhs
        return value


def _split_args(text: str) -> list[str]:
    """Template arguments split at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "<([" and 1 or (ch in ">)]" and -1 or 0)
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur] if cur.strip() else out


def _looks_like_size(name: str) -> bool:
    """A host name that is probably a problem size (bound to a task symbol later) rather than a tile constant."""
    if re.fullmatch(r"(?i)\w*(?:block|thread|tile|warp|bs|tpb)\w*", name):
        return False
    return bool(re.fullmatch(r"(?i)[nmk]|[nmk]_?\w*|(?:size|num|len|count|width|height|depth|rows?|cols?|"
                             r"columns?|elements?|dim)\w*|\w*_?(?:size|count|len|length|num|elements|rows|cols|"
                             r"width|height|dim)", name))


# --- simplification of the mapped expressions ---------------------------------------------------------------------
def _simplify(text: str) -> str:
    """Fold constant subexpressions and write the round-up divisions as ``cdiv``: ``(n + 256 - 1) // 256``,
    ``(n + 255) // 256``, ``(n - 1) // 256 + 1`` -> ``cdiv(n, 256)``."""
    return ast.unparse(_Simplifier().visit(ast.parse(text, mode="eval")))


class _Simplifier(ast.NodeTransformer):
    def generic_visit(self, node):
        node = super().generic_visit(node)
        names = [n for n in ast.walk(node) if isinstance(n, ast.Name)]
        called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Call)) and all(id(n) in called for n in names):
            v = expr.try_evaluate(ast.unparse(node), {})
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return ast.copy_location(ast.Constant(v), node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
            a = _round_up_numerator(node.left, node.right)
            if a is not None:
                return ast.copy_location(ast.Call(ast.Name("cdiv", ast.Load()), [a, node.right], []), node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _is_const(node.right, 1) and \
                isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.FloorDiv) and \
                isinstance(node.left.left, ast.BinOp) and isinstance(node.left.left.op, ast.Sub) and \
                _is_const(node.left.left.right, 1):  # (a - 1) // b + 1
            return ast.copy_location(ast.Call(ast.Name("cdiv", ast.Load()), [node.left.left.left, node.left.right],
                                              []), node)
        return node


def _is_const(node, value) -> bool:
    return isinstance(node, ast.Constant) and node.value == value


def _same(a, b) -> bool:
    return ast.dump(a) == ast.dump(b)


def _round_up_numerator(num, den):
    """``a`` when ``num`` is ``a + (den - 1)`` in one of its usual spellings, else None."""
    if not isinstance(num, ast.BinOp):
        return None
    if isinstance(num.op, ast.Add):
        for a, b in ((num.left, num.right), (num.right, num.left)):
            if isinstance(b, ast.Constant) and isinstance(den, ast.Constant) and b.value == den.value - 1:
                return a  # a + 255 over 256
            if isinstance(b, ast.BinOp) and isinstance(b.op, ast.Sub) and _same(b.left, den) and _is_const(b.right, 1):
                return a  # a + (den - 1)
    if isinstance(num.op, ast.Sub) and _is_const(num.right, 1) and isinstance(num.left, ast.BinOp) and \
            isinstance(num.left.op, ast.Add):
        for a, b in ((num.left.left, num.left.right), (num.left.right, num.left.left)):
            if _same(b, den):
                return a  # a + den - 1
    return None
