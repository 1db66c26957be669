"""The lexical layer of the ``// kopt:`` annotation grammar: annotation lines, bracket-aware splitting,
``key=value`` options and kernel name expressions, each piece remembering its line and column so that every error
points at the offending text. ``kopt.candidate`` builds a Candidate from these pieces; nothing else parses
annotations.
"""
from __future__ import annotations

import re
from typing import Iterator

from .diagnostic import Location
from .errors import InputError
from .expr import ExprError
from .rules import RULES

_ANNOTATION = re.compile(r"^(?P<lead>\s*//\s*kopt:[ \t]*)(?P<body>.*?)\s*$")
_KEY = re.compile(r"(?:^|(?<=\s))([A-Za-z_]\w*)=(?!=)")
_IDENT = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")
_OPEN, _CLOSE = "([{", ")]}"


class Text(str):
    """A piece of an annotation line: the text, its 1-based line and its 0-based column in that line."""

    line: int
    col: int

    def __new__(cls, value: str, line: int = 0, col: int = 0):
        obj = super().__new__(cls, value)
        obj.line, obj.col = line, col
        return obj

    def __reduce__(self):
        return (Text, (str(self), self.line, self.col))

    def part(self, start: int, end: int | None = None) -> "Text":
        """The stripped slice ``[start:end]``, keeping its position."""
        raw = str.__getitem__(self, slice(start, end))
        lead = len(raw) - len(raw.lstrip())
        return Text(raw.strip(), self.line, self.col + start + lead)


class AnnotationError(InputError):
    """A malformed annotation: the message starts with ``file:line:col:``; ``diagnostics`` holds one located
    Diagnostic whose rule says what kind of problem it is."""

    def __init__(self, rule: str, file: str, piece: Text | None, message: str, *, line: int | None = None):
        line = piece.line if piece is not None else (line or 1)
        col = piece.col + 1 if piece is not None else 1
        end = piece.col + max(len(piece), 1) if piece is not None else None
        loc = Location(file, line, col, line if end else None, end, role="annotation")
        super().__init__(f"{file}:{line}:{col}: {message}", diagnostics=[RULES[rule].diag(message, loc)])
        self.rule = rule


def expression_error(exc: ExprError, piece: Text, file: str, what: str = "") -> AnnotationError:
    """An expression error inside ``piece`` (the expression's text), located at the offending sub-span."""
    start, end = exc.span if exc.text.strip() == str(piece) else (0, len(piece))
    where = Text(str(piece)[start:end] or str(piece), piece.line, piece.col + start)
    return AnnotationError(exc.rule, file, where, f"{what}: {exc.message}" if what else exc.message)


def lines(text: str) -> Iterator[tuple[Text, Text]]:
    """(word, rest) of every ``// kopt:`` line; the rest is stripped."""
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _ANNOTATION.match(line)
        if not m:
            continue
        body = Text(m.group("body"), lineno, m.end("lead"))
        word, _, _ = str(body).partition(" ")
        yield body.part(0, len(word)), body.part(len(word))


def brackets_balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch in _OPEN) - (ch in _CLOSE)
        if depth < 0:
            return False
    return depth == 0


def split_top(piece: Text, sep: str = ",", *, angle: bool = False) -> list[Text]:
    """Split on ``sep`` outside brackets; ``angle``: ``<...>`` nest too (template argument lists only — in
    expressions ``<`` is a comparison or a shift)."""
    opens, closes = _OPEN + ("<" if angle else ""), _CLOSE + (">" if angle else "")
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(piece):
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth = max(depth - 1, 0)
        elif ch == sep and depth == 0:
            parts.append(piece.part(start, i))
            start = i + 1
    last = piece.part(start)
    if last or parts:
        parts.append(last)
    return parts


def unparen(piece: Text) -> Text:
    """``(a, b)`` -> ``a, b`` when the parentheses enclose the whole piece."""
    s = str(piece)
    if s.startswith("(") and s.endswith(")") and brackets_balanced(s[1:-1]):
        return piece.part(1, len(s) - 1)
    return piece


def kernel_name(rest: Text, file: str) -> tuple[Text, Text]:
    """Split ``NAME[<targs>] options...`` into the kernel name expression and the rest."""
    m = _IDENT.match(rest)
    if not m:
        raise AnnotationError("annotation.syntax", file, rest.part(0, 1) if rest else rest,
                              "expected: launch KERNEL grid=(...) block=(...) [smem=...] [cluster=(...)] args=(...)")
    end = m.end()
    if end < len(rest) and rest[end] == "<":
        depth = 0
        for i in range(end, len(rest)):
            depth += {"<": 1, ">": -1, "(": 1, ")": -1}.get(rest[i], 0)
            if depth == 0:
                end = i + 1
                break
        else:
            raise AnnotationError("annotation.syntax", file, rest.part(m.end()), "unclosed template argument list")
    name = rest.part(0, end)
    if "=" in str(name):
        raise AnnotationError("annotation.syntax", file, name, "expected a kernel name before the options")
    return name, rest.part(end)


def split_kernel(name: str) -> tuple[str, list[str]]:
    """``"gemm<128, 64>"`` -> ``("gemm", ["128", "64"])``; a plain name has no template arguments."""
    base, lt, targs = str(name).replace(" ", "").partition("<")
    if not lt:
        return base, []
    return base, [str(t) for t in split_top(Text(targs.rsplit(">", 1)[0]), angle=True)]


def options(piece: Text, file: str) -> dict[str, Text]:
    """``key=value`` options. A value runs to the next top-level ``key=``, so ``smem=BLOCK * 4`` and
    ``smem=(1024 if BLOCK < 256 else 0)`` both read whole; keys are distinct."""
    s = str(piece)
    depth, depth_at = 0, []
    for i, ch in enumerate(s):
        if ch in _CLOSE:
            depth -= 1
            if depth < 0:
                raise AnnotationError("annotation.syntax", file, piece.part(i, i + 1), f"unbalanced {ch!r}")
        depth_at.append(depth)
        if ch in _OPEN:
            depth += 1
    if depth:
        raise AnnotationError("annotation.syntax", file, piece, "unbalanced brackets")
    starts = [(m.start(), m.group(1), m.end()) for m in _KEY.finditer(s) if depth_at[m.end() - 1] == 0]
    if not starts and s.strip():
        raise AnnotationError("annotation.syntax", file, piece, f"expected key=value, got {s.strip()!r}")
    if starts and s[:starts[0][0]].strip():
        lead = piece.part(0, starts[0][0])
        raise AnnotationError("annotation.syntax", file, lead, f"expected key=value, got {str(lead)!r}")
    out: dict[str, Text] = {}
    for n, (start, key, value_start) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(s)
        if key in out:
            raise AnnotationError("annotation.duplicate", file, piece.part(start, value_start - 1),
                                  f"option {key}= given twice")
        value = piece.part(value_start, end)
        if not value:
            raise AnnotationError("annotation.syntax", file, piece.part(start, value_start), f"{key}= has no value")
        out[key] = value
    return out
