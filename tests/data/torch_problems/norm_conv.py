import torch
import torch.nn as nn


class Model(nn.Module):
    """A layer norm over the last dim, then a 1D convolution without padding: parameters become arguments and the
    convolution's output length a size of its own."""

    def __init__(self, channels: int, length: int, kernel: int):
        super().__init__()
        self.norm = nn.LayerNorm(length)
        self.conv = nn.Conv1d(channels, channels, kernel, bias=False)

    def forward(self, x):
        return self.conv(self.norm(x))


batch = 2
channels = 3
length = 40
kernel = 5


def get_inputs():
    return [torch.rand(batch, channels, length)]


def get_init_inputs():
    return [channels, length, kernel]
