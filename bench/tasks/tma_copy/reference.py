"""Reference for tma_copy (exact)."""
import numpy as np


def tma_copy(x: np.ndarray, **_) -> np.ndarray:
    """y[r, c] = x[r, c]."""
    return x.copy()
