"""Agent workflows on the Anthropic Messages API (tool use): refine, best-of-n and evolve.

The model works through kopt's tools (a kopt.tools.Toolbox the caller gives the Agent); every message, tool call and
result goes to the run store, so a stopped run resumes from its last state and an evaluation is never repeated
(results are looked up by the candidate's source hash). The API key is read only from the environment by the
Anthropic SDK.
"""
from __future__ import annotations

import inspect
import json
import random
import time
import typing
from dataclasses import dataclass, field
from typing import Callable

from .errors import InputError, KoptError
from .measurement import Evaluation
from .runstore import RunStore, evaluation, source_hash

DEFAULT_MODEL = "claude-sonnet-4-5"
RESULT_LIMIT = 12_000  # characters of one tool result sent back to the model

SYSTEM = """You optimize a CUDA kernel for a kopt task. A candidate is a .cu file of device code only, with
'// kopt:' annotations declaring its launches (see any bench baseline). Work in small, measured steps: read the
current candidate, explain how it lowers (load widths, spills, tensor cores, occupancy), check it statically, write an
improved candidate, and evaluate it against the baseline. Keep what is correct and faster; say why you expect a change
to help before you make it. Stop when further gains look unlikely."""


@dataclass
class Budget:
    turns: int = 40
    input_tokens: int = 2_000_000
    output_tokens: int = 200_000
    wall_s: float = 3600.0
    evaluations: int = 30


@dataclass
class StopRules:
    target_speedup: float | None = None  # stop once a correct candidate is this much faster than the baseline
    plateau: int = 3  # rounds (best-of-n, evolve) or evaluations (refine) without improvement


@dataclass
class Progress:
    turns: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    evaluations: int = 0
    best_speedup: float | None = None
    best_path: str | None = None
    since_improvement: int = 0
    started: float = field(default_factory=time.time)
    stop_reason: str = ""


def tool_specs(box) -> list[dict]:
    """Anthropic tool definitions derived from the same functions the MCP server exposes."""
    from pydantic import create_model

    specs = []
    for fn in box.tools():
        hints = typing.get_type_hints(fn)  # the annotations are strings (postponed evaluation)
        fields = {}
        for name, p in inspect.signature(fn).parameters.items():
            default = ... if p.default is inspect.Parameter.empty else p.default
            fields[name] = (hints.get(name, str), default)
        schema = create_model(f"{fn.__name__}_input", **fields).model_json_schema()
        schema.pop("title", None)
        specs.append({"name": fn.__name__, "description": (fn.__doc__ or "").strip(), "input_schema": schema})
    return specs


class Agent:
    def __init__(self, client, box, store: RunStore, run: int, *, model: str = DEFAULT_MODEL,
                 budget: Budget | None = None, stop: StopRules | None = None, max_tokens: int = 8000,
                 evaluate: Callable[..., Evaluation] | None = None, pool=None):
        """``pool`` (``kopt.pool.Pool``): the evaluate calls of one model response run at once, one per GPU; with
        it, ``evaluate`` is a factory, ``slot -> ((task=, path=, ...) -> Evaluation)``."""
        self.client, self.box, self.store, self.run = client, box, store, run
        self.model, self.max_tokens = model, max_tokens
        self.budget, self.stop = budget or Budget(), stop or StopRules()
        self.specs = tool_specs(box)
        self._evaluate = evaluate or box.evaluation  # tests pass a clearly marked double on machines without a GPU
        self.pool = pool
        if pool is not None:
            pool.make_evaluate = self._on_slot(evaluate)
        self.progress = self._restore()

    def _on_slot(self, factory):
        """The pool's evaluator factory: a job is (kwargs of the evaluate call); it runs on the slot's worker."""
        def make(slot):
            fn = factory(slot) if factory else (lambda **kw: self.box.evaluation(**kw, worker=slot))
            return lambda job: fn(**job[1])  # job: (source hash, the call's arguments)
        return make

    # --- state ------------------------------------------------------------------------------------------------------
    def _restore(self) -> Progress:
        """Usage and best result so far, from the store (a fresh run starts from zero)."""
        p = Progress()
        for t in self.store.turns(self.run):
            usage = t["content"].get("usage") if isinstance(t["content"], dict) else None
            if usage:
                p.turns += 1
                p.input_tokens += usage["input_tokens"]
                p.output_tokens += usage["output_tokens"]
        for e in self.store.evaluations(self.run):
            p.evaluations += 1
            if e["status"] == "ok" and e["speedup"] and (p.best_speedup is None or e["speedup"] > p.best_speedup):
                p.best_speedup, p.best_path = e["speedup"], e["path"]
        return p

    def exhausted(self) -> str:
        b, p = self.budget, self.progress
        if p.turns >= b.turns:
            return f"turn budget spent ({b.turns})"
        if p.input_tokens >= b.input_tokens or p.output_tokens >= b.output_tokens:
            return "token budget spent"
        if time.time() - p.started >= b.wall_s:
            return "wall-time budget spent"
        if p.evaluations >= b.evaluations:
            return f"evaluation budget spent ({b.evaluations})"
        if self.stop.target_speedup and p.best_speedup and p.best_speedup >= self.stop.target_speedup:
            return f"target speedup {self.stop.target_speedup}x reached ({p.best_speedup:.3f}x)"
        return ""

    # --- tools --------------------------------------------------------------------------------------------------------
    def call_tool(self, name: str, args: dict) -> dict:
        if name not in self.box.NAMES:
            return {"ok": False, "error": f"unknown tool {name!r}"}
        if name == "evaluate":
            return self._evaluate_once(**args)
        try:
            return getattr(self.box, name)(**args)
        except TypeError as exc:  # wrong arguments from the model
            return {"ok": False, "error": f"bad arguments for {name}: {exc}"}

    def _call_tools(self, calls) -> list[dict]:
        """The results of one response's tool calls, in order. With a pool, each run of consecutive evaluate calls
        is evaluated at once (a call before them, e.g. writing the file, has run; those after wait)."""
        out, batch = [], []

        def flush():
            if batch:
                out.extend(self._evaluate_many([dict(b.input) for b in batch]))
                batch.clear()

        for b in calls:
            if self.pool is not None and b.name == "evaluate":
                batch.append(b)
                continue
            flush()
            out.append(self.call_tool(b.name, dict(b.input)))
        flush()
        return out

    def _evaluate_once(self, task: str, path: str, **kw) -> dict:
        """Evaluate a candidate unless this run already has its result (same source): no work is repeated. The
        Evaluation is stored; the model reads its brief view."""
        return self._evaluate_many([dict(task=task, path=path, **kw)])[0]

    def _evaluate_many(self, calls: list[dict]) -> list[dict]:
        """The evaluate calls' results, in order: those not cached run at once on the pool (one after another
        without one); each Evaluation is recorded here, by the store's only writer, as it comes back."""
        out: list[dict | None] = [None] * len(calls)
        todo: dict[str, list] = {}  # source hash -> [indices of the calls, source, the first call's arguments]
        for i, call in enumerate(calls):
            if not isinstance(call.get("path"), str) or not isinstance(call.get("task"), str):
                out[i] = {"ok": False, "error": "bad arguments for evaluate: task and path are required"}
                continue
            read = self.box.read_candidate(call["path"])
            if not read["ok"]:
                out[i] = read
                continue
            digest = source_hash(read["text"])
            cached = next((e for e in self.store.evaluations(self.run) if e["hash"] == digest), None)
            if cached is not None:
                out[i] = {"ok": True, **evaluation(cached).brief(), "cached": True}
            elif digest in todo:  # the same source twice in one response: evaluated once
                todo[digest][0].append(i)
            else:
                todo[digest] = [[i], read["text"], call]
        for digest, (indices, source, call, done) in self._run_evaluations(todo):
            if done.error is not None:
                if not isinstance(done.error, KoptError):
                    raise done.error
                result_view = {"ok": False, "error": done.error.message}
            else:
                result_view = self._record(source, call["path"], done)
            for n, i in enumerate(indices):
                out[i] = result_view if n == 0 or not result_view["ok"] else {**result_view, "cached": True}
        return out

    def _run_evaluations(self, todo: dict):
        """(hash, (indices, source, call, Done)) for each evaluation in ``todo``, as each finishes."""
        from .pool import Done

        if self.pool is None:
            for digest, (indices, source, call) in todo.items():
                started = time.time()
                try:
                    done = Done(call, self._evaluate(**call), started, time.time())
                except KoptError as exc:
                    done = Done(call, None, started, time.time(), error=exc)
                yield digest, (indices, source, call, done)
            return
        for digest, (_, _, call) in todo.items():
            self.pool.submit((digest, call))
        for _ in range(len(todo)):
            done = self.pool.collect()
            digest = done.job[0]
            yield digest, (*todo[digest], done)

    def _record(self, source: str, path: str, done) -> dict:
        result = done.evaluation
        cand = self.store.add_candidate(self.run, source, config={}, proposer="agent", path=path)
        self.store.record(cand, result, started=done.started, finished=done.finished)
        p = self.progress
        p.evaluations += 1
        if result.ok and result.speedup and (p.best_speedup is None or result.speedup > p.best_speedup):
            p.best_speedup, p.best_path, p.since_improvement = result.speedup, path, 0
        else:
            p.since_improvement += 1
        return {"ok": True, **result.brief()}

    # --- the loop -----------------------------------------------------------------------------------------------------
    def _messages(self, intro: str) -> list[dict]:
        """The current conversation's messages (after the last conversation marker), or a new conversation."""
        turns = self.store.turns(self.run)
        starts = [i for i, t in enumerate(turns) if t["role"] == "marker"]
        current = turns[starts[-1] + 1:] if starts else turns
        msgs = [t["content"]["message"] for t in current if "message" in t["content"]]
        return msgs or [self._log({"role": "user", "content": intro})]

    def _log(self, message: dict, usage: dict | None = None) -> dict:
        self.store.add_turn(self.run, message["role"], {"message": message, **({"usage": usage} if usage else {})})
        return message

    def converse(self, intro: str, *, turns: int | None = None) -> str:
        """Run the tool-use loop until the model stops, a budget is spent or a stop rule fires. Returns the reason."""
        messages = self._messages(intro)
        if messages[-1]["role"] == "assistant":  # interrupted before the tool results were stored: ask again
            messages = messages[:-1]
        start_turn = self.progress.turns
        while True:
            reason = self.exhausted()
            if reason:
                return reason
            if turns is not None and self.progress.turns - start_turn >= turns:
                return "member turn limit"
            resp = self.client.messages.create(model=self.model, max_tokens=self.max_tokens, system=SYSTEM,
                                               tools=self.specs, messages=messages)
            usage = {"input_tokens": resp.usage.input_tokens, "output_tokens": resp.usage.output_tokens}
            self.progress.turns += 1
            self.progress.input_tokens += usage["input_tokens"]
            self.progress.output_tokens += usage["output_tokens"]
            content = [b.model_dump(exclude_none=True) for b in resp.content]
            messages.append(self._log({"role": "assistant", "content": content}, usage))
            calls = [b for b in resp.content if b.type == "tool_use"]
            if resp.stop_reason != "tool_use" or not calls:
                return "the model finished"
            results = []
            for b, out in zip(calls, self._call_tools(calls)):
                self.store.add_tool_call(self.run, {"name": b.name, "input": b.input, "ok": out.get("ok")})
                text = json.dumps(out, default=str)
                results.append({"type": "tool_result", "tool_use_id": b.id, "is_error": not out.get("ok", False),
                                "content": text if len(text) <= RESULT_LIMIT else text[:RESULT_LIMIT] + " ...(truncated)"})
            messages.append(self._log({"role": "user", "content": results}))
            if self.stop.plateau and self.progress.since_improvement >= self.stop.plateau and self.progress.evaluations:
                return f"no improvement in {self.stop.plateau} evaluations"


def intro(task: str, path: str, note: str = "") -> str:
    return (f"Task: {task}. The current candidate is {path} in your workspace. Improve it and evaluate your "
            f"versions against the task's baseline with the evaluate tool.{(' ' + note) if note else ''}")


def refine(agent: Agent, task: str, path: str) -> str:
    """One agent, many turns."""
    return agent.converse(intro(task, path))


def best_of_n(agent: Agent, task: str, path: str, n: int = 4, member_turns: int = 8) -> str:
    """Rounds of n independent attempts from the best candidate so far; the best is kept."""
    rounds_without_gain = 0
    while True:
        start = agent.progress.best_path or path
        before = agent.progress.best_speedup
        for i in range(n):
            agent.store.start_conversation(agent.run)
            reason = agent.converse(intro(task, start, f"Attempt {i + 1} of {n}: write your version to a new "
                                                      f"file, e.g. attempt_{i + 1}.cu."), turns=member_turns)
            if reason not in ("the model finished", "member turn limit") and not reason.startswith("no improvement"):
                return reason
        rounds_without_gain = rounds_without_gain + 1 if agent.progress.best_speedup == before else 0
        if rounds_without_gain >= agent.stop.plateau:
            return f"no improvement in {agent.stop.plateau} rounds"


def evolve(agent: Agent, task: str, path: str, population: int = 6, member_turns: int = 8, seed: int = 0) -> str:
    """A population in the run store: parents drawn by score (tournament) among distinct sources; each child is a
    short conversation starting from its parent."""
    rng = random.Random(seed)
    rounds_without_gain = 0
    while True:
        pool = {e["hash"]: e for e in agent.store.evaluations(agent.run) if e["status"] == "ok" and e["speedup"]}
        ranked = sorted(pool.values(), key=lambda e: -e["speedup"])[:population]
        if ranked:
            pair = rng.sample(ranked, min(2, len(ranked)))
            parent = max(pair, key=lambda e: e["speedup"])["path"]
        else:
            parent = path
        before = agent.progress.best_speedup
        agent.store.start_conversation(agent.run)
        reason = agent.converse(intro(task, parent, "Write your child version to a new file."), turns=member_turns)
        if reason not in ("the model finished", "member turn limit") and not reason.startswith("no improvement"):
            return reason
        rounds_without_gain = rounds_without_gain + 1 if agent.progress.best_speedup == before else 0
        if rounds_without_gain >= agent.stop.plateau * population:
            return f"no improvement in {rounds_without_gain} children"


WORKFLOWS = {"refine": refine, "best-of-n": best_of_n, "evolve": evolve}


def run_workflow(name: str, agent: Agent, task: str, path: str) -> str:
    if name not in WORKFLOWS:
        raise InputError(f"unknown workflow {name!r}: expected one of {', '.join(WORKFLOWS)} (or tune)")
    reason = WORKFLOWS[name](agent, task, path)
    agent.progress.stop_reason = reason
    return reason
