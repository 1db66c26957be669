"""Which of a loop's carried names hold the same value in every thread of a block at each iteration.

``for (j = 0; j < n; j += len) { if (j + len > n) len = n - j; ... __syncthreads(); }`` carries ``j`` and ``len``
from one iteration to the next; neither is an induction variable, so the model reads each as an unknown. When every
assignment to such a name computes its value from block-uniform values only (parameters, ``blockDim``, constants,
other such names) under block-uniform conditions, the unknown is the same in every thread that runs that iteration:
the loop's trip count is uniform and a barrier in it is reached by all threads or none. The test is syntactic and
conservative: a memory read (even at a uniform address: a warp that reads a shared counter while other warps still
add to it sees another value), a call other than plain arithmetic, an address taken or a thread-dependent exit
makes a name non-uniform. A read at a uniform index of memory the kernel cannot write (a `const T *` parameter: a
table of expert bounds) is the one exception."""
from __future__ import annotations

import re
from typing import Callable

from .ast import Node, short_name
from .calls import CUB_SCANS

# calls whose result is a function of their arguments only
_ARITHMETIC_CALL = re.compile(r"(?:std::)?(?:u?l{0,2}(?:min|max)|f?abs|l{1,2}abs|f(?:min|max)f?|floorf?|ceilf?|"
                              r"sqrtf?|rsqrtf?|log2f?|__clzl{0,2}|__popcl{0,2}|__ffsl{0,2}|__u?mul24|__u?mulhi|"
                              r"__brevl{0,2})$")
_BLOCK_VOTE = re.compile(r"__syncthreads_(?:count|and|or)$")  # a barrier's block-wide result: the same in every thread
_UNIFORM_BUILTINS = ("blockIdx", "blockDim", "gridDim")
_EXIT = " exit"  # pseudo-name: the conditions under which the body leaves an iteration early


def uniform_helper(func, funcs: dict, depth: int = 0) -> bool:
    """Whether the device function ``func`` (a Func) computes only what its arguments decide, alike in every thread
    that passes the same values: no thread index, no memory read but a member of a pointer parameter (the caller's
    struct it advances, `p->current = p->current + gridDim.x`), no atomic, vote, shuffle or barrier, and calls only
    to arithmetic or to such functions. Its result and what it writes through its parameters are then block-uniform
    when its arguments are (a work partitioner's `gpu_next(&p)`)."""
    params = {name for name, _ in func.params}

    def plain(n) -> bool:
        if isinstance(n, list):
            return all(plain(x) for x in n)
        if not isinstance(n, Node):
            return True
        k = n.kind
        if k in ("unknown", "asm", "index", "stmtexpr") or k == "un" and n.op == "*" or \
                k == "name" and (n.name == "threadIdx" or n.ref == "global") or \
                k == "decl" and (n.shared or n.extern):
            return False
        if k == "member" and n.op == "->" and not (n.a is not None and n.a.kind == "name" and n.a.name in params):
            return False
        if k == "call":
            short = short_name(n) or ""
            inner = funcs.get(short)
            if n.a is not None or not (_ARITHMETIC_CALL.match(short) or inner and depth < 3 and
                                       all(uniform_helper(f, funcs, depth + 1) for f in inner)):
                return False
        return all(plain(ch) for ch in (n.a, n.b, n.c, n.init, n.args, n.body))

    return func.body is not None and not func.kernel and plain(func.body)


def uniform_carried(nodes: list, entry_uniform: Callable[[str], bool], calls: dict, increment=None,
                    uniform_call: Callable[[str], bool] = lambda name: False,
                    read_only: Callable[[str], bool] = lambda name: False,
                    shared: Callable[[str], bool] = lambda name: False) -> set:
    """The names assigned in ``nodes`` (a loop's body) and ``increment`` (a ``for`` loop's, which a ``continue``
    runs too) that are block-uniform at every iteration. ``entry_uniform(name)``: whether a name's value before the
    loop is the same in every thread of a block (False for names it does not know to be); ``calls``: the unit's own
    functions, name -> its overloads (which may write through a reference parameter); ``uniform_call(name)``:
    whether such a function is a ``uniform_helper``, whose result is uniform when its arguments are (a local struct
    passed by address counts as uniform when it is at the loop's entry and the loop changes it only through such
    helpers); ``read_only(name)``: whether a name points to memory the kernel cannot write (read at a uniform
    index, alike in every thread); ``shared(name)``: whether a name is a block's shared array, read at a uniform
    index alike in every thread where no statement between the same two barriers of the body writes it
    (``_quiet_reads``: an NMS loop scanning the flags the previous phase set)."""
    quiet = _quiet_reads(nodes, shared)
    sites: dict[str, list] = {}  # name -> [(value node or None, [conditions])]
    declared, spoiled = set(), set()
    changed_structs = set()  # local structs the loop changes other than through a uniform helper
    skips: list = []  # (conditions, how many sites were recorded before it) of each `continue`
    later: dict[str, int] = {}  # name -> how many sites were recorded before its last assignment in the body
    count = [0]

    order: list = []  # (name, index in sites[name]) of each site, in the order walked
    exits: list = []  # per nested loop being walked: the conditions of its own `break`s and `continue`s

    def site(name, val, conds):
        sites.setdefault(name, []).append((val, conds))
        order.append((name, len(sites[name]) - 1))
        count[0] += 1
        later[name] = count[0]

    def walk(n, conds, inner=""):
        """``inner``: "loop" inside a loop nested in the body (its `break` and `continue` are its own), "switch"
        inside a nested switch (its `break` is its own; a `continue` there is the loop's)."""
        if isinstance(n, list):
            for x in n:
                walk(x, conds, inner)
            return
        if not isinstance(n, Node):
            return
        k = n.kind
        if k == "continue" and inner != "loop":  # the iteration's later assignments are skipped, not the loop's
            skips.append((conds, count[0]))  # test or increment
        elif k in ("return", "goto") or k == "break" and not inner:
            sites.setdefault(_EXIT, []).append((None, conds))
        elif k in ("break", "continue"):  # leaves the nested construct: what it assigns is uniform only if every
            exits[-1].extend(conds)  # thread leaves alike
        elif k in ("unknown", "asm"):
            sites.setdefault(_EXIT, []).append((n, conds))  # anything may happen: never uniform
        elif k == "decl":
            declared.add(n.name)
            site(n.name, n.a, conds)
        elif k == "assign" and n.a is not None and n.a.kind == "name":
            site(n.a.name, n.b, conds)
        elif k == "un" and n.op in ("pre++", "pre--", "post++", "post--") and n.a is not None and n.a.kind == "name":
            site(n.a.name, None, conds)
        elif k == "un" and n.op == "&" and n.a is not None and n.a.kind == "name":
            spoiled.add(n.a.name)
        elif k == "call" and short_name(n) in calls:
            spoiled.update(x.name for i, x in enumerate(n.args) if isinstance(x, Node) and x.kind == "name" and
                           _by_reference(calls[short_name(n)], i, len(n.args)))
            if not uniform_call(short_name(n)):
                changed_structs.update(x.a.name for x in n.args if _address_of_name(x))
        elif k == "call" and n.a is not None and (n.name or "").startswith("cub::"):
            # a CUB collective writes its outputs through references: a block scan's aggregate (its last argument
            # when given) is the block's, the same in every thread; its other outputs are the thread's own
            short = short_name(n)
            aggregate = len(n.args) - 1 if "::Block" in n.name and CUB_SCANS.get(short) == len(n.args) else None
            for i, x in enumerate(n.args[1:], 1):
                if isinstance(x, Node) and x.kind == "name":
                    if i == aggregate:
                        site(x.name, None, conds)
                    else:
                        spoiled.add(x.name)
        if k == "call" and short_name(n) not in calls:  # anything else handed a struct's address may change it
            changed_structs.update(x.a.name for x in n.args if _address_of_name(x))
        if k == "assign" and n.a is not None and n.a.kind == "member" and n.a.a is not None and n.a.a.kind == "name":
            changed_structs.add(n.a.a.name)
        if k == "if":
            walk(n.a, conds, inner)
            walk(n.b, conds + [n.a], inner)
            walk(n.c, conds + [n.a], inner)
        elif k in ("for", "while", "do", "switch"):
            walk(n.init, conds, inner)
            within = conds + ([n.a] if n.a is not None else [])
            nested = "loop" if k != "switch" or inner == "loop" else "switch"
            first = len(order)
            exits.append([])
            walk(n.a, within, nested)
            walk(n.b, within, nested)
            walk(n.body, within, nested)
            left = exits.pop()
            if left:
                for nm, i in order[first:]:
                    val, cs = sites[nm][i]
                    sites[nm][i] = (val, cs + left)
                if exits:  # (and the enclosing nested construct's, conservatively)
                    exits[-1].extend(left)
        elif k in ("cond", "bin") and (k == "cond" or n.op in ("&&", "||")):
            walk(n.a, conds, inner)
            walk([n.b, n.c], conds + [n.a], inner)
        else:
            for ch in (n.a, n.b, n.c, n.init):
                walk(ch, conds, inner)
            for lst in (n.args, n.body):
                walk(lst, conds, inner)

    walk(nodes, [])
    in_body = dict(later)
    walk([increment] if increment is not None else [], [])
    names = {nm for nm in sites if nm != _EXIT} - spoiled
    uniform = {nm for nm in names if nm in declared or entry_uniform(nm)}

    def value(e) -> bool:
        if e is None or not isinstance(e, (Node, list)):
            return True
        if isinstance(e, list):
            return all(value(x) for x in e)
        k = e.kind
        if k in ("lit", "sizeof"):
            return True
        if k == "name":
            if e.name in sites or e.name in spoiled:
                return e.name in uniform
            return entry_uniform(e.name)
        if k == "member":
            return e.a is not None and e.a.kind == "name" and e.a.name in _UNIFORM_BUILTINS and e.a.name not in sites
        if k == "call":
            if e.a is None and _BLOCK_VOTE.match(short_name(e) or ""):
                return True
            if e.a is None and short_name(e) in calls and uniform_call(short_name(e)):
                return all(x.a.name not in changed_structs and x.a.name not in sites and entry_uniform(x.a.name)
                           if _address_of_name(x) else value(x) for x in e.args)
            return e.a is None and bool(_ARITHMETIC_CALL.match(short_name(e) or "")) and value(e.args)
        if k in ("bin", "cond", "cast"):
            return value(e.a) and value(e.b) and value(e.c)
        if k == "un":
            return e.op not in ("*", "&") and value(e.a)
        if k == "index" and e.a is not None and e.a.kind == "name" and e.a.name not in sites and \
                e.a.name not in spoiled and (read_only(e.a.name) or id(e) in quiet):
            return value(e.b)
        return False  # memory reads, initializer lists, assignments used as values, anything unknown

    def holds(site) -> bool:
        val, conds = site
        return (val is None or value(val)) and all(value(c) for c in conds)

    def skipped(nm) -> bool:  # assigned after a `continue` that some threads may take and others not
        return any(in_body.get(nm, 0) > at and not all(value(c) for c in conds) for conds, at in skips)

    changed = True
    while changed:
        changed = False
        for nm in sorted(uniform):
            if not all(holds(s) for s in sites[nm]) or skipped(nm):
                uniform.discard(nm)
                changed = True
    if not all(holds(s) for s in sites.get(_EXIT, ())):
        return set()
    return uniform


def _quiet_reads(body: list, shared: Callable[[str], bool]) -> set:
    """The ids of the reads ``a[i]`` of shared arrays in ``body`` (a loop's statements) that no other thread can be
    writing: the body's top-level ``__syncthreads()`` cut it into phases, the last joined to the first of the next
    iteration; a read in a phase after the first whose joined phases never write the array (an assignment,
    increment or address of an element, or the array handed to a call) sees what every thread sees."""
    while len(body) == 1 and isinstance(body[0], Node) and body[0].kind == "block":
        body = list(body[0].body)
    phases, phase = [], 0
    for st in body:
        call = st.a if isinstance(st, Node) and st.kind == "expr" else st
        if isinstance(call, Node) and call.kind == "call" and not call.args and short_name(call) == "__syncthreads":
            phase += 1
        phases.append(phase)
    if not phase:
        return set()
    written: dict[str, set] = {}  # array -> phases that write it
    reads: list = []  # (phase, index node): every element read or written (a written one's phase writes it)
    for st, ph in zip(body, phases):
        for name in written_names(st):
            if shared(name):
                written.setdefault(name, set()).add(ph)
        reads += [(ph, n) for n in _indexes(st) if shared(n.a.name)]
    last = phase

    def joined(ph):
        return {0, last} if ph in (0, last) else {ph}

    return {id(n) for ph, n in reads if ph > 0 and not written.get(n.a.name, set()) & joined(ph)}


def written_names(n) -> set:
    """The names ``n`` may write through or hand on: the base of an element stored to, incremented or whose address
    is taken (``a[i] = x``, ``a[i][j]++``, ``&a[i].f``), and any name used other than as an element's base (``f(a)``,
    ``p = a``, ``*a``). What is left of a pointer or array only ever has its elements read."""
    out: set = set()

    def walk(n, target=False):
        if isinstance(n, list):
            for x in n:
                walk(x)
            return
        if not isinstance(n, Node):
            return
        if n.kind == "name":
            out.add(n.name)
            return
        if n.kind == "index" and n.a is not None and n.a.kind == "name":
            if target:
                out.add(n.a.name)
            walk(n.b)
            return
        if n.kind == "assign" or n.kind == "un" and n.op in ("pre++", "pre--", "post++", "post--", "&"):
            walk(n.a, target=True)
            walk(n.b)
            return
        for ch in (n.a, n.b, n.c, n.init):
            walk(ch, target and n.kind in ("member", "cast", "index"))
        for lst in (n.args, n.body):
            walk(lst)

    walk(n)
    return out


def _indexes(n) -> list:
    """The element accesses ``a[i]`` of a named array in ``n``."""
    out, todo = [], [n]
    while todo:
        x = todo.pop()
        if isinstance(x, list):
            todo += x
        elif isinstance(x, Node):
            if x.kind == "index" and x.a is not None and x.a.kind == "name":
                out.append(x)
            todo += [x.a, x.b, x.c, x.init, x.args, x.body]
    return out


def _by_reference(overloads, i: int, nargs: int) -> bool:
    """Whether a call's argument ``i`` (of ``nargs``) may be bound to a reference parameter of one of the function's
    overloads (any overload kopt cannot match by its count of parameters counts)."""
    fits = [f for f in overloads if len(f.params) == nargs]
    return not fits or any(f.params[i][1].ref for f in fits)


def _address_of_name(x) -> bool:
    return isinstance(x, Node) and x.kind == "un" and x.op == "&" and x.a is not None and x.a.kind == "name"
