"""Model builder: symbolic execution of one kernel over the neutral tree.

Every thread runs the same code, so the kernel is executed once with symbolic thread ids. Branches fork and merge
(values become ``ite``), loops are summarised with a per-thread iteration number ``k`` (induction variables become
``v0 + k*step`` or an exact geometric form, other loop-carried values become unknowns), helper device functions are
inlined, and every shared/global access, barrier and async operation is recorded with its path condition and its
barrier phase (the number of block barriers executed before it, as an expression of loop iterations).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path

from . import asm as asmlib
from . import butterfly, sym
from .ast import Func, Node, TypeInfo, Unit, nodes, short_name, switch_groups
from .calls import handle_call, same_in_group
from .launch import LaunchConfig, evaluate as eval_text, source_macros, split_top
from .model import Access, AsyncOp, Barrier, KernelModel, LoadedBase, Ptr, SharedArray
from .model_stubs import model_stub
from .spin_barrier import grid_barrier
from .sym import ONE, ZERO, S, binop, const, ite, opaque, uf, unop, var
from .type_sizes import TYPE_SIZES, unsigned_integer
from .uniform_carried import uniform_carried, uniform_helper, written_names
from .values import Agg, Mem, State, VarRef, same_struct

_POINTER_BYTES = 8  # a loaded pointer's size, for the stores that may overwrite it
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_CLASS_ARGS = re.compile(r"^(?:const\s+)?(?:\w+\s*::\s*)*(\w+)\s*<(.*)>\s*(?:const\s*)?[&*]?\s*$")  # `const Array<T, N> &`
# `at::PackedTensorAccessor64<scalar_t, 3, at::RestrictPtrTraits>`: element type and rank
_ACCESSOR = re.compile(r"\b(?:Generic)?(?:Packed)?TensorAccessor(?:32|64)?\s*<\s*([^,<>]+?)\s*,\s*(\d+)\b")
MAX_INLINE = 8
MAX_STEPS = 150_000  # statements the builder runs per kernel, inlined helpers included (a logic-synthesis
# kernel's helper tree ran 670,000 in 15 s); past it a helper's call is an unknown result and the kernel incomplete


def _assigned(nodes) -> dict:
    """name -> list of assigning nodes (assign / ++ / --) anywhere in ``nodes``; value 'nested' marks depth."""
    out: dict = {}

    def walk(n, depth):
        if n is None:
            return
        if isinstance(n, list):
            for x in n:
                walk(x, depth)
            return
        if not isinstance(n, Node):
            return
        if n.kind == "assign" and n.a is not None and n.a.kind == "name":
            out.setdefault(n.a.name, []).append((n, depth))
        if n.kind == "un" and n.op in ("pre++", "pre--", "post++", "post--") and n.a is not None and n.a.kind == "name":
            out.setdefault(n.a.name, []).append((n, depth))
        if n.kind == "decl":
            out.setdefault(n.name, []).append((n, -1))  # declared inside: not loop-carried
        nested = depth + (1 if n.kind in ("if", "for", "while", "do", "switch", "cond") else 0)
        for ch in (n.a, n.b, n.c, n.init):
            walk(ch, nested if n.kind != "expr" else depth)
        for lst in (n.args, n.body, n.outs, n.ins):
            walk(lst, nested)

    walk(nodes, 0)
    return out


_VECTOR_TYPE = re.compile(r"(?:char|short|int|long|float|double|half|bfloat16|bf16)[1-4]\b")


def _small(e: S, limit: int = 16) -> bool:
    """Whether ``e`` has at most ``limit`` distinct terms."""
    seen, todo = set(), [e]
    while todo:
        x = todo.pop()
        if id(x) not in seen:
            seen.add(id(x))
            if len(seen) > limit:
                return False
            todo.extend(x.args)
    return True


def _iteration(lid: int) -> S:
    """The iteration count of loop ``lid``: the same in every thread that runs that iteration."""
    return var(f"k{lid}", "iter")


def _default_arguments(fn: Func, n: Node) -> list:
    """The argument nodes of the call ``n`` of ``fn``: a parameter the call leaves out (libclang shows an unknown
    node with no text there) takes its default argument, evaluated where the call is (`tid = threadIdx.x`)."""
    out = list(n.args)
    for i, d in enumerate(fn.defaults[:len(out)]):
        if d is not None and out[i].kind == "unknown" and not out[i].text:
            out[i] = d
    return out


def _takes(f: Func, nargs: int) -> bool:
    """Whether ``f`` takes ``nargs`` arguments (a variadic template any number past its fixed parameters)."""
    return len(f.params) == nargs or bool(f.pack) and nargs >= len(f.params) - 1


def _renamed(n, names: dict):
    """A copy of node ``n`` (or a list of them) with each name in ``names`` replaced by its value."""
    if isinstance(n, list):
        return [_renamed(x, names) for x in n]
    if not isinstance(n, Node):
        return n
    return replace(n, name=names.get(n.name, n.name) if n.kind == "name" else n.name, a=_renamed(n.a, names),
                   b=_renamed(n.b, names), c=_renamed(n.c, names), args=_renamed(n.args, names),
                   body=_renamed(n.body, names), init=_renamed(n.init, names))


def _narrowed(v: S, ti: TypeInfo) -> S:
    """``v`` converted to ``ti`` when that is an unsigned 8- or 16-bit integer: the value modulo 2^8 / 2^16, as C
    converts it (``unsigned char b = v >> 8`` indexes at most 255). Other types keep the value."""
    if not ti.integral or ti.size not in (1, 2) or ti.pointer or not unsigned_integer(ti.spelling):
        return v
    return binop("&", v, const((1 << (8 * ti.size)) - 1))


_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


def _unsigned_cast(n: Node | None) -> bool:
    """Whether ``n`` is an explicit cast to a 32-bit unsigned integer."""
    ti = n.ty if n is not None and n.kind == "cast" else None
    return ti is not None and ti.integral and not ti.pointer and ti.size == 4 and unsigned_integer(ti.spelling)


def _as_unsigned(n: Node, v: S, other: Node) -> S:
    """The value ``v`` of the comparison operand ``n`` as the comparison reads it: modulo 2^32 when ``n`` casts to
    unsigned and the other operand is no wider signed integer (which would convert it back); a loaded or unmodelled
    value keeps its value (the model never follows its wrap-around)."""
    o = other.ty if other is not None else None
    if not _unsigned_cast(n) or sym.has_data(v) or sym.has_opaque(v) or \
            (o is not None and o.integral and o.size == 8 and not unsigned_integer(o.spelling)):
        return v
    # (not `v & 0xffffffff`: the model does not bound an int to 32 bits, and a loop counter past 2^32 would wrap)
    return sym.ite(binop("<", v, ZERO), binop("+", v, const(1 << 32)), v)


_NONNEGATIVE = re.compile(r"(?:t|b|bd|gd)[xyz]$|[Nk]\d+$")  # thread, block and launch geometry, loop counters


def _base_type(spelling: str) -> str:
    return re.sub(r"\b(?:const|volatile)\b|[\s&*()]", "", spelling)


def _instantiation(fn, n: Node) -> list[str]:
    """The template arguments of the call ``n`` of helper ``fn``: those written out, then the type parameters a
    parameter's type names deduced from the argument (``blockReduceSum(i)`` of an int is ``blockReduceSum<int>``:
    each instantiation has its own static ``__shared__`` arrays)."""
    out = [re.sub(r"[\s()]", "", t) for t in n.targs]
    types = {tn for tn, kind in fn.tparams[len(out):] if kind == "type"}
    deduced = {}
    for (_, ti), an in zip(fn.params, n.args):
        tn = _base_type(ti.spelling)
        if tn in types and tn not in deduced and an.ty is not None and an.ty.spelling:
            deduced[tn] = _base_type(an.ty.spelling)
    return out + [deduced.get(tn, "?") for tn, _ in fn.tparams[len(out):]] if deduced else out


def _maybe_negative(e: S) -> bool:
    """Whether ``e`` reads anything but the launch geometry and loop counters (a parameter, a load, a local)."""
    return any(not _NONNEGATIVE.match(name) for name in sym.free_vars(e))


def _barriers_so_far(delta: S, k: S, N: S) -> tuple[S, S]:
    """(barriers before iteration ``k``, barriers of the whole loop) for a loop of ``N`` iterations whose iteration
    ``k`` runs ``delta`` of them. A count that depends on ``k`` (`if (k < last) { ...; __syncthreads(); }`) is summed
    iteration by iteration when ``N`` is a constant of at most 32 and the count is the same in every thread;
    otherwise (and for a constant count) ``k * delta`` and ``N * delta`` (a thread-dependent count is reported as a
    divergent barrier anyway, and its sum would burden every query)."""
    one = _one_pass_apart(delta, k) if not sym.thread_dependent(delta, iter_too=False) else None
    if one is not None:  # every pass but the one at L (the last, say) runs `usual` barriers, that one `other`
        L, usual, other = one

        def upto(n):
            seen = sym.land(binop(">=", L, ZERO), binop("<", L, n))
            return binop("+", binop("*", n, usual), ite(seen, binop("-", other, usual), ZERO))
        return upto(k), upto(N)
    if k.val not in sym.free_vars(delta) or not sym.is_const(N) or not 0 < N.val <= 32 or \
            sym.thread_dependent(delta, iter_too=False):
        return binop("*", k, delta), binop("*", N, delta)
    sums = [ZERO]
    for i in range(N.val):
        sums.append(binop("+", sums[-1], sym.subst(delta, {k.val: const(i)})))
    at = sums[N.val - 1]
    for i in range(N.val - 2, -1, -1):
        at = ite(binop("==", k, const(i)), sums[i], at)
    return at, sums[N.val]


def _one_pass_apart(delta: S, k: S):
    """(L, usual, other) when an iteration's barrier count ``delta`` is ``k != L ? usual : other`` (or the ``==``
    form), L, usual and other not depending on the iteration ``k``; else None."""
    if delta.op != "ite" or len(delta.args[0].args) != 2:
        return None
    c, yes, no = delta.args
    c = _first_pass_test(c, k) or c
    if c.op not in ("!=", "=="):
        return None
    x, y = c.args
    L = y if x.op == "v" and x.val == k.val else x if y.op == "v" and y.val == k.val else None
    if L is None or any(k.val in sym.free_vars(e) for e in (L, yes, no)):
        return None
    return (L, yes, no) if c.op == "!=" else (L, no, yes)


def _first_pass_test(c: S, k: S) -> S | None:
    """``k > 0`` (``k >= 1``, ``0 < k``, ``1 <= k``) as ``k != 0``, and ``k < 1`` (``k <= 0``...) as ``k == 0``:
    the test that sets the first pass of a loop apart (`if (k > 0) __syncthreads();`), for an iteration ``k >= 0``."""
    if c.op not in ("<", "<=", ">", ">=") or len(c.args) != 2:
        return None
    x, y = c.args
    op = c.op
    if y.op == "v" and y.val == k.val:  # `0 < k` is `k > 0`
        x, y, op = y, x, {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
    if not (x.op == "v" and x.val == k.val and sym.is_const(y)):
        return None
    first = y.val + (1 if op in (">", "<=") else 0) == 1  # the bound splits pass 0 from the rest
    return (binop("!=" if op in (">", ">=") else "==", k, ZERO)) if first else None


def _dependent_scalar(v):
    """A parameter of a type the analysis does not know (a template type parameter of a kernel analyzed without its
    arguments: ``index_t width``) is a uniform scalar where arithmetic, a comparison or a conversion to an integer
    uses it; a struct of known size stays a struct."""
    if isinstance(v, Agg) and v.kind == "struct" and v.uniform and not v.size and v.name.startswith("p:") \
            and "." not in v.name:
        return var(v.name, "uniform")
    return v


def _address(p: Ptr) -> S | None:
    """A pointer stored as a value (`bufs[0] = d_in;`): a global buffer's address, the same in every thread (a
    parameter, a by-value struct's field, a `__device__` array), plus the byte offset; None for any other pointer
    (shared and local addresses, pointers loaded from memory), whose stores are then compared as unknown values."""
    if p.space in ("global", "const") and p.base != "?" and not p.intaddr:
        return binop("+", var(f"addr:{p.base}", "uniform"), p.off)
    return None


class Builder:
    def __init__(self, unit: Unit, func: Func, launch: LaunchConfig, defines: dict | None = None):
        self.unit = unit
        self.func = func
        self.launch = launch
        self.model = KernelModel(name=func.name, func=func, launch=launch, frontend=unit.frontend)
        self.seq = itertools.count()
        self.loop_ids = itertools.count()
        self.curand_seeds: dict = {}  # a thread's own generator state -> [curand_init's arguments, draws so far]
        self.loop_exits: list = []  # per loop being built: the path condition at each way out (None: a switch's)
        # a call read as the target of a store (`GetElement<0>(out) = v`): the reference it returns is an lvalue;
        # the call node whose inlining should return one, whether the helper being inlined returns one, and its
        # parameters (a reference parameter it returns is the caller's argument)
        self._lvalue_call: Node | None = None
        self._returns_lvalue = False
        self._lvalue_params: list = []
        self._read_params = None  # the pointer parameters the kernel only reads elements of (``_only_read``)
        self._helper_uniform: dict = {}  # a device function name -> whether it is a uniform_helper
        self.packs: dict = {}  # the inlined variadic helper's pack (parameter and type name) -> its elements' names
        self.depth = 0
        self._calls = itertools.count(1)
        self._call_id = 0  # the inlined call being read (0 in the kernel): its local structs are its own
        self._own_dims: set = set()  # the dimensions of threadIdx/blockDim the kernel's own code names
        self.helper = ""  # the inlined helper being read (its own static __shared__ arrays), "" in the kernel
        self._open_fields: set[str] = set()  # fields of shared structs whose offsets clang leaves open (``_field``)
        self.this = None  # in an inlined member function: its object (Agg, or Mem for one in memory)
        self.site: Node | None = None  # in a library model kopt supplies (a stub's helper): the user's call of it
        self.accessors: dict = {}  # a tensor accessor parameter -> its sizes (``_param_value``)
        self._shared_pointers: dict = {}  # (shared variable, offset key) -> the pointer stored there, or None
        self._loaded: dict = {}  # (array, offset key) -> (name of the buffer a pointer loaded there points to, offset)
        self.unplaced = False  # an access just evaluated went through a pointer value the model lost (``assign``)
        self.steps = 0  # statements run so far (MAX_STEPS)
        self.over_budget = False
        self.tbind: dict = {}  # template value params -> S
        self.fbind: dict = {}  # template function params -> the function's name (`dequantize_kernel`: dequantize_q4_0)
        self.typebind: dict = {}  # template type params -> size
        self.macros = dict(source_macros(unit.source))
        for k, v in (defines or {}).items():
            self.macros[k] = v if v is not None else 1
        self.st = State()
        self.loop_stack: list = []
        self._member_uses: dict = {}  # local struct name -> members used (see _members_used)
        self._local_arrays: set = set()  # the thread's local arrays (whose stores State.locals keeps)
        self._choices: dict = {}  # a pointer's base that is one of two arrays -> (selector, condition, base, base)

    # ------------------------------------------------------------------ entry
    def build(self) -> KernelModel:
        f = self.func
        self._bind_template(f, self.launch.targs)
        sc = self.st.scopes[0]
        for name, decl in self.unit.globals.items():
            sc[name] = self._global_value(decl)
        for name, ti in f.params:
            sc[name] = self._param_value(name, ti)
        self.st.scopes.append({})
        try:
            self.stmt(f.body)
        except RecursionError:
            self.model.problems.append((f.loc, "kernel too deeply nested to analyze"))
        if self._own_dims:
            # a kernel whose own code names its threads in x only is launched 1-deep in y and z; the helpers it calls
            # that name threadIdx.y (a block reduction written for any block) are used as 1-D ones
            self.model.dims_used = set(self._own_dims)
        for (base, _), (name, off) in self._loaded.items():
            if any(a.write and a.base == base and _may_overlap(a, off, _POINTER_BYTES) for a in self.model.accesses):
                # the buffer a loaded pointer names may change while threads use it
                self.model.problems.append((f.loc, f"a pointer loaded from memory the kernel writes (`{name}`)"))
                break
        return self.model

    def _bind_deduced(self, fn: Func, n: Node, tbind: dict, typebind: dict):
        """Bind the template parameters of helper ``fn`` that a parameter's class type deduces from the call's
        argument (``Store(T *, const Array<T, N> &)`` called with an ``Array<T, V>``: ``N`` is the caller's ``V``),
        where the call does not write them out; ``tbind``/``typebind``: the caller's bindings."""
        kinds = dict(fn.tparams[len(n.targs):])  # (the caller's binding of a parameter of the same name is not it)
        for (_, ti), an in zip(fn.params, n.args):
            want = _CLASS_ARGS.match(ti.spelling or "")
            got = _CLASS_ARGS.match(an.ty.spelling or "") if an.ty is not None else None
            if not want or not got or want.group(1) != got.group(1):
                continue
            for w, g in zip(split_top(want.group(2)), split_top(got.group(2))):
                w, g = w.strip(), g.strip()
                kind = kinds.pop(w, None)
                if kind == "value":
                    v = eval_text(g, self.macros)
                    self.tbind[w] = const(v) if isinstance(v, int) else tbind.get(g) or \
                        opaque(f"template value {w}", uniform=True)
                elif kind == "type":
                    self.typebind[w] = typebind.get(g) or TYPE_SIZES.get(g, 4)

    def _bind_template(self, f: Func, targs):
        env = dict(self.macros)
        for (name, kind), text in zip(f.tparams, targs or []):
            if text == "?":  # not deduced (host_launch.tag_targs): left generic
                continue
            if kind == "type":
                self.typebind[name] = TYPE_SIZES.get(text.replace("const", "").strip(), 4)
            else:
                v = eval_text(text, env)
                if v is None and text.strip() in ("true", "false"):
                    v = int(text.strip() == "true")
                self.tbind[name] = const(v) if v is not None else opaque(f"template value {name}", uniform=True)

    def _elem(self, ti: TypeInfo | None) -> int:
        if ti is None:
            return 4
        if ti.pointee_size:
            return ti.pointee_size
        p = ti.pointee.replace("const", "").replace("volatile", "").replace("*", "").strip()
        p = p.split("::")[-1].strip()
        if p in self.typebind:
            return self.typebind[p]
        return TYPE_SIZES.get(p) or self._class_size(p) or 4

    def _retyped(self, v: Ptr, ti: TypeInfo, volatile: bool) -> Ptr:
        """``v`` seen through the pointer type ``ti`` (a cast, a declaration, an inlined call's parameter): its element
        size, and for a pointer to arrays (``T (*)[N]``) an array of unknown extent of those rows."""
        es = self._elem(ti)
        dims = (None, *ti.pointee_dims) if ti.pointee_dims else (v.dims if es == v.elem and v.dims else ())
        return Ptr(v.space, v.base, v.off, es, dims, v.subs, volatile, False)

    def _dims(self, ti: TypeInfo) -> tuple:
        out = []
        for d in ti.dims:
            if isinstance(d, Node):
                v = self.ival(d)
                out.append(v.val if sym.is_const(v) else None)
            else:
                out.append(d)
        return tuple(out)

    def _global_value(self, d: Node):
        ti = d.ty
        space = "shared" if d.shared and d.val != "constant" else ("const" if d.val == "constant" else "global")
        return self._array_or_scalar(d.name, ti, space, d)

    def _array_or_scalar(self, name, ti, space, d: Node | None):
        elem = self._elem(ti)
        if ti.dims:
            dims = self._dims(ti)
            if space == "shared":
                n = 1
                for x in dims:
                    n = n * x if isinstance(x, int) and n is not None else None
                total = n * elem if n is not None else None
                if total is None and d is not None and d.extern and self.launch.smem is not None:
                    total = self.launch.smem
                self.model.shared[name] = SharedArray(name, total, elem, dims, d.loc if d else None)
            return Ptr(space, name, ZERO, elem, dims, volatile=ti.volatile)
        size = ti.size or TYPE_SIZES.get(ti.spelling.split("::")[-1].strip(), 4)
        if space == "shared":
            self.model.shared[name] = SharedArray(name, size, size, (), d.loc if d else None)
        return Mem(Ptr(space, name, ZERO, size, (), volatile=ti.volatile), size)

    def _param_value(self, name, ti: TypeInfo):
        acc = _ACCESSOR.search(ti.spelling) if "TensorAccessor" in ti.spelling else None
        if acc is not None and not ti.pointer:
            # a PyTorch tensor accessor: a row-major tensor of its sizes (``acc.size(d)``), element type T
            elem = self._elem(TypeInfo(pointer=True, pointee=acc.group(1).strip()))
            rank = int(acc.group(2))
            sizes = [var(f"p:{name}.size{d}", "uniform") for d in range(rank)]
            for d in range(rank):
                self.model.int_fields.add(f"{name}.size{d}")
            self.accessors[name] = sizes
            return Ptr("global", name, ZERO, elem, (None, *sizes[1:]))
        if ti.pointer and not ti.ref:
            return Ptr("global", name, ZERO, self._elem(ti), (None, *ti.pointee_dims) if ti.pointee_dims else (),
                       volatile=ti.volatile)
        if ti.dims:
            # a reference to an array is the array; `uint32_t g_inp[32]` declares a pointer (its first extent is not the buffer's)
            dims = self._dims(ti)
            shape = dims if ti.ref else (None, *dims[1:]) if dims[1:] else ()
            return Ptr("global", name, ZERO, self._elem(ti), shape)
        if ti.integral or ti.spelling.strip() in self.typebind:
            return var(f"p:{name}", "uniform")
        if _floating(ti.spelling):
            return var(f"p:{name}", "uniform")
        return Agg("struct", f"p:{name}", uniform=True, size=ti.size or 0)

    # ------------------------------------------------------------------ recording
    def _rec_access(self, m: Mem, write: bool, node: Node, atomic=False, value=None, via=""):
        p = m.ptr
        if p.base in self._choices:  # one access on each array the pointer may be into, under its side of the choice
            cond0 = self.st.cond
            for side, arm in self._arms(p):
                self.st.cond = sym.land(cond0, side)
                self._rec_access(Mem(arm, m.size), write, node, atomic, value, via)
            self.st.cond = cond0
            return
        if p.space == "local" and write:
            self._forget_local(p.base, p.off, m.size)
        if p.space not in ("shared", "global"):
            return
        self.model.accesses.append(Access(
            space=p.space, base=p.base, offset=sym.under(p.off, self.st.cond), size=m.size, write=write,
            atomic=atomic, value=value,
            cond=self.st.cond, phase=self.st.phase, wphase=self.st.wphase, loc=(self.site or node).loc,
            text=_text(self.site or node),
            seq=next(self.seq), elem=p.elem if not p.intaddr else m.size, subs=p.subs, volatile=p.volatile, via=via,
            loops=tuple(self.loop_stack), gphase=self.st.gphase))

    def barrier(self, kind: str, node: Node, checked=True):
        site = self.site or node
        self.model.barriers.append(Barrier(kind, self.st.cond, site.loc, _text(site), next(self.seq), self.st.phase,
                                           checked))
        if kind in ("block", "named", "grid", "cuda::barrier"):
            self.st.phase = binop("+", self.st.phase, ONE)
        self.st.wphase = binop("+", self.st.wphase, ONE)
        if kind == "grid":
            self.st.gphase = binop("+", self.st.gphase, ONE)
        # completion of async copies tracked by a barrier wait
        if kind == "cuda::barrier":
            self.async_op("wait", node, n=ZERO, text="barrier wait")

    def async_op(self, kind, node: Node, ptr=None, n=None, size=None, mbar=None, text=None):
        site = self.site or node
        self.model.asyncs.append(AsyncOp(kind, site.loc, text or _text(site), next(self.seq), self.st.cond, ptr, n,
                                         size, mbar, tuple(self.loop_stack)))

    # ------------------------------------------------------------------ statements
    def stmt(self, n: Node | None):
        if n is None or self.st.dead:
            return
        self.steps += 1
        k = n.kind
        if k == "block":
            if n.val == "decls":
                for x in n.body:
                    self.stmt(x)
                return
            self.st.scopes.append({})
            try:
                for x in n.body:
                    if self.st.dead:
                        break
                    self.stmt(x)
            finally:
                self.st.scopes.pop()
        elif k == "decl":
            self.decl(n)
        elif k == "expr":
            self.eval(n.a)
        elif k == "if":
            self.if_stmt(n)
        elif k in ("for", "while", "do"):
            self.loop(n)
        elif k == "return":
            val = self._returned_lvalue(n.a) if self._returns_lvalue and n.a is not None else \
                self.eval(n.a) if n.a is not None else None
            if self.st.rets is not None:
                self.st.rets.append((self.st.cond, val))
            for exits in self.loop_exits:
                if exits is not None:
                    exits.append(self.st.cond)
            self.st.dead = True
            self.st.returned = True
        elif k in ("break", "continue"):
            if k == "break" and self.loop_exits and self.loop_exits[-1] is not None:
                self.loop_exits[-1].append(self.st.cond)
            self.st.dead = True
        elif k == "asm":
            self.asm(n)
        elif k == "switch":
            self.switch(n)
        elif k == "unknown":
            self.model.problems.append((n.loc, f"unsupported construct `{n.text[:40]}`"))

    def _unrolled(self, n: Node) -> bool:
        """``for (int i = A; i < B; ++i) offset *= size_[i];`` with A and B constants at most ``_UNROLL`` apart and a
        body that only computes registers from a struct's array fields (no memory access, local array, call, exit or
        inner loop: a tensor view's offset from its sizes): run pass by pass, so the value after the loop is exact (a
        product has no closed form). (A hash's rounds over its local state words stay one symbolic pass: unrolled,
        their values grow past what the solver decides.)"""
        i, first, last = _counted_loop(n)
        if i is None or not _register_only(n.body):
            return False
        self.st.scopes.append({})
        try:
            start = self.ival(first)
            end = self.ival(last.b)
            if not (sym.is_const(start) and sym.is_const(end)):
                return False
            stop = end.val + (1 if last.op == "<=" else 0)
            if stop - start.val > _UNROLL:
                return False
            for v in range(start.val, stop):
                self.st.scopes[-1][i] = const(v)
                for x in n.body:
                    self.stmt(x)
            return True
        finally:
            self.st.scopes.pop()

    def switch(self, n: Node):
        """The group of statements whose case label matches the value runs (``switch (blockIdx.x) { case 0: ...
        }``: block 0 alone); a body whose groups fall through into each other, or a switch on a value that depends on
        the thread (a table each thread fills its part of: a condition per case multiplies the race check's pairs past
        its budget), runs whole, under a condition kopt does not know."""
        v = self.ival(n.a)
        groups = switch_groups(n) if not sym.thread_dependent(v) else None

        def run(stmts):
            def go():
                returned = self.st.returned
                self.loop_exits.append(None)  # a `break` here leaves the switch
                try:
                    for x in stmts:
                        self.stmt(x)
                finally:
                    self.loop_exits.pop()
                if self.st.dead and not (self.st.returned and not returned):
                    self.st.dead = False  # `break` leaves the switch, not the path
            return go
        if groups is None:
            self._branch(opaque("switch case", uniform=not sym.thread_dependent(v)), run(n.body), None)
            return
        labels = {id(x): self.ival(x) for labels, _ in groups for x in labels if x is not None}
        cases = [(ONE if None in ls else None, [labels[id(x)] for x in ls if x is not None], stmts)
                 for ls, stmts in groups]
        others = [binop("!=", v, c) for _, ls, _ in cases for c in ls]

        def chain(i):
            if i == len(cases):
                return
            default, ls, stmts = cases[i]
            c = ZERO
            for x in ls:
                c = binop("||", c, binop("==", v, x))
            if default is not None:
                c = binop("||", c, sym.land(*others))
            self._branch(c, run(stmts), (lambda: chain(i + 1)) if i + 1 < len(cases) else None)
        chain(0)

    def decl(self, n: Node):
        ti = n.ty or TypeInfo()
        if n.shared:
            space = "const" if n.val == "constant" else "shared"
            # a helper's static __shared__ array is its own, one per template instantiation (`blockReduce<Max>`'s
            # and `blockReduce<Sum>`'s are two arrays); every `extern` array is the one dynamic buffer
            base = f"{self.helper}::{n.name}" if self.helper and not n.extern else n.name
            self.st.scopes[-1][n.name] = self._array_or_scalar(base, ti, space, n)
            return
        if ti.dims:
            if n.a is not None:
                self.eval(n.a)
            base = f"{self.helper}::{n.name}" if self.helper else n.name  # (a helper's array is its own)
            self._local_arrays.add(base)
            self.st.scopes[-1][n.name] = Ptr("local", base, ZERO, self._elem(ti), self._dims(ti))
            return
        if n.a is not None:
            init = n.a
            if init.kind == "call" and init.name.endswith("__ctor__") and len(init.args) == 1 and \
                    same_struct(init.args[0].ty, ti):
                init = init.args[0]  # a copy: `T t = p[i];` (the copy constructor reads what the copy's uses read)
            v = self.eval(init)
            if ti.ref and isinstance(v, Mem):
                self.st.scopes[-1][n.name] = v
                return
            if isinstance(v, Mem):
                used = self._members_used(n.name, ti) if v.ptr.space in ("shared", "global") and not v.ptr.dims \
                    else None
                if used is None:
                    v = self.load(v, init)
                else:
                    # a struct copied out of memory reads the members the code uses: a compiler drops the loads of
                    # the others (a copy of a particle whose force member other threads update atomically)
                    p = v.ptr
                    for off, size in used:
                        self._rec_access(Mem(Ptr(p.space, p.base, binop("+", p.off, const(off)), size, (), p.subs,
                                                 p.volatile), size), False, init)
                    v = Agg("struct", n.name, size=ti.size or 0)
            if isinstance(v, Agg) and v.kind == "struct" and not v.uniform:
                v = self._struct_copy(v, n.name)
            if isinstance(v, Ptr) and ti.pointer and not v.intaddr:
                v = self._retyped(v, ti, v.volatile or ti.volatile)
            if isinstance(v, S):
                v = _narrowed(v, ti)
            if v is None:
                v = opaque(f"value of {n.name}")
            self.st.scopes[-1][n.name] = v
        else:
            if ti.integral or ti.pointer:
                self.st.scopes[-1][n.name] = opaque(f"uninitialized {n.name}")
            else:
                self.st.scopes[-1][n.name] = Agg("struct", n.name, size=ti.size or 0)

    def _struct_copy(self, v: Agg, name: str) -> Agg:
        """A thread's own struct copied into local ``name``: its array members' values too (a view's sizes). A
        helper's local is its call's own (`sub` of two nested calls of one operator[] are two structs)."""
        out = v.copy(f"{name}@{self._call_id}" if self._call_id else name)
        prefix = v.name + "."
        for (base, off, size), got in list(self.st.locals.items()):
            if base.startswith(prefix):
                self._local_arrays.add(out.name + base[len(v.name):])
                self.st.locals[(out.name + base[len(v.name):], off, size)] = got
        return out

    def _members_used(self, name: str, ti: TypeInfo) -> list | None:
        """The (byte offset, size) of each member of the local struct ``name`` the unit's code reads or writes as
        ``name.member``; None when ``name`` is also used whole (passed, copied, a method called), or ``ti`` is no
        struct (a scalar, pointer, array or CUDA vector type, whose loads are one access)."""
        if ti.pointer or ti.ref or ti.integral or ti.dims or not ti.size or _VECTOR_TYPE.search(ti.spelling):
            return None
        if name not in self._member_uses:
            fields, whole = set(), False

            def walk(x):
                nonlocal whole
                if isinstance(x, list):
                    for y in x:
                        walk(y)
                    return
                if not isinstance(x, Node):
                    return
                if x.kind == "name" and x.name == name:  # (a member's base is not walked: see below)
                    whole = True
                if x.kind == "member" and x.a is not None and x.a.kind == "name" and x.a.name == name:
                    if isinstance(x.val, int) and x.ty is not None and x.ty.size:
                        fields.add((x.val, x.ty.size))
                    else:
                        whole = True
                    return
                for ch in (x.a, x.b, x.c, x.init):
                    walk(ch)
                for lst in (x.args, x.body, x.outs, x.ins):
                    walk(lst)

            for fs in self.unit.funcs.values():
                for f in fs:
                    walk(f.body)
            self._member_uses[name] = None if whole else sorted(fields)
        return self._member_uses[name]

    def _branch(self, c: S, then_fn, else_fn):
        st0 = self.st
        cond0 = st0.cond
        a = st0.clone()
        a.cond = sym.land(cond0, c)
        a.returned = False
        self.st = a
        then_fn()
        a = self.st  # the branch's final state: a nested branch or loop in it may have replaced the state object
        b = st0.clone()
        b.cond = sym.land(cond0, unop("!", c))
        b.returned = False
        self.st = b
        if else_fn is not None:
            else_fn()
        b = self.st
        self.st = self._merge(st0, c, a, b)

    def _merge(self, st0: State, c: S, a: State, b: State) -> State:
        if a.dead and b.dead:
            r = st0.clone()
            r.dead = True
            r.returned = st0.returned or a.returned or b.returned
            return r
        if a.dead:
            b.returned = st0.returned or a.returned or b.returned
            return b
        if b.dead:
            a.returned = st0.returned or a.returned or b.returned
            return a
        r = st0.clone()
        r.scopes = []
        for sa, sb in zip(a.scopes, b.scopes):
            m = {}
            for k in sa.keys() | sb.keys():
                va, vb = sa.get(k), sb.get(k)
                m[k] = va if va is vb else self._merge_val(c, va, vb, k)
            r.scopes.append(m)
        r.locals = {k: va if va[1] is vb[1] else (va[0], ite(c, va[1], vb[1]))
                    for k in a.locals.keys() & b.locals.keys() for va, vb in [(a.locals[k], b.locals[k])]}
        r.phase = ite(c, a.phase, b.phase)
        r.wphase = ite(c, a.wphase, b.wphase)
        r.gphase = ite(c, a.gphase, b.gphase)
        if a.returned or b.returned:
            r.cond = binop("||", a.cond, b.cond)
            r.returned = True
        return r

    def _merge_val(self, c, va, vb, name):
        if isinstance(va, S) and isinstance(vb, S):
            return ite(c, va, vb)
        if isinstance(va, Ptr) and isinstance(vb, Ptr) and va.base == vb.base and va.space == vb.space:
            return Ptr(va.space, va.base, ite(c, va.off, vb.off), va.elem, va.dims if va.dims == vb.dims else (),
                       (), va.volatile or vb.volatile, va.intaddr)
        if isinstance(va, Ptr) and isinstance(vb, Ptr) and va.space == vb.space and va.space in ("shared", "global") \
                and va.elem == vb.elem and not va.intaddr and not vb.intaddr:
            return self._choice(c, va, vb)
        if va is None:
            return vb
        if vb is None:
            return va
        if isinstance(va, (Agg, Mem)):
            return va
        # `p ? p + off : NULL`: an access through the null side faults, so any access that runs goes through `p`
        if isinstance(va, Ptr) and _is_null(vb):
            return va
        if isinstance(vb, Ptr) and _is_null(va):
            return vb
        return opaque(f"merged value of {name}")

    def _choice(self, c: S, va: Ptr, vb: Ptr) -> Ptr:
        """``c ? va : vb`` for pointers into two arrays (`T *dst = handle_k ? k_cache : v_cache`, a ping-pong
        queue): one pointer whose offset reads a selector; each access through it is recorded on both arrays, each
        under its side of ``c`` (``_rec_access``)."""
        sel = var(f"sel#{len(self._choices)}", "thread")
        base = f"{va.base}|{vb.base}#{len(self._choices)}"
        self._choices[base] = (sel.val, c, va, vb)
        return Ptr(va.space, base, ite(sel, va.off, vb.off), va.elem, va.dims if va.dims == vb.dims else (), (),
                   va.volatile or vb.volatile)

    def _arms(self, p: Ptr) -> tuple:
        """((condition, pointer), (its negation, pointer)) into each array a ``_choice`` pointer ``p`` may be into."""
        sel, c, a, b = self._choices[p.base]
        return tuple((side, Ptr(arm.space, arm.base, sym.subst(p.off, {sel: pick}), p.elem, (), (), p.volatile))
                     for pick, side, arm in ((ONE, c, a), (ZERO, unop("!", c), b)))

    def if_stmt(self, n: Node):
        c = self.cond_val(n.a)
        if c.key() in {x.key() for x in sym.operands(self.st.cond, "&&")}:
            c = ONE  # a test the path has passed already (a loop's own test repeated in its body)
        if sym.is_const(c):
            self.stmt(n.b if c.val else n.c)
            return
        self._branch(c, lambda: self.stmt(n.b), (lambda: self.stmt(n.c)) if n.c is not None else None)

    # ------------------------------------------------------------------ loops
    def iterations(self) -> list:
        """The iteration counts of the loops being built, outermost first."""
        return [_iteration(lid) for lid in self.loop_stack]

    def loop(self, n: Node):
        if self._butterfly(n) or self._unrolled(n):
            return
        st = self.st
        st.scopes.append({})
        if n.kind == "for" and n.init is not None:
            self.stmt(n.init)
        inc = n.b if n.kind == "for" else None
        body = _last_pass_break_as_branch(n) or n.body
        assigned = _assigned(list(body) + ([inc] if inc is not None else []))
        lid = next(self.loop_ids)
        k = _iteration(lid)
        entry, carried_unknowns = {}, {}  # the unknowns standing for carried values inside the loop -> their names
        same_in_block = uniform_carried(list(body), self._entry_uniform, self.unit.funcs, inc,
                                        self._uniform_helper, self._read_only, self._shared_array)
        for name, sites in assigned.items():
            if any(d == -1 for _, d in sites) or not st.has(name):
                continue
            v0 = st.lookup(name)
            entry[name] = v0
            got = self._induction(name, sites, v0, k, lid, set(assigned), name in same_in_block)
            if isinstance(got, S) and got.op == "v" and str(got.val).startswith("opq#"):
                carried_unknowns[got.val] = name
                way = _monotone(name, sites, list(body) + ([inc] if inc is not None else []))
                if way is not None and isinstance(v0, S):  # a counter only raised, a tile size only lowered
                    self.model.facts.append(binop("<=" if way == "down" else ">=", got, v0))
            st.set(name, got)
        self._havoc_escaped("at a loop's iteration")
        cond0 = st.cond
        c = ONE if n.a is None or n.kind == "do" else self.cond_val(n.a)
        if n.kind == "do":
            c = ONE
        nk = "thread" if sym.thread_dependent(c, iter_too=False) else "uniform"
        N = var(f"N{lid}", nk)
        if nk == "thread" and self._warp_shared(c):
            N = uf(f"N{lid}", self._warp_index())  # a warp vote's test: the lanes of one warp run alike
        if n.kind == "do":
            N = binop("+", N, ONE)  # a do-while runs its body at least once
        trip = _constant_trip(c, k.val) if n.kind != "do" and not _exits_early(body) else None
        if trip is not None:
            N = const(trip)
        if nk == "uniform" and n.kind != "do" and not _exits_early(body) and trip is None:
            self.model.trips[N.val] = (k.val, c)
        ph, wph, gph = var(f"ph{lid}", "uniform"), var(f"wph{lid}", "uniform"), var(f"gph{lid}", "uniform")
        p0, w0, g0 = st.phase, st.wphase, st.gphase
        st.cond = sym.land(cond0, binop(">=", k, ZERO), binop("<", k, N), c)
        st.phase, st.wphase, st.gphase = ph, wph, gph
        first_acc, first_bar = len(self.model.accesses), len(self.model.barriers)
        self.loop_stack.append(lid)
        self.loop_exits.append([])
        returned_before = st.returned
        try:
            for x in body:
                if self.st.dead:
                    break
                self.stmt(x)
            if inc is not None and not self.st.dead:
                self.eval(inc)
            if n.kind == "do" and n.a is not None and not self.st.dead:
                self.cond_val(n.a)
        finally:
            exits = self.loop_exits.pop()
        self.loop_stack.pop()
        st = self.st
        delta = sym.subst(st.phase, {ph.val: ZERO}) if not st.dead else ZERO
        wdelta = sym.subst(st.wphase, {wph.val: ZERO}) if not st.dead else ZERO
        gdelta = sym.subst(st.gphase, {gph.val: ZERO}) if not st.dead else ZERO
        if st.dead:  # body always leaves (break/return): count barriers seen on the way
            delta = const(sum(1 for b in self.model.barriers[first_bar:] if b.kind != "warp"))
            wdelta = const(len(self.model.barriers) - first_bar)
            gdelta = const(sum(1 for b in self.model.barriers[first_bar:] if b.kind == "grid"))
        self.model.deltas[k.val] = delta
        self.model.loop_trip[k.val] = N
        if nk != "uniform" and N.op == "v" and n.kind != "do" and not _exits_early(body) and trip is None and \
                any(b.kind != "warp" for b in self.model.barriers[first_bar:]):
            # a barrier in a loop whose trip count depends on the thread: each thread's count is pinned by its test
            # (only there, where it decides which threads reach the barrier: the facts cost every query)
            self.model.thread_trips[N.val] = (k.val, c)
        if nk != "uniform" and N.op == "v" and n.kind != "do" and trip is None and not _contains(body, "unknown") and \
                not _contains(body, "goto") and any(b.kind != "warp" for b in self.model.barriers[first_bar:]):
            # `for (i = tid; i < round_up(n, 256); i += 256) { ...; __syncthreads(); if (done) break; }`: the test
            # reads the thread, yet every thread may run the same iterations
            self.model.maybe_uniform_trips[N.val] = (k.val, c, exits)
        # barriers before iteration k and after the loop: k * delta, unless an iteration's count depends on k (a
        # barrier skipped on the last pass), summed pass by pass when the trip count is a small constant
        steps = [_barriers_so_far(d, k, N) for d in (delta, wdelta, gdelta)]
        mapping = {v.val: binop("+", start, at) for v, start, (at, _) in zip((ph, wph, gph), (p0, w0, g0), steps)}
        memo = {}
        for a in self.model.accesses[first_acc:]:
            a.phase = sym.subst(a.phase, mapping, memo)
            a.wphase = sym.subst(a.wphase, mapping, memo)
            a.gphase = sym.subst(a.gphase, mapping, memo)
        for b in self.model.barriers[first_bar:]:
            b.phase = sym.subst(b.phase, mapping, memo)
        # after the loop: the test failed at iteration N and held before (when the loop only exits through it)
        st.dead = False
        st.cond = cond0
        st.returned = returned_before or st.returned
        st.phase, st.wphase, st.gphase = (binop("+", start, total) for start, (_, total) in zip((p0, w0, g0), steps))
        # a value the loop computes from uniform values only (every thread runs the same iterations): uniform after it
        uniform_loop = nk == "uniform" and n.kind != "do" and not _exits_early(body)
        straight = n.kind != "do" and not _exits_early(body)  # every iteration runs the body to its end
        whole = straight and not _contains(body, "continue", own=True)  # ... every statement of it
        counted_after = False  # a value after the loop is its entry value moved by the trip count
        ends = {name: st.lookup(name) for name in entry if st.has(name)}  # before any is set to its value after

        def inputs(name):
            return _loop_inputs(name, entry, ends, carried_unknowns, k.val, c, set(self.model.shared)) \
                if uniform_loop else None
        for name, v0 in entry.items():
            if st.has(name):
                after = self._after_loop(name, assigned[name], v0, N, lid, carried_unknowns if uniform_loop else None,
                                         carried_unknowns if straight else None, inputs, whole, same_in_block)
                counted_after |= name not in st.scopes[-1] and isinstance(after, S) and N.op == "v" and \
                    N.val in sym.free_vars(after)
                st.set(name, after)
        # after the loop: the test failed at iteration N and held before (when the loop only exits through it)
        if n.kind != "do" and n.a is not None and nk == "uniform" and not _exits_early(body) and not sym.is_const(c) \
                and k.val in sym.free_vars(c) and not sym.has_opaque(c):
            # (a test that reads the same unknown at every iteration would pin N to 0)
            cN = sym.subst(c, {k.val: N})
            cprev = sym.subst(c, {k.val: binop("-", N, ONE)})
            st.cond = sym.land(cond0, unop("!", cN), binop("||", binop("==", N, ZERO), cprev))
        elif counted_after and nk == "thread" and n.kind != "do" and not _exits_early(body) and trip is None:
            # a thread-dependent count that a value after the loop depends on (a vector loop's index, reused by a
            # remainder loop: `for (; c < C; c += 256) ...; for (c -= 256; c >= 0; c -= 256) ...`) is pinned by the
            # test in each thread, as a fact (a condition here would read as a branch around later barriers)
            self.model.thread_trips[N.val] = (k.val, c)
        self._havoc_escaped("after a loop")
        st.scopes.pop()

    def _warp_index(self) -> S:
        return binop("/", self.linear_tid(), const(32))

    def _warp_shared(self, c: S) -> bool:
        """Whether ``c`` reads the thread only through values every lane of its warp holds alike (a vote's result,
        a broadcast): functions of the warp's index."""
        wid, memo = self._warp_index().key(), {}

        def strip(e):
            if e.key() == wid:
                return ZERO
            if not e.args:
                return e
            if id(e) not in memo:
                memo[id(e)] = S(e.op, tuple(strip(a) for a in e.args), e.val, e.kind)
            return memo[id(e)]
        return not sym.thread_dependent(strip(c), iter_too=False)

    def _butterfly(self, n: Node) -> bool:
        """A warp's xor-butterfly all-reduce loop (``butterfly``): each variable it reduces becomes the value its
        group of lanes shares, the step variable its last value. Whether it ran."""
        def constant(x):  # (only an expression without effects is evaluated: a loop's init runs once, in loop())
            if not _pure(x, self.unit.funcs):
                return None
            v = self.ival(x)
            return v.val if sym.is_const(v) else None

        got = butterfly.match(n, constant)
        if got is None:
            return False
        targets, size, step = got
        if not all(self.st.has(t) and isinstance(self.st.lookup(t), S) for t in targets):
            return False
        for t in targets:
            self.st.set(t, same_in_group(self, "xor all-reduce", size))
        if size == 32:
            self.model.warp_allreduces.append(n.loc)
        if n.init.kind != "decl" and self.st.has(step):
            self.st.set(step, opaque(f"{step} after an all-reduce", uniform=True))
        return True

    def _havoc_escaped(self, when: str):
        """The fields of local structs whose address a helper took (an iterator advanced by `gpu_next(&it)`) are
        unknowns in a loop and after it: the body may change them through the pointer, which the loop's induction
        analysis (names only) does not see. Each keeps its uniformity: a field every thread of the block holds
        alike is one unknown per iteration the block shares. So are the elements of local arrays the path stored
        (``State.locals``): read back within one straight stretch of a loop's body or after the loop only."""
        self.st.locals = {}
        for scope in self.st.scopes:
            for v in scope.values():
                if isinstance(v, Agg) and v.escaped:
                    for f, x in list(v.fields.items()):
                        if isinstance(x, S) and not sym.is_const(x):
                            v.fields[f] = opaque(f"{v.name}.{f} {when}",
                                                 kind=None if sym.thread_dependent(x, iter_too=False) else "iter")

    def _step(self, name, node: Node, carried: set):
        """(mode, step S) when ``node`` is an induction update of ``name``; else None."""
        if node.kind == "un":
            return ("add", ONE if node.op.endswith("++") else const(-1))
        op, rhs = node.op, node.b
        if rhs is not None and not _pure(rhs, self.unit.funcs):
            return None  # the step reads memory or calls something: not an induction variable
        if op == "=" and rhs is not None and rhs.kind == "un" and rhs.op == "!" and rhs.a is not None \
                and rhs.a.kind == "name" and rhs.a.name == name:
            return ("not", ONE)
        if op == "=" and rhs is not None and rhs.kind == "bin" and rhs.op == "-" and rhs.b is not None \
                and rhs.b.kind == "name" and rhs.b.name == name and not _mentions(rhs.a, carried):
            return ("flip", self.ival(rhs.a))  # v = c - v
        if rhs is None or _mentions(rhs, carried):
            if op == "=" and rhs is not None and rhs.kind == "bin" and rhs.a is not None and rhs.a.kind == "name" \
                    and rhs.a.name == name and not _mentions(rhs.b, carried):
                op, rhs = rhs.op + "=", rhs.b
            elif op == "=" and rhs is not None and rhs.kind == "bin" and rhs.op in ("+", "*") and rhs.b is not None \
                    and rhs.b.kind == "name" and rhs.b.name == name and not _mentions(rhs.a, carried):
                op, rhs = rhs.op + "=", rhs.a  # v = c + v, v = 2 * v: commutative
            else:
                return None
        if op == "=" and rhs is not None and rhs.kind == "bin" and rhs.op == "-" and rhs.b is not None \
                and rhs.b.kind == "name" and rhs.b.name == name and not _mentions(rhs.a, carried):
            return ("flip", self.ival(rhs.a))  # v = c - v
        if op == "^=" and not _mentions(rhs, carried):
            return ("xor", self.ival(rhs))
        mode = {"+=": "add", "-=": "sub", ">>=": "shr", "/=": "div", "<<=": "shl", "*=": "mul"}.get(op)
        if mode is None:
            return None
        s = self.ival(rhs)
        if mode == "sub":
            return ("add", unop("neg", s))
        return (mode, s)

    def _read_only(self, name: str) -> bool:
        """Whether ``name`` points, at a block-uniform offset, into a kernel parameter that points to const memory
        (``const int *__restrict bounds``, in the kernel or as a helper's parameter) or that the kernel only reads
        elements of, or into a ``__constant__`` array: memory the kernel cannot write."""
        if not self.st.has(name):
            return False
        v = self.st.lookup(name)
        if not isinstance(v, Ptr) or sym.thread_dependent(v.off):
            return False
        if v.space == "const":
            return True
        # (the kernel parameter the pointer is an offset of: a helper's own name for it, or a local copy)
        ti = dict(self.func.params).get(v.base)
        if self._read_params is None:
            self._read_params = _only_read(self.func)
        return v.space == "global" and ti is not None and ti.pointer and \
            (ti.pointee.split()[:1] == ["const"] or v.base in self._read_params)

    def _shared_array(self, name: str) -> bool:
        """Whether ``name`` is a ``__shared__`` array (or a pointer to one at a block-uniform offset)."""
        v = self.st.lookup(name) if self.st.has(name) else None
        return isinstance(v, Ptr) and v.space == "shared" and not sym.thread_dependent(v.off)

    def _entry_uniform(self, name: str) -> bool:
        """Whether ``name``'s current value is the same in every thread of a block (a local struct: each field)."""
        if name == "warpSize" or name in self.tbind:
            return True
        if self.st.has(name):
            v = self.st.lookup(name)
            if isinstance(v, S):
                return "thread" not in sym.kinds(v)
            if isinstance(v, Agg) and v.kind == "struct":
                return all(isinstance(x, S) and "thread" not in sym.kinds(x) for x in v.fields.values())
            if isinstance(v, Mem) and v.ptr.space == "const":  # device code cannot write __constant__ memory
                return not v.ptr.dims and "thread" not in sym.kinds(v.ptr.off)
            return isinstance(v, Ptr) and "thread" not in sym.kinds(v.off)
        return name != "threadIdx"  # macros, enumerators and unknown names read as uniform values

    def _uniform_helper(self, name: str) -> bool:
        if name not in self._helper_uniform:
            fs = self.unit.funcs.get(name) or []
            self._helper_uniform[name] = bool(fs) and all(uniform_helper(f, self.unit.funcs) for f in fs)
        return self._helper_uniform[name]

    def _induction(self, name, sites, v0, k, lid, carried, same_in_block=False):
        if len(sites) == 1 and sites[0][1] == 0 and isinstance(v0, S):
            step = self._step(name, sites[0][0], carried)
            if step is not None:
                return self._at_iteration(step, v0, k)
        if isinstance(v0, Ptr) and len(sites) == 1 and sites[0][1] == 0:
            step = self._step(name, sites[0][0], carried)
            if step is not None and step[0] == "add":
                mul = 1 if v0.intaddr else v0.elem
                return Ptr(v0.space, v0.base, binop("+", v0.off, binop("*", binop("*", k, step[1]), const(mul))),
                           v0.elem, (), (), v0.volatile, v0.intaddr)
        if isinstance(v0, Ptr):
            return Ptr(v0.space, v0.base, opaque(f"pointer {name} updated in a loop"), v0.elem, (), (), v0.volatile,
                       v0.intaddr)
        if isinstance(v0, (Agg, Mem)):
            return v0
        # a value every thread of the block computes alike is one unknown per iteration, shared by the block
        return opaque(f"{name} carried across loop iterations", kind="iter" if same_in_block else None)

    @staticmethod
    def _at_iteration(step, v0: S, k: S) -> S:
        mode, s = step
        if mode == "add":
            return binop("+", v0, binop("*", k, s))
        even = binop("==", binop("%", k, const(2)), ZERO)
        if mode == "flip":
            return ite(even, v0, binop("-", s, v0))
        if mode == "xor":
            return ite(even, v0, binop("^", v0, s))
        if mode == "not":
            return ite(even, v0, unop("!", v0))
        return sym.geometric(mode, v0, s, k)

    def _after_loop(self, name, sites, v0, N, lid, carried_unknowns=None, straight=None, inputs=None,
                    whole: bool = False, same_in_block=frozenset()):
        """``name``'s value after the loop. ``carried_unknowns``: the loop runs the same iterations in every thread
        (None: not known), and these are the unknowns standing for its carried values inside it; a value that
        depends on nothing else thread-dependent is the same in every thread after the loop. ``straight``: every
        iteration runs the body to its end (None: not known), and these are its carried unknowns; a value the body
        sets once, unconditionally, from the iteration number (``n = 2 * i - 1`` with ``i <<= 1``) is the last
        iteration's after the loop (its value before the loop when the loop runs no iteration); so is, when
        ``whole`` (no ``continue`` either), one set in several places whose value at the end of a pass depends on no
        carried value. ``inputs(name)``: the
        variables the value is a function of (``_loop_inputs``; None: not known); an unknown value after the loop
        records them in ``model.after_loop``, so two threads that agree on them store the same value; where none
        depends on the thread, the value is a function of them (a row's maximum: alike in every thread of the row's
        blocks). ``same_in_block``: the names the loop computes alike in every thread of a block."""
        if len(sites) == 1 and sites[0][1] == 0 and isinstance(v0, S):
            step = self._step(name, sites[0][0], set())
            if step is not None:
                return self._at_iteration(step, v0, N)
        cur = self.st.lookup(name)
        node = sites[0][0] if len(sites) == 1 and sites[0][1] == 0 else None
        once = node is not None and node.kind == "assign" and node.op == "=" and not _mentions(node.b, {name})
        # or set anew on every pass before its last value (`done = false; if (c) done = true;`): no carried value
        # in it, no unknown (a nested loop's result, which may hide one), and no `continue` that would skip the
        # rest of a pass
        if straight is not None and isinstance(cur, S) and isinstance(v0, S) and \
                (once or whole and not sym.has_opaque(cur)) and not sym.has_data(cur) and \
                not set(sym.free_vars(cur)) & set(straight):
            last = sym.subst(cur, {f"k{lid}": binop("-", N, ONE)})
            # (a value the loop alone gives, declared without one, is read after it only when the loop ran: reading
            # it uninitialized is undefined, no behaviour to check)
            unset = v0.op == "v" and str(v0.val).startswith("opq#") and str(v0.val).endswith(f":uninitialized {name}")
            return last if sym.is_const(N) and N.val >= 1 or unset else ite(binop(">=", N, ONE), last, v0)
        if carried_unknowns is not None and isinstance(cur, S) and isinstance(v0, S) and not sym.has_data(cur) and \
                all(kind == "uniform" or n == f"k{lid}" or n in carried_unknowns
                    for n, kind in {**sym.free_vars(cur), **sym.free_vars(v0)}.items()):
            # (a block index or an enclosing loop's iteration would differ between blocks or iterations)
            return opaque(f"{name} after loop", uniform=True)
        if isinstance(cur, (Agg, Mem)):
            return cur
        if isinstance(cur, Ptr):
            return Ptr(cur.space, cur.base, opaque(f"pointer {name} after loop"), cur.elem, (), (), cur.volatile,
                       cur.intaddr)
        got = inputs(name) if inputs is not None else None
        alike = ("uniform", "block", "iter")  # kinds of values alike in every thread of a block
        keys = None
        if got is not None and all(kind in alike for kind in got.values()):
            # a function of values alike in every thread of a block (parameters, block indices, enclosing loops'
            # iterations): two threads that agree on them agree on it (a row's maximum, for the row's blocks)
            keys = got
        elif got is None and carried_unknowns is not None and name in same_in_block and isinstance(cur, S) and \
                isinstance(v0, S):
            # computed alike in every thread of a block from reads of memory the kernel cannot write too (a binary
            # search of a block's tensor in an offsets table): one value per block and iteration of the loops around
            names = {**sym.free_vars(cur), **sym.free_vars(v0)}
            own = {f"k{lid}"} | {n for n, nm in carried_unknowns.items() if nm in same_in_block}
            if all(kind in alike or n in own for n, kind in names.items()):
                keys = {n: kind for n, kind in names.items() if n not in own}
        if keys is not None:
            return sym.uf(f"{name} after loop@{next(sym._ids)}", *(var(n, kind) for n, kind in sorted(keys.items())))
        after = opaque(f"{name} after loop")
        if got is not None:
            self.model.after_loop[after.val] = tuple(var(n, kind) for n, kind in sorted(got.items()))
        return after

    # ------------------------------------------------------------------ expressions
    def cond_val(self, n: Node) -> S:
        return self.ival(n)

    def ival(self, n: Node | None) -> S:
        v = self.eval(n)
        if isinstance(v, Mem):
            v = self.load(v, n)
        v = _dependent_scalar(v)
        if isinstance(v, S):
            return v
        if isinstance(v, Ptr):
            return binop("+", var(f"addr:{v.space}:{v.base}", "uniform"), v.off)
        return opaque("non-integer value")

    def rval(self, n: Node):
        v = self.eval(n)
        if isinstance(v, Mem):
            v = self.load(v, n)
        return v

    def load(self, m: Mem, n: Node):
        p = m.ptr
        if p.dims:  # an array lvalue decays to a pointer
            return p
        if p.space == "local":
            got = self.st.locals.get((p.base, p.off.key(), m.size))
            return got[1] if got is not None else opaque(f"local array {p.base}")
        self._rec_access(m, False, n)
        if p.base in self._choices:  # the value of the array the choice picks
            (c, a), (_, b) = self._arms(p)
            return ite(c, uf(f"ld:{a.base}", a.off), uf(f"ld:{b.base}", b.off))
        if p.space == "shared":
            loaded = self._shared_pointers.get((p.base, p.off.key())) if self._shared_pointers else None
        else:
            loaded = self._loaded_pointer(p, n)
        if loaded is not None:
            return loaded
        if p.space in ("shared", "global", "const"):
            return uf(f"ld:{p.base}", p.off)
        return opaque("load")

    def _forget_local(self, base: str, off: S, size: int) -> None:
        """A store to a thread's local array: the values the path stored where it may land are no longer known
        (an element ``size`` bytes or more away, by a constant, keeps its value). ``base`` alone (``off`` None): the
        whole array (handed to a function kopt does not follow)."""
        for key, (at, _) in list(self.st.locals.items()):
            if key[0] != base:
                continue
            if off is not None:
                d = binop("-", off, at)
                if sym.is_const(d) and (d.val >= key[2] or -d.val >= size):
                    continue
            del self.st.locals[key]

    def _share_pointer(self, lv: Mem, value: Ptr) -> None:
        """A pointer the block shares through a `__shared__` variable (`__shared__ float *row; row = base +
        blockIdx.x * pitch;`, set by every thread or one): loads of the variable after the store read it back, when
        its value is the same in every thread of the block. A second, different value makes the variable unknown."""
        if lv.ptr.space != "shared" or lv.ptr.dims:
            return
        key = (lv.ptr.base, lv.ptr.off.key())
        block_wide = value.space in ("global", "shared") and _computed_alike(value.off, {"uniform", "block"})
        old = self._shared_pointers.get(key, value)
        same = block_wide and old is not None and (old.base, old.space, old.off.key()) == \
            (value.base, value.space, value.off.key())
        self._shared_pointers[key] = value if same else None

    def _loaded_pointer(self, p: Ptr, n: Node) -> Ptr | None:
        """A pointer loaded from global memory at an address every thread of the grid computes alike (a parameter
        struct's buffer `clusters->means`, `ptrs[2]`): the same buffer in every thread, a global array of its own
        named after the load (distinct from the kernel's other buffers, as parameters are). Whether the kernel
        also writes the pointer is checked once it is built (``build``)."""
        ti = n.ty
        if p.space not in ("global", "const") or ti is None or not ti.pointer or ti.ref or ti.dims or \
                not _computed_alike(p.off, {"uniform", "block"}):
            return None
        key = (p.base, p.off.key())
        got = self._loaded.get(key)
        if got is None:
            name = _text(n)[:40]
            if re.fullmatch(r"\w+", name):
                name = f"*{name}"  # the buffer a `__device__` pointer variable points to, not the variable
            if name in {x[0] for x in self._loaded.values()}:
                name = f"{name}#{len(self._loaded)}"
            got = self._loaded[key] = (name, p.off)
        # an entry a block picks (`dA_array[batchid]`): each entry's buffer its own, disjoint from the others'
        base = got[0] if _computed_alike(p.off, {"uniform"}) else LoadedBase(got[0], p.off)
        return Ptr("global", base, ZERO, self._elem(ti), volatile=ti.volatile)

    def store(self, lv, value, n: Node, rmw_read=False):
        if isinstance(lv, VarRef):
            self.st.set(lv.name, value)
        elif isinstance(lv, Mem):
            if isinstance(value, Ptr):
                self._share_pointer(lv, value)
                value = _address(value)
            self._rec_access(lv, True, n, value=value if isinstance(value, S) else None)
            if lv.ptr.space == "local" and lv.ptr.base in self._local_arrays and isinstance(value, S) and \
                    not lv.ptr.dims and _small(value):  # (not a scalar's address, `int *p = &x`: `x = 2` would
                # not update it; not a hash round's state, whose terms would grow with every round read back)
                self.st.locals[(lv.ptr.base, lv.ptr.off.key(), lv.size)] = (lv.ptr.off, value)
        elif isinstance(lv, tuple) and lv[0] == "field":
            _, agg, fname = lv
            agg.fields[fname] = value
        elif isinstance(lv, tuple) and lv[0] == "locals":
            for place in lv[1]:
                held = self.st.lookup(place.name) if isinstance(place, VarRef) and self.st.has(place.name) else None
                for f in held.fields if isinstance(held, Agg) else ():  # a struct stays one, its fields unknown
                    held.fields[f] = opaque("a field stored through one of several references")
                if not isinstance(held, Agg):
                    self.store(place, opaque("a value stored through one of several references"), n)

    def lval(self, n: Node):
        if n.kind == "name":
            if n.ref in ("var", "param", "") and self.st.has(n.name):
                v = self.st.lookup(n.name)
                if isinstance(v, Mem):
                    return v
                return VarRef(n.name)
            if self.st.has(n.name):
                v = self.st.lookup(n.name)
                return v if isinstance(v, Mem) else VarRef(n.name)
            return VarRef(n.name)
        if n.kind == "member":
            base = self._member_base(n)
            if isinstance(base, Ptr) and n.op == "->":
                base = Mem(base, base.elem)
            if isinstance(base, Mem):
                return self._field(base, n)
            if isinstance(base, Agg):
                return ("field", base, n.name)
            return None
        if n.kind == "call":
            self._lvalue_call = n
        v = self.eval(n)
        self._lvalue_call = None
        if n.kind == "call" and (isinstance(v, VarRef) or isinstance(v, tuple) and v and v[0] in ("field", "locals")):
            return v  # the reference a helper returns to a variable or a struct's field (`return v.x;`)
        if not isinstance(v, Mem) and n.kind == "call":
            self.unplaced = True  # a reference an unknown function returns (`dst(y, x) = v` through a library's type)
        return v if isinstance(v, Mem) else None

    def _returned_lvalue(self, e: Node):
        """What a helper returning a reference returns, read as an lvalue (the caller stores to the call): memory,
        a struct's field, or ("param", i) for the reference parameter it was handed (the caller's argument)."""
        lv = self.lval(e)
        if isinstance(lv, VarRef):
            names = [p for p, _ in self._lvalue_params]
            i = names.index(lv.name) if lv.name in names else None
            return ("param", i) if i is not None and self._lvalue_params[i][1].ref else None
        return lv

    def _field(self, m: Mem, n: Node) -> Mem:
        size = (n.ty.size if n.ty and n.ty.size else 4)
        p = m.ptr
        if not isinstance(n.val, int):
            # a field whose offset clang leaves open (a struct of a template's sizes): a memory of its own at the
            # struct's offset, since no two fields overlap (at offset 0 every field would alias every other one)
            p, off = Ptr(p.space, f"{p.base}.{n.name}", p.off, p.elem, (), p.subs, p.volatile), 0
            if p.space == "shared":
                self._open_fields.add(p.base)
        else:
            off = n.val
        dims = self._dims(n.ty) if n.ty is not None and n.ty.dims else ()
        elem = self._elem(n.ty) if dims else size
        # a member declared volatile is read with volatile loads (for a pointer member the flag is its pointee's)
        volatile = p.volatile or (n.ty is not None and n.ty.volatile and not n.ty.pointer)
        return Mem(Ptr(p.space, p.base, binop("+", p.off, const(off)), elem, tuple(dims), p.subs, volatile), size)

    def eval(self, n: Node | None):
        if n is None:
            return None
        k = n.kind
        if k == "lit":
            return const(n.val) if isinstance(n.val, int) else const(n.val)
        if k == "name":
            return self.name(n)
        if k == "member":
            return self.member(n)
        if k == "index":
            return self.index(n)
        if k == "bin":
            return self.binary(n)
        if k == "un":
            return self.unary(n)
        if k == "assign":
            return self.assign(n)
        if k == "stmtexpr":  # its declarations live in a scope of their own; its value is its last expression's
            self.st.scopes.append({})
            for x in n.body:
                self.stmt(x)
            v = self.rval(n.a) if n.a is not None else None
            self.st.scopes.pop()
            return v
        if k == "cond":
            c = self.cond_val(n.a)
            if sym.is_const(c):
                return self.rval(n.b if c.val else n.c)
            cond0 = self.st.cond
            self.st.cond = sym.land(cond0, c)
            a = self.rval(n.b)
            self.st.cond = sym.land(cond0, unop("!", c))
            b = self.rval(n.c)
            self.st.cond = cond0
            return self._merge_val(c, a, b, "?:")
        if k == "cast":
            return self.cast(n)
        if k == "call":
            return self.call(n)
        if k == "init":
            for x in self.expand(n.args):
                self.rval(x)
            return Agg("struct", "init")
        if k == "sizeof_pack":
            return const(len(self.packs[n.name])) if n.name in self.packs else opaque(n.text, uniform=True)
        if k == "sizeof":
            # `sizeof(T)` of a template type parameter the launch binds (clang leaves it dependent)
            m = re.fullmatch(r"sizeof\s*\(\s*(?:const\s+)?(\w+)\s*\)", (n.text or "").strip())
            if m and m.group(1) in self.typebind:
                return const(self.typebind[m.group(1)])
            return self._sizeof_unknown(n.text or "")
        return opaque(f"unsupported expression `{n.text[:30]}`")

    def name(self, n: Node):
        nm = n.name
        if nm == "warpSize" and not self.st.has(nm):
            return const(32)
        if n.ref == "builtin" or (nm in ("threadIdx", "blockIdx", "blockDim", "gridDim") and not self.st.has(nm)):
            return Agg("builtin", nm)
        if nm in self.tbind:
            return self.tbind[nm]
        if self.st.has(nm):
            return self.st.lookup(nm)
        if nm in self.macros:
            v = eval_text(str(self.macros[nm]), self.macros)
            if v is not None:
                return const(v)
        if n.ref == "tparam":  # a template value the analysis is not given: one unknown, the same at every use
            self.tbind[nm] = opaque(f"template value {nm}", uniform=True)
            return self.tbind[nm]
        return opaque(f"unknown name {nm}", uniform=True)

    def _member_base(self, n: Node):
        """The value a member access reads from: its object, or in a member function ``this``'s (``data_``,
        ``this->data_``) as a struct value or one in memory."""
        return self.this if _names_this(n.a) else self.eval(n.a)

    def member(self, n: Node):
        base = self._member_base(n)
        if isinstance(base, Agg):
            if base.kind == "builtin":
                return self._builtin(base.name, n.name)
            if base.kind == "struct":
                if n.name in base.fields:
                    return base.fields[n.name]
                if base.uniform:
                    # a field of a by-value parameter struct: pointers are global buffers of their own, nested
                    # structs stay structs, scalars are uniform values
                    ti = n.ty
                    if ti is not None and ti.pointer and not ti.ref:
                        return Ptr("global", f"{base.name.removeprefix('p:')}.{n.name}", ZERO, self._elem(ti),
                                   volatile=ti.volatile)
                    if ti is not None and (ti.dims or not ti.integral and not ti.pointer and ti.size and
                                           not _floating(ti.spelling)):
                        return Agg("struct", f"{base.name}.{n.name}", uniform=True, size=ti.size or 0)
                    if ti is not None and ti.integral:
                        self.model.int_fields.add(f"{base.name.removeprefix('p:')}.{n.name}")
                        if unsigned_integer(ti.spelling):
                            self.model.unsigned_fields.add(f"{base.name.removeprefix('p:')}.{n.name}")
                    return var(f"{base.name}.{n.name}", "uniform")
                local = self._local_field(base, n)
                if local is not None:
                    return local
                return opaque(f"field {n.name}")
            return opaque(f"member {n.name}")
        if isinstance(base, Ptr) and n.op == "->":
            return self._field(Mem(base, base.elem), n)
        if isinstance(base, Mem):
            return self._field(base, n)
        if isinstance(base, S):
            self.unplaced |= n.op == "->"
            return opaque(f"field {n.name}", uniform=not sym.thread_dependent(base))
        return opaque(f"member {n.name}")

    def _local_field(self, base: Agg, n: Node):
        """A field of a thread's own struct not yet assigned: an array member is the thread's local array (stores
        through it are private, `uint64_t *s = S->state; s[i] ^= ...`), a struct member a struct of its own (kept, so
        that `&st.inner` and `st.inner.x` see the same one)."""
        ti = n.ty
        if ti is None or ti.pointer or ti.ref:
            return None
        if ti.dims:
            self._local_arrays.add(f"{base.name}.{n.name}")
            return Ptr("local", f"{base.name}.{n.name}", ZERO, self._elem(ti), self._dims(ti))
        if not ti.integral and ti.size and not _floating(ti.spelling):
            base.fields[n.name] = Agg("struct", f"{base.name}.{n.name}", uniform=False, size=ti.size)
            return base.fields[n.name]
        return None

    def _builtin(self, obj: str, f: str):
        if f not in ("x", "y", "z"):
            return opaque(f"{obj}.{f}")
        if obj in ("threadIdx", "blockDim"):
            self.model.dims_used.add(f)
            if self.depth == 0:
                self._own_dims.add(f)
        else:
            self.model.grid_used.add(f)
        name = {"threadIdx": "t", "blockIdx": "b", "blockDim": "bd", "gridDim": "gd"}[obj] + f
        i = "xyz".index(f)
        if obj == "blockDim" and self.launch.block[i] is not None:
            return const(self.launch.block[i])
        if obj == "gridDim" and self.launch.grid[i] is not None:
            return const(self.launch.grid[i])
        kind = {"threadIdx": "thread", "blockIdx": "block"}.get(obj, "uniform")
        return var(name, kind)

    def linear_tid(self) -> S:
        """The thread's index in its block, for a warp's lanes: no use of a dimension the kernel's own code does not
        name (a block 1 deep in it is presumed, as for any kernel that never reads threadIdx.z)."""
        used, own = set(self.model.dims_used), set(self._own_dims)
        tx, ty, tz = (self._builtin("threadIdx", f) for f in "xyz")
        bx, by = self._builtin("blockDim", "x"), self._builtin("blockDim", "y")
        self.model.dims_used, self._own_dims = used, own
        return binop("+", tx, binop("*", bx, binop("+", ty, binop("*", by, tz))))

    def index(self, n: Node):
        if self._open_fields and n.a is not None and n.a.kind == "member" and \
                not (n.a.ty is not None and n.a.ty.pointer):
            m = self.lval(n.a)
            if isinstance(m, Mem) and m.ptr.base in self._open_fields and not m.ptr.dims:
                # an array field of a struct of a template's sizes, whose type clang leaves dependent (a pointer
                # field's subscript goes through the pointer): elements of one byte when their size is unknown too
                # (distinct indices stay apart, equal ones meet)
                p, size = m.ptr, n.ty.size if n.ty is not None and n.ty.size else 1
                return self._subscript(Ptr(p.space, p.base, p.off, size, (), p.subs, p.volatile), self.ival(n.b))
        if n.a is not None and n.a.kind == "member" and n.a.ty is not None and n.a.ty.spelling == DEPENDENT:
            owner = self._member_base(n.a)
            if isinstance(owner, Agg) and owner.kind == "struct" and not owner.uniform and n.a.name not in owner.fields:
                # `sub.sizes[i]` of a thread's own struct of a template's type: its array member (elements of 4
                # bytes when clang leaves their type open, as the constructor's `int sizes[Dim]` has them)
                size = n.ty.size if n.ty is not None and n.ty.size else 4
                self._local_arrays.add(f"{owner.name}.{n.a.name}")
                return self._subscript(Ptr("local", f"{owner.name}.{n.a.name}", ZERO, size, (None,)), self.ival(n.b))
        base = self.rval(n.a)
        field_array = n.a is not None and n.a.ty is not None and bool(n.a.ty.dims)
        extent = _std_array_extent(n.a.ty) if isinstance(base, Agg) and base.kind == "struct" and n.a is not None \
            else None
        if extent is not None:
            # a std::array (`cuda::std::array<int, 3> nbin;`), whose operator[] reads its one array member: a
            # thread's own is its local array; a parameter's elements are the kernel argument's, as an array field's
            idx = self.ival(n.b)
            if base.uniform:
                return var(f"{base.name}[{idx.val}]", "uniform") if sym.is_const(idx) else \
                    opaque("element of a parameter's array", uniform=not sym.thread_dependent(idx))
            elems = f"{base.name}.__elems"
            self._local_arrays.add(elems)
            size = n.ty.size if n.ty is not None and n.ty.size else 4
            return self._subscript(Ptr("local", elems, ZERO, size, (extent,)), idx)
        if isinstance(base, Agg) and base.kind == "struct" and not field_array and n.a is not None:
            got = self._class_subscript(base, n)
            if got is not None:
                return got
        idx = self.ival(n.b)
        if isinstance(base, Ptr):
            return self._subscript(base, idx)
        if isinstance(base, Agg):
            if base.kind == "struct" and base.uniform and field_array:
                # an element of a by-value parameter's array field (`t.size_[1]`): a kernel argument, the same in
                # every thread, and the same value wherever the same constant index reads it
                if sym.is_const(idx):
                    return var(f"{base.name}[{idx.val}]", "uniform")
                return opaque("element of a parameter's array", uniform=not sym.thread_dependent(idx))
            self.unplaced |= base.kind == "struct" and base.uniform  # a parameter object's own operator[]
            return opaque("element of a value")
        if isinstance(base, S) and base.op == "v" and base.kind == "uniform" and n.a is not None and \
                n.a.kind == "member" and n.a.ty is not None and n.a.ty.spelling == DEPENDENT and sym.is_const(idx):
            return var(f"{base.val}[{idx.val}]", "uniform")  # `t.sizes[2]` of a parameter of a template's type
        # a pointer value the model lost (loaded from memory, merged, converted by a class); not an array member
        # of a local value (a fragment's registers)
        self.unplaced |= isinstance(base, S) and n.a is not None and n.a.ty is not None and n.a.ty.pointer and \
            not n.a.ty.dims
        return opaque("subscript of unknown pointer")

    def _subscript(self, p: Ptr, idx: S):
        if p.dims:
            rest = p.dims[1:]
            stride = const(p.elem)
            for d in rest:  # (a tensor accessor's sizes are symbolic: `acc.size(d)`)
                stride = binop("*", stride, const(d) if isinstance(d, int) else d) \
                    if stride is not None and isinstance(d, (int, S)) else None
            off = binop("+", p.off, binop("*", idx, stride if stride is not None else
                                           opaque("dependent array stride", uniform=True)))
            subs = p.subs + ((idx, p.dims[0]),)
            if rest:
                return Ptr(p.space, p.base, off, p.elem, rest, subs, p.volatile)
            return Mem(Ptr(p.space, p.base, off, p.elem, (), subs, p.volatile), p.elem)
        mul = 1 if p.intaddr else p.elem
        off = binop("+", p.off, binop("*", idx, const(mul)))
        return Mem(Ptr(p.space, p.base, off, p.elem, (), p.subs, p.volatile, p.intaddr), p.elem)

    def binary(self, n: Node):
        op = n.op
        if op in ("&&", "||"):
            a = self.ival(n.a)
            cond0 = self.st.cond
            self.st.cond = sym.land(cond0, a if op == "&&" else unop("!", a))
            b = self.ival(n.b)
            self.st.cond = cond0
            return binop(op, a, b)
        if op == ",":
            self.rval(n.a)
            return self.rval(n.b)
        a, b = _dependent_scalar(self.rval(n.a)), _dependent_scalar(self.rval(n.b))
        if isinstance(a, Ptr) or isinstance(b, Ptr):
            return self._ptr_arith(op, a, b)
        if not isinstance(a, S) or not isinstance(b, S):
            return opaque(f"operator {op} on non-integers")
        if op in _COMPARISONS:
            # `(unsigned)(t - 64) <= 32`: a negative operand an explicit cast makes unsigned compares as 2^32 plus
            # it, so one test bounds both sides (only where the code asks for it: the model's other signed values
            # that may go below 0 keep their value)
            a, b = _as_unsigned(n.a, a, n.b), _as_unsigned(n.b, b, n.a)
        if op == ">>" and n.ty is not None and n.ty.integral and not n.ty.pointer and n.ty.size in (4, 8) and \
                unsigned_integer(n.ty.spelling) and _maybe_negative(a) and not (sym.has_data(a) or sym.has_opaque(a)):
            # a logical shift: the operand as the unsigned value it is (`x >> 24` of a uint32_t is at most 255,
            # even when x is a sum the model lets go below 0 or past 2^32); not a loaded or unmodelled value, whose
            # wrap-around the model never follows (a radix sort's ranks: the extra remainder only burdens the solver)
            a = binop("&", a, const((1 << (8 * n.ty.size)) - 1))
        if op in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!="):
            return binop(op, a, b)
        return opaque(f"operator {op}")

    def _ptr_arith(self, op, a, b):
        if isinstance(a, Ptr) and isinstance(b, S) and op in ("+", "-"):
            mul = 1 if a.intaddr else a.elem
            d = binop("*", b, const(mul))
            return Ptr(a.space, a.base, binop(op, a.off, d), a.elem, (), (), a.volatile, a.intaddr)
        if isinstance(b, Ptr) and isinstance(a, S) and op == "+":
            return self._ptr_arith("+", b, a)
        if isinstance(a, Ptr) and isinstance(b, Ptr) and op == "-" and a.base == b.base:
            return binop("/", binop("-", a.off, b.off), const(a.elem if not a.intaddr else 1))
        if isinstance(a, Ptr) and isinstance(b, S) and a.intaddr and op in ("&", "|", "^", "<<", ">>", "*", "/", "%"):
            return Ptr(a.space, a.base, binop(op, a.off, b), 1, (), (), a.volatile, True)
        if op in ("==", "!=", "<", ">", "<=", ">="):
            return opaque("pointer comparison", uniform=True)
        return opaque(f"pointer arithmetic {op}")

    def unary(self, n: Node):
        op = n.op
        if op == "&":
            lv = self.lval(n.a)
            if isinstance(lv, Mem):
                return lv.ptr
            v = self.eval(n.a)
            if isinstance(v, Ptr):
                return v
            if isinstance(v, Agg) and v.kind == "struct" and not v.uniform:
                # a local struct handed to a helper by address (`gpu_next(&it)`): the helper's `p->field` reads and
                # writes the struct itself; in a loop its fields are unknowns (``_havoc_escaped``)
                v.escaped = True
                return v
            if isinstance(lv, VarRef):
                return Ptr("local", lv.name, ZERO, 4)
            return opaque("address of a value")
        if op == "*":
            p = self.rval(n.a)
            if isinstance(p, Ptr):
                if p.dims:
                    return self._subscript(p, ZERO)
                return Mem(p, p.elem)
            self.unplaced |= isinstance(p, S)  # a pointer value the model lost (loaded from memory, merged)
            return opaque("dereference of unknown pointer")
        if op in ("pre++", "pre--", "post++", "post--"):
            lv = self.lval(n.a)
            old = self.rval(n.a)
            if isinstance(old, Ptr):
                new = self._ptr_arith("+" if "++" in op else "-", old, ONE)
            elif isinstance(old, S):
                new = binop("+" if "++" in op else "-", old, ONE)
            else:
                new = opaque("increment")
            self.store(lv, new, n)
            return new if op.startswith("pre") else old
        a = self.rval(n.a)
        if not isinstance(a, S):
            return opaque(f"unary {op}")
        if op == "-":
            return unop("neg", a)
        if op == "+":
            return a
        return unop(op, a)

    def assign(self, n: Node):
        self.unplaced = False
        lv = self.lval(n.a)
        unplaced = self.unplaced
        if n.op == "=":
            v = self.rval(n.b)
        else:
            old = self.rval(n.a)
            rhs = self.rval(n.b)
            op = n.op[:-1]
            if isinstance(old, Ptr) or isinstance(rhs, Ptr):
                v = self._ptr_arith(op, old, rhs)
            elif isinstance(old, S) and isinstance(rhs, S) and op in sym._FOLD:
                v = binop(op, old, rhs)
            else:
                v = opaque(f"result of {n.op}")
        if isinstance(lv, VarRef) and isinstance(v, Mem):
            v = self.load(v, n.b)
        if isinstance(v, Agg) and isinstance(lv, VarRef) and v.kind == "struct" and not v.uniform:
            v = self._struct_copy(v, lv.name)
        if lv is None and unplaced:
            # a store to memory the model cannot place (through a pointer loaded from memory or merged from two,
            # an element of a parameter object with its own operator[]): its races go unchecked, which the kernel's
            # verdict must say
            self.model.problems.append((n.loc, f"a store kopt cannot place in memory (`{_text(n.a)[:40]}`): "
                                               f"its races are not checked"))
        self.store(lv, v, n)
        return v

    def _sizeof_unknown(self, text: str) -> S:
        """An unknown `sizeof(Array<T, N>)`: one value, the same in every thread and wherever the same type is
        named under the same template bindings (a `Load` helper's `if constexpr` on it must pick the branch the
        `Store` helper picks for the same type)."""
        m = re.fullmatch(r"sizeof\s*\((.*)\)", text.strip(), re.S)
        size = self._class_size(m.group(1)) if m else None
        if size is not None:
            return const(size)

        def bound(m):
            w = m.group()
            if w in self.typebind:
                return f"{w}={self.typebind[w]}"
            if w not in self.tbind:
                return w
            t = self.tbind[w]
            return f"{w}={t.val if t.op in ('c', 'v') else sym.show(t)}"
        key = _IDENTIFIER.sub(bound, " ".join(text.split()))
        return var(f"uopq#sizeof:{key}", "uniform")

    def _class_size(self, spelling: str, depth: int = 0) -> int | None:
        """The size of ``Name<args>`` for a class template whose layout the front end recorded (``Unit.
        class_layouts``), its arguments the types and values bound here (an unknown type counted as the builder's
        default element of 4 bytes, as pointer arithmetic on it counts), else None."""
        m = _CLASS_ARGS.match(spelling.strip())
        layout = self.unit.class_layouts.get(m.group(1)) if m and depth < 3 else None
        if layout is None:
            return None
        params, fields = layout
        args = [a.strip() for a in split_top(m.group(2))]
        if len(args) != len(params):
            return None
        types, values = {}, dict(self.macros)
        for (name, kind), a in zip(params, args):
            if kind == "type":
                types[name] = self._type_size(a, depth)
            else:
                v = eval_text(a, self.macros)
                if v is None and a in self.tbind and sym.is_const(self.tbind[a]):
                    v = self.tbind[a].val
                if v is None:
                    return None
                values[name] = v
        total, widest = 0, 1
        for ty, dims in fields:  # each field at a multiple of its element's size (up to 16 bytes), as C lays it out
            elem = types.get(ty) or self._type_size(ty, depth)
            size = elem
            for d in dims:
                n = eval_text(d, values)
                if n is None:
                    return None
                size *= n
            align = min(elem, 16)
            widest = max(widest, align)
            total = -(-total // align) * align + size
        return -(-total // widest) * widest

    def _type_size(self, text: str, depth: int) -> int:
        text = text.replace("const", "").replace("volatile", "").strip()
        if text.endswith("*"):
            return 8
        return self.typebind.get(text) or TYPE_SIZES.get(text) or self._class_size(text, depth + 1) or 4

    def cast(self, n: Node):
        v = self.rval(n.a)
        ti = n.ty
        if ti is not None and (ti.integral or ti.pointer):
            v = _dependent_scalar(v)
        if isinstance(v, S) and ti is not None:
            v = _narrowed(v, ti)
        if isinstance(v, Ptr) and ti is not None:
            if ti.pointer:
                return self._retyped(v, ti, v.volatile or ti.volatile)
            if ti.integral:
                return Ptr(v.space, v.base, v.off, 1, (), v.subs, v.volatile, True)
        if isinstance(v, S) and ti is not None and ti.pointer:
            return Ptr("unknown", "?", v, self._elem(ti))
        if isinstance(v, Agg) and v.kind == "struct" and not v.uniform and ti is not None and ti.pointer:
            # a thread's own object read or written as raw words (`*((uint4*)&frag + i) = ...`): private memory,
            # no race; its scalar fields may then hold anything
            for k, f in v.fields.items():
                if isinstance(f, S):
                    v.fields[k] = opaque(f"{v.name}.{k} through a cast pointer")
            return Ptr("local", v.name or "?", ZERO, self._elem(ti))
        return v

    # ------------------------------------------------------------------ calls
    def call(self, n: Node):
        name = n.name or ""
        short = short_name(n)
        if n.a is not None and n.a.kind == "name" and n.a.name in self.accessors and short in ("size", "stride", "data"):
            return self._accessor_call(n.a.name, short, n)
        r = handle_call(self, n, name, short)
        if r is not NotImplemented:
            return r
        # `T *sdata = SharedMemory<T>();`: the pointer the class's conversion hands out (an explicit `operator float *`
        # call on the constructed object where the type is known)
        made = n.args[0] if name.startswith("operator ") and len(n.args) == 1 and n.args[0].kind == "call" else n
        conv = self.unit.funcs.get(f"{re.sub(r'<.*', '', made.name or '').removesuffix('::__ctor__')}::__conv__") \
            if not made.args else None
        if conv:
            return self.inline(conv[0], made)
        fn = self._method(n) or self._find(self.fbind.get(short, short), len(self.expand(n.args))) or self._static(n)
        if fn is not None and grid_barrier(fn):
            for a in n.args:
                self.rval(a)
            self.barrier("grid", n)
            return None
        over = fn is not None and self.depth < MAX_INLINE and self.steps > MAX_STEPS
        if fn is not None and self.depth < MAX_INLINE and not over:
            return self.inline(fn, n)
        if over and not self.over_budget:
            self.over_budget = True
            self.model.problems.append((n.loc, f"more than {MAX_STEPS:,} statements to run with the helpers "
                                               f"inlined: `{short}` and the later helper calls are unknown results"))
        args = [self.rval(a) for a in self.expand(n.args)]
        if n.a is not None:
            self.rval(n.a)
        # a function kopt does not follow may store to a local array it is handed (`sincosf(x, &s[i], &c[i])`)
        for a in args:
            if isinstance(a, Ptr) and a.space == "local":
                self._forget_local(a.base, None, 0)
        ints = [a for a in args if isinstance(a, S)]
        if not over and len(ints) == len(args) and not any(isinstance(a, Ptr) for a in args):
            return uf(f"fn:{short}", *ints)  # a pure function of its arguments (e.g. expf, __builtin_huge_valf)
        return opaque(f"result of {short or 'call'}")

    def _accessor_call(self, name: str, what: str, n: Node):
        """``acc.size(d)`` (the size the tensor model indexes with), ``acc.stride(d)``, ``acc.data()``."""
        sizes = self.accessors[name]
        if what == "data":
            p = self.st.lookup(name) if self.st.has(name) else None
            return Ptr("global", name, ZERO, p.elem) if isinstance(p, Ptr) else opaque(f"{name}.data()")
        d = self.ival(n.args[0]) if n.args else None
        if what == "size" and d is not None and sym.is_const(d) and 0 <= d.val < len(sizes):
            return sizes[d.val]
        return opaque(f"{name}.{what}()", uniform=True)

    def _method(self, n: Node) -> Func | None:
        """The device member function a call names (``View::lane``, on an object or on ``this``), by arity."""
        fs = self.unit.funcs.get(n.name or "") if "::" in (n.name or "") else None
        if fs is None and n.name and self.this is not None and _names_this(n.a) and "::" in (self.helper or ""):
            # `ptr(y)` in another member function of a class template in a namespace (`cv::cuda::PtrStep`), whose
            # implicit-this call clang leaves unqualified
            fs = self.unit.funcs.get(f"{re.sub(r'<.*>$', '', self.helper).rsplit('::', 1)[0]}::{n.name}")
        return self.specialization(fs, n)

    def class_args(self, fn: Func, n: Node) -> list:
        """The class template arguments of a member call's object (``n.val``: type sizes, ``("value", v)``), or of a
        constructor's class as the call writes them (``DeviceTensor<DType, Dim - 1>`` under the current bindings)."""
        if isinstance(n.val, list) and fn.method:
            return n.val
        return self._written_class_args(n.targs) if fn.name.endswith("::__ctor__") else []

    def _written_class_args(self, texts) -> list:
        """Class template arguments as the code writes them (`DType`, `Dim - 1`), under the current bindings."""
        env = {**self.macros, **{k: v.val for k, v in self.tbind.items() if sym.is_const(v)}}
        out = []
        for text in texts:
            t = text.strip()
            v = eval_text(t, env) if not re.fullmatch(r"[A-Za-z_][\w:]*", t) or t in env else None
            out.append(("value", v) if v is not None else self.typebind.get(t, TYPE_SIZES.get(t)))
        return out

    def _class_subscript(self, obj: Agg, n: Node):
        """``t[i]`` on a struct whose class defines operator[] (a tensor view in a kernel template, where clang
        leaves the subscript unresolved): a call of that member; None when the class has none kopt can follow."""
        spelling = re.sub(r"\b(const|volatile|struct|class)\b", "", n.a.ty.spelling if n.a.ty is not None else "")
        m = re.fullmatch(r"\s*([\w:]+)\s*(?:<(.*)>)?\s*&?\s*", spelling)
        cls, args = obj.cls if obj.cls is not None else (m.group(1), self._written_class_args(
            split_top(m.group(2)) if m.group(2) else [])) if m else (None, [])
        if not cls:
            return None
        short = cls.split("::")[-1]
        key = f"{cls}::operator[]"
        if key not in self.unit.funcs:  # (a class named without its namespaces)
            own = f"{short}::operator[]"
            key = next((k for k in self.unit.funcs if k == own or k.endswith("::" + own)), None)
        if key is None:
            return None
        call = Node("call", n.loc, name=key, a=n.a, op="", val=args, args=[n.b], targs=[], ty=n.ty, text=n.text)
        fn = self.specialization(self.unit.funcs[key], call)
        return self.inline(fn, call, this=obj) if fn is not None and self.depth < MAX_INLINE else None

    def specialization(self, fs, n: Node) -> Func | None:
        """Of a class's member functions of ``n``'s arity (a primary template's and its partial specializations',
        all named ``Class::f``), the one of the specialization the object's class arguments select (`DeviceTensor<
        float, 1>`'s operator[] returns the element; the primary's, the next view)."""
        found = [f for f in fs or () if f.method and _takes(f, len(self.expand(n.args)))]
        if len(found) <= 1:
            return found[0] if found else None
        args = self.class_args(found[0], n)

        def fits(f):
            return all(not re.fullmatch(r"-?\d+", p) or isinstance(a, tuple) and a[1] == int(p)
                       for p, a in zip(f.class_pattern, args))
        special = [f for f in found if f.class_pattern and len(f.class_pattern) == len(args) and fits(f)] \
            if args else []
        return (special or [f for f in found if not f.class_pattern] or found)[0]

    def _static(self, n: Node) -> Func | None:
        """The class's static function a qualified call names through a name kopt does not resolve (`Matrix_t::
        eltd(...)`, a typedef a template leaves dependent): the one static function of that name and arity, of a
        class with no value template parameter (`Reduce<T, offset / 2>::run(...)` would need its class's arguments
        bound, which a qualified call does not give)."""
        if "::" not in (n.name or ""):
            return None
        short = n.name.rsplit("::", 1)[1]
        found = [f for k, fs in self.unit.funcs.items() if k.endswith("::" + short) for f in fs
                 if not f.method and not f.kernel and _takes(f, len(self.expand(n.args))) and not f.class_pattern and
                 all(kind == "type" for _, kind in f.class_tparams)]
        return found[0] if len(found) == 1 else None

    def _object(self, n: Node):
        """The object a member function is called on: a struct value (``Agg``) or one in memory (``Mem``)."""
        if _names_this(n.a):
            return self.this  # (no object: another member function of the class, on the same object)
        obj = self.eval(n.a)
        if isinstance(obj, Ptr) and n.op == "->":
            return Mem(obj, obj.elem)
        return obj if isinstance(obj, (Agg, Mem)) else None

    def _function_named(self, text: str) -> str | None:
        """The device function a template argument names (``dequantize_q4_0``, ``&f``, a function parameter of the
        template being inlined), for calls through the template's function parameter; None for a value."""
        name = text.strip().lstrip("&").strip().split("::")[-1]
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            return None
        if name in self.fbind:
            return self.fbind[name]
        fs = self.unit.funcs.get(name)
        return name if fs and not any(f.kernel for f in fs) else None

    def _find(self, short, nargs):
        fs = self.unit.funcs.get(short)
        if not fs:
            return None
        for f in fs:
            if _takes(f, nargs) and not f.kernel:
                return f
        return next((f for f in fs if not f.kernel), None)

    def expand(self, args: list) -> list:
        """Argument or initializer nodes with each parameter pack expansion (``c...``, ``std::forward<T>(c)...``)
        written out once per element of the inlined helper's pack it names."""
        if not any(a.kind == "pack" for a in args):
            return args
        out = []
        for a in args:
            names = {x.name for x in nodes(a.a) if x.kind == "name" and x.name in self.packs} if a.kind == "pack" \
                else None
            if not names:
                out.append(a.a if a.kind == "pack" else a)
                continue
            count = len(self.packs[next(iter(names))])
            out += [_renamed(a.a, {name: self.packs[name][i] for name in names}) for i in range(count)]
        return out

    def inline(self, fn: Func, n: Node, this=None):
        wants_lvalue, self._lvalue_call = self._lvalue_call is n, None  # (not for the calls in its arguments)
        this = this if this is not None else self._object(n) if fn.method else None
        arg_nodes = self.expand(_default_arguments(fn, n))
        args = [self.eval(a) for a in arg_nodes]
        scope = {}
        params, packs = fn.params, {}
        if fn.pack:  # `f(Args... c)`: one parameter `c#i` per argument in the pack's place
            pname, ti = fn.params[-1]
            elements = [f"{pname}#{i}" for i in range(max(len(args) - len(fn.params) + 1, 0))]
            params, packs = fn.params[:-1] + [(e, ti) for e in elements], {pname: elements, fn.pack: elements}
        for (pname, ti), a, an in zip(params, args, arg_nodes):
            if isinstance(a, Mem) and not ti.ref:
                a = self.load(a, an)
            if isinstance(a, Ptr) and ti.pointer and not a.intaddr:
                es = self._elem(ti)
                if es != a.elem and self._elem(ti) and ti.pointee_size:
                    a = Ptr(a.space, a.base, a.off, es, (), a.subs, a.volatile)
            scope[pname] = a if a is not None else opaque(f"argument {pname}")
        saved_t, saved_tb, saved_fb, saved_packs = dict(self.tbind), dict(self.typebind), dict(self.fbind), self.packs
        self.packs = packs
        kinds = dict(fn.class_tparams)
        for tn, arg in zip(fn.class_pattern or [tn for tn, _ in fn.class_tparams], self.class_args(fn, n)):
            if kinds.get(tn) == "type" and isinstance(arg, int) and arg > 0:
                self.typebind[tn] = arg  # `T *data_` of a View<LaneCounters>: elements of LaneCounters' size
            elif kinds.get(tn) == "value" and isinstance(arg, tuple):
                self.tbind[tn] = const(arg[1])  # `for (i = 1; i < Dim; ++i)` in a DeviceTensor<float, 3>
        for (tn, kind), text in zip(fn.tparams, n.targs):
            if kind == "value":
                called = self._function_named(text)
                if called is not None:
                    self.fbind[tn] = called
                    continue
                v = eval_text(text, self.macros)
                if v is None:
                    try:
                        v = self.ival(Node("name", name=text.strip())).val if text.strip() in self.tbind else None
                    except Exception:
                        v = None
                self.tbind[tn] = const(v) if isinstance(v, int) else opaque(f"template value {tn}", uniform=True)
            else:
                self.typebind[tn] = TYPE_SIZES.get(text.strip(), 4)
        self._bind_deduced(fn, n, saved_t, saved_tb)
        outer = self.st
        inner = outer.clone()
        inner.scopes = [outer.scopes[0], scope]
        inner.rets = []
        inner.returned = False
        self.st = inner
        self.depth += 1
        saved_helper, saved_this, saved_site, saved_call = self.helper, self.this, self.site, self._call_id
        self._call_id = next(self._calls)
        if self.site is None and model_stub(fn.loc.file):
            self.site = n  # what the library's model does is reported where the user's code calls it
        targs = ",".join(_instantiation(fn, n))
        self.helper = f"{fn.name}<{targs}>" if targs else fn.name
        self.this = this
        saved_exits, self.loop_exits = self.loop_exits, []  # its `return` leaves the helper, not the caller's loops
        saved_lvalue = self._returns_lvalue, self._lvalue_params
        self._returns_lvalue, self._lvalue_params = wants_lvalue, params
        try:
            self.stmt(fn.body)
        finally:
            self.depth -= 1
            self.tbind, self.typebind, self.fbind, self.packs = saved_t, saved_tb, saved_fb, saved_packs
            self.helper, self.this, self.site, self._call_id = saved_helper, saved_this, saved_site, saved_call
            self.loop_exits = saved_exits
            self._returns_lvalue, self._lvalue_params = saved_lvalue
        res = self.st
        self.st = outer
        # references: write back
        for (pname, ti), an in zip(fn.params, n.args):
            if ti.ref and not ti.dims and an.kind == "name" and outer.has(an.name) and pname in res.scopes[1]:
                nv = res.scopes[1][pname]
                if not isinstance(outer.lookup(an.name), Mem):
                    outer.set(an.name, nv)
        outer.phase, outer.wphase, outer.gphase = res.phase, res.wphase, res.gphase
        rets = list(inner.rets or [])
        # the local arrays the helper stored to: as its one path left them (a helper with a return before its end
        # leaves them unknown)
        outer.locals = res.locals if not rets or (len(rets) == 1 and res.dead) else {}
        if not rets:
            return None
        if wants_lvalue:  # the place every return names (a reference parameter's: the caller's argument)
            places = []
            for _, v in rets:
                if isinstance(v, tuple) and v[0] == "param":
                    v = self.lval(arg_nodes[v[1]]) if v[1] < len(arg_nodes) else None
                if not (isinstance(v, (Mem, VarRef)) or isinstance(v, tuple) and v[0] == "field"):
                    return None
                if not any(v is w for w in places):
                    places.append(v)
            if len(places) == 1:
                return places[0]
            # one of several variables or fields (`if constexpr` on a type kopt does not know: `v.x` or `v`): a
            # store to a register, whose value is unknown after it
            return ("locals", places) if not any(isinstance(v, Mem) for v in places) else None
        val = rets[-1][1]
        for c, v in reversed(rets[:-1]):
            val = self._merge_val(c, v, val, fn.name)
        if isinstance(val, Mem):
            return val
        return val

    # ------------------------------------------------------------------ inline assembly
    def asm(self, n: Node):
        ops = []
        for x in n.outs:
            ops.append(self.lval(x))
        for x in n.ins:
            ops.append(self.rval(x))
        # a math instruction computes its output from its operands alone: a function of the inputs (and of its own
        # value before, for a read-write `+r` operand, or any operand the front end did not say is `=`)
        inputs = ops[len(n.outs):]
        written_only = n.val if isinstance(n.val, tuple) and len(n.val) == len(n.outs) else (False,) * len(n.outs)
        read_write = [(x, lv) for x, lv, w in zip(n.outs, ops, written_only) if not w]
        pure = asmlib.math_only(n.text) and all(isinstance(lv, VarRef) for _, lv in read_write)
        inputs += [self.rval(x) for x, _ in read_write] if pure else []
        pure = pure and all(isinstance(v, S) for v in inputs)
        asmlib.handle(self, n, ops)
        text = " ".join(n.text.replace("#", " ").split()) if pure else ""
        lane = asmlib.LANE_ID.match(n.text)  # `mov.u32 %0, %%laneid;`: the thread's lane, its linear index mod 32
        # `elect.sync %rx|%px, 0xffffffff; @%px mov.s32 %0, 1;`: one lane of the warp, the same in every lane's view
        # (which one PTX leaves open), sets the output; the others keep its value
        elect = asmlib.ELECT.search(n.text) and n.outs and read_write and read_write[0][0] is n.outs[0]
        for i, x in enumerate(n.outs):
            lv = ops[i]
            if isinstance(lv, (VarRef, Mem)) or (isinstance(lv, tuple) and lv and lv[0] == "field"):
                value = binop("%", self.linear_tid(), const(32)) if lane and i == 0 else \
                    ite(binop("==", binop("%", self.linear_tid(), const(32)), uf("elect.sync", self._warp_index())),
                        const(1), self.rval(x)) if elect and i == 0 else \
                    uf(f"asm[{i}]:{text}", *inputs) if pure else opaque("asm output")
                self.store(lv, value, x)


def _constant_trip(test: S, k: str, limit: int = 4096):
    """Trip count of a loop whose test depends on nothing but its iteration number."""
    if set(sym.free_vars(test)) != {k}:
        return None
    f = sym.compiled(test)
    for i in range(limit):
        v = f({k: i})
        if v is None:
            return None
        if not v:
            return i
    return None


_IMPURE_CALL = re.compile(r"atomic|__sync|__shfl|sync$|wait|arrive|memcpy|__pipeline|__ld|__st|ballot|__any|__all|"
                          r"__reduce|clock|printf|rand")


def _pure(n, funcs=None) -> bool:
    """An expression without memory accesses, side effects or calls other than to side-effect-free built-ins
    (group sizes and ranks, min/max, math functions)."""
    if n is None:
        return True
    if not isinstance(n, Node):
        return True
    if n.kind == "call":
        short = short_name(n)
        if not short or _IMPURE_CALL.search(short) or (funcs and short in funcs):
            return False
        return all(_pure(x, funcs) for x in n.args) and (n.a is None or _pure(n.a, funcs))
    if n.kind in ("index", "assign", "asm", "unknown", "init"):
        return False
    if n.kind == "un" and n.op in ("*", "&", "pre++", "pre--", "post++", "post--"):
        return False
    if n.kind == "member" and n.op == "->":
        return False
    return all(_pure(x, funcs) for x in (n.a, n.b, n.c)) and all(_pure(x, funcs) for x in n.args)


def _loop_inputs(name: str, entry: dict, ends: dict, carried: dict, k: str, test: S, shared: set) -> dict | None:
    """For a name a loop carries (``entry``: the carried values before the loop, ``ends``: at the end of an
    iteration, in terms of the ``carried`` unknowns (-> their names) and the iteration variable ``k``), of a loop
    every thread runs for the same iterations: the variables (name -> kind) its value after the loop is a function
    of. They are those of its entry and end values, of the loop's test, and of the same of every carried value it
    reads; None when one of them is not a scalar. (Loads are functions of their addresses, as everywhere in the
    passes; a load from one of the ``shared`` arrays and a value a warp or tile shares, a shuffle's, are the block's
    own too: the block index is among the inputs.)"""
    todo, seen, got = [name], set(), {n: kind for n, kind in sym.free_vars(test).items() if n != k}
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        if not isinstance(entry.get(x), S) or not isinstance(ends.get(x), S):
            return None
        for e in (entry[x], ends[x]):
            for n, kind in sym.free_vars(e).items():
                if n in carried:
                    todo.append(carried[n])
                elif n != k:
                    got[n] = kind
            if any("#" in str(f) or f.startswith("ld:") and f[3:] in shared for f in sym.uf_names(e)):
                got.update({f"b{d}": "block" for d in "xyz"})
    return got


def _exits_early(n) -> bool:
    """Does the loop body contain break/return/goto at its own level (not inside nested loops)?"""
    if n is None:
        return False
    if isinstance(n, list):
        return any(_exits_early(x) for x in n)
    if not isinstance(n, Node):
        return False
    if n.kind in ("break", "return", "unknown"):
        return True
    if n.kind in ("for", "while", "do"):
        return any(_contains(x, "return") for x in n.body)
    return any(_exits_early(x) for x in (n.b, n.c)) or any(_exits_early(x) for x in n.body)


def _monotone(name: str, sites: list, body: list) -> str | None:
    """"up" when every update of ``name`` in a loop's ``body`` (``sites``: its assignments) can only raise it (``++``,
    ``+=`` a non-negative literal, ``= max(name, e)``, ``if (e > name) name = e``), "down" when every one can only
    lower it (``= min(name, e)``, ``if (e < name) name = e``): its value in any iteration is then at least (at
    most) its value before the loop. None otherwise (a decrement is left out: an unsigned count wraps below 0)."""
    guarded = {}  # an assignment `name = e` -> the direction of the `if` that is its only statement
    for n in nodes(body):
        if n.kind == "if" and n.c is None and n.a is not None and n.a.kind == "bin":
            then = n.b.body[0] if isinstance(n.b, Node) and n.b.kind == "block" and len(n.b.body) == 1 else n.b
            st = then.a if isinstance(then, Node) and then.kind == "expr" else then
            if isinstance(st, Node) and st.kind == "assign" and st.op == "=" and st.a is not None and \
                    st.a.kind == "name" and st.a.name == name:
                c = n.a
                lower = {"<": "down", "<=": "down", ">": "up", ">=": "up"}.get(c.op)
                if lower and _same(c.a, st.b) and c.b is not None and c.b.kind == "name" and c.b.name == name:
                    guarded[id(st)] = lower  # if (e < v) v = e
                elif lower and _same(c.b, st.b) and c.a is not None and c.a.kind == "name" and c.a.name == name:
                    guarded[id(st)] = {"down": "up", "up": "down"}[lower]  # if (v > e) v = e
    ways = set()
    for n, _ in sites:
        if n.kind == "un":
            ways.add("up" if n.op.endswith("++") else None)
        elif n.op == "+=" and isinstance(n.b, Node) and n.b.kind == "lit" and isinstance(n.b.val, int) and n.b.val >= 0:
            ways.add("up")
        elif n.op == "=" and isinstance(n.b, Node) and n.b.kind == "call" and len(n.b.args) == 2 and \
                re.sub(r".*::", "", n.b.name or "") in ("min", "max") and \
                any(a.kind == "name" and a.name == name for a in n.b.args if isinstance(a, Node)):
            ways.add("down" if n.b.name.endswith("min") else "up")
        else:
            ways.add(guarded.get(id(n)))
    return ways.pop() if len(ways) == 1 and None not in ways else None


def _same(x, y) -> bool:
    """Two expressions written alike (locations aside)."""
    if not isinstance(x, Node) or not isinstance(y, Node):
        return x == y
    return (x.kind, x.op, x.name, x.val) == (y.kind, y.op, y.name, y.val) and len(x.args) == len(y.args) and \
        all(_same(a, b) for a, b in ((x.a, y.a), (x.b, y.b), (x.c, y.c), *zip(x.args, y.args)))


def _last_pass_break_as_branch(n: Node) -> list | None:
    """``for (i = ...; i < E; i++) { A; if (i == E - 1) break; B; }`` leaves after the last pass's A whether or not
    it breaks (the next test would fail): the same loop as ``{ A; if (i != E - 1) { B; } }``, which runs every pass
    to its end, so values set in A are the last pass's after the loop. The body so rewritten, or None when the loop
    is not of that form (B changing i or E, or leaving the loop itself)."""
    if n.kind != "for" or n.a is None or n.b is None or len(n.body) != 1:
        return None
    top = n.body[0].body if isinstance(n.body[0], Node) and n.body[0].kind == "block" else n.body
    test = n.a
    if not (test.kind == "bin" and test.op == "<" and test.a is not None and test.a.kind == "name"):
        return None
    i, bound = test.a.name, test.b
    step = n.b
    if not (step.kind == "un" and step.op in ("pre++", "post++") and step.a is not None and step.a.kind == "name"
            and step.a.name == i):
        return None
    for j, x in enumerate(top):
        if not (isinstance(x, Node) and x.kind == "if" and x.c is None and isinstance(x.b, Node)):
            continue
        leaves = x.b.kind == "break" or x.b.kind == "block" and len(x.b.body) == 1 and x.b.body[0].kind == "break"
        c = x.a
        last = leaves and c.kind == "bin" and c.op == "==" and any(
            v.kind == "name" and v.name == i and _one_less(e, bound) for v, e in ((c.a, c.b), (c.b, c.a)))
        if not last:
            continue
        rest = top[j + 1:]
        changed = set(_assigned(rest))
        if i in changed or _mentions(bound, changed) or _exits_early(rest) or _contains(rest, "continue", own=True):
            return None
        branch = Node("if", x.loc, a=Node("bin", x.loc, op="!=", a=c.a, b=c.b, ty=c.ty), b=Node("block", x.loc, body=rest))
        return [Node("block", n.body[0].loc if isinstance(n.body[0], Node) else None, body=top[:j] + [branch])]
    return None


DEPENDENT = "<dependent type>"  # clang's spelling of a type a template leaves open
_UNROLL = 8  # passes of a register-only loop of constant bounds run one by one (``Builder._unrolled``)


def _counted_loop(n: Node):
    """``for (int i = A; i < B; ++i)`` (or ``<=``, ``i++``, ``i += 1``), ``i`` not assigned in the body: (``i``, the
    node of A, the test); (None, None, None) otherwise."""
    none = (None, None, None)
    if n.kind != "for" or n.init is None or n.init.kind != "decl" or n.init.a is None or n.a is None or n.b is None:
        return none
    i, test, step = n.init.name, n.a, n.b
    if not (test.kind == "bin" and test.op in ("<", "<=") and test.a is not None and test.a.kind == "name" and
            test.a.name == i):
        return none
    ones = step.kind == "un" and step.op in ("pre++", "post++") or step.kind == "assign" and step.op == "+=" and \
        step.b is not None and step.b.kind == "lit" and step.b.val == 1
    if not (ones and step.a is not None and step.a.kind == "name" and step.a.name == i) or i in _assigned(n.body):
        return none
    return i, n.init.a, test


def _register_only(body) -> bool:
    """Whether statements ``body`` touch no memory and leave no way but their end: no call, subscript but of a
    struct's array field, dereference, ``->`` but ``this->``, exit, inner loop, switch or asm."""
    for x in nodes(body):
        if x.kind in ("call", "for", "while", "do", "break", "continue", "return", "goto", "asm", "switch") or \
                x.kind == "unknown" and x.text != "this":
            return False
        if x.kind == "index" and (x.a is None or x.a.kind != "member" or x.a.ty is None or x.a.ty.pointer or
                                  not x.a.ty.dims and x.a.ty.spelling != DEPENDENT):
            return False  # (a struct's array field: a view's sizes; not a local array, a hash's state words)
        if x.kind == "un" and x.op in ("*", "&"):
            return False
        if x.kind == "member" and x.op == "->" and not (x.a is not None and x.a.kind == "unknown" and x.a.text == "this"):
            return False
    return True


def _one_less(e, bound) -> bool:
    """``e`` is ``bound - 1`` (as written, or both folded to literals)."""
    if e.kind == "lit" and bound.kind == "lit":
        return isinstance(e.val, int) and isinstance(bound.val, int) and e.val == bound.val - 1
    return e.kind == "bin" and e.op == "-" and _same(e.a, bound) and e.b.kind == "lit" and e.b.val == 1


def _only_read(func: Func) -> set:
    """The pointer parameters of kernel ``func`` whose name its body uses only to read an element (``p[i]`` as a
    value): never stored through, handed to a call, copied, offset or dereferenced."""
    return {name for name, ti in func.params if ti.pointer} - written_names(func.body)


def _contains(n, kind, own: bool = False) -> bool:
    """Is a node of ``kind`` in ``n``? ``own``: one of the loop whose body ``n`` is (not inside a nested loop)."""
    if n is None:
        return False
    if isinstance(n, list):
        return any(_contains(x, kind, own) for x in n)
    if not isinstance(n, Node) or own and n.kind in ("for", "while", "do"):
        return False
    return n.kind == kind or any(_contains(x, kind, own) for x in (n.a, n.b, n.c)) or _contains(n.body, kind, own)


def _mentions(n, names: set) -> bool:
    if n is None:
        return False
    if isinstance(n, list):
        return any(_mentions(x, names) for x in n)
    if not isinstance(n, Node):
        return False
    if n.kind == "name" and n.name in names:
        return True
    return any(_mentions(x, names) for x in (n.a, n.b, n.c, n.args))


_LINES: dict = {}


def _text(n: Node) -> str:
    """Source text of a node (from its location), for messages."""
    loc = n.loc
    if loc is None:
        return n.text or ""
    lines = _LINES.get(loc.file)
    if lines is None and loc.file:  # a helper inlined from a header (read once per kernel built)
        try:
            lines = _LINES[loc.file] = Path(loc.file).read_text(errors="replace").splitlines()
        except OSError:
            lines = _LINES[loc.file] = []
    if lines is None or loc.line > len(lines):
        return n.text or ""
    if loc.end_line == loc.line and loc.end_col:
        return lines[loc.line - 1][loc.col - 1: loc.end_col].strip()
    return lines[loc.line - 1][loc.col - 1:].strip()


def _names_this(a: Node | None) -> bool:
    """A member access's or member call's object is the enclosing member function's own: implicit, or ``this``."""
    return a is None or a.kind == "unknown" and a.text == "this"


def _floating(spelling: str) -> bool:
    """A floating-point (or vector of floating-point) type, not a class template's instance `Params<float>`."""
    return "<" not in spelling and any(x in spelling for x in ("float", "double", "half", "bfloat"))


def _computed_alike(e: S, kinds: set) -> bool:
    """``e`` is computed from known values of ``kinds`` only (no load, no unknown): the same in every thread that
    shares those values (``{"uniform"}``: the whole grid; with ``"block"``: a block)."""
    return not sym.uf_names(e) and not sym.has_opaque(e) and set(sym.free_vars(e).values()) <= kinds


def _is_null(v) -> bool:
    return isinstance(v, S) and sym.is_const(v) and v.val == 0


def _may_overlap(a: Access, off: S, size: int) -> bool:
    """Whether access ``a`` may touch the ``size`` bytes at ``off`` of its array (unless both offsets are
    constants, it may)."""
    if not (sym.is_const(a.offset) and sym.is_const(off)):
        return True
    return a.offset.val < off.val + size and off.val < a.offset.val + a.size


def build_kernel(unit: Unit, func: Func, launch: LaunchConfig, defines=None) -> KernelModel:
    _LINES.clear()  # a header's text is read again for each kernel (it may have changed since)
    _LINES[unit.path] = unit.source.splitlines()
    sym.reset_names()
    return Builder(unit, func, launch, defines).build()


_STD_ARRAY = re.compile(r"\s*(?:const\s+)?(?:::)?(?:cuda::)?std::array<.+,\s*(\d+)\w*\s*>\s*(?:const\s*)?&?\s*")


def _std_array_extent(ty: TypeInfo | None) -> int | None:
    """N of a ``std::array<T, N>`` (libcu++'s ``cuda::std::array`` is kopt's std::array), None for another type."""
    m = _STD_ARRAY.fullmatch(ty.spelling) if ty is not None and not ty.pointer else None
    return int(m.group(1)) if m else None
