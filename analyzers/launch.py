"""The launch configuration a kernel is analyzed under, and where it came from.

A candidate's launches are resolved by kopt (``kopt.geometry``) and *given* to the analyzers. For a plain source
(no ``// kopt: launch`` line for the kernel) the fallbacks apply, in order: ``--block``/``--grid``, then the constant
shapes of the kernel's launches in host code (``host_launch``: one configuration per shape, its grid too when
constant), then ``__launch_bounds__``; a kernel of which no launch is found takes the block its own names give,
where they give one (``block_names``); otherwise every block size up to 1024 is considered (symbolically), within the bounds the
kernel's own shared arrays imply (``block_bounds``). A kernel also launched with a block that is not a constant is
analyzed at its constant shapes and, for those launches, at every block they may take (an instantiation only at those
its block-shape names agree with, when some do). The values of C
macros and template arguments are read with kopt's expression language in C mode.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from kopt.annotations import Text, split_kernel, split_top as _split_top
from kopt.expr import try_evaluate
from kopt.source import c_macros

from .assume import parse
from .preproc import active_lines

_INST = re.compile(r"template\s+__global__\s+(?:void\s+)?(?:__launch_bounds__\s*\([^)]*\)\s*)?(?:void\s+)?"
                   r"([A-Za-z_]\w*)\s*<([^;{]*?)>\s*\(")
MAX_THREADS = 1024


def source_macros(text: str, device: bool = True) -> dict[str, str]:
    """The object-like ``#define``s of ``text`` that a compile pass sees: those in the branches of ``#if``/``#ifdef``
    /``#else`` it keeps (the device pass; ``device=False``: the host pass, where launches are written)."""
    return c_macros(active_lines(text, device=device))


@dataclass
class LaunchConfig:
    block: tuple = (None, None, None)  # ints or None (unknown)
    grid: tuple = (None, None, None)
    smem: int | None = None  # dynamic shared memory bytes
    cluster: tuple | None = None
    max_threads: int = MAX_THREADS  # bound on threads per block (launch bounds)
    source: str = "none"  # annotation | cli | host | launch_bounds | named (block_names.presume) | none
    targs: list = field(default_factory=list)  # template arguments (text) for a template kernel
    kernel: str = ""  # the launched name expression (annotation) or the kernel's name
    note: str = ""
    assume: list = field(default_factory=list)  # assume.Assumption over this kernel's parameters
    branch: str = ""  # the launch line, when it is one of several `when` alternatives ("line 12 (when rows >= 4096)")
    at: str = ""  # file:line of the host launch the block was read from
    inferred: dict = field(default_factory=dict)  # dim "x"/"y"/"z" -> (bound, why): see infer_block
    launched: bool = True  # False: no launch of the kernel was found (none given, none read from host code)
    one_block: bool = False  # the grid was inferred to be one block (see infer_one_block)
    one_wide_x: bool = False  # gridDim.x was presumed 1 (see presume_one_wide_x)
    buffers: dict = field(default_factory=dict)  # pointer parameter -> bytes of the buffer it points to (a task's)
    # an unknown block whose race, barrier and bounds checks were all decided for every block it allows (symbolic
    # block sizes, nothing left to concrete shapes, no incomplete note): the verdict holds whatever the launch picks
    all_blocks: bool = False
    presumed: str = ""  # dims of the block no launch pins, given by the kernel's own names (block_names.presume)
    lanes_in_x: str = ""  # why blockDim.x is presumed whole warps in a 2-D block (block_bounds.implied_block)

    @property
    def known_block(self) -> bool:
        return all(isinstance(x, int) for x in self.block)

    def to_dict(self) -> dict:
        """The launch as kopt's geometry reports it: None for what is unknown."""
        def dims(t):  # as kopt.geometry writes them
            return None if t is None or all(v is None for v in t) else list(t)
        return {"kernel": self.kernel, "grid": dims(self.grid), "block": dims(self.block), "smem": self.smem,
                "cluster": dims(self.cluster), "source": self.source,
                **({"branch": self.branch} if self.branch else {}),
                **({"all_blocks": self.max_threads} if self.all_blocks else {}),
                **({"presumed_block": self.presumed} if self.presumed else {}),
                **({"inferred_grid": [1, 1, 1]} if self.one_block else {}),
                **({"buffers": dict(self.buffers)} if self.buffers else {}),
                **({"inferred_block": {f: b for f, (b, _) in sorted(self.inferred.items())}} if self.inferred else {})}

    def dim_max(self, i: int) -> int:
        """The largest blockDim along dimension ``i`` (0..2) the analysis considers when the block is unknown."""
        hw = (MAX_THREADS, MAX_THREADS, 64)[i]
        return min(hw, self.threads_max(), self.inferred.get("xyz"[i], (hw, ""))[0])

    def threads_max(self) -> int:
        """The most threads a block the analysis considers may hold: the hardware's, ``__launch_bounds__``' or the
        bound the kernel's shared arrays imply (``inferred["threads"]``)."""
        return min(self.max_threads, self.inferred.get("threads", (MAX_THREADS, ""))[0])

    def warp_multiple(self, dims_used) -> bool:
        """Whether an unknown block is presumed a whole number of warps: one of a single dimension (the kernel reads
        only threadIdx.x, or the launch fixes y and z at 1) that may hold a warp, or the x dimension of a block whose
        kernel takes its lane as threadIdx.x % 32 (``lanes_in_x``), when no assumption names blockDim.x. Programs
        launch such blocks in warps (`32 * WARPS`, 128, 256, `block(32, 4)`); a witness at 33 or 9 threads would be a
        launch they never make. A block given (`--block`, an annotation, a constant launch) is checked as it is."""
        rest = [self.block[i] if self.block[i] is not None else (1 if "xyz"[i] not in dims_used else None)
                for i in (1, 2)]
        return self.block[0] is None and (rest == [1, 1] or self.lanes_in_x) and self.dim_max(0) >= 32 and \
            not any("blockDim.x" in a.text for a in self.assume)

    def within(self, shapes) -> list[tuple]:
        """Concrete block shapes to sample for an unknown block: ``shapes`` with the known dims put in and each
        unknown dim over its bound lowered to the largest power of two within it; those with too many threads
        dropped."""
        out = []
        for s in shapes:
            s = tuple(k if k is not None else v if v <= self.dim_max(i) else 1 << (self.dim_max(i).bit_length() - 1)
                      for i, (k, v) in enumerate(zip(self.block, s)))
            if s[0] * s[1] * s[2] <= self.threads_max() and s not in out:
                out.append(s)
        return out

    def describe(self, dims_used=("x", "y", "z")) -> str:
        def fmt(t):
            return "(" + ", ".join("?" if v is None else str(v) for v in t) + ")"
        where = {"annotation": "from the `// kopt: launch` annotation" + (f" at {self.branch}" if self.branch else ""),
                 "cli": "from --block/--grid",
                 "host": f"block from the host code's launch at {self.at}" if self.at else
                         "block from the host code's launch",
                 "launch_bounds": f"from __launch_bounds__({self.max_threads})", "none": "none given",
                 "named": "none given"}[self.source]
        if self.known_block:
            b = f"block={fmt(self.block)}"
        elif self.source == "launch_bounds":
            b = f"any block with at most {self.max_threads} threads"
        else:
            b = f"any block up to {self.max_threads} threads" + (
                f" (block dims {fmt(self.block)})" if any(v is not None for v in self.block) else "")
            if set(dims_used) <= {"x"}:
                b += " in x (the kernel uses only threadIdx.x)"
            elif "z" not in dims_used:
                b += " in x and y (the kernel uses no threadIdx.z)"
            if self.warp_multiple(dims_used):
                b += ", a whole number of warps (presumed)" if not self.lanes_in_x else (
                    f", blockDim.x a whole number of warps (presumed: {self.lanes_in_x})")
        if self.inferred and not self.known_block:
            b += ", " + self.inferred_text()
        if self.all_blocks:
            b += " (race, barrier and bounds verdicts decided for every such block)"
        g = f"grid={fmt(self.grid)}" if any(v is not None for v in self.grid) else "any grid"
        if self.one_block:
            g = "grid=(1, 1, 1) (inferred: no launch found, and the kernel reads no blockIdx or gridDim)"
        if self.one_wide_x:
            g += " (gridDim.x presumed 1: the kernel reads no blockIdx.x or gridDim.x)"
        s = f", {b}, {g}"
        if self.smem is not None:
            s += f", dynamic smem={self.smem} B"
        if self.cluster is not None:
            s += f", cluster={fmt(self.cluster)}"
        if self.targs:
            s += f", template <{', '.join(self.targs)}>"
        if self.assume:
            s += ", assuming " + " and ".join(f"({a.text})" for a in self.assume)
        return where + s + (f"; {self.note}" if self.note else "")

    def inferred_text(self) -> str:
        return "assumed " + " and ".join(f"{dim_name(f)} <= {b}" for f, (b, _) in sorted(self.inferred.items())) + (
            " (what the kernel's own code implies: " +
            "; ".join(dict.fromkeys(why for _, (_, why) in sorted(self.inferred.items()))) + ")")


def dim_name(f: str) -> str:
    """The name of an inferred bound's quantity: ``blockDim.x`` for "x", the block's thread count for "threads"."""
    return "blockDim.x * blockDim.y * blockDim.z" if f == "threads" else f"blockDim.{f}"


def evaluate(text: str, env: dict) -> int | None:
    """The integer value of C constant text over ``env`` (macro name -> text or int); None when unknown."""
    v = try_evaluate(str(text), {k: (1 if v is None else v) for k, v in env.items()}, c=True)
    return int(v) if isinstance(v, (bool, int)) or (isinstance(v, float) and v.is_integer()) else None


def split_top(text: str, sep: str = ",") -> list[str]:
    """Split C text on ``sep`` outside brackets, template argument lists included (a shift ``<<`` or a ``<=`` opens
    none: ``f(1 << 20, n)`` has two arguments)."""
    text = str(text)
    masked = _unmatched_angles(_NO_ANGLE.sub(lambda m: " " * len(m.group(0)), text))
    return [text[p.col:p.col + len(p)] for p in _split_top(Text(masked, 1, 0), sep, angle=True)]


def conjuncts(cond: str) -> list[str]:
    """The operands of C condition ``cond``'s top-level ``&&``, parenthesized ones split in turn (``(a && b) && c``
    gives three); ``cond`` itself when an ``||`` outside brackets binds looser (``a || b && c`` holds with ``a``
    alone)."""
    cond = cond.strip()
    while cond.startswith("(") and _wrapped(cond):
        cond = cond[1:-1].strip()
    if len(split_top(cond.replace("||", "\0"), "\0")) > 1:
        return [cond]
    parts = [p.replace("\0", "&&").strip() for p in split_top(cond.replace("&&", "\0"), "\0")]
    return parts if len(parts) == 1 else [c for p in parts for c in conjuncts(p)]


def _wrapped(text: str) -> bool:
    """``text`` is one parenthesized expression: its first ``(`` closes at its last character."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(text) - 1
    return False


_NO_ANGLE = re.compile(r"<<|<=")


def _unmatched_angles(text: str) -> str:
    """``text`` with each ``<`` that no ``>`` closes inside its brackets blanked (a comparison, not a template
    argument list: ``(k < 128) ? 8 : 4``), and each ``>`` that closes none (``img->width``, ``a > b``)."""
    stack, out = [], list(text)
    for i, ch in enumerate(text):
        if ch in "([{<":
            stack.append(i)
        elif ch == ">":
            if stack and text[stack[-1]] == "<":
                stack.pop()
            else:
                out[i] = " "
        elif ch in ")]}":
            while stack and text[stack[-1]] == "<":
                out[stack.pop()] = " "
            if stack:
                stack.pop()
    for i in stack:
        if text[i] == "<":
            out[i] = " "
    return "".join(out)


def instantiations(source: str) -> dict[str, list[str]]:
    return {m.group(1): split_top(m.group(2)) for m in _INST.finditer(source)}


def from_geometry(geometry, *, launch_bounds=None, macros=None) -> LaunchConfig:
    """The configuration of one of kopt's ``LaunchGeometry`` records (values it could not resolve stay unknown)."""
    cfg = LaunchConfig(source="annotation", kernel=geometry.kernel)
    cfg.block = tuple(geometry.block) if geometry.block else (None, None, None)  # None entries: unknown
    cfg.grid = tuple(geometry.grid) if geometry.grid else (None, None, None)
    cfg.smem = geometry.smem
    cfg.cluster = tuple(geometry.cluster) if geometry.cluster else None
    cfg.targs = split_kernel(geometry.kernel)[1]
    cfg.branch = getattr(geometry, "branch", "")
    unknown = [f"{k} {why}" if not why.startswith(f"{k} ") else why for k, why in geometry.origin.items()
               if why not in ("launch annotation", "not declared")]
    at = ", ".join(f"{k}={v}" for k, v in (getattr(geometry, "config", None) or {}).items())
    cfg.note = "; ".join(([f"at {at}"] if at else []) + unknown)
    _bound(cfg, launch_bounds, macros or {})
    return cfg


def fallback(kernel_name: str, source: str, *, block=None, grid=None, defines=None, launch_bounds=None,
             targs=None, host=None, host_unknown=(), host_bound=None, host_fact=None) -> LaunchConfig:
    """For a kernel no launch annotation describes: ``--block``/``--grid``, else one constant launch shape read from
    host code (``host``, a ``host_launch.HostLaunch``; its grid and template arguments when constant), else
    ``__launch_bounds__``, else unknown. ``host_unknown`` (with no ``host``): the kernel's host launches whose block is
    not constant, analyzed as one configuration; ``host_bound`` is at most how many threads host code gives each of
    their blocks (a range, not a shape), and ``host_fact`` what it says of every such block (the sizes a loop sweeps
    over, a multiple of 32), assumed."""
    env = {**source_macros(source), **{k: (1 if v is None else v) for k, v in (defines or {}).items()}}
    cfg = LaunchConfig(kernel=kernel_name)
    if targs is None and host is not None and host.targs:
        targs = host.targs
    cfg.targs = list(targs if targs is not None else instantiations(source).get(kernel_name, []))
    if block is not None:
        cfg.block, cfg.source = tuple(block), "cli"
    elif host is not None:
        cfg.block, cfg.source, cfg.at = tuple(host.block), "host", host.where
        if grid is None and all(isinstance(g, int) for g in host.grid):
            cfg.grid = tuple(host.grid)
    if block is None and host is None and host_unknown:
        cfg.note = (f"its launch block is not a constant at {', '.join(host_unknown[:3])}"
                    + (f" (+{len(host_unknown) - 3} more)" if len(host_unknown) > 3 else ""))
        if host_bound is not None and host_bound < cfg.max_threads:
            cfg.max_threads = host_bound
            cfg.note += f"; host code gives it at most {host_bound} threads"
        if host_fact:
            cfg.assume = [parse(host_fact, "the blocks its host launches take")]
            cfg.note += "; the blocks host code launches it with are assumed"
    elif block is None and host is None:
        cfg.launched = grid is not None
        cfg.note = ("no launch of it that kopt can read was found (in the file, or in the files of its folder that "
                    "include it, declare it or load it by name)")
    if grid is not None:
        cfg.grid = tuple(grid)
    _bound(cfg, launch_bounds, env)
    return cfg


def _bound(cfg: LaunchConfig, launch_bounds, env: dict) -> None:
    if launch_bounds is not None:
        lb = launch_bounds if isinstance(launch_bounds, int) else evaluate(str(launch_bounds), env)
        if lb:
            cfg.max_threads = min(lb, cfg.max_threads)
            if cfg.source == "none":
                cfg.source = "launch_bounds"
    if cfg.known_block:
        cfg.max_threads = cfg.block[0] * cfg.block[1] * cfg.block[2]


def infer_one_block(cfg: LaunchConfig, model) -> bool:
    """A kernel of which no launch was found, that reads no blockIdx or gridDim, synchronizes no grid and updates no
    global memory atomically, is written for one block: every block of a larger grid would repeat the same
    accesses (one block's work, done twice, as two racing copies). Its grid is then taken as one block; whether it
    was (``cfg.one_block``) is reported as the note ``launch.inferred-grid``."""
    if cfg.launched:  # False only for a kernel given no block, no grid and no host launch
        return False
    if model.grid_used or _blocks_cooperate(model):
        return False
    cfg.grid, cfg.one_block = (1, 1, 1), True
    return True


def presume_one_wide_x(cfg: LaunchConfig, model) -> bool:
    """A kernel whose grid width no launch gives, that reads no blockIdx.x or gridDim.x, synchronizes no grid and
    updates no global memory atomically, is presumed launched one block wide (``gridDim.x == 1``), as it is presumed
    one block high and deep when it reads no blockIdx.y or .z: blocks side by side in x would repeat the same
    accesses. (A kernel whose blocks share work through atomics, a persistent kernel's work queue, keeps any width.)"""
    if cfg.grid[0] is not None or cfg.one_block or "x" in model.grid_used:
        return False
    if _blocks_cooperate(model):
        return False
    cfg.one_wide_x = True  # (the checks take gridDim.x as 1; the launch's own grid, reported, stays as given)
    return True


def _blocks_cooperate(model) -> bool:
    """The kernel's blocks may share work without reading their index: through a grid barrier, or global memory they
    update atomically (a persistent kernel's work queue)."""
    return any(b.kind == "grid" for b in model.barriers) or any(a.atomic and a.space == "global" for a in model.accesses)
