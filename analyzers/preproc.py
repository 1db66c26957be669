"""Conditional compilation for the syntax-only front end: blank the lines of inactive ``#if``/``#ifdef`` branches.

libclang runs the real preprocessor; tree-sitter sees every branch, so code under ``#if 0`` or an undefined
``#ifdef`` would be analyzed as if it ran. Conditions are evaluated with kopt's expression language in C mode over
the file's own ``#define``s and the ``-D`` values. A name neither defines is undefined (0, as in C), except
nvcc's own (``CUDART_VERSION``...), ``__CUDA_ARCH__``, which is the device pass's architecture, and the switches
that turn a project's CUDA build on (``GPU_BUILD_SWITCHES``), which are 1. A condition that still cannot be
evaluated (a function-like macro, say) keeps its first branch. Blanked lines stay as empty lines so line numbers do
not move.
"""
from __future__ import annotations

import re

from kopt.expr import try_evaluate

CUDA_ARCH = 900  # the device architecture libclang parses for (--cuda-gpu-arch=sm_90)
# what nvcc defines in every pass (its compiler and runtime versions: CUDA 13.0, as cuda_decls.h states them too)
NVCC = {"__CUDACC__": 1, "__NVCC__": 1, "CUDART_VERSION": 13000, "CUDA_VERSION": 13000, "__CUDACC_VER_MAJOR__": 13,
        "__CUDACC_VER_MINOR__": 0}
# the switches projects turn their CUDA build on with (`#if HAVE_CUDA`, `#ifdef WITH_CUDA`): kopt reads the CUDA
# build, so each is 1 unless a -D value (given, or read from the build files) says otherwise; HIP switches are not
# among them (a project's HIP branch may be written for AMD's 64-lane wavefronts)
GPU_BUILD_SWITCHES = ("HAVE_CUDA", "WITH_CUDA", "USE_CUDA", "ENABLE_CUDA", "GOOGLE_CUDA", "HAVE_GPU", "WITH_GPU",
                      "USE_GPU", "ENABLE_GPU")
# the same by shape, for a configure template's switches (`GMX_GPU_CUDA`, `PROJ_GPU`): the CUDA build's own are on,
# another GPU backend's (`GMX_GPU_HIP`, `USE_SYCL`) off, whatever the project's default
# (`USE_CUDA`, `PROJ_GPU_CUDA`, `SUNDIALS_CUDA_ENABLED`, `CUDA_FOUND`)
_CUDA_SWITCH = re.compile(r"^(?!(?:\w+_)?(?:NO|DISABLE|WITHOUT)_)(?:\w+_)?(?:CUDA|GPU)(?:_CUDA)?(?:_ENABLED?|_FOUND)?$",
                          re.I)
_OTHER_GPU = re.compile(r"(?:^|_)(?:HIP|ROCM|SYCL|OPENCL|OCL|METAL|VULKAN|ONEAPI|DPCPP|ACPP|HIPSYCL)"
                        r"(?:_ENABLED?|_FOUND)?$", re.I)


def gpu_switch(name: str) -> bool | None:
    """Whether the CUDA build has the switch ``name`` on (True), off (another GPU backend's: False), or neither
    (None: the project's own value decides)."""
    return True if _CUDA_SWITCH.match(name) else False if _OTHER_GPU.search(name) else None
# a -D name that makes ``#if 0`` branches active: host_launch reads the launches code left out that way (a kernel's
# earlier launch kept under `#if 0`) when the build launches the kernel nowhere
READ_IF_0 = "__kopt_read_if_0__"
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define|undef)\b(.*)$")
_DEFINED = re.compile(r"\bdefined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))")
_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
# the head of a function definition on one line: `__device__ inline void updatestokes(Stokes* s, ...) {`
_FUNCTION_HEAD = re.compile(r"^[ \t]*(?!(?:return|else|case|if|while|for|switch|do|goto|throw|delete|new)\b)"
                            r"(?:[A-Za-z_][\w:<>,]*[ \t*&]+)+([A-Za-z_]\w*)[ \t]*\([^;]*$")
# a type a line declares (`typedef double Real;`, `using Real = double;`)
_TYPE_DECLARATION = re.compile(r"^[ \t]*(?:typedef\b[^;{}()]*?\b([A-Za-z_]\w*)[ \t]*;|using[ \t]+([A-Za-z_]\w*)[ \t]*=)")
_COMPARED = re.compile(r"\(?\s*([A-Za-z_]\w*)\s*==\s*(\w+)\s*\)?")  # `#if PRECISION == 2`
_INCLUDE_LINE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]')
IF_0_LINE = re.compile(r"^[ \t]*#[ \t]*if[ \t]+0\b", re.M)  # a text that holds an `#if 0` branch
_IF_0 = re.compile(r"0\s*(?://.*|/\*.*)?$")  # the condition of one


def _condition(text: str, macros: dict) -> bool | None:
    """True/False, or None when the condition cannot be decided."""
    text = re.sub(r"//.*|/\*.*?\*/", " ", text).strip()
    text = _DEFINED.sub(lambda m: "1" if (m.group(1) or m.group(2)) in macros else "0", text)
    # macro values stay text: kopt.expr follows a name bound to text through further names
    env = {k: (str(v) if v not in (None, "") else "1") for k, v in macros.items()}
    for name in _NAME.findall(text):
        env.setdefault(name, 0)  # an undefined name is 0 in a preprocessor condition
    got = try_evaluate(text, env, c=True)
    return None if got is None else bool(got)


def active_lines(source: str, defines: dict | None = None, device: bool = True) -> str:
    """``source`` with the lines of inactive conditional branches (and their directives) blanked, as the device pass
    sees it (``device=False``: the host pass, where ``__CUDA_ARCH__`` is undefined)."""
    macros: dict = {**NVCC, **({"__CUDA_ARCH__": CUDA_ARCH} if device else {}), **dict.fromkeys(GPU_BUILD_SWITCHES, 1)}
    for k, v in (defines or {}).items():
        macros[k] = v
    out = []
    # one frame per open #if: (parent active, this branch active, some branch already taken)
    stack: list[tuple[bool, bool, bool]] = []
    active = True
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        # a directive continued with backslashes is one logical line
        logical, n = line, 1
        while logical.endswith("\\") and i + n < len(lines):
            logical = logical[:-1] + " " + lines[i + n]
            n += 1
        m = _DIRECTIVE.match(logical)
        word, rest = (m.group(1), m.group(2).strip()) if m else ("", "")
        keep = active
        if word in ("if", "ifdef", "ifndef"):
            if word == "if":
                cond = _condition(rest, macros)
                cond = True if cond is None or (READ_IF_0 in macros and _IF_0.match(rest)) else cond
            else:
                name = rest.split()[0] if rest.split() else ""
                cond = (name in macros) == (word == "ifdef")
            stack.append((active, active and cond, cond))
            active = active and cond
            keep = False
        elif word == "elif" and stack:
            parent, _, taken = stack[-1]
            cond = not taken and (_condition(rest, macros) is True)
            stack[-1] = (parent, parent and cond, taken or cond)
            active = parent and cond
            keep = False
        elif word == "else" and stack:
            parent, _, taken = stack[-1]
            stack[-1] = (parent, parent and not taken, True)
            active = parent and not taken
            keep = False
        elif word == "endif" and stack:
            active = stack.pop()[0]
            keep = False
        elif word == "define" and active:
            dm = re.match(r"([A-Za-z_]\w*)(\()?\s*(.*)", rest)
            if dm and not dm.group(2):
                macros[dm.group(1)] = re.sub(r"//.*|/\*.*?\*/", "", dm.group(3)).strip() or None
            elif dm:
                macros[dm.group(1)] = None  # function-like: defined, no value
        elif word == "undef" and active:
            macros.pop(rest.split()[0] if rest.split() else "", None)
        for j in range(n):
            out.append(lines[i + j] if keep else "")
        i += n
    return "\n".join(out)


def _switched_lines(source: str):
    """(line, its directive match or None, the tests the branches holding it need) for each line of ``source``: for
    each open ``#ifdef X`` (``#if defined(X)``) whose first branch holds the line, ``X: None``; for each open ``#if X
    == V``, ``X: (V, the test's line number)``."""
    stack: list = []  # per open conditional: (switch, its test or None) for its current branch, or None
    for number, line in enumerate(source.split("\n"), 1):
        m = _DIRECTIVE.match(line)
        if m is not None:
            word, rest = m.group(1), m.group(2).split("//")[0].strip()
            if word in ("ifdef", "if", "ifndef"):
                d = _DEFINED.fullmatch(rest) if word == "if" else None
                c = _COMPARED.fullmatch(rest) if word == "if" else None
                stack.append((rest.split()[0], None) if word == "ifdef" and rest else
                             ((d.group(1) or d.group(2)), None) if d else
                             (c.group(1), (c.group(2), number)) if c else None)
                continue
            if word in ("elif", "else") and stack:
                stack[-1] = None
                continue
            if word == "endif" and stack:
                stack.pop()
                continue
        yield line, m, dict(x for x in stack if x)


def switches_defining(source: str, names: set) -> dict:
    """switch -> its test for the macros whose ``#ifdef X`` (``#if defined(X)``) branch in ``source`` defines or
    declares one of ``names`` (the build switches that would declare them: ``#ifdef NDG3d`` ... ``#define p_Nfields
    6``; ``#ifdef SAVE_DETECTORS`` ... ``__device__ void updatestokes(...) {``): None; and for those an ``#if X == V``
    branch of which does (``#if PRECISION == 1`` ... ``typedef float Real;``): (V, the test's line), the first such."""
    out: dict = {}
    for line, m, switches in _switched_lines(source):
        if not switches:
            continue
        if m is None:
            f, t = _FUNCTION_HEAD.match(line), _TYPE_DECLARATION.match(line)
            hit = (f is not None and f.group(1) in names) or (t is not None and (t.group(1) or t.group(2)) in names)
        else:
            hit = m.group(1) == "define" and (n := _NAME.match(m.group(2).strip())) is not None and n.group(0) in names
        if hit:
            for name, test in switches.items():
                out.setdefault(name, test)
    return out


def switched_includes(source: str) -> list[tuple[str, str]]:
    """(switch, header) for each ``#include "header"`` (or ``<header>``) in the ``#ifdef X`` branch of a switch
    ``X`` in ``source`` (``#ifdef CUDA`` / ``#include "GPUImplDefs.h"``)."""
    out = []
    for line, _, switches in _switched_lines(source):
        inc = _INCLUDE_LINE.match(line) if switches and "include" in line else None
        if inc:
            out += [(x, inc.group(1)) for x in sorted(switches)]
    return out
