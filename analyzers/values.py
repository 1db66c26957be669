"""Values of the model builder's symbolic execution (shared by ``build``, ``calls`` and ``asm``)."""
from __future__ import annotations

from .model import Ptr
from .sym import ONE, ZERO, S


class Agg:
    """A value with fields: builtin index vectors, struct locals/params, cooperative-groups handles."""

    def __init__(self, kind: str, name: str = "", fields=None, uniform: bool = False, size: int = 0):
        self.kind = kind  # builtin | struct | cg_block | cg_tile | cg_grid | barrier | pipeline | other
        self.name = name
        self.fields = dict(fields or {})
        self.uniform = uniform
        self.size = size
        self.escaped = False  # a local struct whose address a helper took (build: ``_havoc_escaped``)
        # a struct a class's constructor made: (the class's name, its template arguments as ``Builder.class_args``
        # gives them), whose member operators a subscript of it calls (`t[b][k]` on a tensor view)
        self.cls: tuple | None = None

    def copy(self, name: str) -> "Agg":
        """A copy of a thread's own struct named ``name``: its member structs are copied too (not shared with the
        original, whose later stores must not show through the copy)."""
        fields = {k: v.copy(f"{name}.{k}") if isinstance(v, Agg) and v.kind == "struct" and not v.uniform else v
                  for k, v in self.fields.items()}
        out = Agg("struct", name, fields, False, self.size)
        out.cls = self.cls
        return out


class Mem:
    """An lvalue in memory."""

    def __init__(self, ptr: Ptr, size: int):
        self.ptr = ptr
        self.size = size


class VarRef:
    def __init__(self, name: str):
        self.name = name


class State:
    __slots__ = ("scopes", "cond", "phase", "wphase", "gphase", "dead", "returned", "rets", "locals")

    def __init__(self):
        self.scopes: list[dict] = [{}]
        self.cond: S = ONE
        self.phase: S = ZERO
        self.wphase: S = ZERO
        self.gphase: S = ZERO  # grid barriers executed before (grid.sync())
        self.dead = False
        self.returned = False
        self.rets: list | None = None
        # (local array, byte offset key, size) -> (offset, the value the path stored there last): Builder.load
        # reads it back
        self.locals: dict = {}

    def clone(self) -> "State":
        s = State()
        s.scopes = [dict(x) for x in self.scopes]
        s.cond, s.phase, s.wphase, s.gphase = self.cond, self.phase, self.wphase, self.gphase
        s.dead, s.returned, s.rets = self.dead, self.returned, self.rets
        s.locals = dict(self.locals)
        return s

    def lookup(self, name):
        for sc in reversed(self.scopes):
            if name in sc:
                return sc[name]
        raise KeyError(name)

    def has(self, name) -> bool:
        return any(name in sc for sc in self.scopes)

    def set(self, name, value):
        for sc in reversed(self.scopes):
            if name in sc:
                sc[name] = value
                return
        self.scopes[-1][name] = value


def same_struct(a, b) -> bool:
    """Whether a value of type ``a`` initializing a ``b`` is a copy of a struct of the same type."""
    def plain(t):
        return t.spelling.replace("const ", "").replace("volatile ", "").strip()
    return a is not None and not a.pointer and not a.integral and a.size == b.size and plain(a) == plain(b)
