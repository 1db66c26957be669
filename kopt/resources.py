"""Where kopt's files live: the data it ships (the knowledge base and the bench tasks) and the user's own folders.

A wheel carries ``kb/`` and ``bench/tasks/`` inside the package as ``kopt/_data`` (CMakeLists.txt installs them);
a checkout, and an editable install of it, reads them from the repository itself so that edits show at once.
The user's folders follow the platform's conventions (platformdirs): promoted kernels are data and survive clearing
the cache; compiled kernels and search indexes are cache.
"""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

_PACKAGE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder holding ``kb/`` and ``bench/tasks/``."""
    bundled = _PACKAGE / "_data"
    return bundled if (bundled / "kb").is_dir() else _PACKAGE.parent


def kb_root() -> Path:
    return data_root() / "kb"


def bench_tasks() -> Path:
    return data_root() / "bench" / "tasks"


def cache_dir() -> Path:
    """Compile cache and search indexes: ``KOPT_CACHE_DIR``, else the platform's cache folder (honours
    ``XDG_CACHE_HOME``)."""
    env = os.environ.get("KOPT_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("kopt", appauthor=False))


def data_dir() -> Path:
    """The user's own data (promoted kernels): ``KOPT_DATA_DIR``, else the platform's data folder (honours
    ``XDG_DATA_HOME``)."""
    env = os.environ.get("KOPT_DATA_DIR")
    return Path(env) if env else Path(platformdirs.user_data_dir("kopt", appauthor=False))
