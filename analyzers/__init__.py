"""kopt's static analyzers: libclang/tree-sitter front end -> kernel model -> hazard passes -> Diagnostics."""
from .driver import AnalysisResult, analyze

__all__ = ["analyze", "AnalysisResult"]
