"""Just-in-time compilation with NVRTC to a cubin for the exact target architecture."""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from . import cache
from .archs import check as check_arch
from .artifact import Artifact, KernelInfo
from .compat import classify
from .device import default_arch
from .diagnostic import Diagnostic, Severity
from .errors import CompileError, InputError, ToolchainError
from .nvrtc_log import Resources, parse_diagnostics, parse_ptxas_resources, parse_res_usage
from .rules import RULES
from .source import read_source
from .toolchain import default_headers, find_tool

_INCLUDE = re.compile(r'^\s*#\s*include\s*(["<])([^">]+)[">]', re.M)
_GLOBAL_FN = re.compile(r"__global__\b[^;{]*?\b([A-Za-z_]\w*)\s*\(")
_LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\s*\([^)]*\)")


@functools.lru_cache(maxsize=None)
def _nvrtc():
    try:
        from cuda.bindings import nvrtc
    except Exception as exc:
        raise ToolchainError(f"NVRTC is not available (install cuda-bindings and nvidia-cuda-nvrtc): {exc}")
    try:
        err, major, minor = nvrtc.nvrtcVersion()
    except Exception as exc:
        raise ToolchainError(f"NVRTC library could not be loaded (install nvidia-cuda-nvrtc): {exc}")
    return nvrtc


@functools.lru_cache(maxsize=None)
def nvrtc_version() -> str:
    _, major, minor = _nvrtc().nvrtcVersion()
    return f"{major}.{minor}"


def global_functions(text: str) -> list[str]:
    """Names of ``__global__`` functions declared in ``text`` (a quick scan; templates included)."""
    return list(dict.fromkeys(_GLOBAL_FN.findall(_LAUNCH_BOUNDS.sub("", text))))


def _local_includes(text: str, base: Path | None, include_dirs: Sequence[str], seen: set[Path]) -> list[tuple[str, str]]:
    """Hashes of the headers reachable from the source in its own folder (quoted includes) and in the user's include
    directories, so an edited header invalidates the cache."""
    out = []
    for quote, inc in _INCLUDE.findall(text):
        for d in ([base] if base and quote == '"' else []) + [Path(p) for p in include_dirs]:
            p = (d / inc).resolve()
            if p in seen or not p.is_file():
                continue
            seen.add(p)
            data = p.read_bytes()
            out.append((str(p), hashlib.sha256(data).hexdigest()))
            out.extend(_local_includes(data.decode(errors="replace"), p.parent, include_dirs, seen))
            break
    return out


def _demangle(names: Iterable[str]) -> dict[str, str]:
    names = [n for n in names if n.startswith("_Z")]
    tool = shutil.which("c++filt") or shutil.which("cu++filt")
    if not names or not tool:
        return {}
    proc = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True)
    if proc.returncode != 0:
        return {}
    return dict(zip(names, proc.stdout.splitlines()))


def _check_log(prog, nvrtc) -> str:
    # Always a fresh mutable buffer: NVRTC writes into it, and a 1-byte ``b" " * 1`` would be CPython's shared
    # singleton.
    _, size = nvrtc.nvrtcGetProgramLogSize(prog)
    buf = bytearray(size)
    nvrtc.nvrtcGetProgramLog(prog, buf)
    return buf.rstrip(b"\x00").decode(errors="replace")


def _res_usage(cubin: bytes) -> dict[str, dict[str, int]]:
    tool = find_tool("cuobjdump")
    if tool is None:
        return {}
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        proc = subprocess.run([tool, "-res-usage", f.name], capture_output=True, text=True)
    return parse_res_usage(proc.stdout) if proc.returncode == 0 else {}


def _cubin_resources(cubin: bytes) -> dict[str, Resources]:
    return {name: Resources(registers=rec.get("REG", 0), static_smem=max(rec.get("SHARED", 0) - 1024, 0)
                            if rec.get("SHARED", 0) >= 1024 else rec.get("SHARED", 0),
                            stack_frame=rec.get("STACK", 0), local_memory=rec.get("LOCAL", 0), cubin_checked=True)
            for name, rec in _res_usage(cubin).items()}


def _cross_check(cubin: bytes, resources: dict[str, Resources], diags: list[Diagnostic]) -> None:
    """Compare ptxas' report with the cubin's own resource records (``cuobjdump -res-usage``)."""
    for name, rec in _res_usage(cubin).items():
        r = resources.get(name)
        if r is None:
            continue
        # The cubin's SHARED figure includes the 1 KB the system reserves per block on sm_90+ when any is used.
        smem_ok = rec.get("SHARED", r.static_smem) in (r.static_smem, r.static_smem + 1024)
        mismatch = [k for k, mine in (("REG", r.registers), ("STACK", r.stack_frame)) if k in rec and rec[k] != mine]
        mismatch += [] if smem_ok else ["SHARED"]
        if mismatch:
            diags.append(RULES["compile.resources-mismatch"].diag(
                f"ptxas log and cubin disagree on {', '.join(mismatch)} for {name}; using the cubin's figures"))
            r.registers, r.stack_frame = rec.get("REG", r.registers), rec.get("STACK", r.stack_frame)
        r.cubin_checked = True


def _define_options(defines) -> list[str]:
    if not defines:
        return []
    # sorted: the same defines give the same options (and compile-cache key) in any order
    items = sorted(defines.items()) if isinstance(defines, Mapping) else (
        (d.split("=", 1) + [None])[:2] if isinstance(d, str) else d for d in defines
    )
    out = []
    for k, v in items:
        if not k or not re.fullmatch(r"[A-Za-z_]\w*", str(k)):
            raise InputError(f"bad define {k!r}: expected NAME or NAME=VALUE")
        out.append(f"-D{k}" if v is None else f"-D{k}={v}")
    return out


def compile(
    source: str | os.PathLike,
    kernels: str | Sequence[str] | None = None,
    *,
    arch: str | None = None,
    defines: Mapping[str, object] | Sequence[str] | None = None,
    include_dirs: Sequence[str | os.PathLike] = (),
    std: str = "c++17",
    lineinfo: bool = True,
    options: Sequence[str] = (),
    use_cache: bool = True,
) -> Artifact:
    """Compile CUDA C++ ``source`` (text or path) to a cubin for ``arch`` and report what each kernel became.

    ``kernels`` are name expressions (``"add"``, ``"gemm<128, 64>"``); by default every ``__global__`` entry.
    Raises ``CompileError`` (with Diagnostics) when NVRTC rejects the source, ``InputError`` for bad input.
    """
    t0 = time.perf_counter()
    text, name, path = read_source(source)
    if not text.strip():
        raise InputError(f"{name} is empty")
    arch = arch or default_arch()
    check_arch(arch)
    if std not in ("c++11", "c++14", "c++17", "c++20"):
        raise InputError(f"unknown C++ standard {std!r}: expected c++11, c++14, c++17 or c++20")
    if isinstance(kernels, str):
        kernels = [kernels]
    kernels = list(kernels or [])
    found = global_functions(text)
    for k in kernels:
        base = re.split(r"[<(]", k)[0].split("::")[-1].strip().lstrip("&")
        if not re.search(rf"\b{re.escape(base)}\b", text):
            raise InputError(f"unknown kernel {k!r}: {name} defines " + (", ".join(found) or "no __global__ function"))

    headers = default_headers()
    user_dirs = [str(Path(d)) for d in include_dirs]
    for d in user_dirs:
        if not Path(d).is_dir():
            raise InputError(f"include directory {d} does not exist")
    search_dirs = ([str(path.parent.resolve())] if path else []) + user_dirs
    # -default-device: unannotated functions (CuTe/CUTLASS helpers) are device code, as JIT mode requires.
    opts = [f"--gpu-architecture={arch}", f"-std={std}", "--ptxas-options=-v", "-default-device",
            *_define_options(defines), *options]
    if lineinfo:
        opts.append("-lineinfo")
    all_opts = opts + [f"-I{d}" for d in search_dirs + list(headers.include_dirs)]

    key_material = {
        "source": text, "name": name, "kernels": kernels, "options": opts,
        "include_dirs": [str(Path(d).resolve()) for d in search_dirs],
        "nvrtc": nvrtc_version(), "headers": headers.fingerprint,
        "includes": _local_includes(text, path.parent if path else None, user_dirs, set()),
    }
    key = hashlib.sha256(json.dumps(key_material, sort_keys=True).encode()).hexdigest()
    if use_cache:
        hit = cache.load(key)
        if hit is not None:
            meta, entry = hit
            try:
                art = _from_cache(meta, entry, text)
                art.compile_ms = (time.perf_counter() - t0) * 1e3
                return art
            except (OSError, KeyError, ValueError):
                pass  # a damaged entry is recompiled and replaced below

    art = _nvrtc_compile(text, name, arch, kernels, all_opts, opts)
    art.key = key
    art.compile_ms = (time.perf_counter() - t0) * 1e3
    if use_cache:
        blobs = {"cubin": art.cubin, "ptx": art.ptx.encode()}
        art.cache_entry = cache.store(key, _to_meta(art), blobs)
    return art


def compile_candidate(cand, config: Mapping | None = None, *, arch: str | None = None,
                      include_dirs: Sequence[str | os.PathLike] = (), **kwargs) -> Artifact:
    """Compile a ``Candidate`` at ``config`` (its defaults filled in, restrictions checked): its launched kernels,
    its defines and the tunables as ``-D`` values, for ``arch`` or the target it declares, with its
    ``// kopt: include`` directories (and ``include_dirs``) on the include path."""
    cfg = cand.check_config(dict(config or {}))
    return compile(cand.path if cand.path else cand.source, cand.kernels(cfg), arch=arch or cand.arch,
                   defines=cand.compile_defines(cfg), include_dirs=[*cand.include_dirs, *include_dirs], **kwargs)


def compile_configs(cand, configs, *, arch: str | None = None) -> list[tuple[dict, Artifact | None,
                                                                             CompileError | None]]:
    """Compile ``cand`` at every configuration in parallel threads (NVRTC releases the GIL): (config, artifact or
    None, the compile error or None) in order. Input errors (bad configuration or arch) are raised."""
    def one(cfg):
        try:
            return cfg, compile_candidate(cand, cfg, arch=arch), None
        except CompileError as exc:
            return cfg, None, exc

    from . import progress

    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        futures = [pool.submit(one, cfg) for cfg in configs]
        progress.report("compiling configurations", 0, len(futures))
        for done, _ in enumerate(as_completed(futures), 1):
            progress.report("compiling configurations", done, len(futures))
        return [f.result() for f in futures]


def _nvrtc_compile(text, name, arch, kernels, all_opts, opts) -> Artifact:
    nvrtc = _nvrtc()
    ok = nvrtc.nvrtcResult.NVRTC_SUCCESS
    err, prog = nvrtc.nvrtcCreateProgram(text.encode(), name.encode(), 0, [], [])
    if err != ok:
        raise ToolchainError(f"nvrtcCreateProgram failed: {err.name}")
    try:
        for k in kernels:
            (err,) = nvrtc.nvrtcAddNameExpression(prog, k.encode())
            if err != ok:
                raise InputError(f"bad kernel name expression {k!r}: {err.name}")
        encoded = [o.encode() for o in all_opts]
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(encoded), encoded)
        log = _check_log(prog, nvrtc)
        diags = classify(parse_diagnostics(log), text, name)
        if err == nvrtc.nvrtcResult.NVRTC_ERROR_INVALID_OPTION:
            raise InputError(f"NVRTC rejected the options: {log.strip() or ' '.join(opts)}")
        if err != ok and "--nv_arch" in log:  # NVRTC knows the architecture but not this variant of it
            msg = f"NVRTC {nvrtc_version()} does not compile for {arch}"
            raise InputError(msg, diagnostics=[RULES["compile.unsupported-arch"].diag(msg)])
        if err != ok:
            errors = [d for d in diags if d.severity is Severity.ERROR]
            missing = [d for d in errors if d.rule == "compile.missing-header"]
            if missing:  # an input problem (a wrong or missing -I), not a failed compile
                loc = missing[0].locations[0]
                raise InputError(f"{loc.file}:{loc.line}: {missing[0].message} (add its folder with -I or "
                                 "'// kopt: include DIR')", diagnostics=diags)
            first = errors[0] if errors else None
            where = f"{first.locations[0].file}:{first.locations[0].line}: " if first and first.locations else ""
            msg = f"{where}{first.message}" if first else (log.strip().splitlines() or ["compilation failed"])[-1]
            extra = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
            raise CompileError(f"compile failed: {msg}{extra}", diagnostics=diags, log=log)
        _, size = nvrtc.nvrtcGetCUBINSize(prog)
        cubin = bytearray(size)
        nvrtc.nvrtcGetCUBIN(prog, cubin)
        cubin = bytes(cubin)
        _, size = nvrtc.nvrtcGetPTXSize(prog)  # kept: its .entry lists give parameter sizes on the CPU
        buf = bytearray(size)
        nvrtc.nvrtcGetPTX(prog, buf)
        ptx_text = buf.rstrip(b"\x00").decode(errors="replace")
        lowered = {}
        for k in kernels:
            err, low = nvrtc.nvrtcGetLoweredName(prog, k.encode())
            if err != ok:
                raise InputError(f"unknown kernel {k!r}: NVRTC could not resolve the name expression")
            lowered[k] = low.decode() if isinstance(low, bytes) else str(low)
    finally:
        nvrtc.nvrtcDestroyProgram(prog)

    resources = parse_ptxas_resources(log)
    if resources:
        _cross_check(cubin, resources, diags)
    else:  # no ptxas report in the log: take what the cubin itself records
        resources = _cubin_resources(cubin)
        if resources:
            diags.append(RULES["compile.no-ptxas-report"].diag(
                "NVRTC returned no ptxas report; resources come from the cubin (spill figures unknown)"))
    if not resources:
        raise InputError(f"{name} has no __global__ function: nothing to compile into a kernel")
    if kernels:
        infos = {}
        for k, low in lowered.items():
            if low not in resources:
                raise InputError(f"{k!r} is not a __global__ function (lowered name {low})")
            infos[k] = KernelInfo(k, low, resources[low])
    else:
        names = _demangle(resources)
        infos = {names.get(low, low): KernelInfo(names.get(low, low), low, r) for low, r in resources.items()}
    return Artifact(
        source_name=name, source=text, arch=arch, options=list(opts), kernels=infos, cubin=cubin, ptx=ptx_text,
        log=log, diagnostics=[d for d in diags if d.severity is not Severity.ERROR],
        nvrtc_version=nvrtc_version(),
    )


def _to_meta(art: Artifact) -> dict:
    return {
        "source_name": art.source_name, "arch": art.arch, "options": art.options, "log": art.log,
        "kernels": [{"name": k.name, "lowered": k.lowered, "resources": vars(k.resources)} for k in art.kernels.values()],
        "diagnostics": [d.to_dict() for d in art.diagnostics], "nvrtc_version": art.nvrtc_version, "key": art.key,
    }


def _from_cache(meta: dict, entry: Path, text: str) -> Artifact:
    return Artifact(
        source_name=meta["source_name"], source=text, arch=meta["arch"], options=meta["options"],
        kernels={k["name"]: KernelInfo(k["name"], k["lowered"], Resources(**k["resources"])) for k in meta["kernels"]},
        cubin=(entry / "cubin").read_bytes(),
        ptx=(entry / "ptx").read_text(errors="replace"),
        log=meta["log"], diagnostics=[Diagnostic.from_dict(d) for d in meta["diagnostics"]],
        cache_hit=True, nvrtc_version=meta["nvrtc_version"], key=meta["key"], cache_entry=entry,
    )
