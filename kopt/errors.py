"""One exception root for kopt. The CLI turns each into a one-line message and an exit code."""
from __future__ import annotations


class KoptError(Exception):
    """Root of every error kopt raises on purpose. ``exit_code`` is what the CLI exits with."""

    exit_code = 2

    def __init__(self, message: str, *, diagnostics=None):
        super().__init__(message)
        self.message = message
        self.diagnostics = list(diagnostics or [])


class InputError(KoptError):
    """Bad input: unreadable path, malformed file, unknown kernel or arch, wrong flags."""

    exit_code = 2


class CompileError(KoptError):
    """NVRTC rejected the source; ``diagnostics`` hold the compiler's errors with locations."""

    exit_code = 1

    def __init__(self, message: str, *, diagnostics=None, log: str = ""):
        super().__init__(message, diagnostics=diagnostics)
        self.log = log


class ToolchainError(KoptError):
    """A required component (NVRTC, headers, nvdisasm, ncu...) is missing or unusable."""

    exit_code = 2


class GpuUnavailableError(KoptError):
    """No usable GPU or driver for an operation that needs one."""

    exit_code = 2
