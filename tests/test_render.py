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


def test_sarif_fingerprints_follow_the_line_text_not_its_number(tmp_path):
    src = "__global__ void k(float* x) {\n  x[0] = 1;\n  x[1] = 2;\n}\n"
    f = str(tmp_path / "k.cu")

    def prints(text, lines):
        ds = [Diagnostic("race.global", Severity.ERROR, "m", [Location(f, n, 3)]) for n in lines]
        log = to_sarif(ds, root=tmp_path, sources={f: text})
        return [r["partialFingerprints"]["koptFingerprint/v1"] for r in log["runs"][0]["results"]]

    first = prints(src, [2, 3])
    assert first[0] != first[1]
    assert prints("// a comment above\n" + src, [3, 4]) == first  # moved one line down: same identity
    same_line_twice = prints(src, [2, 2])
    assert same_line_twice[0] != same_line_twice[1] and same_line_twice[0].split(":")[0] == first[0].split(":")[0]


def test_sarif_uris_are_relative_and_percent_encoded(tmp_path):
    inside = tmp_path / "dir with space#1" / "k.cu"
    log = to_sarif([Diagnostic("race.global", Severity.ERROR, "m", [Location(str(inside), 1)]),
                    Diagnostic("race.global", Severity.ERROR, "m", [Location("/elsewhere/a b.cu", 1)])],
                   root=tmp_path)
    run = log["runs"][0]
    first, second = (r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"])
    assert first == {"uri": "dir%20with%20space%231/k.cu", "uriBaseId": "%SRCROOT%"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    assert second == {"uri": "file:///elsewhere/a%20b.cu"}
    import kopt

    assert run["tool"]["driver"]["version"] == kopt.__version__


def test_github_annotations_escape_properties_and_data(tmp_path):
    from kopt.render import to_github

    d = Diagnostic("race.shared", Severity.WARNING, "50% of\nthreads", [Location(str(tmp_path / "a,b:c.cu"), 4, 2,
                                                                                  end_line=4, end_col=9)],
                   hint="sync")
    note = Diagnostic("analysis.incomplete", Severity.NOTE, "no location")
    lines = to_github([d, note], root=tmp_path).splitlines()
    assert lines == ["::warning file=a%2Cb%3Ac.cu,line=4,col=2,endLine=4,endColumn=9,title=race.shared::"
                     "50%25 of%0Athreads%0Ahint: sync",
                     "::notice title=analysis.incomplete::no location"]
