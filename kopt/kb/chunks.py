"""Split KB files into searchable chunks: CUDA/C++ by function (tree-sitter), Markdown notes by section.

A chunk is a byte range of a file plus what the index needs to find it: its name, the technique tags read from the
code itself (see ``tags.py``), the identifiers it uses (split into words) and a little structure (loops, barriers).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .tags import arch_range, tags_of

CODE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".inl")
NOTE_SUFFIXES = (".md",)

# Walked into when looking for functions; anything else that is not a function is skipped.
_CONTAINERS = {"translation_unit", "namespace_definition", "declaration_list", "template_declaration",
               "linkage_specification", "field_declaration_list", "class_specifier", "struct_specifier",
               "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "ERROR"}
_KEYWORDS = set("""auto bool break case char class const constexpr continue decltype default do double else enum
extern false float for if inline int long namespace nullptr private protected public return short signed sizeof
static struct switch template this true typedef typename union unsigned using void volatile while define include
pragma ifdef ifndef endif once device global host forceinline restrict thread idx block dim grid syncthreads
shared""".split())  # the last line: CUDA built-ins every kernel uses, which say nothing about what it does
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_LOOP = re.compile(r"\b(?:for|while)\s*\(")
_SYNC = re.compile(r"__syncthreads|__syncwarp|bar\.sync|barrier\.|\.sync\(\)|cluster_sync|arrive_and_wait")

_PARSER = None


@dataclass
class Chunk:
    name: str
    kind: str            # "code" or "note"
    start: int           # byte offsets into the file
    end: int
    line: int            # 1-based first line
    tags: list[str] = field(default_factory=list)
    arch_lo: int | None = None
    arch_hi: int | None = None
    terms: list[str] = field(default_factory=list)
    loops: int = 0
    syncs: int = 0


def words(text: str) -> list[str]:
    """Identifier words in ``text``: ``CollectiveMma`` -> collective, mma; ``tma_load`` -> tma, load; no keywords."""
    out: set[str] = set()
    for ident in _IDENT.findall(text):
        for part in re.split(r"_+", ident):
            for w in _CAMEL.findall(part) or [part]:
                w = w.lower()
                if len(w) > 1 and w not in _KEYWORDS:
                    out.add(w)
    return sorted(out)


def _finish(chunk: Chunk, text: str, path: str) -> Chunk:
    chunk.tags = tags_of(text)
    chunk.arch_lo, chunk.arch_hi = arch_range(chunk.tags, path if chunk.kind == "code" else "")
    chunk.terms = words(text) if chunk.kind == "code" else []
    if chunk.kind == "code" and "__global__" in text:
        chunk.terms.append("kernel")
    chunk.loops = len(_LOOP.findall(text))
    chunk.syncs = len(_SYNC.findall(text))
    return chunk


def _parser():
    global _PARSER
    if _PARSER is None:
        import tree_sitter as ts
        import tree_sitter_cuda as tsc
        _PARSER = ts.Parser(ts.Language(tsc.language()))
    return _PARSER


def _func_name(node, src: bytes) -> str:
    d = node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    target = d.child_by_field_name("declarator") if d is not None else None
    if target is None:
        return "?"
    return re.sub(r"\s+", "", src[target.start_byte:target.end_byte].decode(errors="replace"))


def _class_name(node, src: bytes) -> str | None:
    n = node.child_by_field_name("name")
    if n is None:
        return None
    return re.sub(r"<.*", "", src[n.start_byte:n.end_byte].decode(errors="replace"), flags=re.S).strip()


def _start_with_comments(node) -> object:
    """The first of the comments directly above ``node`` (so a function's doc comment is part of its chunk)."""
    first = node
    prev = node.prev_sibling
    while prev is not None and prev.type == "comment" and first.start_point[0] - prev.end_point[0] <= 1:
        first, prev = prev, prev.prev_sibling
    return first


def code_chunks(src: bytes, path: str) -> list[Chunk]:
    """One chunk per function definition (methods named ``Class::method``); a file with no function is one chunk."""
    tree = _parser().parse(src)
    found: list[Chunk] = []

    def visit(node, scope: tuple[str, ...]):
        for child in node.children:
            if child.type == "function_definition":
                outer = child.parent if child.parent is not None and child.parent.type == "template_declaration" \
                    else child
                first = _start_with_comments(outer)
                name = "::".join(scope + (_func_name(child, src),))
                found.append(Chunk(name, "code", first.start_byte, child.end_byte, first.start_point[0] + 1))
            elif child.type in _CONTAINERS:
                inner = scope
                if child.type in ("class_specifier", "struct_specifier"):
                    cname = _class_name(child, src)
                    inner = scope + (cname,) if cname else scope
                visit(child, inner)

    visit(tree.root_node, ())
    if not found:
        found.append(Chunk(path.rsplit("/", 1)[-1], "code", 0, len(src), 1))
    return [_finish(c, src[c.start:c.end].decode(errors="replace"), path) for c in found]


_HEADING = re.compile(rb"^(#{1,3})[ \t]+(.+?)[ \t]*$", re.M)
_FENCE = re.compile(rb"^```", re.M)


def note_chunks(src: bytes, path: str) -> list[Chunk]:
    """One chunk per Markdown section (headings of level 1-3 outside code fences); empty sections are dropped."""
    fences = [m.start() for m in _FENCE.finditer(src)]

    def in_fence(pos: int) -> bool:
        return sum(1 for f in fences if f < pos) % 2 == 1

    heads = [m for m in _HEADING.finditer(src) if not in_fence(m.start())]
    bounds = [(m.start(), m.group(2).decode(errors="replace")) for m in heads]
    if not bounds or bounds[0][0] > 0:
        bounds.insert(0, (0, path.rsplit("/", 1)[-1]))
    out = []
    for i, (start, title) in enumerate(bounds):
        end = bounds[i + 1][0] if i + 1 < len(bounds) else len(src)
        text = src[start:end].decode(errors="replace")
        if len(text.strip().splitlines()) <= 1:
            continue
        out.append(_finish(Chunk(title, "note", start, end, src.count(b"\n", 0, start) + 1), text, path))
    return out


def chunk_file(src: bytes, path: str) -> list[Chunk]:
    return note_chunks(src, path) if path.endswith(NOTE_SUFFIXES) else code_chunks(src, path)


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"
