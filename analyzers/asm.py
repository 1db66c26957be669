"""Inline PTX the model understands: barriers (bar.sync / named barriers), shared/global loads and stores,
ldmatrix/stmatrix, cp.async groups, TMA (cp.async.bulk), wgmma, fence.proxy.async and mbarrier operations."""
from __future__ import annotations

import re

from . import sym
from .model import Ptr
from .sym import ZERO, const
from .values import Mem

_INSN = re.compile(r"[^;]+")
_OPERAND = re.compile(r"%(\d+)")
_WIDTH = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2, "b32": 4, "u32": 4, "s32": 4, "f32": 4,
          "b64": 8, "u64": 8, "s64": 8, "f64": 8, "b128": 16}


ELECT = re.compile(r"\belect\.sync\s+%%?\w+\s*\|\s*%%?\w+\s*,\s*[^;]*;\s*@%%?\w+\s+mov\.[ubs]32\s+%0\s*,\s*1\s*;")
LANE_ID = re.compile(r"\s*mov\.[ubs]32\s+%0\s*,\s*%%?laneid\s*;?\s*$")  # reads the special register %laneid
_MATH = re.compile(r"(?:ex2|lg2|rcp|sqrt|rsqrt|sin|cos|tanh)\.")


def math_only(text: str) -> bool:
    """Whether inline PTX is one math instruction on its operands (`ex2.approx.ftz.f32 %0, %1;`, `lg2`, `rcp`,
    `rsqrt`, `tanh`...): its output is a function of its input, so two threads passing the same operand get the same
    result. Bit manipulation (`shf`, `prmt`, `lop3`, `mov.b64` packing) stays an unknown: hash rounds chain hundreds of
    them, and terms that large made every query about the guards they reach run out of budget."""
    insns = [i.strip() for i in re.sub(r"//[^\n]*", "", text).split(";") if i.strip()]
    return len(insns) == 1 and "%%" not in insns[0] and _MATH.match(insns[0]) is not None


def _width(insn: str) -> int:
    w = 4
    for part in insn.split()[0].split("."):
        if part in _WIDTH:
            w = _WIDTH[part]
    vec = re.search(r"\.v(\d)\b", insn)
    return w * (int(vec.group(1)) if vec else 1)


def _brackets(insn: str) -> list[str]:
    return re.findall(r"\[([^\]]*)\]", insn)


def handle(b, n, ops: list):
    def operand(text: str):
        m = _OPERAND.search(text or "")
        if not m:
            return None
        i = int(m.group(1))
        v = ops[i] if i < len(ops) else None
        if isinstance(v, Mem):
            v = b.load(v, n)
        return v

    def addr(text: str):
        """Pointer for an address operand like ``%0`` or ``%0+16``."""
        v = operand(text)
        if isinstance(v, Ptr):
            extra = re.search(r"\+\s*(\d+)", text)
            if extra:
                v = Ptr(v.space, v.base, sym.binop("+", v.off, const(int(extra.group(1)))), 1, (), v.subs,
                        v.volatile, True)
            return v
        return None

    def imm(text: str):
        text = text.strip()
        if re.fullmatch(r"-?\d+", text):
            return const(int(text))
        v = operand(text)
        return v if isinstance(v, sym.S) else None

    body = re.sub(r"//[^\n]*", "", n.text)
    for raw in _INSN.findall(body):
        insn = raw.strip().lstrip("{}").strip()
        if not insn or insn.startswith("."):
            continue
        insn = re.sub(r"^[A-Za-z_$%][\w$%=]*:(?!:)\s*", "", insn)  # labels
        insn = re.sub(r"^@!?%?\w+\s+", "", insn)  # predicate guards
        head = insn.split()[0] if insn.split() else ""
        rest = insn[len(head):]
        args = [a.strip() for a in rest.split(",")] if rest.strip() else []
        if head.startswith(("bar.sync", "barrier.sync", "bar.red", "barrier.cta.sync", "barrier.cta.red",
                            "bar.cta.sync")):
            bar_id = imm(args[0]) if args else ZERO
            if len(args) >= 2:
                b.barrier("named", n, checked=False)
            else:
                b.barrier("block" if (bar_id is None or sym.is_const(bar_id) and bar_id.val == 0) else "named", n,
                          checked=bar_id is not None and sym.is_const(bar_id) and bar_id.val == 0)
        elif head.startswith("bar.warp.sync"):
            b.barrier("warp", n)
        elif head.startswith("fence.proxy.async"):
            b.async_op("fence_proxy", n, text=insn)
        elif head.startswith("cp.async.commit_group"):
            b.async_op("commit", n, text=insn)
        elif head.startswith("cp.async.wait_group"):
            b.async_op("wait", n, n=imm(args[0]) if args else ZERO, text=insn)
        elif head.startswith("cp.async.wait_all"):
            b.async_op("wait", n, n=ZERO, text=insn)
        elif head.startswith("cp.async.bulk"):
            br = _brackets(insn)
            if ".global.shared" in head:  # shared -> global: a TMA store reads shared memory
                b.async_op("tma_store", n, ptr=addr(br[-1]) if br else None, text=insn)
            elif "commit_group" in head or "wait_group" in head:
                pass
            elif ".shared" in head:  # global -> shared, completes on an mbarrier
                b.async_op("tma_load", n, ptr=addr(br[0]) if br else None,
                           mbar=addr(br[-1]) if len(br) >= 2 else None, text=insn)
        elif head.startswith("cp.async.") and ".shared" in head:
            br = _brackets(insn)
            size = None
            if len(args) >= 3:
                sz = imm(args[2])
                size = sz.val if sz is not None and sym.is_const(sz) else None
            b.async_op("cp_async", n, ptr=addr(br[0]) if br else None, size=size, text=insn)
        elif head.startswith("wgmma.mma_async"):
            b.async_op("wgmma", n, text=insn)
        elif head.startswith("mbarrier."):
            br = _brackets(insn)
            p = addr(br[0]) if br else None
            if ".init" in head:
                b.async_op("mbar_init", n, mbar=p, text=insn)
            elif "try_wait" in head or "test_wait" in head:
                parity = imm(args[-1]) if ".parity" in head and args else None
                b.async_op("mbar_wait", n, mbar=p, n=parity, text=insn)
            elif "expect_tx" in head and "arrive" not in head:
                b.async_op("mbar_expect", n, mbar=p, text=insn)
            elif "arrive" in head:
                b.async_op("mbar_arrive", n, mbar=p, text=insn)
        elif head.startswith(("ld.shared", "ld.volatile.shared", "ld.global", "ld.volatile.global", "ldmatrix",
                              "ld.relaxed", "ld.acquire")):
            br = _brackets(insn)
            p = _strong(addr(br[0]) if br else None, head)
            if isinstance(p, Ptr):
                size = 16 if head.startswith("ldmatrix") else _width(insn)
                b._rec_access(Mem(p, size), False, n, via="asm")
        elif head.startswith(("st.shared", "st.volatile.shared", "st.global", "stmatrix", "st.relaxed", "st.release")):
            br = _brackets(insn)
            p = _strong(addr(br[0]) if br else None, head)
            if isinstance(p, Ptr):
                size = 16 if head.startswith("stmatrix") else _width(insn)
                b._rec_access(Mem(p, size), True, n, via="asm")
        elif head.startswith(("red.", "atom.")):
            br = _brackets(insn)
            p = addr(br[0]) if br else None
            if isinstance(p, Ptr):
                b._rec_access(Mem(p, _width(insn)), True, n, atomic=True, via="asm")


def _strong(p, head: str):
    """``p`` as a volatile access when the instruction names a memory order (``ld.global.acquire.gpu``,
    ``st.relaxed.sys``, ``ld.volatile``): a strong operation of the PTX memory model, which forms no data race with
    an atomic on its location (a spin barrier's acquire load of the counter a ``red.release`` updates)."""
    if isinstance(p, Ptr) and any(q in head.split(".") for q in ("acquire", "relaxed", "volatile", "release")):
        return Ptr(p.space, p.base, p.off, p.elem, p.dims, p.subs, True, p.intaddr)
    return p
