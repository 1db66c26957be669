"""Optional features and the extras that install them: a missing one is a clear error naming the install command."""
from __future__ import annotations

import importlib

from .errors import ToolchainError

# import name -> (extra, what needs it)
EXTRAS = {
    "matplotlib": ("plot", "kopt runs plot"),
    "optuna": ("tune", "the TPE strategy (--strategy tpe)"),
    "anthropic": ("agent", "the LLM workflows (refine, best-of-n, evolve)"),
    "mcp": ("mcp", "kopt mcp"),
    "ray": ("ray", "evaluations on a Ray cluster (--ray)"),
}


def require(module: str):
    """Import ``module``, or raise a ToolchainError (exit 2) saying which extra provides it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        extra, what = EXTRAS[module]
        raise ToolchainError(f"{what} needs {module}, which is not installed: pip install 'kopt[{extra}]'") from None
