"""Reference for reduce_sum (float64)."""
import numpy as np


def reduce_sum(x: np.ndarray, n: int, **_) -> np.ndarray:
    """s = [sum(x[0:n])] in float64, shape (1,)."""
    return np.sum(x[:n], dtype=np.float64).reshape(1)
