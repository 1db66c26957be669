"""tree-sitter front end: the error-tolerant fallback when libclang cannot parse a file (unknown headers with
macros the stubs lack, CUTLASS/CuTe code, partial snippets). Syntax only: object-like ``#define``s and -D values
are substituted, types are known by name (float, int, float4, ...), function-like macros are not expanded."""
from __future__ import annotations

import re
from pathlib import Path

from .preproc import active_lines
from .ast import Func, Loc, Node, TypeInfo, Unit, range_index, range_loop
from .launch import evaluate as eval_text
from .type_sizes import TYPE_SIZES

_PARSER = None
INTEGRAL = {"int", "unsigned", "uint32_t", "int32_t", "char", "bool", "short", "long", "size_t", "int64_t",
            "uint64_t", "uint8_t", "int8_t", "uint16_t", "int16_t", "unsigned int", "long long",
            "unsigned long long", "uint", "ushort", "uchar", "unsigned short", "unsigned char", "signed char",
            "unsigned long"}
BUILTINS = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}


def _parser():
    global _PARSER
    if _PARSER is None:
        import tree_sitter as ts
        import tree_sitter_cuda as tsc
        _PARSER = ts.Parser(ts.Language(tsc.language()))
    return _PARSER


# C++'s alternative tokens (`not lane_id`, `a and b`): the operators they spell
_ALTERNATIVE_TOKENS = {"and": "&&", "or": "||", "not": "!", "bitand": "&", "bitor": "|", "xor": "^", "compl": "~",
                       "and_eq": "&=", "or_eq": "|=", "xor_eq": "^=", "not_eq": "!="}


class _Conv:
    def __init__(self, path: str, src: bytes, macros: dict):
        self.path = path
        self.src = src
        self.macros = macros
        self.problems: list = []
        self.tparams: set = set()
        self.arrays: dict = {}  # local array name -> its length, for range-for loops (last declaration wins)

    def t(self, n) -> str:
        return self.src[n.start_byte:n.end_byte].decode(errors="replace")

    def loc(self, n) -> Loc:
        (l0, c0), (l1, c1) = n.start_point, n.end_point
        return Loc(self.path, l0 + 1, c0 + 1, l1 + 1, max(c1, 1))

    def f(self, n, name):
        return n.child_by_field_name(name)

    # ---- types
    def base_type(self, n) -> tuple[str, bool, bool]:
        """(type name, shared, volatile) from a declaration's specifiers."""
        ty = self.f(n, "type")
        name = self.t(ty).strip() if ty is not None else "int"
        quals = [self.t(c) for c in n.children if c.type in ("type_qualifier", "storage_class_specifier")]
        txt = self.t(n)
        shared = "__shared__" in quals or "__shared__" in txt.split("=")[0].split("(")[0]
        return name, shared, "volatile" in quals

    def typeinfo(self, name: str, decl) -> tuple[str, TypeInfo]:
        """Walk a declarator: (variable name, TypeInfo)."""
        base = name.replace("const ", "").replace("struct ", "").strip()
        pointer, ref, dims = False, False, []
        d = decl
        while d is not None and d.type not in ("identifier", "field_identifier"):
            if d.type == "pointer_declarator":
                pointer = True
            elif d.type == "reference_declarator":
                ref = True
            elif d.type == "array_declarator":
                size = self.f(d, "size")
                dims.insert(0, self.dim(size) if size is not None else None)
            elif d.type == "init_declarator":
                pass
            nxt = self.f(d, "declarator")
            if nxt is None:
                nxt = next((c for c in d.named_children if c.type in (
                    "identifier", "pointer_declarator", "array_declarator", "reference_declarator",
                    "field_identifier")), None)
            d = nxt
        var = self.t(d) if d is not None else "?"
        size = TYPE_SIZES.get(base.split("::")[-1])
        ti = TypeInfo(spelling=name, size=size, pointer=pointer or bool(dims), pointee=base, pointee_size=size,
                      dims=tuple(dims), ref=ref, integral=(base in INTEGRAL) and not pointer and not dims)
        if pointer and not dims:
            ti.dims = ()
        return var, ti

    def dim(self, n):
        v = eval_text(self.t(n), self.macros)
        return v if v is not None else self.expr(n)

    # ---- expressions
    def operator(self, n) -> str:
        """The operator of an expression node, an alternative token (`not`, `and`) as the operator it spells."""
        op = self.t(self.f(n, "operator"))
        return _ALTERNATIVE_TOKENS.get(op, op)

    def expr(self, n) -> Node:
        k = n.type
        loc = self.loc(n)
        if k == "number_literal":
            txt = self.t(n).rstrip("uUlLfF")
            try:
                return Node("lit", loc, val=int(txt, 0))
            except ValueError:
                try:
                    return Node("lit", loc, val=float(txt))
                except ValueError:
                    return Node("unknown", loc, text=self.t(n))
        if k in ("true", "false"):
            return Node("lit", loc, val=int(k == "true"))
        if k == "identifier":
            name = self.t(n)
            if name in BUILTINS:
                return Node("name", loc, name=name, ref="builtin")
            if name in self.macros:
                v = eval_text(str(self.macros[name]), self.macros)
                if v is not None:
                    return Node("lit", loc, val=v)
            return Node("name", loc, name=name, ref="tparam" if name in self.tparams else "")
        if k in ("parenthesized_expression", "condition_clause"):
            inner = [c for c in n.named_children if c.type != "comment"]
            return self.expr(inner[-1]) if inner else Node("unknown", loc, text=self.t(n))
        if k == "field_expression":
            base = self.f(n, "argument")
            op = self.t(self.f(n, "operator")) if self.f(n, "operator") is not None else "."
            field = self.f(n, "field")
            return Node("member", loc, a=self.expr(base), name=self.t(field) if field is not None else "", op=op)
        if k == "subscript_expression":
            base = self.f(n, "argument")
            idx = self.f(n, "indices") or next((c for c in n.named_children if c.type == "subscript_argument_list"), None)
            inner = idx.named_children[0] if idx is not None and idx.named_children else None
            return Node("index", loc, a=self.expr(base), b=self.expr(inner) if inner is not None else None)
        if k == "binary_expression":
            op = self.operator(n)
            return Node("bin", loc, op=op, a=self.expr(self.f(n, "left")), b=self.expr(self.f(n, "right")))
        if k == "assignment_expression":
            op = self.operator(n)
            return Node("assign", loc, op=op, a=self.expr(self.f(n, "left")), b=self.expr(self.f(n, "right")))
        if k == "update_expression":
            op = self.t(self.f(n, "operator"))
            arg = self.f(n, "argument")
            post = arg is not None and arg.start_byte < self.f(n, "operator").start_byte
            return Node("un", loc, op=("post" if post else "pre") + op, a=self.expr(arg))
        if k in ("unary_expression", "pointer_expression"):
            op = self.operator(n)
            return Node("un", loc, op=op, a=self.expr(self.f(n, "argument")))
        if k == "conditional_expression":
            return Node("cond", loc, a=self.expr(self.f(n, "condition")), b=self.expr(self.f(n, "consequence")),
                        c=self.expr(self.f(n, "alternative")))
        if k == "cast_expression":
            tyname = self.t(self.f(n, "type"))
            return Node("cast", loc, ty=self._cast_type(tyname), a=self.expr(self.f(n, "value")))
        if k == "call_expression":
            return self.call(n, loc)
        if k == "sizeof_expression":
            txt = self.t(n)
            m = re.search(r"sizeof\s*\(\s*([\w:]+)\s*\)", txt)
            if m and m.group(1) in TYPE_SIZES:
                return Node("lit", loc, val=TYPE_SIZES[m.group(1)])
            return Node("sizeof", loc, text=txt)
        if k in ("initializer_list", "argument_list"):
            return Node("init", loc, args=[self.expr(c) for c in n.named_children])
        if k == "comma_expression":
            return Node("bin", loc, op=",", a=self.expr(self.f(n, "left")), b=self.expr(self.f(n, "right")))
        if k == "qualified_identifier":
            return Node("name", loc, name=self.t(n).split("::")[-1])
        return Node("unknown", loc, text=self.t(n))

    def _cast_type(self, tyname: str) -> TypeInfo:
        base = tyname.replace("const", "").replace("*", "").strip()
        ptr = "*" in tyname
        size = TYPE_SIZES.get(base)
        return TypeInfo(spelling=tyname, pointer=ptr, pointee=base, pointee_size=size, size=None if ptr else size,
                        integral=(base in INTEGRAL) and not ptr)

    def call(self, n, loc) -> Node:
        fn = self.f(n, "function")
        args = self.f(n, "arguments")
        argn = [self.expr(c) for c in (args.named_children if args is not None else []) if c.type != "comment"]
        ftxt = self.t(fn) if fn is not None else ""
        m = re.match(r"(static|reinterpret|const)_cast\s*<(.*)>\s*$", ftxt, re.S)
        if m and argn:
            return Node("cast", loc, ty=self._cast_type(m.group(2)), a=argn[0])
        targs = []
        tf = fn
        while tf is not None and tf.type == "qualified_identifier":  # `cg::tiled_partition<32>`
            tf = self.f(tf, "name")
        if tf is not None and tf.type == "template_function":
            ta = self.f(tf, "arguments")
            targs = [self.t(c) for c in ta.named_children] if ta is not None else []
            if tf is fn:
                ftxt = self.t(self.f(fn, "name"))
        if fn is not None and fn.type == "field_expression":
            obj = self.expr(self.f(fn, "argument"))
            return Node("call", loc, name=self.t(self.f(fn, "field")), a=obj, args=argn, text=self.t(n))
        name = re.sub(r"<.*", "", ftxt).strip()
        if name.split("::")[-1] in TYPE_SIZES or name in ("dim3",):
            return Node("call", loc, name="__ctor__", args=argn, text=self.t(n))
        return Node("call", loc, name=name, args=argn, targs=targs, text=self.t(n))

    # ---- statements
    def stmt(self, n) -> Node | None:
        k = n.type
        loc = self.loc(n)
        if k == "compound_statement":
            return Node("block", loc, body=[s for s in (self.stmt(c) for c in n.named_children) if s is not None])
        if k == "declaration":
            return self.decl(n)
        if k == "expression_statement":
            inner = [c for c in n.named_children if c.type != "comment"]
            if not inner:
                return None
            if inner[0].type == "gnu_asm_expression":
                return self.asm(inner[0], loc)
            return Node("expr", loc, a=self.expr(inner[0]))
        if k == "if_statement":
            cond = self.f(n, "condition")
            alt = self.f(n, "alternative")
            if alt is not None and alt.type == "else_clause":
                alt = alt.named_children[0] if alt.named_children else None
            return Node("if", loc, a=self.expr(cond), b=self.stmt(self.f(n, "consequence")),
                        c=self.stmt(alt) if alt is not None else None)
        if k == "for_statement":
            init = self.f(n, "initializer")
            cond = self.f(n, "condition")
            upd = self.f(n, "update")
            body = self.f(n, "body")
            init_n = None
            if init is not None:
                init_n = self.decl(init) if init.type == "declaration" else Node("expr", self.loc(init), a=self.expr(init))
            return Node("for", loc, init=init_n, a=self.expr(cond) if cond is not None else None,
                        b=self.expr(upd) if upd is not None else None, body=[self.stmt(body)] if body else [])
        if k == "for_range_loop":
            return self.range_for(n, loc)
        if k == "while_statement":
            return Node("while", loc, a=self.expr(self.f(n, "condition")), body=[self.stmt(self.f(n, "body"))])
        if k == "do_statement":
            return Node("do", loc, a=self.expr(self.f(n, "condition")), body=[self.stmt(self.f(n, "body"))])
        if k == "return_statement":
            inner = [c for c in n.named_children if c.type != "comment"]
            return Node("return", loc, a=self.expr(inner[0]) if inner else None)
        if k == "break_statement":
            return Node("break", loc)
        if k == "continue_statement":
            return Node("continue", loc)
        if k in ("comment", "preproc_call", "preproc_def", "preproc_function_def", ";", "alias_declaration",
                 "type_definition", "static_assert_declaration", "using_declaration", "namespace_alias_definition",
                 "struct_specifier", "union_specifier", "enum_specifier"):
            return None  # a local `using T = ...;` / typedef / `using namespace`, a local type: the fallback reads
            # types and names by name only; a static_assert holds at compile time and does nothing when it runs
        if k == "attributed_statement":  # `[[likely]] stmt`: the statement
            inner = [c for c in n.named_children if c.type != "attribute_declaration"]
            return self.stmt(inner[-1]) if inner else None
        if k == "switch_statement":
            # as the libclang front end reads it: the controlling value and the body, whose case labels are blocks
            cond = self.f(n, "condition")
            body = self.f(n, "body")
            inner = [c for c in cond.named_children if c.type != "comment"] if cond is not None else []
            return Node("switch", loc, a=self.expr(inner[0]) if inner else Node("unknown", loc, text="switch"),
                        body=[self.stmt(body)] if body is not None else [])
        if k == "case_statement":
            value = self.f(n, "value")
            return Node("block", loc, body=[s for s in (self.stmt(c) for c in n.named_children
                                                         if c != value) if s is not None], val="decls",
                        a=self.expr(value) if value is not None else None, ref="case" if value is not None else "default")
        if k in ("preproc_if", "preproc_ifdef", "preproc_else"):
            return Node("block", loc, body=[s for s in (self.stmt(c) for c in n.named_children
                                                         if c.type not in ("identifier", "preproc_defined"))
                                            if s is not None])
        if k == "ERROR":
            self.problems.append((loc, "syntax the fallback parser could not read"))
            return None
        return Node("unknown", loc, text=k)  # the model builder reports it if it runs

    def decl(self, n) -> Node:
        name, shared, volatile = self.base_type(n)
        out = []
        for d in n.children_by_field_name("declarator"):
            init = None
            if d.type == "init_declarator":
                init = self.f(d, "value")
            var, ti = self.typeinfo(name, d)
            ti.volatile = volatile
            ext = "extern" in self.t(n).split(var)[0]
            if ti.dims and isinstance(ti.dims[0], int):
                self.arrays[var] = ti.dims[0]
            out.append(Node("decl", self.loc(n), name=var, ty=ti, a=self.expr(init) if init is not None else None,
                            shared=shared, extern=ext))
        if len(out) == 1:
            return out[0]
        return Node("block", self.loc(n), body=out, val="decls")

    def range_for(self, n, loc) -> Node:
        """``for (decl : array)`` over a local array of known length, lowered as the libclang front end does (a
        counted loop whose body first binds the element); over anything else it stays unsupported."""
        right, decl, body = self.f(n, "right"), self.f(n, "declarator"), self.f(n, "body")
        length = self.arrays.get(self.t(right)) if right is not None and right.type == "identifier" else None
        if length is None or decl is None or body is None:
            return Node("unknown", loc, text="for_range_loop")
        ty = self.f(n, "type")
        var, ti = self.typeinfo(self.t(ty).strip() if ty is not None else "int", decl)
        elem = Node("decl", loc, name=var, ty=ti, a=Node("index", loc, a=self.expr(right), b=range_index(loc)))
        return range_loop(loc, length, elem, self.stmt(body))

    def asm(self, n, loc) -> Node:
        strings = [self.t(c)[1:-1] for c in n.named_children if c.type in ("string_literal", "concatenated_string")]
        text = "".join(strings[:1]).replace("\\n", "\n").replace("\\t", "\t")
        outs, ins, written = [], [], ()
        for c in n.named_children:
            if c.type == "gnu_asm_output_operand_list":
                ops = [x for x in c.named_children if x.child_by_field_name("value") is not None]
                outs = [self.expr(x.child_by_field_name("value")) for x in ops]
                written = tuple(self.t(x.child_by_field_name("constraint") or x)[1:].startswith("=") for x in ops)
            if c.type == "gnu_asm_input_operand_list":
                ins = [self.expr(x.child_by_field_name("value")) for x in c.named_children
                       if x.child_by_field_name("value") is not None]
        return Node("asm", loc, text=text, outs=outs, ins=ins, val=written)


def _functions(conv: _Conv, root, unit: Unit):
    for n in root.named_children:
        tparams = []
        node = n
        if n.type == "template_declaration":
            plist = next((c for c in n.named_children if c.type == "template_parameter_list"), None)
            for p in (plist.named_children if plist is not None else []):
                d = p.child_by_field_name("declarator") or p.child_by_field_name("name")
                nm = conv.t(d) if d is not None else conv.t(p).split()[-1]
                tparams.append((nm, "type" if p.type.startswith("type_parameter") else "value"))
            node = next((c for c in n.named_children if c.type in ("function_definition", "declaration")), None)
            if node is None:
                continue
        if node.type in ("namespace_definition", "linkage_specification"):
            body = node.child_by_field_name("body")
            if body is not None and body.type in ("function_definition", "declaration"):
                node = body  # extern "C" __global__ void k(...) { ... }
            elif body is not None:
                _functions(conv, body, unit)
                continue
            else:
                continue
        if node.type == "declaration" and "__shared__" in conv.t(node).split("=")[0]:
            d = conv.decl(node)
            for x in (d.body if d.kind == "block" else [d]):
                unit.globals[x.name] = x
            continue
        if node.type != "function_definition":
            continue
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        if decl is None:
            continue
        fname = conv.t(decl.child_by_field_name("declarator")).split("::")[-1]
        head = conv.src[node.start_byte:decl.start_byte].decode(errors="replace")
        kernel = "__global__" in head
        lb = None
        m = re.search(r"__launch_bounds__\s*\(\s*([^,)]+)", head)
        if m:
            lb = m.group(1).strip()
        conv.tparams = {t for t, _ in tparams}
        params = []
        plist = decl.child_by_field_name("parameters")
        for p in (plist.named_children if plist is not None else []):
            if p.type != "parameter_declaration":
                continue
            tyname, _, _ = conv.base_type(p)
            d = p.child_by_field_name("declarator")
            if d is None:
                continue
            var, ti = conv.typeinfo(tyname, d)
            if tyname.replace("const", "").strip() in conv.tparams:
                ti.integral = True
            params.append((var, ti))
        body = node.child_by_field_name("body")
        f = Func(name=fname, params=params, body=conv.stmt(body) if body is not None else None, kernel=kernel,
                 loc=conv.loc(node), tparams=tparams, launch_bounds=lb)
        unit.funcs.setdefault(fname, []).append(f)


# a `#define` whose body is only blanks, continued or not (a launch the front end blanked inside a macro):
# tree-sitter reads the next line that holds text (the declaration after it) as the macro's body
_EMPTY_MACRO_BODY = re.compile(rb"^([ \t]*#[ \t]*define[ \t]+\w+(?:\([^)\n]*\))?)[ \t]*(?:\\\r?\n[ \t]*)*$", re.M)


def _readable(src: bytes) -> bytes:
    """``src`` as tree-sitter should read it, offsets and lines kept: a macro with a blank body ends at its name (or
    parameters), its blanks moved before its ``#``."""
    def end(m):
        breaks = m.group().count(b"\n")
        return b" " * (len(m.group()) - len(m.group(1)) - breaks) + m.group(1) + b"\n" * breaks
    return _EMPTY_MACRO_BODY.sub(end, src)


def parse(path: Path, source: str, *, defines: dict | None = None) -> Unit:
    source = active_lines(source, defines)  # tree-sitter sees every #if branch; keep only the active ones
    src = source.encode()
    tree = _parser().parse(_readable(src))
    macros: dict = {}
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]+?)[ \t]*(?://[^\n]*)?$", source, re.M):
        macros.setdefault(m.group(1), m.group(2))
    for k, v in (defines or {}).items():
        macros[k] = v if v is not None else 1
    conv = _Conv(str(path), src, macros)
    unit = Unit(path=str(path), source=source, funcs={}, frontend="tree-sitter")
    _functions(conv, tree.root_node, unit)
    unit.problems = conv.problems
    return unit



_CONTAINERS = {"translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "namespace_definition",
               "linkage_specification", "declaration_list"}
_DECLARATIONS = {"function_definition", "template_declaration", "declaration", "class_specifier", "struct_specifier",
                 "union_specifier", "enum_specifier", "type_definition", "alias_declaration", "expression_statement",
                 "template_instantiation", "using_declaration", "namespace_alias_definition"}
_DEVICE_WORDS = re.compile(rb"\b__(?:device|global|constant|shared|managed)__\b")


def _is_static(field) -> bool:
    return any(c.type == "storage_class_specifier" and c.text == b"static" for c in field.children)


def host_declarations(source: str, device_macros=()) -> list[tuple[int, int]]:
    """(start, end) byte offsets of each top-level host declaration of ``source`` (through namespaces, linkage
    blocks and conditional groups): a definition or declaration with no CUDA device qualifier in its text (nor a
    name of ``device_macros``, the macros the unit defines as one: ``HOST_DEVICE_INLINE``). clang's
    error recovery can cut a declaration that does not parse into pieces; tree-sitter gives its whole extent, so
    the front end can blank it at once (see ``clang_front._patch_headers``). In a class that has device members,
    each member function with no device qualifier is one such declaration (a RAII wrapper's constructor calling
    the host runtime beside the ``__host__ __device__`` accessors kernels use). So is each member function, friend
    and static data member of a host class, listed after the class: the caller blanks the innermost declaration
    that holds an error."""
    src = source.encode()
    out = []
    device, parsed = _DEVICE_WORDS, _readable(src)
    if device_macros:  # (read as blanks: `HOST_DEVICE Shape(...) : a_(a) {}` is then a constructor to tree-sitter)
        names = re.compile(rb"\b(?:" + b"|".join(re.escape(m.encode()) for m in sorted(device_macros)) + rb")\b")
        device = re.compile(_DEVICE_WORDS.pattern + b"|" + names.pattern)
        parsed = names.sub(lambda m: b" " * len(m.group(0)), parsed)

    def is_device(n) -> bool:  # (from its line's start: a blanked macro before the node is read too)
        return bool(device.search(src[src.rfind(b"\n", 0, n.start_byte) + 1:n.end_byte]))

    def walk(n):
        for c in n.children:
            body = c.child_by_field_name("body") if c.type == "linkage_specification" else None
            if c.type in _CONTAINERS and (body is None or body.type == "declaration_list"):
                walk(c)
            elif (c.type in _DECLARATIONS or body is not None) and not is_device(c):
                end = c.end_byte
                nxt = c.next_sibling  # `class X {...};`: the semicolon is the next node
                if nxt is not None and nxt.type == ";":
                    end = nxt.end_byte
                out.append((c.start_byte, end))
                if c.type in _DECLARATIONS:  # a host class's members too: kernels may use its data (a base class
                    members(c, 0)             # whose `operator new` calls the runtime)
            elif c.type in _DECLARATIONS:
                members(c, 0)

    def members(n, depth):
        """The host member functions of the class ``n`` is or defines (a template's, a typedef's)."""
        if depth > 3:
            return
        if n.type in ("class_specifier", "struct_specifier"):
            fields = n.child_by_field_name("body")
            for m in fields.children if fields is not None else ():
                if m.type in ("function_definition", "template_declaration", "friend_declaration") or \
                        m.type == "field_declaration" and _is_static(m):  # (a static member: no layout)
                    if not is_device(m):
                        out.append((m.start_byte, m.end_byte))
            return
        for c in n.children:
            if c.type in ("class_specifier", "struct_specifier", "template_declaration", "declaration",
                          "type_definition"):
                members(c, depth + 1)

    walk(_parser().parse(parsed).root_node)
    return out
