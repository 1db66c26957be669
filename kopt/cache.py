"""On-disk compile cache: one directory per key, published with an atomic rename."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

FORMAT = 1  # bump when what is stored changes
COUNTS = {"lookups": 0, "hits": 0, "stores": 0}  # this process's use of the cache (kopt cache info, tests)


def cache_dir() -> Path:
    env = os.environ.get("KOPT_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "kopt")


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
    return final


def put_file(entry: Path, name: str, data: bytes) -> None:
    """Add a derived file (e.g. SASS) to an existing entry atomically."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}-", dir=entry)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, entry / name)


def stats() -> dict:
    root = _entries()
    entries = [p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")] if root.exists() else []
    size = sum(f.stat().st_size for p in entries for f in p.iterdir())
    return {"path": str(root), "entries": len(entries), "bytes": size, "this_process": dict(COUNTS)}


def clear() -> int:
    root = _entries()
    n = 0
    if root.exists():
        for p in root.iterdir():
            shutil.rmtree(p, ignore_errors=True)
            n += 1
    return n
