"""Reference for stencil2d (float64)."""
import numpy as np


def stencil2d(x: np.ndarray, **_) -> np.ndarray:
    """y = x on the boundary rows/columns; y[i, j] = 0.25 * (x[i-1, j] + x[i+1, j] + x[i, j-1] + x[i, j+1]) inside."""
    y = x.copy()  # the interior is accumulated in place: no temporaries the size of x
    inner = y[1:-1, 1:-1]
    inner[...] = x[:-2, 1:-1]
    inner += x[2:, 1:-1]
    inner += x[1:-1, :-2]
    inner += x[1:-1, 2:]
    inner *= 0.25
    return y
