"""kopt: a compiler harness for agents that optimize CUDA kernels."""
from .analyze import AnalysisResult, analyze
from .artifact import Artifact, KernelInfo
from .evaluation import bench
from .launcher import Launch, launch, prepare
from .timer import time
from .candidate import Candidate
from .checker import check
from .compiler import compile
from .diagnostic import Diagnostic, Location, Severity
from .errors import CompileError, GpuUnavailableError, InputError, KoptError, ToolchainError
from . import kb
from .importer import Imported, import_file
from .measurement import Evaluation, Measurement
from .occupancy import Occupancy, occupancy
from .optimizer import OptimizeResult, optimize
from .runstore import RunStore
from .task import Task
from .verdict import Verdict


__version__ = "0.1.0"

__all__ = [
    "analyze", "AnalysisResult",
    "Artifact", "KernelInfo", "compile", "Diagnostic", "Location", "Severity", "KoptError", "InputError",
    "CompileError", "ToolchainError", "GpuUnavailableError", "Occupancy", "occupancy", "Task", "Candidate", "Verdict",
    "RunStore", "Evaluation", "Measurement", "optimize", "OptimizeResult", "check", "bench",
    "launch", "prepare", "Launch", "time", "import_file", "Imported",
]
