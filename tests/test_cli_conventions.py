"""What users expect of a command line: --version, shell completion, one JSON object on stdout for every failure
under --json, no traceback for bad input, and diagnostics that stay one line whatever the terminal width."""
import json
import os
import pty
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import kopt

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
CORPUS = ROOT / "tests" / "analyzers" / "corpus"
TASKS = ROOT / "bench" / "tasks"


def kopt_cli(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env)


def test_version():
    p = kopt_cli("--version")
    assert p.returncode == 0 and p.stdout.strip() == f"kopt {kopt.__version__}"


def test_shell_completion_completes_commands():
    env = {**os.environ, "_KOPT_COMPLETE": "complete_bash", "COMP_WORDS": "kopt chec", "COMP_CWORD": "1"}
    p = subprocess.run([sys.executable, "-c", "import sys; sys.argv[0] = 'kopt'; from kopt.cli import main; main()"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0 and p.stdout.split() == ["check"], (p.stdout, p.stderr)


@pytest.fixture(scope="module")
def bad(tmp_path_factory):
    """A folder of bad (and awkwardly named) inputs."""
    d = tmp_path_factory.mktemp("bad")
    (d / "empty.cu").write_text("")
    (d / "binary.cu").write_bytes(bytes(range(256)) * 4)
    # a Windows-1252 apostrophe (0x92) in a comment: not UTF-8, but text nvcc compiles
    (d / "cp1252.cu").write_bytes(b"// the kernel\x92s copy\n" + (DATA / "copy_float4.cu").read_bytes())
    (d / "no_kernel.cu").write_text("int x = 1;\n")
    (d / "syntax.cu").write_text('extern "C" __global__ void k(float* x) { x[0] = ; }\n')
    (d / "bad_tune.cu").write_text("// kopt: tune BLOCK in [\n" + (DATA / "copy_float4.cu").read_text())
    (d / "bad_launch.cu").write_text("// kopt: launch copy4 grid=(n) block=(1, 2, 3, 4) args=(a, b, n)\n"
                                     + (DATA / "copy_float4.cu").read_text())
    (d / "bad_toml").mkdir()
    (d / "bad_toml" / "task.toml").write_text('name = "x"\nargs = [ { name = ')
    (d / "no_args").mkdir()
    (d / "no_args" / "task.toml").write_text('name = "x"\n')
    spaced = d / "dir with space"
    spaced.mkdir()
    (spaced / "ünï cødé.cu").write_text((DATA / "copy_float4.cu").read_text())
    return d


# (arguments, exit code); every case also runs with --json. "{d}" is the folder of bad inputs.
CASES = [
    # malformed sources
    (("compile", "{d}/empty.cu"), 2),
    (("compile", "{d}/binary.cu"), 2),
    (("compile", "{d}/syntax.cu", "--arch", "sm_90"), 1),
    (("explain", "{d}/syntax.cu", "--arch", "sm_90"), 1),
    (("check", "{d}/empty.cu"), 2),
    (("check", "{d}/binary.cu"), 2),
    (("check", "{d}/cp1252.cu"), 0),  # legacy-encoded text is read, not refused
    (("check", "{d}/no_kernel.cu"), 2),
    (("check", "{d}/syntax.cu"), 0),  # analyzed in part: analysis.incomplete, not bad input
    (("check", DATA / "copy_float4.cu", "--kernel", "nope"), 2),
    # malformed annotations
    (("compile", "{d}/bad_tune.cu"), 2),
    (("check", "{d}/bad_tune.cu"), 2),
    (("compile", "{d}/bad_launch.cu"), 2),
    # malformed tasks
    (("run", "{d}/bad_toml", DATA / "copy_float4.cu"), 2),
    (("bench", "{d}/no_args", DATA / "copy_float4.cu"), 2),
    (("optimize", "{d}/bad_toml"), 2),
    (("profile", "{d}/bad_toml", DATA / "copy_float4.cu"), 2),
    (("sanitize", "{d}/bad_toml", DATA / "copy_float4.cu"), 2),
    (("validate", "{d}/bad_toml"), 1),  # the task is what validate checks: it failed
    # flags
    (("compile", DATA / "copy_float4.cu", "--arch", "sm_70"), 2),
    (("compile", DATA / "copy_float4.cu", "--bogus-flag"), 2),
    (("compile", DATA / "copy_float4.cu", "-D", "=3"), 2),
    (("check", DATA / "copy_float4.cu", "--block", "abc"), 2),
    (("check", DATA / "copy_float4.cu", "--json", "--sarif"), 2),
    (("explain", DATA / "copy_float4.cu", "--block", "5000", "--arch", "sm_90"), 2),
    (("bench", TASKS / "vector_add", DATA / "copy_float4.cu", "--stop", "nope"), 2),
    (("kb", "search", "the", "--tag", "no-such-tag"), 2),
    (("runs", "show", "999"), 2),
    (("check",), 2),
    # missing files
    (("compile", "{d}/missing.cu"), 2),
    (("check", "{d}/missing.cu"), 2),
    (("validate", "{d}/missing"), 2),
    (("kb", "index", "{d}/missing"), 2),
    (("run", "{d}/missing", DATA / "copy_float4.cu"), 2),
    # unicode paths and paths with spaces
    (("compile", "{d}/dir with space/ünï cødé.cu", "--arch", "sm_90"), 0),
    (("explain", "{d}/dir with space/ünï cødé.cu", "--arch", "sm_90"), 0),
    (("check", "{d}/dir with space/ünï cødé.cu", "--block", "256"), 0),
    (("compile", "{d}/dir with space/missing ü.cu"), 2),
]


@pytest.mark.parametrize("args,code", CASES, ids=[" ".join(str(a).replace(str(DATA), "DATA").replace(
    str(TASKS), "TASKS") for a in c[0]) for c in CASES])
def test_bad_input_battery(bad, tmp_path, args, code):
    argv = [str(a).replace("{d}", str(bad)) for a in args]
    if "--json" not in argv:
        argv.append("--json")
    p = kopt_cli(*argv, cwd=tmp_path)
    assert p.returncode == code, (argv, p.stdout[-2000:], p.stderr[-2000:])
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout, p.stderr
    doc = json.loads(p.stdout)  # exactly one JSON document: extra output would not parse
    if code == 2:
        assert isinstance(doc, dict) and doc["ok"] is False and doc["exit_code"] == 2 and doc["error"]
    else:
        assert isinstance(doc, dict)


def test_input_errors_without_json_are_one_line_on_stderr(bad, tmp_path):
    p = kopt_cli("compile", bad / "dir with space" / "missing ü.cu", cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip() == f"error: cannot read {bad / 'dir with space' / 'missing ü.cu'}: no such file"


def test_explain_shows_source_text_for_relative_and_unicode_paths(bad):
    """The SASS-per-line view keys lines by the file NVRTC compiled (absolute, octal-escaped when not ASCII)."""
    for folder, name in ((ROOT, "tests/data/copy_float4.cu"), (bad, "dir with space/ünï cødé.cu")):
        p = kopt_cli("explain", name, "--arch", "sm_90", cwd=folder)
        assert p.returncode == 0, p.stderr
        assert "if (i < n) b[i] = a[i];" in p.stdout and "LDG.E.128" in p.stdout
        assert ".cu:3" not in p.stdout  # a line shown as file:line means its text was not found


def _diagnostic_lines(args) -> list[str]:
    """The first line of each diagnostic ``kopt ARGS`` reports, rebuilt from its --json output."""
    doc = json.loads(kopt_cli(*args, "--json").stdout)
    out = []
    for d in doc["files"][0]["diagnostics"] if "files" in doc else doc["diagnostics"]:
        loc = d["locations"][0] if d["locations"] else None
        where = f"{loc['file']}:{loc['line']}:{loc['col'] or 1}: " if loc else ""
        out.append(f"{where}{d['severity']}: {d['message']} [{d['rule']}]")
    assert out, f"kopt {args} reports no diagnostics to render"
    return out


def _in_terminal(args, columns: int) -> str:
    """Run kopt with stdout and stderr on a pseudo-terminal ``columns`` wide; its output, colours removed."""
    import fcntl
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen([sys.executable, "-m", "kopt.cli", *map(str, args)], stdout=follower, stderr=follower,
                            env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the follower side closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=120)
    os.close(leader)
    text = b"".join(chunks).decode(errors="replace").replace("\r\n", "\n")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


@pytest.mark.parametrize("args", [("check", CORPUS / "barrier_if_else.cu"), ("check", CORPUS / "bank_column32.cu"),
                                  ("compile", DATA / "wgmma_sm90a.cu", "--arch", "sm_90"),
                                  ("compile", DATA / "compile_error.cu", "--arch", "sm_90")],
                         ids=["check-barrier", "check-bank", "compile-arch-specific", "compile-error"])
def test_diagnostics_stay_on_one_line_in_a_narrow_terminal_and_in_a_pipe(args):
    expected = _diagnostic_lines(args)
    assert any(len(e) > 40 for e in expected)
    p = kopt_cli(*args)
    piped = (p.stdout + p.stderr).splitlines()
    narrow = _in_terminal(args, columns=40).splitlines()
    for line in expected:
        assert line in piped, (line, piped)
        assert line in narrow, (line, narrow)


def test_tables_are_not_cropped_when_piped():
    """kb show and explain tables print whole names when the output is not a terminal (rich would lay them out
    to 80 columns)."""
    p = kopt_cli("explain", DATA / "copy_float4.cu", "--arch", "sm_90", env={**os.environ, "COLUMNS": "30"})
    assert p.returncode == 0
    assert "global loads vectorized (128-bit); no local-memory traffic" in p.stdout
    assert "…" not in p.stdout


def test_progress_goes_to_a_terminal_only():
    """validate compiles every configuration: a bar on a terminal, nothing in a pipe or under --json."""
    args = ["validate", TASKS / "vector_add"]
    assert "compiling configurations" in _in_terminal(args, columns=120)
    piped = kopt_cli(*args)
    assert piped.returncode == 0 and "compiling configurations" not in piped.stderr + piped.stdout
    assert "compiling configurations" not in _in_terminal(args + ["--json"], columns=120)
