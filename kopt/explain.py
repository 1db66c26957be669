"""What a kernel lowered to and how it occupies the GPU: the library behind ``kopt explain`` and the agent's
``explain`` tool. A candidate is compiled at its configuration (defaults under the user's ``-D`` values) and its
occupancy is figured at the block size and dynamic shared memory its launches declare (``kopt.geometry``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .archs import device_constants, limits_or_none
from .artifact import Artifact
from .candidate import load_candidate
from .compiler import compile as kopt_compile
from .errors import InputError
from .geometry import LaunchGeometry, launch_geometry, occupancy_geometry
from .lowering import KernelLowering
from .occupancy import Occupancy
from . import device as _gpu  # noqa: F401  (installs the present GPU's own limits and constants)


@dataclass
class KernelExplanation:
    lowering: KernelLowering
    occupancy: Occupancy | None  # None where kopt knows no limits for the architecture
    geometry_from: str  # where the block size and dynamic smem of the occupancy figure came from


@dataclass
class Explanation:
    artifact: Artifact
    kernels: dict[str, KernelExplanation]
    launches: list[LaunchGeometry] = field(default_factory=list)  # a candidate's launches at its configuration


def compile_file(file: Path, *, arch=None, defines=None, kernels=None, device: dict | None = None,
                 **kwargs) -> tuple[Artifact, list[LaunchGeometry]]:
    """Compile a source file: a candidate at its configuration (its defines, tunables under the user's ``-D``
    values, launched kernels, declared target and include directories), a plain source as given. Also returns a candidate's launch
    geometry at that configuration, checked against the target's limits (``device``: device constants that
    override the GPU's or the architecture's defaults)."""
    cand = load_candidate(Path(file))
    user = dict(defines or {})
    if cand is None:
        return kopt_compile(Path(file), kernels, arch=arch, defines=user, **kwargs), []
    config = cand.config_for(user)
    include_dirs = [*cand.include_dirs, *kwargs.pop("include_dirs", ())]
    art = kopt_compile(Path(file), kernels or cand.kernels(config), arch=arch or cand.arch,
                       defines=cand.compile_defines(config, user), include_dirs=include_dirs, **kwargs)
    return art, launch_geometry(cand, config, arch=art.arch, defines=user,
                                device=device_constants(art.arch, device))


def explain(file: Path, *, arch=None, defines=None, kernels=None, block: int | None = None, smem: int | None = None,
            **compile_options) -> Explanation:
    """Compile ``file`` and explain each kernel; ``block``/``smem`` override the occupancy figure's geometry."""
    art, launches = compile_file(file, arch=arch, defines=defines, kernels=kernels, **compile_options)
    lim = limits_or_none(art.arch)  # None: no limits known, the report goes on without occupancy
    if lim and block is not None and not 0 < block <= lim.max_threads_per_block:
        raise InputError(f"--block {block}: a block has 1 to {lim.max_threads_per_block} threads on {art.arch}")
    if lim and smem is not None and not 0 <= smem <= lim.smem_per_block_optin:
        raise InputError(f"--smem {smem}: dynamic shared memory is 0 to {lim.smem_per_block_optin} bytes per block "
                         f"on {art.arch}")
    out = {}
    for name, rep in art.lowering().items():
        b, s, origin = occupancy_geometry(launches, name, block, smem)
        occ = art.occupancy(name, block_size=b, dynamic_smem=s) if lim else None
        out[name] = KernelExplanation(rep, occ, origin)
    return Explanation(art, out, launches)
