"""Task: what to compute — arguments, shapes, reference, tolerances and work model (``task.toml``)."""
from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import expr
from .diagnostic import Location
from .dtypes import DType, dtype
from .errors import InputError
from .rules import RULES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROLES = ("in", "out", "inout")
INITS = ("normal", "uniform", "randint")
_TOP_KEYS = {"name", "family", "description", "args", "shapes", "reference", "reference_dtype", "work", "baseline", "arch",
             "tolerance", "trials", "timed_trials", "reference_device", "reference_cuda", "compute", "torch"}
_WORK_KEYS = {"bytes", "bytes_read", "bytes_written", "flops"}
# What a task's flops run on (``compute = "..."``): its floor then includes the flops at that measured ceiling.
# "fp32": FP32 FMA; "<type>-tensor": tensor-core MMA with <type> inputs (f32 accumulation).
COMPUTE = {"fp32": "FP32 FMA (CUDA cores)", "tf32-tensor": "TF32 tensor cores", "fp16-tensor": "FP16 tensor cores",
           "bf16-tensor": "BF16 tensor cores", "fp8-tensor": "FP8 (e4m3) tensor cores, sm_89 and newer"}
_ARG_KEYS = {"name", "dtype", "shape", "role", "value", "init", "mean", "std", "low", "high", "rtol", "atol", "l2",
             "torch"}
_TORCH_SOURCE = re.compile(r"(input|output) \d+|state \S+")


@dataclass
class Arg:
    name: str
    dtype: DType
    role: str  # "in" | "out" | "inout" | "scalar"
    shape: list[str] | None = None
    value: str | None = None
    init: dict = field(default_factory=dict)
    tolerance: dict = field(default_factory=dict)
    torch: str | None = None  # a PyTorch problem's tensor: "input N", "state NAME" or "output N"

    @property
    def is_buffer(self) -> bool:
        return self.role != "scalar"

    @property
    def is_output(self) -> bool:
        return self.role in ("out", "inout")


@dataclass
class Shape:
    symbols: dict[str, int]
    timed: bool = False

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.symbols.items())


@dataclass
class Task:
    name: str
    path: Path  # the task directory
    args: list[Arg]
    shapes: list[Shape]
    reference: str
    work: dict[str, str] = field(default_factory=dict)
    description: str = ""
    baseline: Path | None = None
    arch: str | None = None
    tolerance: dict = field(default_factory=dict)
    trials: int = 3  # fresh-input trials for each small shape
    timed_trials: int = 1  # trials at timed shapes (GBs of data: the float64 reference dominates the cost)
    reference_dtype: str = "f64"
    # "gpu": the reference is also run with CuPy arrays on the device (numpy functions dispatch to CuPy), falling
    # back to the host when CuPy is missing or the function needs the host; "cpu": always on the host.
    reference_device: str = "cpu"
    # A CUDA source whose launch lines compute the outputs as float64 from the task's inputs: the GPU check's
    # reference (no CuPy, no host round trip), the function above stays the definition and the host path's.
    reference_cuda: Path | None = None
    compute: str | None = None  # a COMPUTE key: the flops' ceiling is part of the floor; None: bytes only
    # A PyTorch expression of the same computation (arguments by name, size symbols, ``torch``, ``F``) for the
    # comparators (``kopt.comparators``); a PyTorch-problem task has its Model instead.
    torch: str | None = None
    # Another task whose candidates fit this one (the same arguments, other shapes): a candidate declaring that task
    # (``// kopt: task NAME``) may be checked and timed here, and its knowledge-base examples are known here too.
    family: str | None = None

    def accepts(self, declared: str | None) -> bool:
        """Whether a candidate declaring task ``declared`` (None: none) may run against this task."""
        return not declared or declared in (self.name, self.family)

    # --- loading -----------------------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> "Task":
        """Load a task directory (or its ``task.toml``); every malformed input is an ``InputError`` with a line."""
        p = Path(path)
        toml_path = p / "task.toml" if p.is_dir() else p
        if not toml_path.exists():
            raise InputError(f"no task at {path}: expected a directory holding task.toml")
        try:
            text = toml_path.read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read {toml_path}: {exc}")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
            line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 0)
            message = f"invalid TOML: {str(exc).split(' (at line')[0]}"
            raise InputError(f"{toml_path}:{line}:{col}: {message}" if m else f"{toml_path}: {message}",
                             diagnostics=[RULES["task.invalid"].diag(message, Location(str(toml_path), line, col))])
        return _TaskParser(toml_path, text, data).parse()

    def arch_for_run(self) -> str | None:
        """An arch-specific target (``sm_90a``) the task needs; otherwise None (the current GPU's arch)."""
        return self.arch if self.arch and self.arch.endswith("a") else None

    # --- evaluation helpers ----------------------------------------------------------------------------------
    def env(self, shape: Shape) -> dict:
        return dict(shape.symbols)

    def arg(self, name: str) -> Arg:
        for a in self.args:
            if a.name == name:
                return a
        raise InputError(f"task {self.name} has no argument {name!r}")

    def shape_of(self, arg: Arg, shape: Shape) -> tuple[int, ...]:
        env = self.env(shape)
        return tuple(expr.positive_int(expr.evaluate(s, env), f"{self.name}: dimension {s!r} of {arg.name}")
                     for s in arg.shape or [])

    def scalar(self, arg: Arg, shape: Shape):
        v = expr.evaluate(arg.value, self.env(shape))
        return float(v) if arg.dtype.is_float else int(v)

    def tolerances(self, arg: Arg) -> dict:
        t = {"rtol": arg.dtype.rtol, "atol": arg.dtype.atol, "l2": arg.dtype.l2}
        t.update(self.tolerance.get(arg.dtype.name, {}))
        t.update(arg.tolerance)
        return t

    def work_figures(self, shape: Shape) -> dict[str, float]:
        """The work model at ``shape``: ``bytes`` and ``flops`` as declared, and the bytes split into ``bytes_read``
        and ``bytes_written``: as declared, or (only ``bytes`` declared) in proportion to the arguments' sizes, an
        input's bytes read, an output's written and an inout's both."""
        out = {k: float(expr.evaluate(v, self.env(shape))) for k, v in self.work.items()}
        if "bytes_read" in out:
            out["bytes"] = out["bytes_read"] + out["bytes_written"]
        elif "bytes" in out:
            read, written = self.footprint(shape)
            if read + written > 0:
                out["bytes_read"] = out["bytes"] * read / (read + written)
                out["bytes_written"] = out["bytes"] - out["bytes_read"]
        return out

    def footprint(self, shape: Shape) -> tuple[int, int]:
        """(bytes of the inputs, bytes of the outputs) at ``shape``; an inout argument counts in both."""
        read = written = 0
        for a in self.args:
            if a.is_buffer:
                n = math.prod(self.shape_of(a, shape)) * a.dtype.itemsize
                read += n if a.role in ("in", "inout") else 0
                written += n if a.is_output else 0
        return read, written

    @property
    def timed_shapes(self) -> list[Shape]:
        return [s for s in self.shapes if s.timed]

    def find_shape(self, label: str | None) -> list[Shape]:
        """Shapes selected by a label like ``n=1000003`` or ``timed``; all when None."""
        if label is None:
            return list(self.shapes)
        if label == "timed":
            return self.timed_shapes
        want = dict(kv.split("=", 1) for kv in label.replace(" ", "").split(",") if "=" in kv)
        found = [s for s in self.shapes if all(str(s.symbols.get(k)) == v for k, v in want.items())]
        if not found or not want:
            raise InputError(f"no shape {label!r} in task {self.name}: shapes are "
                             + "; ".join(s.label for s in self.shapes))
        return found


class _TaskParser:
    def __init__(self, path: Path, text: str, data: dict):
        self.path, self.text, self.data = path, text, data
        self.lines = text.splitlines()

    def line_of(self, *needles: str) -> int:
        """First line holding all needles (best effort: TOML parsers keep no positions)."""
        for i, line in enumerate(self.lines, 1):
            if all(n in line for n in needles):
                return i
        for i, line in enumerate(self.lines, 1):
            if needles and needles[0] in line:
                return i
        return 1

    def fail(self, message: str, *needles: str):
        line = self.line_of(*needles) if needles else 1
        raise InputError(f"{self.path}:{line}: {message}",
                         diagnostics=[RULES["task.invalid"].diag(message, Location(str(self.path), line))])

    def parse(self) -> Task:
        d = self.data
        for k in d:
            if k not in _TOP_KEYS:
                self.fail(f"unknown key {k!r} (expected one of {', '.join(sorted(_TOP_KEYS))})", k)
        for k in ("name", "args", "shapes", "reference"):
            if k not in d:
                self.fail(f"missing required key {k!r}")
        name = d["name"]
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][\w.-]*", name):
            self.fail(f"name must be an identifier-like string, got {name!r}", "name")
        if not isinstance(d["args"], list) or not d["args"]:
            self.fail("args must be a non-empty array of tables", "args")
        args = [self.parse_arg(a, i) for i, a in enumerate(d["args"])]
        seen = set()
        for a in args:
            if a.name in seen:
                self.fail(f"argument {a.name!r} is declared twice", f'"{a.name}"')
            seen.add(a.name)
        if not any(a.is_output for a in args):
            self.fail("the task declares no output (an arg with role 'out' or 'inout')", "args")
        shapes = self.parse_shapes(d["shapes"], args)
        ref = d["reference"]
        if not isinstance(ref, str) or not re.fullmatch(r"[\w./-]+\.py:\w+", ref):
            self.fail(f"reference must be 'file.py:function', got {ref!r}", "reference")
        ref_file = self.path.parent / ref.split(":")[0]
        if not ref_file.exists():
            self.fail(f"reference file {ref_file.name} not found next to task.toml", "reference")
        work = d.get("work", {})
        if not isinstance(work, dict) or set(work) - _WORK_KEYS:
            self.fail("work must be a table of 'bytes' (or 'bytes_read' and 'bytes_written') and/or 'flops' "
                      "expressions", "work")
        if ("bytes_read" in work) != ("bytes_written" in work):
            self.fail("work: declare both bytes_read and bytes_written (or only bytes)", "work")
        if "bytes_read" in work and "bytes" in work:
            self.fail("work: bytes is the sum of bytes_read and bytes_written: declare one or the other", "work")
        compute = d.get("compute")
        if compute is not None and compute not in COMPUTE:
            self.fail(f"compute must be one of {', '.join(COMPUTE)}, got {compute!r}", "compute")
        if compute is not None and "flops" not in work:
            self.fail("compute names what the flops run on: declare work.flops too", "compute")
        torch_expr = d.get("torch")
        if torch_expr is not None:
            if not isinstance(torch_expr, str) or not torch_expr.strip():
                self.fail("torch must be a PyTorch expression string, e.g. \"torch.softmax(x, 1)\"", "torch")
            try:
                compile(torch_expr, "torch", "eval")
            except SyntaxError as exc:
                self.fail(f"torch: not a Python expression ({exc.msg})", "torch")
        symbols = set(shapes[0].symbols)
        for k, v in work.items():
            self.check_expr(str(v), symbols, f"work.{k}", "work")
        baseline = None
        if "baseline" in d:
            baseline = self.path.parent / str(d["baseline"])
            if not baseline.exists():
                self.fail(f"baseline {d['baseline']!r} not found next to task.toml", "baseline")
        tol = d.get("tolerance", {})
        if not isinstance(tol, dict):
            self.fail("tolerance must be a table by dtype, e.g. { f32 = { rtol = 1e-5 } }", "tolerance")
        for k, v in tol.items():
            if k not in ("f64", "f32", "f16", "bf16"):
                self.fail(f"tolerance for unknown or non-float dtype {k!r}", "tolerance")
            if not isinstance(v, dict) or set(v) - {"rtol", "atol", "l2"}:
                self.fail(f"tolerance.{k} must be a table of rtol/atol/l2", "tolerance")
        trials = d.get("trials", 3)
        if not isinstance(trials, int) or trials < 3:
            self.fail(f"trials must be an integer >= 3, got {trials!r}", "trials")
        timed_trials = d.get("timed_trials", 1)
        if not isinstance(timed_trials, int) or timed_trials < 1:
            self.fail(f"timed_trials must be a positive integer, got {timed_trials!r}", "timed_trials")
        arch = d.get("arch")
        if arch is not None:
            from .archs import check
            try:
                check(str(arch))
            except InputError as exc:
                self.fail(exc.message, "arch")
        ref_dtype = d.get("reference_dtype", "f64")
        if ref_dtype not in ("f64", "native"):
            self.fail("reference_dtype must be 'f64' or 'native'", "reference_dtype")
        ref_device = d.get("reference_device", "cpu")
        if ref_device not in ("cpu", "gpu"):
            self.fail("reference_device must be 'cpu' or 'gpu'", "reference_device")
        ref_cuda = None
        if "reference_cuda" in d:
            ref_cuda = self.path.parent / str(d["reference_cuda"])
            if not ref_cuda.is_file():
                self.fail(f"reference_cuda {d['reference_cuda']!r} not found next to task.toml", "reference_cuda")
        family = d.get("family")
        if family is not None and (not isinstance(family, str) or not re.fullmatch(r"[A-Za-z_][\w.-]*", family)):
            self.fail(f"family must name another task (its candidates fit this one), got {family!r}", "family")
        return Task(name=name, path=self.path.parent, args=args, shapes=shapes, reference=ref, work=work,
                    description=str(d.get("description", "")), baseline=baseline, arch=arch, tolerance=tol,
                    trials=trials, timed_trials=timed_trials, reference_dtype=ref_dtype,
                    reference_device=ref_device, reference_cuda=ref_cuda, compute=compute, torch=torch_expr,
                    family=family)

    def check_expr(self, text: str, symbols: set[str], what: str, *needles: str):
        try:
            unknown = expr.names(text) - symbols
        except InputError as exc:
            self.fail(f"{what}: {exc.message}", *needles)
        if unknown:
            self.fail(f"{what}: unknown size symbol(s) {', '.join(sorted(unknown))} "
                      f"(shapes bind {', '.join(sorted(symbols))})", *needles)

    def parse_arg(self, a, i) -> Arg:
        if not isinstance(a, dict):
            self.fail(f"args[{i}] must be a table like {{ name = \"x\", dtype = \"f32\", shape = [\"n\"], role = \"in\" }}", "args")
        name = a.get("name")
        at = (f'"{name}"',) if name else ("args",)
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            self.fail(f"args[{i}]: name must be an identifier, got {name!r}", *at)
        for k in a:
            if k not in _ARG_KEYS:
                self.fail(f"argument {name!r}: unknown key {k!r}", *at, k)
        if "dtype" not in a:
            self.fail(f"argument {name!r}: missing dtype", *at)
        try:
            dt = dtype(a["dtype"])
        except InputError as exc:
            self.fail(f"argument {name!r}: {exc.message}", *at)
        tol = {k: float(a[k]) for k in ("rtol", "atol", "l2") if k in a}
        if "value" in a:
            if "shape" in a or "role" in a:
                self.fail(f"argument {name!r}: a scalar (value=...) takes no shape or role", *at)
            source = a.get("torch")
            if source is not None and not (isinstance(source, str) and re.fullmatch(r"input \d+", source)):
                self.fail(f"argument {name!r}: a scalar's torch source must be 'input N', got {source!r}", *at)
            return Arg(name, dt, "scalar", value=str(a["value"]), torch=source)
        shape = a.get("shape")
        if not isinstance(shape, list) or not shape:
            self.fail(f"argument {name!r}: a buffer needs shape = [...] (or value = ... for a scalar)", *at)
        role = a.get("role")
        if role not in ROLES:
            self.fail(f"argument {name!r}: role must be one of {', '.join(ROLES)}, got {role!r}", *at)
        init = {}
        if role in ("in", "inout"):
            kind = a.get("init", "normal" if dt.is_float else "randint")
            if kind not in INITS:
                self.fail(f"argument {name!r}: init must be one of {', '.join(INITS)}, got {kind!r}", *at)
            init = {"kind": kind}
            for k in ("mean", "std", "low", "high"):
                if k in a:
                    init[k] = a[k]
            if kind == "normal" and init.get("std", 1.0) == 0 and init.get("mean", 0.0) == 0:
                self.fail(f"argument {name!r}: all-zero inputs hide bugs; use a non-zero std or mean", *at)
            if kind in ("uniform", "randint") and init.get("low", 0) == init.get("high", 1 if kind == "uniform" else 100) == 0:
                self.fail(f"argument {name!r}: all-zero inputs hide bugs; widen low/high", *at)
            if kind == "randint" and int(init.get("high", 100)) <= int(init.get("low", 0)):
                self.fail(f"argument {name!r}: randint needs high > low (high is exclusive)", *at)
        source = a.get("torch")
        if source is not None and not (isinstance(source, str) and _TORCH_SOURCE.fullmatch(source)):
            self.fail(f"argument {name!r}: torch must be 'input N', 'state NAME' or 'output N', got {source!r}", *at)
        if source is not None and (source.startswith("output") != (role == "out")):
            self.fail(f"argument {name!r}: a torch output is an out argument and an out argument a torch output", *at)
        return Arg(name, dt, role, shape=[str(s) for s in shape], init=init, tolerance=tol, torch=source)

    def parse_shapes(self, shapes, args) -> list[Shape]:
        if not isinstance(shapes, list) or not shapes:
            self.fail("shapes must be a non-empty array of tables like { n = 1024, timed = true }", "shapes")
        out = []
        needed: set[str] = set()
        for a in args:
            for text in (a.shape or []) + ([a.value] if a.value is not None else []):
                needed |= self._names(text, a)
        for i, s in enumerate(shapes):
            if not isinstance(s, dict):
                self.fail(f"shapes[{i}] must be a table", "shapes")
            timed = s.get("timed", False)
            if not isinstance(timed, bool):
                self.fail(f"shapes[{i}]: timed must be true or false", "timed")
            sym = {k: v for k, v in s.items() if k != "timed"}
            for k, v in sym.items():
                if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                    self.fail(f"shapes[{i}]: size {k} must be a positive integer, got {v!r}", f"{k} = {v}")
            missing = needed - set(sym)
            if missing:
                self.fail(f"shapes[{i}] does not bind {', '.join(sorted(missing))}",
                          *([f"{k} = {v}" for k, v in sym.items()][:1] or ["shapes"]))
            out.append(Shape(sym, timed))
        if not any(s.timed for s in out):
            self.fail("no shape is marked timed = true (one checked-and-timed shape is required)", "shapes")
        for a in args:
            for s in out:
                try:
                    if a.shape:
                        for dim in a.shape:
                            expr.positive_int(expr.evaluate(dim, s.symbols), f"dimension {dim!r}")
                    if a.value is not None:
                        expr.evaluate(a.value, s.symbols)
                except InputError as exc:
                    self.fail(f"argument {a.name!r} at shape {s.label}: {exc.message}", f'"{a.name}"')
        return out

    def _names(self, text: str, a: Arg) -> set[str]:
        try:
            return expr.names(text)
        except InputError as exc:
            self.fail(f"argument {a.name!r}: {exc.message}", f'"{a.name}"')
