"""Reference for copy (exact)."""
import numpy as np


def copy(x: np.ndarray, **_) -> np.ndarray:
    """y[i] = x[i]."""
    return x.copy()
