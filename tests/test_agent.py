"""The agent loop driven by a scripted stand-in for the Anthropic client: real SDK response types, real kopt tools
(compile, explain, check, files), and a clearly marked evaluation double on machines without a GPU."""
from pathlib import Path

import pytest

anthropic_types = pytest.importorskip("anthropic.types")
from anthropic.types import Message, TextBlock, ToolUseBlock, Usage  # noqa: E402

from evaluations import evaluation  # noqa: E402  (stands in for the GPU evaluation)

from kopt.agent import Agent, Budget, StopRules, best_of_n, refine, tool_specs  # noqa: E402
from kopt.runstore import RunStore  # noqa: E402
from kopt.tools import Toolbox  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BASE = (ROOT / "bench" / "tasks" / "vector_add" / "baseline.cu").read_text()
FASTER = BASE.replace("tune BLOCK in [256, 128, 512, 1024]", "tune BLOCK in [512]")


def turn(*blocks, stop="tool_use", n=[0]):
    n[0] += 1
    content = [TextBlock(type="text", text=b) if isinstance(b, str) else
               ToolUseBlock(type="tool_use", id=f"call_{n[0]}_{i}", name=b[0], input=b[1]) for i, b in enumerate(blocks)]
    return Message(id=f"msg_{n[0]}", type="message", role="assistant", model="scripted", content=content,
                   stop_reason=stop, stop_sequence=None, usage=Usage(input_tokens=1000, output_tokens=100))


class ScriptedClient:
    """Replays model turns; records the requests it was sent."""

    def __init__(self, turns):
        self.turns, self.requests = list(turns), []
        self.messages = self

    def create(self, **request):
        self.requests.append({**request, "messages": list(request["messages"])})  # as sent at this turn
        if not self.turns:
            return turn("done", stop="end_turn")
        return self.turns.pop(0)


class FakeEvaluate:
    """TEST DOUBLE for the GPU evaluation: speedup from the BLOCK the candidate declares (512 -> 1.25x)."""

    def __init__(self, box):
        self.box, self.calls = box, []

    def __call__(self, task, path, **kw):
        self.calls.append(path)
        src = self.box.read_candidate(path)["text"]
        speed = 1.25 if "[512]" in src else 1.0
        return evaluation(task, candidate=path, shapes={"n=268435456": (800 / speed, 800.0),
                                                        "n=1000003": (4.0 / speed, 4.0)})


@pytest.fixture
def setup(tmp_path):
    (tmp_path / "start.cu").write_text(BASE)
    box = Toolbox(tmp_path)
    store = RunStore(tmp_path / ".kopt" / "runs.db")
    run = store.create_run("vector_add", workflow="refine", options={})
    return tmp_path, box, store, run


def script():
    return [
        turn("Let me look.", ("read_candidate", {"path": "start.cu"}), ("kb_search", {"query": "vectorized float4 loads"})),
        turn(("explain", {"path": "start.cu", "arch": "sm_90"}), ("check", {"path": "start.cu"})),
        turn(("write_candidate", {"path": "v1.cu", "text": FASTER}), ("compile", {"path": "v1.cu", "arch": "sm_90"})),
        turn(("evaluate", {"task": "vector_add", "path": "v1.cu"})),
        turn(("write_candidate", {"path": "../outside.cu", "text": "x"})),
        turn("Done: v1.cu is 1.25x faster.", stop="end_turn"),
    ]


def test_tools_run_for_real_and_everything_is_stored(setup):
    ws, box, store, run = setup
    client = ScriptedClient(script())
    agent = Agent(client, box, store, run, evaluate=FakeEvaluate(box))
    assert refine(agent, "vector_add", "start.cu") == "the model finished"
    results = {}
    for req in client.requests[1:]:
        for block in req["messages"][-1]["content"]:
            results[block["tool_use_id"]] = block
    texts = [b["content"] for b in results.values()]
    assert any('"128-bit"' in t or '"32-bit"' in t for t in texts)  # explain ran for real
    assert any('"registers"' in t for t in texts)  # compile ran for real
    assert any('"hits"' in t and '"tags"' in t for t in texts)  # the knowledge base was searched for real
    refused = [b for b in results.values() if "outside the workspace" in b["content"]]
    assert refused and refused[0]["is_error"] and not (ws.parent / "outside.cu").exists()
    assert agent.progress.best_speedup == 1.25 and agent.progress.turns == 6
    assert agent.progress.input_tokens == 6000
    assert store.best(run)["speedup"] == 1.25
    assert len([t for t in store.turns(run) if t["role"] == "assistant"]) == 6
    assert {s["name"] for s in tool_specs(box)} >= {"compile", "evaluate", "write_candidate", "kb_search",
                                                    "run_history"}
    history = box.run_history()["evaluations"]
    assert [(h["candidate"], h["speedup"]) for h in history] == [("v1.cu", 1.25)]


def test_budgets_and_stop_rules_end_the_run(setup):
    ws, box, store, run = setup
    agent = Agent(ScriptedClient(script()), box, store, run, budget=Budget(turns=2), evaluate=FakeEvaluate(box))
    assert refine(agent, "vector_add", "start.cu") == "turn budget spent (2)"
    run2 = store.create_run("vector_add", workflow="refine", options={})
    agent = Agent(ScriptedClient(script()), box, store, run2, stop=StopRules(target_speedup=1.2),
                  evaluate=FakeEvaluate(box))
    assert refine(agent, "vector_add", "start.cu").startswith("target speedup 1.2x reached")
    assert agent.progress.turns == 4  # stopped right after the evaluation that reached it
    run3 = store.create_run("vector_add", workflow="refine", options={})
    agent = Agent(ScriptedClient(script()), box, store, run3, budget=Budget(input_tokens=2500),
                  evaluate=FakeEvaluate(box))
    assert refine(agent, "vector_add", "start.cu") == "token budget spent"


def test_resume_continues_without_repeating_work(setup):
    ws, box, store, run = setup
    evaluate = FakeEvaluate(box)
    first = Agent(ScriptedClient(script()[:4]), box, store, run, budget=Budget(turns=4), evaluate=evaluate)
    assert refine(first, "vector_add", "start.cu") == "turn budget spent (4)"
    assert evaluate.calls == ["v1.cu"]
    # a new process: the same run, a client that continues the conversation (and asks for v1 again)
    client = ScriptedClient([turn(("evaluate", {"task": "vector_add", "path": "v1.cu"})),
                             turn("finished", stop="end_turn")])
    again = Agent(client, box, store, run, budget=Budget(turns=10), evaluate=evaluate)
    assert again.progress.turns == 4 and again.progress.best_speedup == 1.25
    assert refine(again, "vector_add", "start.cu") == "the model finished"
    assert evaluate.calls == ["v1.cu"]  # the repeated evaluation came from the store
    sent = client.requests[0]["messages"]
    assert len(sent) == 9 and sent[0]["content"].startswith("Task: vector_add")  # the whole stored conversation


def test_best_of_n_keeps_the_best_and_stops_on_plateau(setup):
    ws, box, store, run = setup
    attempts = []
    for i in range(1, 5):
        src = FASTER if i == 2 else BASE.replace("// Naive", f"// attempt {i}")
        attempts += [turn(("write_candidate", {"path": f"a{i}.cu", "text": src})),
                     turn(("evaluate", {"task": "vector_add", "path": f"a{i}.cu"})), turn("ok", stop="end_turn")]
    agent = Agent(ScriptedClient(attempts), box, store, run, stop=StopRules(plateau=1), evaluate=FakeEvaluate(box))
    reason = best_of_n(agent, "vector_add", "start.cu", n=2, member_turns=3)
    assert reason == "no improvement in 1 rounds"
    assert agent.progress.best_speedup == 1.25 and agent.progress.best_path == "a2.cu"


def test_an_agent_run_stores_evaluations_that_every_reader_reads(setup, monkeypatch):
    """runs show --json, runs plot and kb add read the agent's Evaluations: correctness, arch, per-shape figures."""
    import json
    import subprocess
    import sys
    import tomllib

    from kopt.kb.promote import add_run
    from kopt.runstore import evaluation as stored

    ws, box, store, run = setup
    agent = Agent(ScriptedClient(script()), box, store, run, evaluate=FakeEvaluate(box))
    assert refine(agent, "vector_add", "start.cu") == "the model finished"
    best = store.best(run)
    ev = stored(best)
    assert best["path"] == "v1.cu" and ev.candidate.correct and ev.candidate.arch == "sm_90"
    assert [s.shape for s in ev.shapes] == ["n=268435456", "n=1000003"] and ev.aggregate == "geomean"
    monkeypatch.setenv("KOPT_CACHE_DIR", str(ws / "cache"))
    meta = tomllib.loads(open(add_run(run, store=store)["metadata"]).read())
    assert meta["arch"] == "sm_90" and meta["provenance"]["path"] == "v1.cu"
    assert [s["shape"] for s in meta["measured"]["shapes"]] == ["n=268435456", "n=1000003"]
    assert meta["measured"]["shapes"][0]["us"] == 640.0 and meta["measured"]["shapes"][0]["baseline_us"] == 800.0

    def kopt(*args):
        return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True,
                              cwd=ws)

    doc = json.loads(kopt("runs", "show", run, "--json").stdout)
    assert doc["evaluations"][0]["evaluation"]["candidate"]["correct"] is True
    p = kopt("runs", "plot", run, "--out", ws / "agent.png")
    assert p.returncode == 0, p.stderr


def test_a_pool_evaluates_one_responses_evaluate_calls_at_once(setup):
    """With an evaluator pool (two fake GPUs, real worker processes), the evaluate calls of one response run at once,
    each on its own GPU, after the write before them; the driver's thread records them. TEST DOUBLE evaluation."""
    import threading
    import time

    import fake_worker
    from pool_fakes import WORKER, WatchedStore, fake_device

    from kopt.pool import LocalSlot, Pool

    ws, box, _, _ = setup
    store = WatchedStore(ws / ".kopt" / "pool.db")
    run = store.create_run("vector_add", workflow="refine", options={})
    fake, running, peak = FakeEvaluate(box), [0], [0]
    lock = threading.Lock()

    def on_slot(slot):
        def evaluate(task, path, **kw):
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            reply = slot.call(fake_worker.Echo(path))  # through the slot's worker
            time.sleep(0.2)
            with lock:
                running[0] -= 1
            ev = fake(task, path)
            ev.warnings.append(reply.payload["cuda_visible_devices"])
            return ev
        return evaluate

    client = ScriptedClient([
        turn(("write_candidate", {"path": "v1.cu", "text": FASTER}), ("write_candidate", {"path": "v2.cu", "text":
             FASTER.replace("[512]", "[128]")}), ("evaluate", {"task": "vector_add", "path": "v1.cu"}),
             ("evaluate", {"task": "vector_add", "path": "v2.cu"}), ("evaluate", {"task": "vector_add",
                                                                                   "path": "v1.cu"})),
        turn("Done.", stop="end_turn")])
    with Pool([LocalSlot(fake_device(i), command=WORKER).start() for i in range(2)]) as pool:
        agent = Agent(client, box, store, run, evaluate=on_slot, pool=pool)
        assert refine(agent, "vector_add", "start.cu") == "the model finished"
    rows = store.evaluations(run)
    assert sorted(r["path"] for r in rows) == ["v1.cu", "v2.cu"] and peak[0] == 2  # both at once, v1 once
    assert {r["measurement"]["gpu"]["uuid"] for r in rows} == {"GPU-fake-0", "GPU-fake-1"}
    assert all(r["measurement"]["gpu"]["uuid"] in r["measurement"]["warnings"] for r in rows)
    assert store.writers == {(__import__("os").getpid(), threading.main_thread().ident)}
    results = [b for b in client.requests[-1]["messages"][-1]["content"]]
    assert [r["is_error"] for r in results] == [False] * 5 and '"cached": true' in results[4]["content"]
    assert agent.progress.best_path == "v1.cu" and agent.progress.evaluations == 2
