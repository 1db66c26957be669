"""Targets: every architecture the bundled NVRTC supports compiles, with its a/f variants; what NVRTC refuses and what
needs an architecture-specific target come back as Diagnostics naming the target."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import kopt
from kopt import archs
from kopt.errors import CompileError, InputError

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def test_targets_come_from_nvrtc():
    numbers = archs.nvrtc_archs()
    assert numbers and list(numbers) == sorted(numbers) and 90 in numbers
    targets = archs.supported()
    for n in numbers:
        assert f"sm_{n}" in targets
        assert (f"sm_{n}a" in targets) == (n >= 90)
        assert (f"sm_{n}f" in targets) == (n >= 100)


@pytest.mark.parametrize("arch", archs.supported())
def test_every_supported_target_compiles(arch):
    art = kopt.compile(DATA / "copy_float4.cu", arch=arch, use_cache=False)
    assert art.arch == arch and art.cubin and art.kernels["copy4"].resources.registers > 0


def test_nvrtc_refusing_a_variant_is_a_diagnostic():
    """sm_90f names a real architecture, but NVRTC has no family variant before sm_100."""
    with pytest.raises(InputError) as info:
        kopt.compile(DATA / "copy_float4.cu", arch="sm_90f", use_cache=False)
    assert "sm_90f" in info.value.message
    assert [d.rule for d in info.value.diagnostics] == ["compile.unsupported-arch"]


@pytest.mark.parametrize("arch", ["sm_70", "sm_80a", "sm_75f", "compute_90", "sm_9O", ""])
def test_unknown_targets_are_input_errors_listing_the_supported_ones(arch):
    with pytest.raises(InputError, match="unknown arch .* sm_75, sm_80"):
        archs.check(arch)


def test_arch_specific_instruction_on_a_generic_target_names_the_right_target():
    with pytest.raises(CompileError) as info:
        kopt.compile(DATA / "wgmma_sm90a.cu", arch="sm_90", use_cache=False)
    named = [d for d in info.value.diagnostics if d.witness and d.witness.get("needs") == "sm_90a"]
    assert named and all("sm_90a" in d.hint and d.witness["instruction"].startswith("wgmma") for d in named)


def test_limits_rows_and_architectures_without_one():
    assert archs.limits("sm_75").max_threads_per_sm == 1024
    assert archs.limits("sm_120a").smem_per_block_optin == 99 * 1024
    assert archs.limits("sm_100f").cc == (10, 0)
    missing = [t for t in archs.supported() if archs.base(t) not in archs._TABLE]
    if not missing:
        pytest.skip("this NVRTC supports no architecture without a limits row")
    with pytest.raises(archs.NoLimits, match=f"occupancy unavailable for {missing[0]}"):
        archs.limits(missing[0])
    assert archs.limits_or_none(missing[0]) is None


def test_explain_without_limits_says_occupancy_is_unavailable():
    missing = [t for t in archs.supported() if archs.base(t) not in archs._TABLE]
    if not missing:
        pytest.skip("this NVRTC supports no architecture without a limits row")
    cmd = [sys.executable, "-m", "kopt.cli", "explain", str(DATA / "copy_float4.cu"), "--arch", missing[0]]
    p = subprocess.run(cmd, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert f"occupancy unavailable for {missing[0]}" in p.stdout
    j = json.loads(subprocess.run(cmd + ["--json"], capture_output=True, text=True).stdout)
    assert j["ok"] and j["lowering"]["copy4"]["occupancy"] is None
