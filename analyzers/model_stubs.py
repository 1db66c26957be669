"""The stub headers kopt supplies whose device definitions are a model of a library's (OpenCV's pointer types'
addressing, its atomics and block reduction): the front end reads them like the user's headers' helpers (the other
stubs' definitions are declarations kopt's own rules handle), and the analysis reports what they do at the user's
call of them."""
from __future__ import annotations

from pathlib import Path

STUBS = Path(__file__).parent / "include"  # (as the front end passes it to clang: locations name it so)
MODEL_STUBS = frozenset({str(STUBS / "opencv2" / "__kopt_opencv.h")})


def model_stub(path: str | None) -> bool:
    """Whether ``path`` (a source location's file) is one of the model stubs."""
    return path in MODEL_STUBS
