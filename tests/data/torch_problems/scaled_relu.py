import torch
import torch.nn as nn


class Model(nn.Module):
    """y = relu(x) * scale."""

    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return torch.relu(x) * self.scale


rows = 4096
cols = 1000


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return [2.0]
