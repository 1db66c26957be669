"""On-disk compile cache: one directory per key, published with an atomic rename, kept under a size cap by evicting
the least recently used entries (a hit touches its entry's meta.json)."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from .errors import InputError
from .resources import cache_dir

FORMAT = 1  # bump when what is stored changes
COUNTS = {"lookups": 0, "hits": 0, "stores": 0, "evicted": 0}  # this process's use (kopt cache info, tests)
DEFAULT_MAX_MB = 2048  # the README states this default


def max_bytes() -> int:
    """The cap on the compile entries' total size: ``KOPT_CACHE_MAX_MB`` (megabytes), else DEFAULT_MAX_MB."""
    raw = os.environ.get("KOPT_CACHE_MAX_MB")
    if raw is None:
        return DEFAULT_MAX_MB * 1024 * 1024
    try:
        mb = float(raw)
    except ValueError:
        mb = -1.0
    if mb < 0:
        raise InputError(f"bad KOPT_CACHE_MAX_MB={raw!r}: expected a size in megabytes (0 or more)")
    return int(mb * 1024 * 1024)


def _entries() -> Path:
    return cache_dir() / f"compile-v{FORMAT}"


def load(key: str) -> tuple[dict, Path] | None:
    COUNTS["lookups"] += 1
    d = _entries() / key
    try:
        meta = json.loads((d / "meta.json").read_text())
    except (OSError, ValueError):
        return None
    COUNTS["hits"] += 1
    try:
        os.utime(d / "meta.json")  # most recently used
    except OSError:
        pass
    return meta, d


def store(key: str, meta: dict, blobs: dict[str, bytes]) -> Path:
    """Write into a private temp dir, then rename into place. A concurrent writer of the same key loses the race
    harmlessly: the content is identical by construction of the key."""
    COUNTS["stores"] += 1
    root = _entries()
    root.mkdir(parents=True, exist_ok=True)
    final = root / key
    tmp = Path(tempfile.mkdtemp(prefix=f".{key[:16]}-", dir=root))
    try:
        for name, data in blobs.items():
            (tmp / name).write_bytes(data)
        (tmp / "meta.json").write_text(json.dumps(meta))
        try:
            os.rename(tmp, final)
        except OSError:  # already there (another process won) or not empty
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    evict(keep=final)
    return final


def _entry_list() -> list[tuple[float, int, Path]]:
    """(last use, bytes, folder) of every published entry."""
    root = _entries()
    out = []
    for p in root.iterdir() if root.exists() else ():
        if p.name.startswith(".") or not p.is_dir():
            continue
        try:
            files = list(p.iterdir())
            used = (p / "meta.json").stat().st_mtime
            out.append((used, sum(f.stat().st_size for f in files), p))
        except OSError:  # removed meanwhile by another process
            continue
    return out


def evict(keep: Path | None = None) -> int:
    """Remove least recently used entries until the cache fits under ``max_bytes()``; ``keep`` (the entry just
    stored) stays. Returns how many were removed."""
    cap = max_bytes()
    entries = sorted(_entry_list(), key=lambda e: e[0])
    total = sum(size for _, size, _ in entries)
    n = 0
    for _, size, path in entries:
        if total <= cap:
            break
        if path == keep:
            continue
        shutil.rmtree(path, ignore_errors=True)
        total -= size
        n += 1
    COUNTS["evicted"] += n
    return n


def put_file(entry: Path, name: str, data: bytes) -> None:
    """Add a derived file (e.g. SASS) to an existing entry atomically."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}-", dir=entry)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, entry / name)


def stats() -> dict:
    entries = _entry_list()
    return {"path": str(_entries()), "entries": len(entries), "bytes": sum(size for _, size, _ in entries),
            "max_bytes": max_bytes(), "this_process": dict(COUNTS)}


def clear() -> int:
    root = _entries()
    n = 0
    if root.exists():
        for p in root.iterdir():
            shutil.rmtree(p, ignore_errors=True)
            n += 1
    return n
