"""Reference for attention_fwd (float64; bf16 Q, K, V arrive upcast to float64, the runner compares the bf16 O).

CuPy when kopt passes CuPy arrays (the reference on the GPU), else torch on the GPU when available (the timed shapes
are ~1e12 flops), numpy otherwise; all work on a few heads at a time so the [heads, S, S] score block stays under
~1 GiB.
"""
import numpy as np


def _torch_cuda():
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


def attention_fwd(Q: np.ndarray, K: np.ndarray, V: np.ndarray, scale: float, causal: int, **_) -> np.ndarray:
    """O[b, h] = softmax(Q[b, h] @ K[b, h]^T * scale, masked to keys j <= query i when causal) @ V[b, h]."""
    B, H, S, D = Q.shape
    xp = np if isinstance(Q, np.ndarray) else __import__("cupy")  # CuPy arrays: kopt runs the reference on the GPU
    q, k, v = (xp.ascontiguousarray(x, dtype=xp.float64).reshape(B * H, S, D) for x in (Q, K, V))
    out = xp.empty_like(q)
    chunk = max(1, (1 << 27) // (S * S))  # heads per step: 2^27 float64 scores = 1 GiB
    torch = _torch_cuda() if xp is np else None
    if torch is not None:
        future = torch.ones(S, S, dtype=torch.bool, device="cuda").triu_(1) if causal else None
        for h0 in range(0, B * H, chunk):
            qs, ks, vs = (torch.from_numpy(x[h0:h0 + chunk]).cuda() for x in (q, k, v))
            s = qs @ ks.transpose(1, 2)
            s *= scale
            if future is not None:
                s.masked_fill_(future, float("-inf"))
            s -= s.amax(dim=2, keepdim=True)
            s.exp_()
            s /= s.sum(dim=2, keepdim=True)
            out[h0:h0 + chunk] = (s @ vs).cpu().numpy()
        return out.reshape(B, H, S, D)
    future = xp.triu(xp.ones((S, S), dtype=bool), 1) if causal else None
    for h0 in range(0, B * H, chunk):
        s = q[h0:h0 + chunk] @ k[h0:h0 + chunk].transpose(0, 2, 1)
        s *= scale
        if future is not None:
            s[:, future] = -np.inf
        s -= s.max(axis=2, keepdims=True)
        xp.exp(s, out=s)
        s /= s.sum(axis=2, keepdims=True)
        out[h0:h0 + chunk] = s @ v[h0:h0 + chunk]
    return out.reshape(B, H, S, D)
