"""One SQLite file per corpus: a ``chunk`` table (file, byte range, name, tags, arch range, identifier words) and a
contentless FTS5 table over name, path, tags, identifiers, body and sidecar metadata. Contentless means the index
keeps no copy of the text: ``show`` reads the file at the stored offsets. A corpus is rebuilt into a temporary file
and renamed into place, so readers never see half an index."""
from __future__ import annotations

import os
import re
import sqlite3
import time
from pathlib import Path

from .chunks import Chunk, chunk_file, slug, words
from .tags import search_words

FORMAT = 2  # bump when chunking, tags or the schema change; stale indexes are rebuilt
WEIGHTS = (6.0, 3.0, 4.0, 1.5, 1.0, 2.0)  # bm25 weights: name, path, tags, terms, body, meta
SIDECARS = ("{stem}.toml", "meta.toml", "task.toml")

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE chunk(rowid INTEGER PRIMARY KEY, id TEXT UNIQUE, name TEXT, kind TEXT, path TEXT, start INTEGER,
                   end INTEGER, line INTEGER, tags TEXT, arch_lo INTEGER, arch_hi INTEGER, terms TEXT,
                   loops INTEGER, syncs INTEGER, sidecar TEXT, mtime_ns INTEGER, size INTEGER);
CREATE VIRTUAL TABLE fts USING fts5(name, path, tags, terms, body, meta, content='',
                                    tokenize='porter unicode61');
"""
_SM = re.compile(r"\bsm_?(\d{2,3})(a?)\b", re.I)


def normalize(text: str) -> str:
    """``sm_90a`` and ``sm90`` index and query alike (the tokenizer would split ``sm_90`` into two words)."""
    return _SM.sub(lambda m: f"sm{m.group(1)} sm{m.group(1)}{m.group(2)}", text)


def sidecar(file: Path) -> Path | None:
    for pat in SIDECARS:
        p = file.with_name(pat.format(stem=file.stem))
        if p.is_file():
            return p
    return None


def build(db: Path, root: Path, files: list[Path], prefix: str, *, signature: str = "", source: str = "",
          progress=None) -> dict:
    """Index ``files`` (under ``root``) into ``db``; chunk ids are ``prefix + relative path + ::name / #section``.
    ``signature`` identifies the content indexed; ``source`` is the path a user indexed (to index it again).
    The last folders of ``root`` are searchable with each path (``cutlass/gemm/collective/sm90_...``)."""
    context = "/".join(root.parts[-3:])
    t0 = time.perf_counter()
    db.parent.mkdir(parents=True, exist_ok=True)
    tmp = db.with_name(f".{db.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        con.executescript(_SCHEMA)
        seen: set[str] = set()
        n_chunks = skipped = 0
        for i, f in enumerate(files):
            rel = f.relative_to(root).as_posix()
            try:
                src, st = f.read_bytes(), f.stat()
            except OSError:  # unreadable (permissions, a dangling link): left out and counted
                skipped += 1
                continue
            side = sidecar(f)
            meta_text = side.read_text(errors="replace") if side else ""
            for c in chunk_file(src, rel):
                cid = _unique(f"{prefix}{rel}" + (f"#{slug(c.name)}" if c.kind == "note" else f"::{c.name}"),
                              c, seen)
                cur = con.execute(
                    "INSERT INTO chunk(id,name,kind,path,start,end,line,tags,arch_lo,arch_hi,terms,loops,syncs,"
                    "sidecar,mtime_ns,size) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (cid, c.name, c.kind, rel, c.start, c.end, c.line, f" {' '.join(c.tags)} ", c.arch_lo,
                     c.arch_hi, " ".join(c.terms), c.loops, c.syncs,
                     side.relative_to(root).as_posix() if side else "", st.st_mtime_ns, st.st_size))
                body = src[c.start:c.end].decode(errors="replace")
                con.execute("INSERT INTO fts(rowid,name,path,tags,terms,body,meta) VALUES(?,?,?,?,?,?,?)",
                            (cur.lastrowid, _name_terms(c, f.stem), normalize(f"{context}/{rel}"),
                             " ".join(c.tags) + " " + search_words(c.tags), " ".join(c.terms), normalize(body),
                             normalize(meta_text)))
                n_chunks += 1
            if progress:
                progress(i + 1, len(files))
        stats = {"root": str(root), "files": len(files) - skipped, "skipped": skipped, "chunks": n_chunks,
                 "seconds": round(time.perf_counter() - t0, 2)}
        con.executemany("INSERT INTO meta VALUES(?,?)", [("format", str(FORMAT)), ("signature", signature),
                                                        ("source", source), *((k, str(v)) for k, v in stats.items())])
        con.commit()
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)
        raise
    con.close()
    os.replace(tmp, db)
    return stats


def _name_terms(c: Chunk, stem: str) -> str:
    """Each word of the name once (a heading that repeats ``sm_90`` should not outweigh the question); for code
    also ``kernel`` for a ``__global__`` function and the file's name (``sm90_mma_tma_..._warpspecialized``)."""
    text = normalize(c.name if c.kind == "note" else f"{c.name} {stem}").lower()
    found = re.findall(r"[a-z0-9]+", text) + words(c.name) + (["kernel"] if "kernel" in c.terms else [])
    return " ".join(dict.fromkeys(found))


def _unique(cid: str, c: Chunk, seen: set[str]) -> str:
    if cid in seen:
        cid = f"{cid}@L{c.line}"
    seen.add(cid)
    return cid


def read_meta(con: sqlite3.Connection) -> dict[str, str]:
    return dict(con.execute("SELECT key, value FROM meta"))


def query(con: sqlite3.Connection, match: str, *, arch: int | None = None, tags=(), kind: str | None = None,
          limit: int = 10) -> list[sqlite3.Row]:
    where, args = ["fts MATCH ?"], [match]
    if arch is not None:
        where.append("(c.arch_lo IS NULL OR c.arch_lo <= ?) AND (c.arch_hi IS NULL OR c.arch_hi >= ?)")
        args += [arch, arch]
    for t in tags:
        where.append("instr(c.tags, ?) > 0")
        args.append(f" {t} ")
    if kind:
        where.append("c.kind = ?")
        args.append(kind)
    sql = (f"SELECT c.*, bm25(fts, {', '.join(map(str, WEIGHTS))}) AS score FROM fts JOIN chunk c "
           f"ON c.rowid = fts.rowid WHERE {' AND '.join(where)} ORDER BY score LIMIT ?")
    return con.execute(sql, (*args, limit)).fetchall()


def lookup(con: sqlite3.Connection, cid: str) -> sqlite3.Row | None:
    return con.execute("SELECT * FROM chunk WHERE id = ?", (cid,)).fetchone()
