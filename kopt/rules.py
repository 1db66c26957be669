"""The rule catalogue: every rule id a kopt Diagnostic can carry, with its default severity, family, text and hint.

Emitters build Diagnostics through it (``RULES["race.shared"].diag(message, *locations, witness=...)``), so a rule's
default severity and its "how to fix" hint live in one place; ``kopt rules``, ``docs/rules.md`` and the SARIF
renderer read it. ``Diagnostic`` itself does not validate ids: old run stores may hold ids this catalogue no longer
has.

Some ids are chosen at run time; each choice lands on a catalogued id:

- CUDA driver errors (``CUDA_STICKY`` / ``CUDA_RECOVERABLE`` below) map to ``runtime.*`` ids; any other ``CUDA_ERROR_*`` is
  ``runtime.cuda-error`` with the error's name in the message.
- compute-sanitizer records become ``sanitize.<tool>.<kind>`` (``kopt.sanitize``); a record of a known tool that
  matches no known header is ``sanitize.<tool>.error``.
- ptxas log lines become ``compile.ptxas-error`` (errors and fatal errors) or ``compile.ptxas-warning``.

``kopt rules --markdown > docs/rules.md`` regenerates the reference page.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .diagnostic import Diagnostic, Location, Severity

E, W, N = Severity.ERROR, Severity.WARNING, Severity.NOTE


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity  # the default; an emitter may lower or raise it for one finding
    summary: str  # one line
    help: str  # what it means and why it matters
    hint: str | None  # the default "how to fix" text
    family: str  # race, barrier, bounds, ... (kopt.sanitize matches static and dynamic findings by family)

    def diag(self, message: str, *locations: Location, severity: Severity | None = None,
             witness: dict[str, Any] | None = None, hint: str | None = None) -> Diagnostic:
        """A Diagnostic of this rule (severity and hint default to the rule's)."""
        return Diagnostic(self.id, severity or self.severity, message, list(locations), witness,
                          hint if hint is not None else self.hint)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "severity": self.severity.value, "family": self.family, "summary": self.summary,
                "help": self.help, "hint": self.hint}


class _Catalogue(dict):
    def __missing__(self, key):
        raise KeyError(f"unknown rule id {key!r}: every rule kopt emits must be catalogued in kopt/rules.py")


_ALL = [
    # --- static analysis: races and synchronization (analyzers/passes/races.py) -----------------------------------
    Rule("race.shared", E, "data race on shared memory",
         "Two different threads of a block can touch overlapping bytes of a shared-memory array in the same barrier "
         "interval (no __syncthreads() between them), at least one of them writing and not both atomically: a "
         "write-after-read, write-write or read-modify-write conflict. The result depends on warp scheduling, so the "
         "kernel can pass a test and fail on another GPU or input. The witness gives two such threads and the "
         "element. The severity drops to warning when the race exists only for some block sizes and no launch was "
         "declared; a race that needs parameter values the index idiom presumes away is race.precondition.",
         "separate the conflicting accesses with __syncthreads() (e.g. read into a register, barrier, then write), "
         "or give each thread distinct elements", "race"),
    Rule("race.shared.possible", N, "shared-memory accesses the race check could not decide (index not analyzable)",
         "Two shared-memory accesses that would race if their indices could meet, where an index involved could not "
         "be modelled (the reason is given in the message and the witness): the analyzer can neither show a race "
         "nor prove the threads never meet, so it states this as a note and reports no race. Unanalyzable global "
         "indices are not reported at all.",
         "separate the accesses with __syncthreads(), or make the index computable from thread ids, loop counters "
         "and parameters", "race"),
    Rule("race.global", E, "data race on global memory",
         "Two different threads (possibly of different blocks) can touch the same global-memory address with no "
         "ordering between them, at least one writing and not both atomically. Blocks are never synchronized with "
         "each other inside a launch, so the final value depends on scheduling. Writes of one uniform value by "
         "every thread are not reported. Like race.shared, it is a warning when it depends on an undeclared block "
         "size; one that needs parameter values the index idiom presumes away (rows of a pitched index "
         "overlapping, a mask over a non-power-of-two) is the note race.precondition instead.",
         "use atomics for read-modify-write on shared outputs, give each thread its own element, or let one thread "
         "per block write the result", "race"),
    Rule("race.atomic-plain", W, "plain read of a location other threads update with atomics",
         "A thread reads, with an ordinary load, a location that another thread updates with an atomic operation in "
         "the same barrier interval (or, in global memory, from another block). Atomics order only atomic accesses: "
         "under the CUDA memory model the plain read races with the update, so it may see a stale or partial value "
         "(and the compiler may cache or split it). The witness gives the two threads and the location.",
         "read the value after a barrier (__syncthreads(), or after the kernel for grid-wide counters), or read it "
         "atomically (cuda::atomic_ref load, atomicAdd(p, 0)) or through a volatile pointer", "race"),
    Rule("race.precondition", N, "a race that needs parameter values or data the kernel presumes away",
         "A race.global / race.shared / sync.missing / race.atomic-plain conflict whose every witness breaks a "
         "precondition the kernel's index idiom presumes and nothing states: (1) a row-major index `column + row * "
         "stride` (`stride` an integer parameter, the column depending on the thread, block, loop or parameters, "
         "`out[Size * row + t]`) where the threads meet only if a column leaves its row (a pitch smaller than the "
         "width, a grid wider than the row, a negative column); an index with no stride of its own beside one with "
         "a row stride (`od[x]` and `od[x + y * w]`) is row 0 of the same layout; (2) a mask `x & (q - 1)` over "
         "parameters (the modulo idiom) where the threads meet only if `q` is not a power of two; (3) an offset "
         "made of parameters inside each thread's own slot (`pixel[face / 2]` with `pixel` at `4 * x`, a channel "
         "of an interleaved element) leaving the slot; (4) an integer "
         "parameter of the two indices or their guards negative (or, unsigned, 2^31 or more: a negative int passed "
         "as unsigned), or zero where it strides a written index (`out[i * stride]`, `od[y * w]`: every row folds "
         "onto one); (5) data a thread selects itself by (kopt cannot see data): neighbours of an array compared in "
         "a guard (`keys[t] <= q && q < keys[t + 1]`, `d[t] != d[t - 1]`), where the threads meet only if the "
         "array is not sorted ascending, or an element compared equal to a value the same for every thread "
         "(`keys[t] == q`) in both guards, where they meet only if its values repeat (not when the store adds to "
         "what it overwrites: counting the matches, `if (x[i] == key) count++`, expects repeats and is a race); "
         "(6) an index list: both indices read an element of an array the kernel never stores to, at a position "
         "that depends on the thread (`p = members[i]`, then `pos[p]`), where the threads meet only if the list's "
         "entries repeat (a list of members, a permutation; not when a store adds a count or a value loaded for "
         "the thread's own position into what it overwrites, `bins[key[i]]++`, `out[idx[i]] += val[i]`: those "
         "expect repeats and are races). "
         "No caller of such code passes those values, so the finding is a note naming the assumption "
         "that removes it; a race that also holds without them keeps its own rule and severity, with a witness "
         "that keeps them where the solver finds one. When the race was found only with values that break the "
         "precondition and the solver cannot decide within its budget whether it holds with them, the note says "
         "so and the kernel counts as analyzed incompletely. A column the kernel guards against a parameter (`if (x <= "
         "width)`) states how far its row reaches: only a column below the row's start is then a precondition (a "
         "column past the row is the kernel's own race), unless the guard itself keeps it inside the row. "
         "A row-major global index with a compile-time row length (`out[i * NJ + j]` under `if (j < nj)`, the row "
         "or column possibly a loop counter, the row possibly a parameter) whose column leaves its row only when "
         "the guard's parameter exceeds the row assumes it does not (`nj <= NJ`, said with the launch), as a "
         "pitched index assumes its pitch covers the width. Parameters an assumption states (`// kopt: assume`, --assume, a "
         "task's shapes, a value the host launch passes or relates to the grid) are checked at the stated values; one an assumption only relates to "
         "others keeps its sign precondition.",
         "state what the caller passes (`// kopt: assume pitch >= width`, `gridDim.x * blockDim.x <= width`, "
         "`stride >= 1`, or the value of a power-of-two stride), or guard the column (`if (x < width)`) so the "
         "rows cannot overlap",
         "race"),
    Rule("race.curand-state", E, "two threads use one cuRAND generator state",
         "curand(), curand_uniform() and the other generator calls read and advance the state they are given. Two "
         "threads that pass the same curandState at once race on it: they can draw the same numbers, and the state "
         "can be corrupted. The witness gives two threads and the state's element.",
         "give each thread its own state (states[global thread id]), copy it to a local variable, draw, and store it "
         "back", "race"),
    Rule("sync.missing", E, "shared memory read by another thread with no barrier after the write",
         "A thread reads shared memory that another thread of the block writes earlier in program order, and no "
         "__syncthreads() lies between the write and the read. The reader can run first and see the old value. This "
         "is the classic missing barrier between filling a tile and using it. Like race.shared, it is a warning "
         "when it depends on an undeclared block size.",
         "insert __syncthreads() after the writes and before the reads", "race"),
    Rule("warp.implicit-sync", W, "lanes of one warp exchange data through shared memory without __syncwarp()",
         "A write and a read by two lanes of the same warp conflict, and only the assumption that a warp runs in "
         "lockstep orders them (warp-synchronous code, e.g. a volatile shared-memory reduction). Since Volta, "
         "independent thread scheduling does not guarantee lockstep, so the read may see a stale value.",
         "insert __syncwarp() between the write and the read (read into a register, __syncwarp(), then write), or "
         "use warp shuffles (__shfl_down_sync)", "warp"),
    # --- static analysis: barriers, bounds, banks, coalescing, async (analyzers/passes/) ---------------------------
    Rule("barrier.divergent", E, "__syncthreads() reached by some threads of a block but not others",
         "A block-wide barrier sits under a thread-dependent condition, loop trip count or early return, so some "
         "threads of a block reach it and others do not. Every thread of the block must reach the same barrier: "
         "otherwise the block hangs, or the barrier synchronizes the wrong threads. The witness gives one thread "
         "that reaches it and one that skips it.",
         "move the barrier out of the thread-dependent branch: let every thread reach it and guard only the work "
         "(e.g. `if (i < n) s[t] = x[i]; __syncthreads();` instead of returning early)", "barrier"),
    Rule("bounds.shared", E, "shared-memory index out of bounds",
         "An index into a statically sized shared-memory array can fall outside the array under the assumed launch. "
         "Shared memory is not bounds-checked: the access silently reads or overwrites other shared data (or "
         "faults). When it happens only for some block sizes because no launch was declared, the finding is a "
         "warning that names such a block size.",
         "size the array from the block size (or guard the index), and declare the launch with `// kopt: launch` or "
         "__launch_bounds__ so the analyzer knows the block size", "bounds"),
    Rule("bounds.global", E, "global-memory index outside its buffer",
         "An access through a pointer parameter can fall outside the buffer the launch passes for it: the task's "
         "tensor of that name (`kopt check --task`, or the check of a candidate for a task), at one of the task's "
         "shapes. Global memory is not bounds-checked either: the access reads or overwrites a neighbouring "
         "allocation, or faults. The witness names the shape, the thread and the element.",
         "guard the index with the size the kernel is given (`if (i < n)`), or size the grid so that no thread "
         "passes the end", "bounds"),
    Rule("bank-conflict", W, "n-way shared-memory bank conflict",
         "Lanes of one warp touch different 4-byte words of the same shared-memory bank in one request, so the "
         "request is split and serialized; the witness gives the degree (the most distinct words in one bank), the "
         "bank and the lanes. The degree is sampled on the first block's warps and a few loop iterations. A 32-way "
         "conflict makes the access up to 32 times slower.",
         "re-map indices so that the 32 lanes of a warp touch 32 different banks (padding or swizzling)", "bank"),
    Rule("coalescing", W, "uncoalesced global-memory access",
         "A warp's global load or store touches at least twice as many 32-byte sectors as the bytes it needs would "
         "fill, so it moves that many times the useful traffic through L2 and DRAM. It is sampled on the first block "
         "with integer parameters assumed at 1024 (the witness lists them).",
         "make threadIdx.x index the contiguous (fastest-varying) dimension, or stage the tile through shared memory "
         "and transpose there", "coalescing"),
    Rule("async.proxy-fence", E, "TMA store or wgmma reads plain shared-memory stores with no proxy fence",
         "Shared memory written with ordinary (generic-proxy) stores is then read through the async proxy, by a TMA "
         "store or a wgmma, with no fence.proxy.async in between. The async proxy may not see the stores and can "
         "read stale data.",
         "after the stores (and the __syncthreads() that publishes them) issue `fence.proxy.async.shared::cta` "
         "(cuda::ptx::fence_proxy_async) before the TMA store / wgmma", "async"),
    Rule("async.cp-async-wait", E, "shared memory read before the cp.async that fills it is waited for",
         "A read of shared memory overlaps a cp.async copy whose group is still in flight: no cp.async.wait_group / "
         "__pipeline_wait_prior covering its group comes first. The read may see the old contents. Pipelines are "
         "simulated for their first few iterations.",
         "commit the copy's group and wait for it (cp.async.wait_group N keeps only the N most recent groups in "
         "flight), then __syncthreads() before other threads read the data", "async"),
    Rule("async.mbarrier-phase", E, "mbarrier wait that can never complete",
         "An mbarrier wait targets a barrier that is never initialized, whose phase is never armed (no arrive, "
         "expect_tx or TMA completion before the wait), or waits for a parity whose phase is never completed before "
         "it. The waiting threads hang. Parity is checked only outside loops.",
         "initialize the mbarrier once (one thread, then fence/barrier), arm each phase with arrive.expect_tx before "
         "the TMA, and flip the wait parity every phase", "async"),
    Rule("launch.inferred-block", N, "block size inferred from the kernel's shared arrays",
         "No launch block is known for the kernel (no `// kopt: launch` line, no --block, no constant block in the "
         "file's own <<<...>>> launch), and it indexes shared arrays of a constant extent by threadIdx without "
         "checking the index: the arrays are sized for the block it is launched with. The analysis assumed each "
         "block dimension at most the extent of such an array (less the index's largest constant or loop-step "
         "offset), so it reports no hazard that needs a block larger than the arrays. The message names the bounds "
         "and the accesses they come from; the launch record has them as `inferred_block`.",
         "declare the launch with `// kopt: launch` or pass --block to check the blocks the kernel is really "
         "launched with", "analysis"),
    Rule("launch.inferred-grid", N, "a kernel with no launch found and no block index analyzed as one block",
         "No launch of the kernel was found (no `// kopt: launch` line, no --grid, no <<<...>>> or driver-API launch "
         "in the file or its folder that kopt can read), and the kernel reads no blockIdx or gridDim, synchronizes no "
         "grid and updates no global memory atomically: the blocks of a larger grid could not divide the work, each "
         "would repeat the same accesses, so the kernel is written for one block. The analysis took a grid of one "
         "block and reports no hazard between blocks; hazards inside the block are checked as usual. The launch "
         "record has `inferred_grid`.",
         "declare the launch with `// kopt: launch` or pass --grid to check the grid the kernel is really launched "
         "with", "analysis"),
    Rule("analysis.incomplete", N, "part of the file was not analyzed",
         "The analyzers could not model part of the file: a parse failure, an unsupported construct, a solver budget "
         "or timeout, a pass that failed, or a kernel name not found. The message says which part and why. Other "
         "findings still stand, but hazards in that part may be missing.",
         "findings may be missing for this part; simplify the construct or report it", "analysis"),
    # --- compilation (kopt/nvrtc_log.py, kopt/compiler.py) ----------------------------------------------------------
    Rule("compile.error", E, "NVRTC compile error",
         "NVRTC rejected the source; the message is the compiler's, located at the line and column it reported "
         "(with the front end's error number when it gives one). Nothing was built, so nothing can run.",
         None, "compile"),
    Rule("compile.warning", W, "NVRTC compile warning",
         "A warning from the NVRTC front end, located at the line it reported. The kernel was built; the warning "
         "often points at a real bug (an unused result, a narrowing conversion, an uninitialized variable).",
         None, "compile"),
    Rule("compile.remark", N, "NVRTC remark",
         "A remark from the NVRTC front end, located at the line it reported: information, not a problem.",
         None, "compile"),
    Rule("compile.ptxas-error", E, "ptxas error",
         "The PTX assembler (run by NVRTC) reported an error or a fatal error, e.g. an instruction the target "
         "architecture does not have or a resource limit exceeded. ptxas gives no source location.",
         None, "compile"),
    Rule("compile.ptxas-warning", W, "ptxas warning",
         "The PTX assembler (run by NVRTC) reported a warning, e.g. about register use or an ignored directive. "
         "ptxas gives no source location.",
         None, "compile"),
    Rule("compile.unsupported-arch", E, "NVRTC does not compile for this target",
         "The target names an architecture NVRTC supports, but NVRTC refused this variant of it (for example "
         "sm_90f: family variants start at sm_100). Nothing was built.",
         "pick one of the targets `kopt doctor` lists for this NVRTC", "compile"),
    Rule("compile.resources-mismatch", W, "the ptxas log and the cubin disagree on a kernel's resources",
         "The registers, stack frame or static shared memory that ptxas printed for a kernel differ from the "
         "cubin's own resource records (cuobjdump -res-usage). kopt uses the cubin's figures; the occupancy and "
         "resource reports follow them.",
         None, "compile"),
    Rule("compile.no-ptxas-report", N, "no ptxas resource report: resources come from the cubin",
         "NVRTC returned no ptxas -v report, so per-kernel resources were read from the cubin's records instead. "
         "Registers, shared memory and stack are known, but spill figures are not.",
         None, "compile"),
    # --- nvcc-style sources under NVRTC (kopt/compat.py) ------------------------------------------------------------
    Rule("compile.unsupported-header", E, "a header that cannot be compiled for the device",
         "The source includes a header NVRTC cannot compile as device code: a host-only header (C++ streams, "
         "containers, threads or clocks, a CUDA host library such as cuBLAS or cuFFT, Thrust, the CUDA samples' "
         "host helpers), or a C++ library header kopt does not supply whose device version is CCCL's `<cuda/std/...>`. "
         "kopt supplies the device-usable standard headers itself (`kopt/include`: stdint.h, stdio.h, math.h, "
         "type_traits, ... see README.md). A candidate holds device code only; host code never runs.",
         "remove the include (for a file with host code, `kopt import FILE.cu` writes a candidate of its device "
         "code), or include the `<cuda/std/...>` header the message names", "compile"),
    Rule("compile.unsupported-feature", E, "host code or a feature NVRTC cannot build",
         "NVRTC compiles everything in the file for the device, and some nvcc-style code cannot be device code: "
         "host code (a `__host__` function, a CUDA runtime or host-library call such as cudaMalloc, std::cout), a "
         "`<<<...>>>` launch (from host code, or from a kernel: dynamic parallelism needs relocatable device code "
         "and the device runtime, which kopt does not link), or texture references (removed in CUDA 12).",
         "move host code out of the candidate: `kopt import FILE.cu` writes one with the device code and the "
         "launches as `// kopt: launch` lines; a kernel that launches kernels must be split into launches kopt "
         "runs in order", "compile"),
    Rule("compile.missing-header", E, "a header not found on the include path",
         "NVRTC found the included header in none of the include directories: the source's own folder, `-I` "
         "directories, the candidate's `// kopt: include` directories, the CUDA and CCCL headers and kopt's "
         "standard-header shims.",
         "add its folder with -I DIR (every command that compiles takes it) or `// kopt: include DIR` in the "
         "candidate", "compile"),
    # --- launching (kopt/params.py, the worker) ----------------------------------------------------------------------
    # --- the expression language (kopt/expr.py) -------------------------------------------------------------------
    Rule("expr.syntax", E, "not an expression of kopt's language",
         "The text does not parse as an expression of kopt's language (Python syntax: numbers, names, arithmetic, "
         "comparisons, and/or/not, `a if c else b` and calls of the built-in functions), or uses syntax the "
         "language does not allow (attributes, subscripts, comprehensions, strings, keywords). The location points "
         "at the offending part.",
         "write the value as arithmetic over size symbols, tunables and `define`d names, e.g. `cdiv(n, BLOCK)`",
         "expr"),
    Rule("expr.too-complex", E, "expression longer, larger or deeper than kopt evaluates",
         "Expressions are bounded before any work is done so that no input can hang kopt or exhaust its memory: at "
         "most 4096 characters, 1024 syntax nodes nested at most 64 deep, and names that refer to other names at "
         "most 8 deep (and never to themselves).",
         "simplify the expression, or give part of it a name with `// kopt: define NAME=...`", "expr"),
    Rule("expr.unknown-name", E, "name not bound in the expression",
         "A name is neither a size symbol of the task's shapes, a tunable, a `// kopt: define`d name nor a -D value. "
         "C #defines of the source are not visible to annotation expressions (see annotation.c-macro).",
         "use one of the known names the message lists, or declare the value with `// kopt: define NAME=VALUE`",
         "expr"),
    Rule("expr.unknown-function", E, "call of a function the language does not have",
         "Only cdiv (ceil_div), round_up, next_pow2, log2, min, max, abs, int and float can be called.",
         "use cdiv(a, b) for a rounded-up division (C macros such as DIV_UP are not visible)", "expr"),
    Rule("expr.out-of-range", E, "value outside 64 bits, or an exponent or shift too large",
         "Every integer, intermediate results included, must fit in 64 bits, floats must be finite, and exponents "
         "and shift counts are limited to 64, so evaluation stays cheap whatever the input (`9**9**9` is refused "
         "before it is computed).",
         "check the expression for a runaway exponent or shift", "expr"),
    Rule("expr.division-by-zero", E, "division by zero",
         "A division, floor division, modulo or cdiv has a zero divisor for the values bound.",
         "guard the divisor, e.g. `max(x, 1)`", "expr"),
    Rule("expr.type", E, "operation on values of the wrong kind",
         "An operand or function argument is not a number (a string, a tuple), a bit operation got a float, a "
         "function got the wrong number of arguments, or the result is not a real number.",
         None, "expr"),
    Rule("expr.not-positive-integer", E, "dimension that is not a positive integer",
         "A grid, block or cluster dimension, a scratch or box size must be a positive integer; dynamic shared "
         "memory a whole number of bytes. `/` is true division, so `n / 256` is fractional unless 256 divides n.",
         "use cdiv(n, 256) or n // 256", "expr"),
    # --- the // kopt: annotation grammar (kopt/annotations.py, kopt/candidate.py, kopt/geometry.py) ------------------
    Rule("annotation.syntax", E, "malformed // kopt: annotation",
         "A `// kopt:` line does not follow the grammar of its kind (docs/tasks.md lists each): a missing required "
         "option, unbalanced brackets, an option without a value.",
         "see docs/tasks.md for the form of each annotation", "annotation"),
    Rule("annotation.unknown", E, "unknown annotation or option",
         "The word after `// kopt:` is not one of task, arch, include, tune, define, restrict, scratch, tensormap, "
         "launch or TODO, or a launch or tensormap line has an option it does not take.",
         None, "annotation"),
    Rule("annotation.duplicate", E, "declared twice",
         "A name is declared twice (a tunable, define, scratch buffer or tensor map), a tunable lists one value "
         "twice, or a launch repeats an option.",
         None, "annotation"),
    Rule("annotation.no-launch", E, "candidate without a launch annotation",
         "A candidate must declare how its kernels are launched (`// kopt: launch KERNEL grid=(...) block=(...) "
         "args=(...)`): kopt never runs host code.",
         "add a launch line per kernel launch, in order", "annotation"),
    Rule("annotation.arch", E, "unknown target architecture",
         "The `// kopt: arch` line names an architecture kopt has no limits for.",
         None, "annotation"),
    Rule("annotation.dtype", E, "unknown dtype in a scratch declaration",
         "A `// kopt: scratch` line names a dtype kopt does not know.",
         None, "annotation"),
    Rule("annotation.c-macro", W, "C #define used in an annotation expression",
         "An annotation expression names a macro that the source #defines. Annotation expressions are evaluated by "
         "kopt, not by the C preprocessor, so they see only tunables, `// kopt: define`s and the task's size "
         "symbols. Without a task the value is left unknown (a warning); with a task it is an error.",
         "declare the value once with `// kopt: define NAME=VALUE` (it is also passed to the compiler as -D)",
         "annotation"),
    Rule("annotation.include", E, "include directory not found",
         "A `// kopt: include DIR` line (or a `-I` directory) names a folder that does not exist. A relative DIR is "
         "relative to the candidate file's folder.",
         None, "annotation"),
    Rule("annotation.todo", E, "a `// kopt: TODO` left to decide",
         "The candidate carries a TODO annotation (written by `kopt import` where it could not map a host-side "
         "launch expression): a person must replace it before the candidate can run.",
         None, "annotation"),
    Rule("annotation.no-config", E, "no configuration satisfies the restrictions",
         "The `restrict` lines exclude every combination of tunable values.",
         None, "annotation"),
    # --- launch geometry (kopt/geometry.py, kopt/validate.py) --------------------------------------------------------
    Rule("launch.block-too-large", E, "block larger than the architecture allows",
         "The block has more threads than the target allows per block (1024), or a dimension beyond (1024, 1024, "
         "64). The launch would fail with an invalid-configuration error.",
         "lower the block size, or restrict the tunables that set it (`// kopt: restrict BLOCK * VEC <= 1024`)",
         "launch"),
    Rule("launch.smem-too-large", E, "more shared memory per block than the architecture allows",
         "The dynamic shared memory of the launch (plus the kernel's static shared memory, when compiled) exceeds "
         "the target's per-block limit after opt-in (227 KB on sm_90, 163 KB on sm_80, 99 KB on sm_86/89).",
         "use fewer pipeline stages or smaller tiles, or restrict the tunables that size the buffers", "launch"),
    Rule("launch.grid-too-large", E, "grid beyond the hardware limits",
         "A grid dimension exceeds (2^31 - 1, 65535, 65535).",
         "cover large problems with a grid-stride loop or fold the excess into x", "launch"),
    Rule("launch.cluster", E, "thread-block cluster that cannot launch",
         "Clusters need sm_90 or newer, at most 8 blocks per cluster (the portable size), and a grid that is a "
         "multiple of the cluster in every dimension.",
         None, "launch"),
    Rule("launch.resources", E, "kernel whose resources leave no room for one block",
         "At this block size the kernel's registers or shared memory exceed what one SM holds, so no block can be "
         "resident and the launch fails.",
         "lower the block size or cap registers with __launch_bounds__(threads, 1)", "launch"),
    Rule("launch.device-constant", N, "a launch expression uses a device constant",
         "A launch expression uses num_sms, l2_bytes or max_smem_per_block. On a GPU of the target architecture the "
         "values are the GPU's own; without one they are the architecture's documented defaults (sm_90: 132 SMs and "
         "50 MiB of L2, as on H100 SXM and H200; H100 PCIe has 114 SMs), and this note says which value the launch "
         "assumed. An error when the architecture has no default for the constant.",
         "pass --num-sms / --l2-bytes / --max-smem-per-block to check for another GPU of the architecture",
         "launch"),
    Rule("launch.no-branch", E, "no `when` alternative of a launch applies",
         "A group of `// kopt: launch ... when COND` alternatives (the lines up to the first one without `when`) has "
         "no line whose condition holds for this shape and configuration, so nothing would be launched for that "
         "step.",
         "add a final launch line without `when` (the fallback), or widen a condition", "launch"),
    Rule("launch.branch-unused", W, "a `when` launch line applies to none of the task's shapes",
         "No shape of the task selects this launch line (an earlier alternative applies first, or its condition "
         "never holds), so it is neither checked at a real shape nor timed.",
         "add a shape that selects it, or remove the line", "launch"),
    Rule("launch.invalid", E, "launch, scratch or tensor map that cannot be resolved",
         "An argument expression, scratch size or tensor-map box does not resolve against the task at this shape "
         "(the message says which).",
         None, "launch"),
    # --- tasks and references (kopt/task.py, kopt/reference.py, kopt/validate.py) -----------------------------------
    Rule("task.invalid", E, "malformed task.toml",
         "task.toml is not valid TOML, or a key, argument, shape, reference, tolerance or work expression breaks "
         "the task format (docs/tasks.md). The location is the line of the offending entry.",
         "see docs/tasks.md for the format", "task"),
    Rule("candidate.task-mismatch", E, "candidate declares another task",
         "The candidate's `// kopt: task NAME` names a different task from the one it is checked against.",
         None, "task"),
    Rule("reference.not-found", E, "the task's reference file or function does not exist",
         "`reference = \"file.py:function\"` names a file that is not next to task.toml or a function the file "
         "does not define (the message lists the functions it has).",
         None, "reference"),
    Rule("reference.import-failed", E, "importing the reference file raised",
         "The reference module raised while it was imported (a missing package, a syntax error).",
         "install what it imports, or make torch-only parts optional", "reference"),
    Rule("reference.signature", E, "the reference cannot take the task's arguments",
         "The reference receives keyword arguments named like the task's in/inout buffers and scalar arguments "
         "(out arguments and size symbols that are not scalar arguments are not passed); its signature does not "
         "accept them.",
         "name the parameters like the task's arguments, or accept **kwargs", "reference"),
    Rule("reference.raised", E, "the reference raised when called",
         "Called on the smallest shape's inputs (kopt validate) or a checked shape (the worker), the reference "
         "raised an exception, or its process died.",
         None, "reference"),
    Rule("reference.output", E, "the reference returned outputs that do not match the task",
         "The reference returned a different number of outputs than the task declares out/inout arguments, an "
         "output of the wrong size, or non-numbers. As a warning: an output with NaN or infinite values.",
         "return one array per out/inout argument, in declaration order (or a dict by name)", "reference"),
    Rule("reference.timeout", E, "the reference did not finish in time",
         "Importing the reference and running it once on the smallest shape took longer than the time limit "
         "(kopt validate --reference-timeout).",
         None, "reference"),
    Rule("launch.mismatch", E, "the declared launch does not fit the compiled kernel's parameters",
         "The `// kopt: launch ... args=(...)` declaration passes a different number of arguments than the kernel "
         "takes, or an argument whose size does not match the parameter (a pointer, scalar or CUtensorMap of the "
         "wrong size). The kernel was not launched.",
         "make the launch's args=(...) match the kernel's parameters in order and type", "launch"),
    # --- running on the GPU (kopt/worker/, kopt/client.py) ----------------------------------------------------------
    Rule("runtime.illegal-address", E, "the kernel accessed an illegal address",
         "The kernel read or wrote memory outside any allocation, or through a pointer in the wrong address space "
         "(CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_INVALID_ADDRESS_SPACE). The CUDA context is unusable afterwards, "
         "so the worker was restarted. `kopt sanitize --tool memcheck` locates the access.",
         "an access fell outside an allocation: check bounds guards and index arithmetic", "runtime"),
    Rule("runtime.misaligned-address", E, "the kernel made a misaligned access",
         "A load or store used an address that is not a multiple of its size (CUDA_ERROR_MISALIGNED_ADDRESS), "
         "typically a vector (float4, int2) or wide access through an offset pointer. The context is unusable "
         "afterwards; the worker was restarted.",
         "align vector accesses: cast to float4/int4 only at offsets that are multiples of 16 bytes (and 8 for "
         "float2), or fall back to scalar accesses at the edges", "runtime"),
    Rule("runtime.illegal-instruction", E, "the kernel executed an illegal instruction",
         "The GPU hit an instruction it cannot execute (CUDA_ERROR_ILLEGAL_INSTRUCTION), e.g. code built for "
         "another architecture. The context is unusable afterwards; the worker was restarted.",
         None, "runtime"),
    Rule("runtime.stack-overflow", E, "the kernel overflowed its call stack",
         "The hardware stack overflowed or was corrupted (CUDA_ERROR_HARDWARE_STACK_ERROR): deep or unbounded "
         "recursion, or large local arrays in a call chain. The context is unusable afterwards; the worker was "
         "restarted.",
         "remove recursion and large per-thread local arrays (compile reports show the stack frame)", "runtime"),
    Rule("runtime.device-assert", E, "a device-side assert failed",
         "An assert() in the kernel failed (CUDA_ERROR_ASSERT); the driver prints the assertion on the worker's "
         "stderr. The context is unusable afterwards; the worker was restarted.",
         None, "runtime"),
    Rule("runtime.fault", E, "the kernel faulted",
         "The launch failed with an unspecified device exception (CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_INVALID_PC, "
         "CUDA_ERROR_TENSOR_MEMORY_LEAK). The context is unusable afterwards; the worker was restarted. "
         "`kopt sanitize` can often say more.",
         None, "runtime"),
    Rule("runtime.timeout", E, "the kernel or the worker did not finish in time",
         "The worker gave no answer within the phase's time limit and was killed, or the driver's watchdog stopped "
         "the kernel (CUDA_ERROR_LAUNCH_TIMEOUT). Usually a hang: a loop whose exit depends on data, a barrier some "
         "threads never reach, or an mbarrier wait that never completes.",
         "the kernel did not finish: look for a loop whose exit depends on data or a barrier some threads never "
         "reach", "runtime"),
    Rule("runtime.crash", E, "the GPU worker process died",
         "The worker process exited or was killed by a signal before answering (the last line of its stderr is "
         "added when there is one). A fault inside the CUDA driver or a host-side crash can do this; only the "
         "worker is lost, and the next request starts a fresh one.",
         None, "runtime"),
    Rule("runtime.out-of-memory", E, "a GPU allocation failed: out of memory",
         "A driver call failed with CUDA_ERROR_OUT_OF_MEMORY, typically while allocating a shape's inputs, outputs "
         "or scratch buffers. The context stays usable.",
         "a buffer or scratch allocation is larger than the GPU's memory", "runtime"),
    Rule("runtime.launch-out-of-resources", E, "the launch asks for more resources than an SM has",
         "The launch failed with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: the block needs more registers (registers per "
         "thread times threads per block) or other per-SM resources than are available.",
         "use fewer threads per block, or cap registers per thread with __launch_bounds__(threads)",
         "runtime"),
    Rule("runtime.launch-invalid", E, "the launch configuration was rejected",
         "The driver rejected a launch or a setup call with CUDA_ERROR_INVALID_VALUE, "
         "CUDA_ERROR_INVALID_CLUSTER_SIZE or CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: e.g. a block over 1024 "
         "threads, a grid dimension out of range, more dynamic shared memory than the GPU allows, an unsupported "
         "cluster shape, or a tensor map the driver cannot encode.",
         "check the declared grid, block, smem and cluster against the GPU's limits (`kopt explain` shows them)",
         "runtime"),
    Rule("runtime.module-load", E, "the driver could not load the compiled module",
         "Loading the cubin failed (CUDA_ERROR_INVALID_IMAGE, CUDA_ERROR_NO_BINARY_FOR_GPU, "
         "CUDA_ERROR_UNSUPPORTED_PTX_VERSION): usually a cubin built for another architecture than this GPU's, or "
         "a driver older than the compiler.",
         "compile for this GPU's architecture (--arch, or the candidate's arch annotation)", "runtime"),
    Rule("runtime.kernel-not-found", E, "a declared kernel is not in the compiled module",
         "cuModuleGetFunction failed with CUDA_ERROR_NOT_FOUND: a launch names a kernel (or template instance) the "
         "module does not contain.",
         None, "runtime"),
    Rule("runtime.cuda-error", E, "another CUDA driver error",
         "A CUDA driver call failed with an error kopt has no specific rule for; the message ends with the CUDA "
         "error's name (CUDA_ERROR_...). Whether the context survives depends on the call: errors during kernel "
         "execution restart the worker.",
         None, "runtime"),
    Rule("runtime.no-gpu", E, "the worker found no usable GPU",
         "The worker could not initialize the CUDA driver or found no GPU, so nothing ran. This is the machine, not "
         "the candidate: `kopt doctor` says what is missing.",
         None, "runtime"),
    # --- the worker protocol (kopt/protocol.py, kopt/worker/serve.py) -------------------------------------------------
    Rule("worker.input", E, "the worker rejected the request's input",
         "A request reached the worker but the worker raised a kopt error while handling it, e.g. an input error "
         "for a task, shape or argument that is invalid there. The message is the error's.",
         None, "worker"),
    Rule("worker.exception", E, "unexpected exception in the worker",
         "The worker raised an exception that is neither a CUDA error nor an input error, e.g. in the task's "
         "reference function; a check attaches the traceback as the witness. The worker keeps running.",
         None, "worker"),
    Rule("worker.protocol", E, "the worker does not know the requested operation",
         "The parent sent an op the worker has no handler for: a kopt bug or a version mismatch between the parent "
         "and the worker.",
         None, "worker"),
    # --- the tools offered to agents (kopt/tools.py, kopt/mcp_server.py) ---------------------------------------------
    Rule("tool.refused", E, "a tool refused its arguments",
         "A tool call asked for something the tools do not allow or cannot find: a path outside the workspace or "
         "through a symbolic link, a file that is not a candidate source, a task the server was not started with, "
         "a malformed argument. Nothing was changed. The message says which argument and why.",
         "pass a workspace-relative path to a .cu/.cuh file, or a task listed by list_tasks", "tool"),
    Rule("tool.toolchain", E, "a component the tool needs is missing or unusable",
         "The call needs a component this machine lacks or cannot load (NVRTC, nvdisasm, Nsight Compute, "
         "compute-sanitizer, kopt's timing harness). This is the machine, not the candidate: `kopt doctor` says what "
         "is missing.",
         None, "tool"),
    Rule("tool.timeout", E, "a tool call ran past its time limit and was stopped",
         "CPU tools (compile, explain, check, validate and the file and knowledge-base tools) run in a child process "
         "with a time limit, so one call cannot freeze the server; this one exceeded it and its process group was "
         "killed. GPU tools are bounded by the worker's phase deadlines instead.",
         "simplify the candidate (fewer tunable configurations, smaller expressions) or split the work", "tool"),
    Rule("tool.crash", E, "a tool call failed unexpectedly",
         "The child process running the tool exited without a result or raised an exception that is not one of "
         "kopt's expected errors: a kopt bug. The message carries the exception or the process's last output.",
         None, "tool"),
    # --- correctness (kopt/compare.py, kopt/runner.py) ----------------------------------------------------------------
    Rule("check.mismatch", E, "an output differs from the reference",
         "An output's values are out of the task's tolerance against the reference at a shape: the relative L2 error "
         "is too high, elements are outside the absolute/relative tolerance, or NaNs differ. The message gives the "
         "error figures and the worst element; the witness gives its index, value and expected value.",
         None, "check"),
    Rule("check.unwritten-output", E, "part of an output was never written",
         "Some output elements still hold the poison pattern the runner wrote before the launch, so the kernel never "
         "wrote them: the grid does not cover the output, or boundary threads skip their work. The witness gives "
         "the first and last unwritten index.",
         "check the grid covers the whole output and that boundary threads are not skipped", "check"),
    Rule("check.input-mutated", E, "the kernel modified an input",
         "An argument the task declares as an input changed during the run. Inputs are read-only unless the task "
         "declares them inout; a kernel that writes its inputs can pass one trial and corrupt the next.",
         None, "check"),
    # --- timing (kopt/timing.py, kopt/bench.py, kopt/roofline.py) -----------------------------------------------------
    Rule("timing.output-invalid", E, "outputs no longer match the reference after timing",
         "After the timed runs, an output no longer matches the reference (unwritten elements or values out of "
         "tolerance). The kernel's work in the timed runs differs from the checked run, e.g. it caches results or "
         "keeps state between calls, so the timing is void.",
         None, "timing"),
    Rule("timing.no-samples", E, "no usable timing samples",
         "Every sample at a shape was discarded, usually because the SM clock was below the harness's clock floor "
         "(throttling), so there is no figure to report.",
         None, "timing"),
    Rule("timing.implausible", E, "the measured time is below the memory-bandwidth floor",
         "The median time is below 0.9 times the time needed to move the task's bytes (from its work model) at the "
         "fastest bandwidth measured on this GPU. No kernel that does the task's work can be that fast, so the "
         "timing is rejected.",
         "the kernel cannot have done the task's work; check what it skips", "timing"),
    Rule("timing.harness-error", E, "the timing harness failed",
         "The C++ timing harness raised an error that is not a CUDA driver error (e.g. CUPTI requested but "
         "unavailable, or no current CUDA context). The message is the harness's.",
         None, "timing"),
    Rule("bench.not-correct", E, "the candidate or baseline is not correct, so nothing was timed",
         "kopt bench checks the candidate and the baseline before timing them; one of them failed to compile, run "
         "or match the reference (its verdict's Diagnostics say why), so neither was timed.",
         None, "bench"),
    # --- profiling (kopt/profile.py) ----------------------------------------------------------------------------------
    Rule("profile.memory-bound", N, "the kernel is memory-bound",
         "Nsight Compute's speed-of-light figures put the memory units at or above 60 % of peak, ahead of compute. "
         "The message states the evidence: the achieved DRAM throughput and its share of the matching ceiling (the "
         "device's measured copy, read or write bandwidth when kopt has measured it, else ncu's own peak), the DRAM, "
         "L2 and L1/shared figures and the occupancy; when DRAM itself is not busy, it names the busiest on-chip "
         "unit and the hint is about that unit.",
         "the kernel may gain only by moving fewer bytes: try fusing passes, reusing data from shared memory or "
         "registers, or narrower types; near 80-90 % of the ceiling it is at its memory roofline", "profile"),
    Rule("profile.compute-bound", N, "the kernel is compute-bound",
         "Nsight Compute's speed-of-light figures put the SM's compute throughput at or above 60 % of peak, ahead "
         "of memory. The message states the figures it rests on.",
         "less arithmetic per result may help: try faster pipes (tensor cores, FMA instead of separate mul/add) or "
         "fewer integer index computations", "profile"),
    Rule("profile.latency-bound", W, "the kernel is latency-bound",
         "Neither memory nor compute reaches 60 % of peak: warps mostly wait. The message states the throughput "
         "figures, the occupancy and the top stall reason when the profile has one.",
         "more independent work per SM may hide the latency: try more warps (occupancy), more loads in flight per "
         "thread (unrolling, vector loads) or fewer barriers", "profile"),
    Rule("profile.launch-bound", N, "the kernel is too short to load the GPU",
         "The kernel runs under 5 µs (ncu's gpu__time_duration), so launch overhead and ramp-up may dominate its "
         "time; its throughput figures say little.",
         "try fusing this launch with its neighbours, or profile a larger shape (--shape)", "profile"),
    Rule("profile.occupancy-limited", W, "occupancy is limited",
         "A warning when the theoretical occupancy is under 50 % because of registers or shared memory per block; a "
         "note when the achieved occupancy is well under the theoretical one in a latency-bound kernel (too few "
         "blocks or unbalanced work). The message states the occupancy, the DRAM throughput and its share of the "
         "matching ceiling; the witness names the limiter; the hint depends on it. Never given when the achieved "
         "DRAM throughput is at or above 80 % of the matching ceiling: such a kernel is at its bandwidth limit, and "
         "capping registers for occupancy may only slow it (the profile's notes say why the advice was withheld).",
         "higher occupancy may hide more latency: try fewer registers or less shared memory per block, or more and "
         "better-balanced blocks, and re-measure", "profile"),
    Rule("profile.excess-dram-traffic", W, "DRAM traffic well above the task's work model",
         "The profiled DRAM bytes are at least 1.5 times the bytes the task's work model says the kernel must move: "
         "re-reads or uncoalesced accesses may be the cause. The hottest source lines are attached.",
         "try making each warp read contiguous 128-byte segments and reading each input once (stage reused tiles "
         "in shared memory)", "profile"),
    # --- compute-sanitizer (kopt/sanitize.py); families match the static rules each tool confirms -------------------
    Rule("sanitize.memcheck.invalid-read", E, "memcheck: out-of-bounds read",
         "compute-sanitizer memcheck saw a read outside any allocation (global, shared or local memory). The "
         "witness gives the threads, block, address and how far it lies from the nearest allocation.",
         "an index runs past the buffer: guard it with the size argument (if (i < n))", "bounds"),
    Rule("sanitize.memcheck.invalid-write", E, "memcheck: out-of-bounds write",
         "compute-sanitizer memcheck saw a write outside any allocation (global, shared or local memory). The "
         "witness gives the threads, block, address and how far it lies from the nearest allocation.",
         "an index runs past the buffer: guard it with the size argument (if (i < n))", "bounds"),
    Rule("sanitize.memcheck.invalid-atomic", E, "memcheck: out-of-bounds atomic",
         "compute-sanitizer memcheck saw an atomic operation on an address outside any allocation.",
         "an index runs past the buffer: guard it with the size argument (if (i < n))", "bounds"),
    Rule("sanitize.memcheck.misaligned", E, "memcheck: misaligned access",
         "compute-sanitizer memcheck saw an access whose address is not a multiple of its size.",
         "a vector or wide access uses an address that is not a multiple of its size", "bounds"),
    Rule("sanitize.memcheck.error", E, "memcheck: other error",
         "A memcheck record whose header kopt does not parse into a specific rule (e.g. a hardware exception or a "
         "failing driver call); the message is the tool's header.",
         None, "bounds"),
    Rule("sanitize.racecheck.hazard", E, "racecheck: shared-memory hazard",
         "compute-sanitizer racecheck saw a RAW, WAR or WAW hazard on shared memory between threads of a block (or "
         "of one warp). Its severity follows the tool's (error, warning or info). The locations are the two "
         "accesses; the witness counts the hazards.",
         "separate the conflicting shared-memory accesses with __syncthreads() (or __syncwarp() in a warp)", "race"),
    Rule("sanitize.racecheck.error", E, "racecheck: other error",
         "A racecheck record whose header kopt does not parse into a specific rule; the message is the tool's header.",
         None, "race"),
    Rule("sanitize.synccheck.divergent-barrier", E, "synccheck: barrier reached by divergent threads",
         "compute-sanitizer synccheck saw a barrier (__syncthreads() or __syncwarp()) that not every thread of the "
         "block or warp reached.",
         "every thread of the block must reach the same __syncthreads(): hoist it out of the branch", "barrier"),
    Rule("sanitize.synccheck.barrier-error", E, "synccheck: invalid use of a barrier",
         "compute-sanitizer synccheck reported a barrier error other than divergent threads (e.g. invalid "
         "arguments to a barrier); the message is the tool's own description of it.",
         None, "barrier"),
    Rule("sanitize.synccheck.error", E, "synccheck: other error",
         "A synccheck record whose header kopt does not parse into a specific rule; the message is the tool's header.",
         None, "barrier"),
    Rule("sanitize.initcheck.uninitialized", E, "initcheck: read of uninitialized global memory",
         "compute-sanitizer initcheck saw a read of global memory that nothing wrote since it was allocated. kopt "
         "does not pre-fill outputs under initcheck, so a kernel that reads its outputs before writing them shows "
         "here.",
         "the kernel reads memory no one wrote: write outputs/scratch before reading them", "init"),
    Rule("sanitize.initcheck.error", E, "initcheck: other error",
         "An initcheck record whose header kopt does not parse into a specific rule; the message is the tool's "
         "header.",
         None, "init"),
]

RULES: dict[str, Rule] = _Catalogue((r.id, r) for r in _ALL)
assert len(RULES) == len(_ALL), "duplicate rule id"


# CUDA driver errors that leave the context unusable (the worker exits) and those it survives, by rule
CUDA_STICKY = {
    "CUDA_ERROR_ILLEGAL_ADDRESS": "runtime.illegal-address",
    "CUDA_ERROR_INVALID_ADDRESS_SPACE": "runtime.illegal-address",
    "CUDA_ERROR_MISALIGNED_ADDRESS": "runtime.misaligned-address",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION": "runtime.illegal-instruction",
    "CUDA_ERROR_HARDWARE_STACK_ERROR": "runtime.stack-overflow",
    "CUDA_ERROR_INVALID_PC": "runtime.fault",
    "CUDA_ERROR_LAUNCH_FAILED": "runtime.fault",
    "CUDA_ERROR_ASSERT": "runtime.device-assert",
    "CUDA_ERROR_LAUNCH_TIMEOUT": "runtime.timeout",
    "CUDA_ERROR_TENSOR_MEMORY_LEAK": "runtime.fault",
}
CUDA_RECOVERABLE = {
    "CUDA_ERROR_OUT_OF_MEMORY": "runtime.out-of-memory",
    "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES": "runtime.launch-out-of-resources",
    "CUDA_ERROR_INVALID_VALUE": "runtime.launch-invalid",
    "CUDA_ERROR_INVALID_IMAGE": "runtime.module-load",
    "CUDA_ERROR_NO_BINARY_FOR_GPU": "runtime.module-load",
    "CUDA_ERROR_UNSUPPORTED_PTX_VERSION": "runtime.module-load",
    "CUDA_ERROR_NOT_FOUND": "runtime.kernel-not-found",
    "CUDA_ERROR_INVALID_CLUSTER_SIZE": "runtime.launch-invalid",
    "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE": "runtime.launch-invalid",
}


def lookup(rule_id: str) -> Rule:
    """The catalogued Rule for ``rule_id``; a KeyError that names the id when it is not catalogued."""
    return RULES[rule_id]


# --- docs/rules.md -------------------------------------------------------------------------------------------------
def markdown() -> str:
    """The text of docs/rules.md."""
    out = ["# Diagnostic rules", "",
           "<!-- generated from kopt/rules.py by `kopt rules --markdown > docs/rules.md`; do not edit -->", "",
           "Every finding kopt reports (compiler errors, static-analysis hazards, runtime faults, correctness "
           "failures, timing rejections, profiler and sanitizer findings) is a Diagnostic with one of these rule ids. "
           "The severity is the rule's default; a finding may carry another (the text says when). `kopt rules` "
           "prints this catalogue; `kopt rules --json` gives it as data.", "",
           "| rule | severity | family | summary |", "| --- | --- | --- | --- |"]
    out += [f"| [`{r.id}`](#{_anchor(r.id)}) | {r.severity.value} | {r.family} | {_md(r.summary)} |" for r in _ALL]
    for r in _ALL:
        out += ["", f"## {r.id}", "", f"**{r.severity.value}** · family `{r.family}` · {_md(r.summary)}", "",
                _md(r.help)]
        if r.hint:
            out += ["", f"Hint: {_md(r.hint)}"]
    out += ["", "## CUDA driver errors", "",
            "The worker maps the CUDA driver's errors to runtime rules. Sticky errors leave the CUDA context unusable, "
            "so the worker exits and the next request starts a fresh one; any error reported while waiting for a "
            "kernel is treated as sticky. Any other `CUDA_ERROR_*` is `runtime.cuda-error`, with the error's name in "
            "the message.", "",
            "| CUDA error | rule | sticky |", "| --- | --- | --- |"]
    out += [f"| `{name}` | `{rid}` | yes |" for name, rid in CUDA_STICKY.items()]
    out += [f"| `{name}` | `{rid}` | no |" for name, rid in CUDA_RECOVERABLE.items()]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    """Plain text for Markdown: ``__syncthreads()`` and ``CUDA_ERROR_*`` must not turn into emphasis."""
    parts = text.split("`")  # code spans (odd parts) stay as they are
    return "`".join(p if i % 2 else p.replace("_", r"\_").replace("*", r"\*").replace("|", r"\|")
                    for i, p in enumerate(parts))


def _anchor(rule_id: str) -> str:
    return rule_id.replace(".", "")  # GitHub's heading anchors drop dots and keep hyphens

