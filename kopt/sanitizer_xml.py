"""compute-sanitizer's XML records (``--xml --save FILE``) as the text records ``kopt.sanitize`` classifies.

The documented layout is ``<ComputeSanitizerOutput>`` holding ``<record>`` elements, each with a ``<kind>`` and a
``<what>`` whose ``<text>`` is the report's one-line description (the header of the text output), plus fields such as
the thread and block ids, the access size, the address and the device stack. Per-kind fields are not documented in
detail, so this reader takes them where they are found in a record: ``threadIdx``/``blockIdx`` (or ``threadId``/
``blockId``; ``x``/``y``/``z`` children or ``(x,y,z)`` text), any element with ``path`` (or ``file``) and ``line``
children or attributes (a frame: the access site, ``<where>`` in the H200's captures), an ``address``, the severity
from ``<severity>`` or ``<level>``. Each record becomes ``(header, lines)`` in the text output's wording, so both paths share one classifier
and one Diagnostic builder, and the same run's text and XML must give the same findings (``tests/gpu``).
"""
from __future__ import annotations

import os
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
    """A frame's field, as a child element (``<line>7</line>``) or an attribute (``line="7"``)."""
    child = _text(_child(el, *names))
    if child:
        return child
    wanted = {n.lower() for n in names}
    return next((v.strip() for k, v in el.attrib.items() if _local(k) in wanted), "")


def _as_text_header(header: str, what: ET.Element | None, severity: str, address: str, block: str | None) -> str:
    """The XML's short description in the text output's wording where the two differ (compute-sanitizer 2025+):
    a barrier error names its kind in ``<type>``; a racecheck hazard's text lacks its place and severity."""
    kind = _text(_child(what, "type")) if what is not None else ""
    if header == "Barrier error" and kind:
        return f"Barrier error detected. {kind}."
    if header.startswith("Potential ") and header.endswith("hazard detected"):
        where = f" at __shared__ {address}" if address else ""
        return f"{severity or 'Warning'}: {header}{where} in block ({block or '0,0,0'}) :"
    return header


def _dim(record: ET.Element, *names: str) -> str | None:
    """``x,y,z`` of the first element named one of ``names`` (x/y/z children or "(x, y, z)" text)."""
    wanted = {n.lower() for n in names}
    el = next((e for e in record.iter() if _local(e.tag) in wanted), None)
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
        what = _child(rec, "what")
        header = _text(_child(what if what is not None else rec, "text"))
        if not header:
            continue
        thread, block = _dim(rec, "threadIdx", "threadId"), _dim(rec, "blockIdx", "blockId")
        address = next((_text(e) for e in rec.iter() if _local(e.tag) == "address" and _text(e)), "")
        severity = (_text(_child(rec, "severity")) or _text(_child(rec, "level"))).capitalize()
        header = _as_text_header(header, what, severity, address, block)
        if severity in ("Error", "Warning", "Info") and not header.startswith(("Error:", "Warning:", "Info:")):
            header = f"{severity}: {header}"
        parents = {c: p for p in rec.iter() for c in p}
        lines = []
        for el in rec.iter():
            file, line, fn = _field(el, "file", "fileName", "path"), _field(el, "line", "lineNumber"), \
                _field(el, "function", "functionName", "func")
            if file and line.isdigit():  # the text output names the file without its folder
                lines.append(f"{_access(el, parents)} at {fn or '?'} in {os.path.basename(file)}:{line}".strip())
        if thread or block:
            lines.append(" ".join(p for p in (f"by thread ({thread})" if thread else "",
                                               f"in block ({block})" if block else "") if p))
        if address:
            lines.append(f"Address {address}")
        out.append((header, lines))
    return out
