"""compute-sanitizer's XML records (``--xml --save FILE``) as the text records ``kopt.sanitize`` classifies.

The documented layout is ``<ComputeSanitizerOutput>`` holding ``<record>`` elements, each with a ``<kind>`` and a
``<what>`` whose ``<text>`` is the report's one-line description (the header of the text output), plus fields such as
the thread and block ids, the access size, the address and the device stack. Per-kind fields are not documented in
detail, so this reader takes them where they are found in a record: ``threadId``/``blockId`` (``x``/``y``/``z``
children or ``(x,y,z)`` text), any element with ``file`` and ``line`` children or attributes (a frame: the access
site), an ``address``. Each record becomes ``(header, lines)`` in the text output's wording, so both paths share one classifier
and one Diagnostic builder, and the same run's text and XML must give the same findings (``tests/gpu``).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

ROOT = "ComputeSanitizerOutput"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()  # without a namespace, case-insensitive


def _child(el: ET.Element, *names: str) -> ET.Element | None:
    wanted = {n.lower() for n in names}
    return next((c for c in el if _local(c.tag) in wanted), None)


def _text(el: ET.Element | None) -> str:
    return "".join(el.itertext()).strip() if el is not None else ""


def _field(el: ET.Element, *names: str) -> str:
    """A frame's field, as a child element (``<file>k.cu</file>``) or an attribute (``file="k.cu"``)."""
    child = _text(_child(el, *names))
    if child:
        return child
    wanted = {n.lower() for n in names}
    return next((v.strip() for k, v in el.attrib.items() if _local(k) in wanted), "")


def _dim(record: ET.Element, name: str) -> str | None:
    """``x,y,z`` of the first ``name`` element (x/y/z children or "(x, y, z)" text)."""
    el = next((e for e in record.iter() if _local(e.tag) == name.lower()), None)
    if el is None:
        return None
    parts = [_text(_child(el, axis)) for axis in ("x", "y", "z")]
    if all(parts):
        return ",".join(parts)
    text = _text(el).strip("() ")
    return ",".join(p.strip() for p in text.split(",")) if text else None


def _access(frame: ET.Element, parents: dict) -> str:
    """"Write" or "Read" when the frame, or an element around it, says which access it is."""
    el = frame
    while el is not None:
        words = " ".join([_local(el.tag), *el.attrib.values(), _text(_child(el, "type", "accessType", "access"))])
        for word in ("Write", "Read"):
            if word.lower() in words.lower():
                return word
        el = parents.get(el)
    return ""


def records(xml_text: str) -> list[tuple[str, list[str]]]:
    """``(header, lines)`` for every ``<record>`` with a description; a ValueError for a document that is not
    compute-sanitizer XML."""
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise ValueError(f"not XML: {exc}") from None
    if _local(root.tag) != ROOT.lower():
        raise ValueError(f"root element <{root.tag}>, expected <{ROOT}>")
    out = []
    for rec in root.iter():
        if _local(rec.tag) != "record":
            continue
        header = _text(_child(_child(rec, "what") or rec, "text"))
        if not header:
            continue
        severity = _text(_child(rec, "severity")).capitalize()
        if severity in ("Error", "Warning", "Info") and not header.startswith(("Error:", "Warning:", "Info:")):
            header = f"{severity}: {header}"
        parents = {c: p for p in rec.iter() for c in p}
        lines = []
        for el in rec.iter():
            file, line, fn = _field(el, "file", "fileName"), _field(el, "line", "lineNumber"), \
                _field(el, "function", "functionName", "func")
            if file and line.isdigit():
                lines.append(f"{_access(el, parents)} at {fn or '?'} in {file}:{line}".strip())
        thread, block = _dim(rec, "threadId"), _dim(rec, "blockId")
        if thread or block:
            lines.append(" ".join(p for p in (f"by thread ({thread})" if thread else "",
                                               f"in block ({block})" if block else "") if p))
        address = next((_text(e) for e in rec.iter() if _local(e.tag) == "address" and _text(e)), "")
        if address:
            lines.append(f"Address {address}")
        out.append((header, lines))
    return out
