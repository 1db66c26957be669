"""Diagnostic renderers: compiler-style text, JSON round trip, SARIF 2.1.0 structure."""
from kopt.diagnostic import Diagnostic, Location, Severity
from kopt.render import to_json, to_sarif, to_text

SRC = {"k.cu": "__global__ void k(float* x) {\n  x[threadIdx.x] = s[threadIdx.x + 1];\n}\n"}
D = Diagnostic("race.shared", Severity.ERROR, "write and read of s race",
               [Location("k.cu", 2, 3, end_line=2, end_col=16, role="write"), Location("k.cu", 2, 21, role="read")],
               witness={"t1": 0, "t2": 1}, hint="add __syncthreads()")


def test_text_has_excerpt_caret_witness_and_hint():
    text = to_text([D], SRC)
    assert text.splitlines()[0] == "k.cu:2:3: error: write and read of s race [race.shared]"
    assert "  x[threadIdx.x] = s[threadIdx.x + 1];" in text
    assert "|   ^~~~~~~~~~~~~" in text
    assert "k.cu:2:21: note: related location (read)" in text
    assert "witness: t1=0, t2=1" in text and "hint: add __syncthreads()" in text


def test_json_round_trip():
    assert Diagnostic.from_dict(to_json([D])[0]).to_dict() == D.to_dict()


def test_sarif_structure():
    log = to_sarif([D], tool_version="0.1.0")
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    (rule,) = run["tool"]["driver"]["rules"]  # described from the catalogue (kopt.rules)
    assert rule["id"] == "race.shared" and rule["defaultConfiguration"] == {"level": "error"}
    assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and "Hint:" in rule["help"]["text"]
    assert [r["ruleIndex"] for r in run["results"]] == [0]
    res = run["results"][0]
    assert res["ruleId"] == "race.shared" and res["level"] == "error"
    region = res["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 2, "startColumn": 3, "endLine": 2, "endColumn": 17}
    assert res["relatedLocations"][0]["physicalLocation"]["region"]["startColumn"] == 21
