"""The lowering report from both nvdisasm outputs: ``-json -g`` (preferred) and the ``-g -c`` text (fallback)."""
from pathlib import Path

import pytest

from kopt.lowering import parse_sass, parse_sass_json

DATA = Path(__file__).parent / "data" / "nvdisasm"
PAIRS = sorted(p.with_suffix("") for p in DATA.glob("*.json"))


def test_fixtures_are_present():
    assert {p.name for p in PAIRS} == {"copy_float4.sm_90", "wgmma_sm90a.sm_90a", "spill.sm_90"}


@pytest.mark.parametrize("stem", PAIRS, ids=lambda p: p.name)
def test_json_and_text_give_the_same_report(stem):
    text = parse_sass(Path(f"{stem}.sass").read_text())
    js = parse_sass_json(Path(f"{stem}.json").read_text())
    assert js.keys() == text.keys() and js
    for name in js:
        assert js[name].to_dict() == text[name].to_dict()


def test_json_report_contents():
    (copy,) = parse_sass_json((DATA / "copy_float4.sm_90.json").read_text()).values()
    assert copy.global_load_widths == {128: 1} and copy.widths["global store"] == {128: 1}
    lines = {(Path(f).name, ln) for f, ln in copy.by_line}
    assert ("copy_float4.cu", 3) in lines and copy.by_line[next(k for k in copy.by_line if k[1] == 3)]
    (wg,) = parse_sass_json((DATA / "wgmma_sm90a.sm_90a.json").read_text()).values()
    assert wg.tensor_core == ["tensor core (HGMMA/wgmma)"]
    (spill,) = parse_sass_json((DATA / "spill.sm_90.json").read_text()).values()
    assert spill.has_local_memory


@pytest.mark.parametrize("doc", ["", "{}", "[1, 2]", '[{}, [{"sass-instructions": []}]]'])
def test_other_layouts_are_a_value_error(doc):
    with pytest.raises(ValueError, match="nvdisasm -json"):
        parse_sass_json(doc)


def test_artifact_reads_json_and_matches_text():
    """Live: the nvdisasm of the pip wheel has -json; the report kopt explain uses equals the text reader's."""
    from kopt.artifact import nvdisasm_json
    from kopt.explain import compile_file

    art, _ = compile_file(Path(__file__).parent / "data" / "copy_float4.cu", arch="sm_90")
    assert nvdisasm_json()
    report = art.lowering()
    assert report["copy4"].to_dict() == parse_sass(art.sass())[art.kernels["copy4"].lowered].to_dict()
