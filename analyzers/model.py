"""The kernel model the passes read: memory accesses, barriers and async operations, each with the symbolic
condition under which a thread executes it and its barrier phase."""
from __future__ import annotations

from dataclasses import dataclass, field

from .ast import Func, Loc
from .launch import LaunchConfig
from .sym import S


class LoadedBase(str):
    """The name of the buffer a pointer loaded from an array of pointers points to, with the byte offset into that
    array it was loaded from (``owner``, the same in a block: a batched kernel's `dA_array[batchid]`). Pointers loaded
    from different entries are taken to point to disjoint buffers (the race check compares accesses through the same
    entry only); as a string, the name."""

    owner: S

    def __new__(cls, name: str, owner: S):
        made = super().__new__(cls, name)
        made.owner = owner
        return made

    def __reduce__(self):
        return LoadedBase, (str(self), self.owner)


@dataclass
class Ptr:
    """A pointer value: a named allocation (array, parameter) and a byte offset into it."""

    space: str  # shared | global | const | local | unknown
    base: str
    off: S
    elem: int  # bytes per element for pointer arithmetic
    dims: tuple = ()  # remaining static array dimensions (ints or None)
    subs: tuple = ()  # ((index S, dim), ...) subscripts applied so far
    volatile: bool = False
    intaddr: bool = False  # converted to an integer address: arithmetic is in bytes


@dataclass
class Access:
    space: str
    base: str
    offset: S  # bytes
    size: int
    write: bool
    atomic: bool
    value: S | None
    cond: S
    phase: S
    wphase: S
    loc: Loc
    text: str
    seq: int
    elem: int
    subs: tuple = ()
    volatile: bool = False
    via: str = ""  # "" (ordinary), cp.async, tma, asm, curand, memcpy, memset
    loops: tuple = ()  # ids of the enclosing loops, outermost first
    gphase: S | None = None  # grid barriers (grid.sync()) executed before it; None: 0


@dataclass
class Barrier:
    kind: str  # block | warp | named | grid | cuda::barrier
    cond: S
    loc: Loc
    text: str
    seq: int
    phase: S
    checked: bool = True  # named barriers with a thread count are not divergence-checked


@dataclass
class AsyncOp:
    kind: str  # cp_async commit wait fence_proxy tma_load tma_store wgmma mbar_init mbar_arrive mbar_expect mbar_wait
    loc: Loc
    text: str
    seq: int
    cond: S
    ptr: Ptr | None = None
    n: S | None = None  # wait depth / parity
    size: int | None = None
    mbar: Ptr | None = None
    loops: tuple = ()


@dataclass
class SharedArray:
    name: str
    bytes: int | None  # None when unknown (extern without smem=)
    elem: int
    dims: tuple
    loc: Loc | None = None


@dataclass
class KernelModel:
    name: str
    func: Func
    launch: LaunchConfig
    accesses: list[Access] = field(default_factory=list)
    barriers: list[Barrier] = field(default_factory=list)
    asyncs: list[AsyncOp] = field(default_factory=list)
    shared: dict = field(default_factory=dict)  # name -> SharedArray
    dims_used: set = field(default_factory=set)  # "x", "y", "z" of threadIdx/blockDim
    warp_allreduces: list = field(default_factory=list)  # Loc of each xor-butterfly all-reduce over a whole warp
    grid_used: set = field(default_factory=set)  # "x", "y", "z" of blockIdx/gridDim
    trips: dict = field(default_factory=dict)  # uniform trip-count var N -> (iteration var k, loop test at k)
    thread_trips: dict = field(default_factory=dict)  # the same for loops whose trip count depends on the thread
    # a thread-dependent trip count N of a loop around a barrier that may still be the same in every thread ->
    # (k, loop test at k, path condition of each `break`/`return` leaving it): passes.divergence tries to prove it
    maybe_uniform_trips: dict = field(default_factory=dict)
    # facts true in every thread: bounds on loop-carried unknowns (a count only raised is at least its value before
    # the loop), assertions the thread passed (`assert(blockDim.x == 128)`)
    facts: list = field(default_factory=list)
    deltas: dict = field(default_factory=dict)  # iteration var k -> block barriers per iteration of its loop (S)
    loop_trip: dict = field(default_factory=dict)  # iteration var k -> trip count (S) of its loop
    after_loop: dict = field(default_factory=dict)  # unknown of a value after a loop -> the variables it is a function of
    int_fields: set = field(default_factory=set)  # integer fields of by-value struct parameters (``args.n``)
    unsigned_fields: set = field(default_factory=set)  # those of an unsigned type
    problems: list = field(default_factory=list)  # (Loc | None, reason)
    # slot var -> (space, base, offset key) of the counter a positive constant step drew it from, and the seqs of
    # those steps (see passes.context.counting_slots)
    counters: dict = field(default_factory=dict)
    slot_steps: dict = field(default_factory=dict)  # a counter's slot -> how many it reserves (the atomicAdd's step)
    counter_steps: set = field(default_factory=set)
    frontend: str = "libclang"
