"""kopt: a compiler harness for agents that optimize CUDA kernels."""
import importlib
import sys
import types

# The public names, imported on first use: `import kopt` stays cheap for the CLI and the GPU worker, which need
# only some of them.
_EXPORTS = {
    "AnalysisResult": "analyze", "analyze": "analyze", "Artifact": "artifact", "KernelInfo": "artifact",
    "bench": "evaluation", "bench_many": "evaluation", "Launch": "launcher", "launch": "launcher", "prepare": "launcher", "time": "timer",
    "Candidate": "candidate", "check": "checker", "compile": "compiler", "Diagnostic": "diagnostic",
    "Location": "diagnostic", "Severity": "diagnostic", "CompileError": "errors", "GpuUnavailableError": "errors",
    "InputError": "errors", "KoptError": "errors", "ToolchainError": "errors", "kb": None, "Imported": "importer",
    "import_file": "importer", "Evaluation": "measurement", "Measurement": "measurement", "Occupancy": "occupancy",
    "occupancy": "occupancy", "OptimizeResult": "optimizer", "optimize": "optimizer", "RunStore": "runstore",
    "Task": "task", "Verdict": "verdict",
}


class _Package(types.ModuleType):
    """``kopt.analyze`` and ``kopt.occupancy`` name both a function and the module that defines it: importing the
    module would rebind the package attribute to it (the import system sets it after loading a submodule); the
    public name stays the function."""

    def __setattr__(self, name: str, value) -> None:
        if isinstance(value, types.ModuleType) and _EXPORTS.get(name) == name:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'kopt' has no attribute {name!r}")
    module = importlib.import_module(f".{_EXPORTS[name] or name}", __name__)
    value = module if _EXPORTS[name] is None else getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *_EXPORTS})


__version__ = "0.1.0"

__all__ = [
    "analyze", "AnalysisResult",
    "Artifact", "KernelInfo", "compile", "Diagnostic", "Location", "Severity", "KoptError", "InputError",
    "CompileError", "ToolchainError", "GpuUnavailableError", "Occupancy", "occupancy", "Task", "Candidate", "Verdict",
    "RunStore", "Evaluation", "Measurement", "optimize", "OptimizeResult", "check", "bench", "bench_many",
    "launch", "prepare", "Launch", "time", "import_file", "Imported",
]
