"""GPU: the limits kopt uses for occupancy are read from the device when one of that architecture is present, and on
the GPUs kopt has a table row for they agree with it."""
import dataclasses

import pytest

from kopt import archs
from kopt.device import device_limits, probe

pytestmark = pytest.mark.gpu


def test_device_limits_match_the_table_row():
    info, why = probe()
    assert info is not None, why
    arch = f"sm_{info.cc[0]}{info.cc[1]}"
    read = device_limits(arch)
    assert read is not None and read.cc == info.cc
    assert archs.limits(arch) == read  # the device wins where it is present
    row = archs._TABLE.get(arch)
    if row is None:
        pytest.skip(f"kopt has no table row for {arch} to compare with")
    table = archs.ArchLimits(name=arch, **archs._BASE, **row)
    assert dataclasses.asdict(read) == dataclasses.asdict(table)
    assert device_limits(arch + "a") == dataclasses.replace(read, name=arch + "a")
