"""Reference for vector_add (float64)."""
import numpy as np


def vector_add(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """c[i] = a[i] + b[i] for i < n."""
    return a[:n] + b[:n]
