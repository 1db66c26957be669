"""The GPU side of kopt: the worker process that owns the CUDA context (``python -m kopt.worker``) and the run-once
process the profilers wrap (``python -m kopt.worker.run_once``). It imports only the protocol, kopt's nouns (task,
plan, reference, inputs, params, diagnostics and rules) and the harness, never the parent's flow."""
