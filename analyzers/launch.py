"""The launch configuration a kernel is analyzed under, and where it came from.

Order of precedence: the candidate's ``// kopt: launch NAME grid=(..) block=(..)`` annotation (dims may be
expressions of -D values, ``#define``s and tunables), then ``--block``/``--grid``, then ``__launch_bounds__``;
otherwise every block size up to 1024 is considered (symbolically).
"""
from __future__ import annotations

import ast as pyast
import re
from dataclasses import dataclass, field

_LAUNCH = re.compile(r"//\s*kopt:\s*launch\s+(?P<name>[A-Za-z_][\w:]*(?:\s*<[^\n]*?>)?)\s+(?P<rest>[^\n]*)")
_TUNE = re.compile(r"//\s*kopt:\s*tune\s+(?P<rest>[^\n]*)")
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]+?)[ \t]*(?://[^\n]*)?$", re.M)
_INST = re.compile(r"template\s+__global__\s+(?:void\s+)?(?:__launch_bounds__\s*\([^)]*\)\s*)?(?:void\s+)?"
                   r"([A-Za-z_]\w*)\s*<([^;{]*?)>\s*\(")
MAX_THREADS = 1024


@dataclass
class LaunchConfig:
    block: tuple = (None, None, None)  # ints or None (unknown)
    grid: tuple = (None, None, None)
    smem: int | None = None  # dynamic shared memory bytes
    max_threads: int = MAX_THREADS  # bound on threads per block (launch bounds)
    source: str = "none"  # annotation | cli | launch_bounds | none
    targs: list = field(default_factory=list)  # template arguments (text) for a template kernel
    note: str = ""

    @property
    def known_block(self) -> bool:
        return all(isinstance(x, int) for x in self.block)

    def describe(self, dims_used=("x", "y", "z")) -> str:
        def fmt(t):
            return "(" + ", ".join("?" if v is None else str(v) for v in t) + ")"
        where = {"annotation": "from the `// kopt: launch` annotation", "cli": "from --block/--grid",
                 "launch_bounds": f"from __launch_bounds__({self.max_threads})", "none": "none given"}[self.source]
        if self.known_block:
            b = f"block={fmt(self.block)}"
        elif self.source == "launch_bounds":
            b = f"any block with at most {self.max_threads} threads"
        else:
            b = f"any block up to {self.max_threads} threads" + (
                f" (block dims {fmt(self.block)})" if any(v is not None for v in self.block) else "")
            if set(dims_used) <= {"x"}:
                b += " in x (the kernel uses only threadIdx.x)"
        g = f"grid={fmt(self.grid)}" if any(v is not None for v in self.grid) else "any grid"
        s = f", {b}, {g}"
        if self.smem is not None:
            s += f", dynamic smem={self.smem} B"
        if self.targs:
            s += f", template <{', '.join(self.targs)}>"
        return where + s + (f"; {self.note}" if self.note else "")


def source_macros(source: str) -> dict[str, str]:
    return {m.group(1): m.group(2).strip() for m in _DEFINE.finditer(source)}


def evaluate(expr: str, env: dict[str, str | int | None], depth: int = 0):
    """Integer value of a small arithmetic expression over names in ``env``; None when unknown."""
    if depth > 8:
        return None
    text = expr.strip().replace("/", "//").replace("////", "//")
    text = re.sub(r"(\d+)[uUlL]+\b", r"\1", text)
    try:
        tree = pyast.parse(text, mode="eval")
    except SyntaxError:
        return None

    def ev(n):
        if isinstance(n, pyast.Expression):
            return ev(n.body)
        if isinstance(n, pyast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, pyast.Name):
            v = env.get(n.id)
            if isinstance(v, int):
                return v
            if isinstance(v, str):
                r = evaluate(v, env, depth + 1)
                if r is not None:
                    return r
            raise KeyError(n.id)
        if isinstance(n, pyast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ops = {pyast.Add: lambda: a + b, pyast.Sub: lambda: a - b, pyast.Mult: lambda: a * b,
                   pyast.FloorDiv: lambda: a // b, pyast.Mod: lambda: a % b, pyast.LShift: lambda: a << b,
                   pyast.RShift: lambda: a >> b}
            return ops[type(n.op)]()
        if isinstance(n, pyast.UnaryOp) and isinstance(n.op, pyast.USub):
            return -ev(n.operand)
        if isinstance(n, pyast.Call) and isinstance(n.func, pyast.Name):
            args = [ev(a) for a in n.args]
            if n.func.id in ("cdiv", "ceil_div", "CEIL_DIV", "DIV_UP", "div_up") and len(args) == 2:
                return -(-args[0] // args[1])
            if n.func.id == "min":
                return min(args)
            if n.func.id == "max":
                return max(args)
        raise KeyError("unsupported")

    try:
        v = ev(tree)
        return v if isinstance(v, int) else None
    except (KeyError, ZeroDivisionError, TypeError, RecursionError):
        return None


def split_top(text: str, sep: str = ",") -> list[str]:
    """Split on ``sep`` outside brackets (template arguments, launch tuples)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _kv(rest: str) -> dict[str, str]:
    out, i = {}, 0
    for m in re.finditer(r"(\w+)\s*=\s*", rest):
        if m.start() < i:
            continue
        key, j = m.group(1), m.end()
        if j < len(rest) and rest[j] == "(":
            depth = 0
            for k in range(j, len(rest)):
                depth += rest[k] == "("
                depth -= rest[k] == ")"
                if depth == 0:
                    break
            out[key] = rest[j + 1: k]
            i = k + 1
        else:
            m2 = re.match(r"[^\s]+", rest[j:])
            out[key] = m2.group(0) if m2 else ""
            i = j + (m2.end() if m2 else 0)
    return out


@dataclass
class Annotation:
    name: str  # kernel name without template arguments
    targs: list
    grid: list
    block: list
    smem: str | None


def annotations(source: str) -> list[Annotation]:
    out = []
    for m in _LAUNCH.finditer(source):
        full = m.group("name").replace(" ", "")
        name, targs = full, []
        if "<" in full:
            name, t = full.split("<", 1)
            targs = split_top(t.rsplit(">", 1)[0])
        kv = _kv(m.group("rest"))
        out.append(Annotation(name, targs, split_top(kv.get("grid", "")), split_top(kv.get("block", "")),
                              kv.get("smem")))
    return out


def tunables(source: str) -> set[str]:
    names = set()
    for m in _TUNE.finditer(source):
        for part in m.group("rest").split(";"):
            t = part.strip().split()
            if t:
                names.add(t[0])
    return names


def instantiations(source: str) -> dict[str, list[str]]:
    return {m.group(1): split_top(m.group(2)) for m in _INST.finditer(source)}


def _dims(texts: list[str], env) -> tuple:
    vals = [evaluate(t, env) for t in texts[:3]] if texts else [None]
    vals = vals + [1] * (3 - len(vals))
    return tuple(v if (v is None or v > 0) else None for v in vals)


def resolve(kernel_name: str, source: str, *, block=None, grid=None, defines=None, launch_bounds=None,
            targs=None) -> LaunchConfig:
    env: dict = dict(source_macros(source))
    for k, v in (defines or {}).items():
        env[k] = v if v is not None else 1
    tun = tunables(source)
    defaulted = sorted(t for t in tun if t not in (defines or {}) and t in env)
    cfg = LaunchConfig()
    ann = next((a for a in annotations(source) if a.name.split("::")[-1] == kernel_name), None)
    if targs is None:
        targs = ann.targs if ann and ann.targs else instantiations(source).get(kernel_name, [])
    cfg.targs = list(targs)
    if ann is not None:
        cfg.block = _dims(ann.block, env)
        cfg.grid = _dims(ann.grid, env)
        cfg.smem = evaluate(ann.smem, env) if ann.smem else None
        cfg.source = "annotation"
        unknown = [t for t in ann.block if evaluate(t, env) is None]
        if unknown:
            cfg.note = f"block dims {', '.join(unknown)} unknown (pass -D to fix them)"
        used = [t for t in defaulted if any(re.search(rf"\b{t}\b", x) for x in ann.block + ann.grid)]
        if used:
            cfg.note = (cfg.note + "; " if cfg.note else "") + "tunables at the file's defaults: " + ", ".join(
                f"{t}={env[t]}" for t in used)
    if not cfg.known_block and block is not None:
        cfg.block = tuple(block)
        cfg.source = "cli"
        cfg.note = ""
    if grid is not None and all(v is None for v in cfg.grid):
        cfg.grid = tuple(grid)
    if launch_bounds is not None:
        lb = launch_bounds if isinstance(launch_bounds, int) else evaluate(str(launch_bounds), env)
        if lb:
            cfg.max_threads = min(lb, MAX_THREADS)
            if cfg.source == "none":
                cfg.source = "launch_bounds"
    if cfg.known_block:
        cfg.max_threads = cfg.block[0] * cfg.block[1] * cfg.block[2]
    return cfg
