"""``kopt lsp``: the language server for editors (stdio)."""
from __future__ import annotations

from typing import Optional

from ._app import app
from .compile_cmds import ArchOpt


@app.command("lsp")
def lsp_cmd(arch: Optional[str] = ArchOpt):
    """Run the language server on stdio: kopt check and compiler diagnostics for .cu files, with quick fixes."""
    from ..errors import ToolchainError

    try:
        from ..lsp import serve
    except ImportError as exc:
        raise ToolchainError(f"kopt lsp needs pygls ({exc.name} is missing): pip install 'kopt[lsp]'")
    serve(arch)
