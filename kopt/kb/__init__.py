"""Knowledge base retrieval: ``search`` (BM25 over code, notes and metadata, with tag and arch filters), ``show``
(a chunk's source read from its file, plus its sidecar metadata), ``like`` (kernels similar to a source file) and
``index`` (add a user's own corpus, such as a CUTLASS checkout, without copying it).

Indexes live under ``KOPT_CACHE_DIR/kb``: ``project.sqlite`` covers ``kb/cutlass_examples/**``, ``kb/docs/*.md`` and
``bench/tasks/*/baseline.cu`` as kopt ships them (``kopt.resources``) and is rebuilt whenever one of those files changes; each
``kopt kb index PATH`` writes ``user/<name>-<hash>.sqlite``. A sidecar ``<stem>.toml``, ``meta.toml`` or
``task.toml`` next to a kernel is indexed with it and shown by ``show`` (what it demonstrates, measured figures).
"""
from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path

from ..resources import cache_dir, data_root
from ..errors import InputError
from . import store
from .chunks import CODE_SUFFIXES, NOTE_SUFFIXES, chunk_file, words
from .tags import TAGS, parse_arch

__all__ = ["Hit", "search", "show", "like", "index", "TAGS"]

_STOP = set("""a an and are as at be by can do does for from how i in into is it its me my of on or show that the
this to use using what when where which why with without""".split())
# query words -> words the corpus may use instead
_SYNONYMS = {"fp32": "f32", "f32": "fp32", "fp16": "f16 half", "half": "f16 fp16", "bfloat16": "bf16",
             "matmul": "gemm", "sgemm": "gemm f32", "hgemm": "gemm f16", "multiply": "gemm",
             "bandwidth": "gb tb", "deadlock": "hang", "hang": "deadlock timeout", "smem": "shared"}
_connections: dict[Path, tuple[tuple, sqlite3.Connection]] = {}


@dataclass
class Hit:
    id: str
    name: str
    kind: str            # "code" or "note"
    file: str            # absolute path of the file the chunk is in
    line: int
    tags: list[str]
    arch: str            # e.g. "sm_80+", "sm_90 only", "any"
    score: float         # relevance relative to the best match in the same index (1.0); higher is better

    def to_dict(self) -> dict:
        return asdict(self)


def _kb_dir() -> Path:
    return cache_dir() / "kb"


def _project_files() -> list[Path]:
    r = data_root()
    files = [p for p in (r / "kb" / "cutlass_examples").rglob("*") if p.suffix in CODE_SUFFIXES]
    files += (r / "kb" / "docs").glob("*.md")
    files += (r / "bench" / "tasks").glob("*/baseline.cu")
    return sorted(p for p in files if p.is_file())


def _signature(files: list[Path]) -> str:
    h = hashlib.sha1(str(store.FORMAT).encode())
    for p in files:
        st = p.stat()
        h.update(f"{p}\0{st.st_mtime_ns}\0{st.st_size}\0".encode())
        side = store.sidecar(p)
        if side:
            h.update(f"{side}\0{side.stat().st_mtime_ns}\0".encode())
    return h.hexdigest()


def _connect(db: Path) -> sqlite3.Connection:
    """A cached read connection, reopened when the file was replaced by a rebuild."""
    st = db.stat()
    ino = (st.st_ino, st.st_mtime_ns)
    cached = _connections.get(db)
    if cached and cached[0] == ino:
        return cached[1]
    if cached:
        cached[1].close()
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
    con.row_factory = sqlite3.Row
    _connections[db] = (ino, con)
    return con


def _project_db() -> Path:
    db = _kb_dir() / "project.sqlite"
    files = _project_files()
    sig = _signature(files)
    if not db.exists() or store.read_meta(_connect(db)).get("signature") != sig:
        store.build(db, data_root(), files, "", signature=sig)
    return db


def _user_dbs() -> list[Path]:
    out = []
    for db in sorted((_kb_dir() / "user").glob("*.sqlite")):
        meta = store.read_meta(_connect(db))
        if meta.get("format") != str(store.FORMAT):  # indexed by an older kopt: index its root again
            index(meta["source"])
        out.append(db)
    return out


def _databases() -> list[tuple[Path, Path]]:
    """(database, root its paths are relative to) for the project index and every user index."""
    out = [(_project_db(), data_root())]
    out += [(db, Path(store.read_meta(_connect(db))["root"])) for db in _user_dbs()]
    return out


def _arch_text(lo, hi) -> str:
    if lo is None:
        return "any"
    return f"sm_{lo} only" if hi == lo else f"sm_{lo}+"


def _hit(row, root: Path, score: float) -> Hit:
    return Hit(row["id"], row["name"], row["kind"], str(root / row["path"]), row["line"], row["tags"].split(),
               _arch_text(row["arch_lo"], row["arch_hi"]), round(score, 4))


def _match(terms) -> str:
    return " OR ".join(f'"{t}"' for t in dict.fromkeys(terms))


def _query_terms(query: str) -> list[str]:
    raw = [w for w in re.findall(r"[A-Za-z0-9]+", store.normalize(query).lower()) if w not in _STOP]
    if not raw:
        return []
    extra = [w for t in raw for w in _SYNONYMS.get(t, "").split()] + words(query)
    return raw + [w for w in extra if w not in raw and w not in _STOP]


def _check_tags(tags) -> list[str]:
    tags = list(tags or [])
    unknown = [t for t in tags if t not in TAGS]
    if unknown:
        raise InputError(f"unknown tag {unknown[0]!r}; known tags: {', '.join(TAGS)}")
    return tags


def search(query: str, arch: str | None = None, tags=None, limit: int = 10) -> list[Hit]:
    """The best ``limit`` chunks for ``query`` (BM25; name, tags and path weigh most), the project index and each
    user index merged by relative score. ``arch`` keeps chunks that can run on that architecture; every tag in
    ``tags`` must have been found in the chunk."""
    terms = _query_terms(query or "")
    if not terms:
        raise InputError("empty query: give some words to search for (e.g. 'cp.async double buffer')")
    tags = _check_tags(tags)
    cc = parse_arch(arch) if arch else None
    hits = []
    for db, root in _databases():  # BM25 scores of different indexes are not comparable: scale each to its best
        rows = store.query(_connect(db), _match(terms), arch=cc, tags=tags, limit=limit)
        hits += [_hit(row, root, row["score"] / (rows[0]["score"] or -1.0)) for row in rows]
    return sorted(hits, key=lambda h: -h.score)[:limit]


def _find(cid: str):
    for db, root in _databases():
        row = store.lookup(_connect(db), cid)
        if row is not None:
            return row, root
    raise InputError(f"no KB entry {cid!r} (ids come from `kopt kb search`)")


def show(cid: str) -> dict:
    """A chunk by id: its source or note text (read from the file now), tags, arch and sidecar metadata."""
    row, root = _find(cid)
    path = root / row["path"]
    try:
        st = path.stat()
        data = path.read_bytes()
    except OSError:
        raise InputError(f"{path} is gone; run `kopt kb index {root}` again")
    if (st.st_mtime_ns, st.st_size) != (row["mtime_ns"], row["size"]):
        raise InputError(f"{path} changed since it was indexed; run `kopt kb index {root}` again")
    side = root / row["sidecar"] if row["sidecar"] else None
    return {**_hit(row, root, 0.0).to_dict(), "end_line": row["line"] + data.count(b"\n", row["start"], row["end"]),
            "text": data[row["start"]:row["end"]].decode(errors="replace"),
            "metadata_file": str(side) if side else None,
            "metadata": side.read_text(errors="replace") if side and side.is_file() else None}


def _source(source) -> tuple[str, Path | None]:
    if isinstance(source, Path) or ("\n" not in str(source) and "{" not in str(source)):
        p = Path(source)
        if not p.is_file():
            raise InputError(f"cannot read {p}: no such file")
        return p.read_text(errors="replace"), p.resolve()
    return str(source), None


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def like(source, limit: int = 10) -> list[Hit]:
    """Code chunks most like ``source`` (a path or source text): shared technique tags, shared identifiers and
    similar structure (loops, barriers). The file itself is left out when it is in an index."""
    text, own = _source(source)
    chunks = [c for c in chunk_file(text.encode(), "source.cu") if c.kind == "code"]
    q_tags = {t for c in chunks for t in c.tags}
    q_terms = {w for c in chunks for w in c.terms}
    if not q_tags and not q_terms:
        raise InputError("nothing to compare: the source has no identifiers")
    loops, syncs = sum(c.loops for c in chunks), sum(c.syncs for c in chunks)
    match = _match([w for t in sorted(q_tags) for w in re.findall(r"[a-z0-9]+", t)] + sorted(q_terms))
    rows = [(row, root) for db, root in _databases()
            for row in store.query(_connect(db), match, kind="code", limit=200)
            if own is None or (root / row["path"]).resolve() != own]
    best = max((-row["score"] for row, _ in rows), default=1.0) or 1.0
    scored = []
    for row, root in rows:
        shape = 1 - (abs(row["loops"] - loops) + abs(row["syncs"] - syncs)) / (
            row["loops"] + loops + row["syncs"] + syncs + 1)
        s = 0.4 * _jaccard(q_tags, set(row["tags"].split())) + 0.3 * _jaccard(q_terms, set(row["terms"].split())) \
            + 0.15 * shape + 0.15 * (-row["score"] / best)
        scored.append(_hit(row, root, s))
    return sorted(scored, key=lambda h: -h.score)[:limit]


def index(path, progress=None) -> dict:
    """Index every CUDA/C++ source and Markdown note under ``path`` into a user-level index (paths and offsets
    only: nothing is copied). Indexing the same path again replaces its index."""
    root = Path(path).expanduser()
    if not root.exists():
        raise InputError(f"cannot index {root}: no such file or directory")
    root = root.resolve()
    if root.is_file():
        files, base = [root], root.parent
    else:
        files = sorted(p for p in root.rglob("*") if p.suffix in CODE_SUFFIXES + NOTE_SUFFIXES and p.is_file())
        base = root
    if not files:
        raise InputError(f"nothing to index under {root}: no {', '.join(CODE_SUFFIXES + NOTE_SUFFIXES)} files")
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", root.name) or "root"
    db = _kb_dir() / "user" / f"{name}-{hashlib.sha1(str(root).encode()).hexdigest()[:10]}.sqlite"
    prefix = re.sub(r"[^A-Za-z0-9_.-]", "_", base.name) + "/"
    stats = store.build(db, base, files, prefix, source=str(root), progress=progress)
    return {**stats, "index": str(db)}
