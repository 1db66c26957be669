"""A small neutral syntax tree that both front ends (libclang, tree-sitter) produce and the model builder consumes."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Loc:
    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None


@dataclass
class TypeInfo:
    """What the analyzer needs of a C++ type: sizes, pointer-ness, array dimensions."""

    spelling: str = ""
    size: int | None = None  # sizeof the type itself
    pointer: bool = False  # pointer or reference-to-array
    pointee: str = ""  # spelling of the pointee / element type
    pointee_size: int | None = None  # element size for pointers and arrays
    dims: tuple = ()  # array dimensions: int, Node (dependent expression) or None (unsized)
    pointee_dims: tuple = ()  # a pointer to arrays, T (*)[N][M]: (N, M); pointee_size is then sizeof(T)
    ref: bool = False
    volatile: bool = False
    integral: bool = True


@dataclass
class Node:
    """One node. ``kind`` says which fields matter (see the front ends for the exact shapes):

    expressions: lit(val) name(name, ref) member(a, name, arrow, val=field byte offset) index(a, b)
    call(name, args, a=object for methods, op="->" through a pointer, val=sizes of the object's class template
    arguments, targs) bin(op, a, b) un(op, a) assign(op, a, b) cond(a, b, c)
    cast(ty, a) sizeof(val) init(args) stmtexpr(body, a=value: GNU ``({ ...; value; })``) unknown(text)
    pack(a: the pattern a parameter pack expands, ``c...``) sizeof_pack(name: ``sizeof...(Args)``)
    statements: block(body) decl(name, ty, a=init, shared, extern) expr(a) if(a, b, c) for(init, a, b, body)
    while(a, body) do(body, a) return(a) break continue asm(text, outs, ins) switch(a, body) unknown(text)
    """

    kind: str
    loc: Loc | None = None
    a: Any = None
    b: Any = None
    c: Any = None
    op: str = ""
    name: str = ""
    val: Any = None
    args: list = field(default_factory=list)
    body: list = field(default_factory=list)
    init: Any = None
    ty: TypeInfo | None = None
    targs: list = field(default_factory=list)
    text: str = ""
    ref: str = ""  # for names: param, local, global, func, tparam, enum, builtin
    shared: bool = False
    extern: bool = False
    outs: list = field(default_factory=list)
    ins: list = field(default_factory=list)


@dataclass
class Func:
    name: str
    params: list  # [(name, TypeInfo)]
    body: Node | None
    kernel: bool
    loc: Loc
    tparams: list = field(default_factory=list)  # [(name, "type" | "value")]
    launch_bounds: int | str | None = None  # __launch_bounds__ first argument (text until resolved)
    method: bool = False  # a class's non-static member function (name ``Class::f``): ``this`` is the called object
    namespace: str = ""  # the namespaces a free function is declared in (`OneSweep`), as a qualified call names them
    class_tparams: list = field(default_factory=list)  # a class template's member function: the class's, as tparams
    # a partial specialization's member function: the class's arguments as the specialization writes them
    # (`DeviceTensor<DType, 1>`: ["DType", "1"]); empty for the primary template (its parameters, in order)
    class_pattern: list = field(default_factory=list)
    defaults: list = field(default_factory=list)  # per parameter, its default argument's Node or None (or empty)
    pack: str = ""  # a variadic template's parameter pack type (`Args` of `f(Args... c)`), its last parameter the pack


@dataclass
class Unit:
    """A parsed file: its functions by name (kernels and device helpers), file-scope shared arrays, the front end."""

    path: str
    source: str
    funcs: dict  # name -> list[Func] (overloads)
    globals: dict = field(default_factory=dict)  # name -> Node(kind="decl") for __shared__/__constant__ at file scope
    frontend: str = "libclang"
    problems: list = field(default_factory=list)  # (Loc | None, reason) the front end could not handle
    broken: dict = field(default_factory=dict)  # kernel/device function name -> why libclang could not read it
    skipped_host: int = 0  # host declarations blanked because they did not parse (libclang)
    context: str = ""  # what the unit was read after: its includer's declarations or a force-included header
    build_defines: dict = field(default_factory=dict)  # name -> (value, build file) read for undeclared names
    build_includes: list = field(default_factory=list)  # (folder, build file): -I folders read for missing headers
    configured: list = field(default_factory=list)  # (header, template, unset variables): configured from templates
    unknown_constants: list = field(default_factory=list)  # undeclared macro-style names read as unknown ints
    opaque_names: list = field(default_factory=list)  # names of headers found nowhere, declared opaque
    # class template name -> (template parameters [(name, "type" | "value")], fields [(type text, [dimension
    # texts])]): the layout of a plain aggregate (`template <typename T, int N> struct Array { T a[N]; }`), whose
    # size kopt works out for the arguments it knows (clang leaves `sizeof(Array<T, N>)` dependent)
    class_layouts: dict = field(default_factory=dict)

    @property
    def kernels(self) -> list[Func]:
        return [f for fs in self.funcs.values() for f in fs if f.kernel]


def range_loop(loc: Loc | None, length: int, elem: "Node", body: "Node") -> "Node":
    """A range-for over an array of ``length`` elements as both front ends read it: ``for (i = 0; i < length; i +=
    1) { elem; body }``, where ``elem`` declares the loop variable from ``array[i]`` (``range_index(loc)``)."""
    index = range_index(loc)
    ity = index.ty
    return Node("for", loc, init=Node("decl", loc, name=index.name, ty=ity, a=Node("lit", loc, val=0)),
                a=Node("bin", loc, op="<", a=index, b=Node("lit", loc, val=length), ty=ity),
                b=Node("assign", loc, op="+=", a=index, b=Node("lit", loc, val=1)),
                body=[Node("block", loc, body=[elem, body])])


def range_index(loc: Loc | None) -> "Node":
    """The counter of the range-for at ``loc`` (a name no source uses)."""
    name = f"__kopt_range{loc.line}_{loc.col}" if loc is not None else "__kopt_range"
    return Node("name", loc, name=name, ref="var", ty=TypeInfo(spelling="long", size=8))


def switch_groups(switch: "Node") -> list | None:
    """A switch's body as the groups its case labels start, each ``(labels, statements)`` (a label is the case's
    value node, or None for ``default``), when every group but the last leaves the switch at its end (``break``,
    ``return``, ``continue``): then exactly one group runs, the one whose labels match. None for a body one group
    falls through into the next from, or with statements before its first label."""
    top = switch.body
    if len(top) == 1 and isinstance(top[0], Node) and top[0].kind == "block" and top[0].ref not in ("case", "default"):
        top = top[0].body
    items: list = []

    def flat(x):
        if isinstance(x, Node) and x.kind == "block" and x.ref in ("case", "default"):
            items.append(("label", x.a if x.ref == "case" else None))
            for y in x.body:
                flat(y)
        elif x is not None:
            items.append(("stmt", x))
    for x in top:
        flat(x)
    groups: list = []
    for what, x in items:
        if what == "label":
            if not groups or groups[-1][1]:
                groups.append(([], []))
            groups[-1][0].append(x)
        elif not groups:
            return None
        else:
            groups[-1][1].append(x)

    def leaves(x) -> bool:
        if x.kind in ("break", "return", "continue"):
            return True
        return x.kind == "block" and bool(x.body) and isinstance(x.body[-1], Node) and leaves(x.body[-1])
    if any(not stmts or not leaves(stmts[-1]) for _, stmts in groups[:-1]):
        return None
    return groups


def short_name(n: "Node") -> str:
    """A call's callee without namespace or template arguments (``cg::sync``, ``f<4>`` -> ``sync``, ``f``)."""
    return re.sub(r"<.*", "", (n.name or "").split("::")[-1]).strip()


def nodes(n):
    """Every node under ``n`` (a node or a list of them), in source order."""
    if isinstance(n, list):
        for x in n:
            yield from nodes(x)
    elif isinstance(n, Node):
        yield n
        for x in (n.a, n.b, n.c, n.args, n.init, n.body):
            yield from nodes(x)
