"""compute-sanitizer's XML output (``--xml --save``) read into the same findings as its text output.

The XML here follows the layout NVIDIA documents (``<ComputeSanitizerOutput>``, ``<record>``, ``<kind>``,
``<what><text>``, thread/block ids, device stack); its per-kind fields are written for these tests, not captured.
Captured H200 XML goes to tests/data/sanitizer/h200_<tool>_<case>.xml (bench/capture_structured.py) and is checked
against the text captured in the same run, below and on the GPU (tests/gpu/test_gpu_structured.py)."""
from pathlib import Path

import pytest

from kopt.sanitize import _keys, diagnostics
from kopt.sanitizer_xml import records

DATA = Path(__file__).parent / "data" / "sanitizer"

DOCUMENTED = """<?xml version="1.0" encoding="utf-8"?>
<ComputeSanitizerOutput>
  <record>
    <kind>Api</kind>
    <what>
      <text>Program hit cudaErrorMemoryAllocation (error 2) due to out of memory on CUDA API call to cudaMalloc.</text>
      <api>cudaMalloc</api><error>cudaErrorMemoryAllocation</error><message>out of memory</message><result>2</result>
    </what>
    <hostStack><frame><function>main</function></frame></hostStack>
  </record>
</ComputeSanitizerOutput>
"""


def _memcheck(thread: int) -> str:
    return f"""  <record>
    <kind>Memcheck</kind>
    <what><text>Invalid __global__ write of size 4 bytes</text><size>4</size></what>
    <threadId><x>{thread}</x><y>0</y><z>0</z></threadId><blockId><x>0</x><y>0</y><z>0</z></blockId>
    <address>0x7fe7e48004{thread:02x}</address>
    <deviceStack><frame><function>oob_write</function><file>oob_write.cu</file><line>7</line></frame></deviceStack>
  </record>
"""


RACE = """<ComputeSanitizerOutput>
  <record>
    <kind>Racecheck</kind>
    <severity>warning</severity>
    <what><text>(Warp Level Programming) Potential RAW hazard detected at __shared__ 0x404 in block (0,0,0) :</text></what>
    <blockId>(0, 0, 0)</blockId>
    <write><threadId>(1,0,0)</threadId><frame><function>shared_race</function><file>shared_race.cu</file><line>8</line></frame></write>
    <read><threadId>(0,0,0)</threadId><frame><function>shared_race</function><file>shared_race.cu</file><line>9</line></frame></read>
  </record>
</ComputeSanitizerOutput>
"""


def test_documented_api_record_is_read_and_skipped_like_its_text():
    ((header, lines),) = records(DOCUMENTED)
    assert header.startswith("Program hit cudaErrorMemoryAllocation") and lines == []
    assert diagnostics(DOCUMENTED, "memcheck", xml=True) == []


def test_memcheck_xml_gives_the_text_findings():
    xml = "<ComputeSanitizerOutput>\n" + _memcheck(32) + _memcheck(33) + "</ComputeSanitizerOutput>"
    text = (DATA / "h200_memcheck_oob_write.txt").read_text()
    first_two = "\n".join(text.splitlines()[:14])  # the API note and the records of threads 32 and 33
    (x,) = diagnostics(xml, "memcheck", xml=True)
    (t,) = diagnostics(first_two, "memcheck")
    assert _keys([x]) == _keys([t]) == {("sanitize.memcheck.invalid-write", (("oob_write.cu", 7),))}
    assert x.locations[0].role == t.locations[0].role == "write"
    for key in ("threads", "block", "size", "reports"):
        assert x.witness[key] == t.witness[key], key
    assert x.message.startswith("invalid __global__ write of size 4 bytes by thread (32,0,0) in block (0,0,0)")


def test_racecheck_xml_keeps_the_write_and_read_sites():
    (d,) = diagnostics(RACE, "racecheck", xml=True)
    assert d.rule == "sanitize.racecheck.hazard" and d.severity.value == "warning"
    assert [(loc.line, loc.role) for loc in d.locations] == [(8, "write"), (9, "read")]
    assert d.message.startswith("shared-memory RAW race between threads of one warp: write at line 8 and read at "
                                "line 9")
    text = (DATA / "h200_racecheck_shared_race.txt").read_text()
    assert ("sanitize.racecheck.hazard", (("shared_race.cu", 8), ("shared_race.cu", 9))) in _keys(
        diagnostics(text, "racecheck"))


@pytest.mark.parametrize("doc", ["", "not xml", "<Other><record/></Other>"])
def test_other_documents_are_a_value_error(doc):
    with pytest.raises(ValueError):
        records(doc)


@pytest.mark.parametrize("xml_file", sorted(DATA.glob("h200_*.xml")), ids=lambda p: p.name)
def test_captured_xml_agrees_with_the_text_of_the_same_run(xml_file):
    tool = xml_file.name.split("_")[1]
    text = xml_file.with_suffix(".txt").read_text()
    assert _keys(diagnostics(xml_file.read_text(), tool, xml=True)) == _keys(diagnostics(text, tool))


def test_frame_fields_may_be_attributes():
    xml = ('<ComputeSanitizerOutput><record><what><text>Invalid __global__ read of size 8 bytes</text></what>'
           '<threadId>(3, 0, 0)</threadId><blockId>(1, 0, 0)</blockId>'
           '<frame function="k" file="k.cu" line="12"/></record></ComputeSanitizerOutput>')
    (d,) = diagnostics(xml, "memcheck", xml=True)
    assert d.rule == "sanitize.memcheck.invalid-read" and [(l.file, l.line, l.role) for l in d.locations] == [
        ("k.cu", 12, "read")]
    assert d.witness["threads"] == [[3, 0, 0]] and d.witness["block"] == [1, 0, 0]
