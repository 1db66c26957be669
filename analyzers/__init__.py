"""kopt's static analyzers: libclang/tree-sitter front end -> kernel model -> hazard passes -> Diagnostics.

``analyze`` loads the solver and the front ends on first use, so importing this package stays cheap.
"""
from .result import AnalysisResult

__all__ = ["analyze", "AnalysisResult"]


def analyze(source, **kwargs) -> AnalysisResult:
    """See :func:`analyzers.driver.analyze`."""
    from .driver import analyze as _analyze

    return _analyze(source, **kwargs)
