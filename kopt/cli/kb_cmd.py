"""``kopt kb search | show | like | index``: the knowledge base (reference kernels, hardware notes, user corpora)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.syntax import Syntax
from rich.table import Table

from .. import kb
from ._app import app
from ._common import console, console_err, print_json, shows_progress
from .compile_cmds import JsonOpt

kb_app = typer.Typer(help="Knowledge base: search reference kernels and hardware notes; index your own corpus; "
                      "promote a run's winner.",
                     no_args_is_help=True)
app.add_typer(kb_app, name="kb")
LimitOpt = typer.Option(10, "--limit", "-n", min=1, help="how many results")


def _hits_table(hits, title: str) -> Table:
    t = Table(title=title)
    for col in ("id", "kind", "arch", "tags", "score"):
        t.add_column(col, justify="right" if col == "score" else "left", overflow="fold")
    for h in hits:
        t.add_row(escape(h.id), h.kind, h.arch, ", ".join(h.tags), f"{h.score:.2f}")
    return t


@kb_app.command("search")
def search_cmd(query: str = typer.Argument(..., help="words to search for, e.g. 'cp.async double buffer'"),
               arch: Optional[str] = typer.Option(None, "--arch", help="only chunks that run on this arch (sm_80...)"),
               tag: Optional[List[str]] = typer.Option(None, "--tag", help="technique tag the chunk must have; "
                                                       "repeatable (e.g. tma, wgmma, cp.async, shuffle)"),
               limit: int = LimitOpt, json_out: bool = JsonOpt):
    """Search kernels, notes and metadata (BM25), optionally filtered by arch and technique tags."""
    hits = kb.search(query, arch=arch, tags=tag, limit=limit)
    if json_out:
        print_json([h.to_dict() for h in hits])
        return
    console.print(_hits_table(hits, f"kb search: {query}") if hits else "no matches")


@kb_app.command("show")
def show_cmd(cid: str = typer.Argument(..., metavar="ID", help="an id from `kopt kb search`"),
             json_out: bool = JsonOpt):
    """A chunk's source or note (read from its file), its tags and arch, and its metadata (measured figures)."""
    entry = kb.show(cid)
    if json_out:
        print_json(entry)
        return
    console.print(f"[bold]{escape(entry['id'])}[/]  {escape(entry['file'])}:{entry['line']}-{entry['end_line']}"
                  f"  arch {entry['arch']}  tags {', '.join(entry['tags']) or '-'}")
    lexer = "markdown" if entry["kind"] == "note" else "cpp"
    console.print(Syntax(entry["text"], lexer, line_numbers=entry["kind"] == "code", start_line=entry["line"]))
    if entry["metadata"]:
        console.print(f"[bold]metadata[/] ({escape(entry['metadata_file'])})")
        console.print(Syntax(entry["metadata"], "toml"))


@kb_app.command("like")
def like_cmd(file: Path = typer.Argument(..., help="a CUDA source file"), limit: int = LimitOpt,
             json_out: bool = JsonOpt):
    """Kernels like FILE: shared technique tags, identifiers and structure."""
    hits = kb.like(file, limit=limit)
    if json_out:
        print_json([h.to_dict() for h in hits])
        return
    console.print(_hits_table(hits, f"kb like: {file}") if hits else "no similar kernels")


@kb_app.command("index")
def index_cmd(path: Path = typer.Argument(..., help="a folder (e.g. a CUTLASS checkout's include/) or a file"),
              json_out: bool = JsonOpt):
    """Add PATH's sources and notes to your user-level index (under KOPT_CACHE_DIR/kb); files are not copied."""
    if json_out:
        print_json(kb.index(path))
        return
    with Progress(console=console_err, transient=True, disable=not shows_progress(json_out)) as bar:
        task = bar.add_task(f"indexing {path}", total=None)
        stats = kb.index(path, progress=lambda done, total: bar.update(task, completed=done, total=total))
    console.print(f"indexed {stats['files']} files, {stats['chunks']} chunks from {escape(stats['root'])} "
                  f"in {stats['seconds']:.1f} s -> {escape(stats['index'])}")


@kb_app.command("add")
def add_cmd(source: str = typer.Argument(..., metavar="RUN|CANDIDATE.cu",
                                         help="a run id (its best correct evaluation) or a candidate file"),
            task: Optional[Path] = typer.Option(None, "--task", help="for a candidate file: the task to validate it on "
                                                                     "(kopt bench runs first; needs a GPU)"),
            title: Optional[str] = typer.Option(None, "--title", help="the entry's title"),
            set_: Optional[List[str]] = typer.Option(None, "--set", help="for a candidate file: tunable "
                                                                         "TUNABLE=VALUE; repeatable"),
            json_out: bool = JsonOpt):
    """Promote a validated kernel into your knowledge base, with its provenance and measured figures."""
    from ..errors import InputError
    from ..kb.promote import add_candidate, add_run

    if source.isdigit():
        if task is not None or set_:
            raise InputError("--task and --set are for a candidate file; a run's winner was validated in the run")
        out = add_run(int(source), title=title)
    elif task is None:
        raise InputError("kopt kb add CANDIDATE.cu needs --task TASK (the kernel is validated on it first)")
    else:
        from .run_cmd import parse_config

        out = add_candidate(Path(source), task, title=title, config=parse_config(set_))
    if json_out:
        print_json(out)
        return
    console.print(f"added {escape(out['source'])} with {escape(out['metadata'])}; indexed ({out['chunks']} chunks)")
