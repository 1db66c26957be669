"""What the wheel promises: bundled data found wherever kopt is installed, optional features behind extras that say
how to install them, and a [dev] install that still pulls everything."""
import sys
import tomllib
from pathlib import Path

import pytest

from kopt import resources
from kopt.errors import ToolchainError
from kopt.extras import EXTRAS, require

ROOT = Path(__file__).resolve().parents[1]


def test_bundled_data_in_a_checkout():
    assert resources.data_root() == ROOT
    assert (resources.kb_root() / "docs").is_dir()
    assert (resources.bench_tasks() / "vector_add" / "task.toml").is_file()


def test_bundled_data_in_an_installed_package(tmp_path, monkeypatch):
    """An installed wheel carries kb/ and bench/tasks/ as kopt/_data, which wins over anything around it."""
    (tmp_path / "kopt" / "_data" / "kb").mkdir(parents=True)
    (tmp_path / "kb").mkdir()  # e.g. an unrelated folder in site-packages
    monkeypatch.setattr(resources, "_PACKAGE", tmp_path / "kopt")
    assert resources.data_root() == tmp_path / "kopt" / "_data"
    assert resources.bench_tasks() == tmp_path / "kopt" / "_data" / "bench" / "tasks"


def test_user_folders_follow_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("KOPT_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("KOPT_DATA_DIR", str(tmp_path / "d"))
    assert resources.cache_dir() == tmp_path / "c" and resources.data_dir() == tmp_path / "d"
    monkeypatch.delenv("KOPT_CACHE_DIR")
    monkeypatch.delenv("KOPT_DATA_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xc"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xd"))
    assert resources.cache_dir() == tmp_path / "xc" / "kopt"
    assert resources.data_dir() == tmp_path / "xd" / "kopt"


@pytest.mark.parametrize("module", sorted(EXTRAS))
def test_a_missing_extra_names_its_install_command(module, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)  # import now fails as if not installed
    with pytest.raises(ToolchainError, match=rf"pip install 'kopt\[{EXTRAS[module][0]}\]'"):
        require(module)


def test_extras_match_the_project_metadata():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    core = " ".join(project["dependencies"])
    for module, (extra, _) in EXTRAS.items():
        assert module in " ".join(extras[extra]) and module not in core, module
    assert "cuda-core" not in core  # never imported: not a dependency
    assert "nvidia-cuda-cupti" in core and "tomli-w" in core and "platformdirs" in core
    assert "kopt[all]" in extras["dev"] and "kopt[ray]" in extras["dev"]
    named = extras["all"][0]
    assert all(e in named for e in ("plot", "tune", "agent", "mcp", "cutlass"))
