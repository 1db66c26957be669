"""What a file's build gives its compiler that the file itself does not say, read from a Makefile or CMakeLists.txt
beside it or in a folder above: macros (``-DNAME=VALUE``, ``target_compile_definitions``/
``add_compile_definitions``) for names the file uses but never defines (a kernel written against ``-DWARP_SIZE=32``
would otherwise not parse), and include folders (``-I $(INC_DIR)``, ``include_directories``/
``target_include_directories``) for headers found nowhere else; failing those, the one file of a missing header's
name in the project (the nearest folder above with a build file or ``.git``), as a build that passes its folder from
Python (``torch.utils.cpp_extension.load(extra_cuda_cflags=[f"-I {root}/utils"])``) would. Only names the parse
reports undeclared are taken, and the switches (``-DNDG3d``) under which the file or its headers define such a name
(the front end finds those), so a build's ``-DDEBUG`` never switches an ``#ifdef`` branch otherwise; a name the
build files give two different values is left alone. The front end says which file each value came from."""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from .preproc import gpu_switch

BUILD_FILES = ("Makefile", "makefile", "GNUmakefile", "Makefile.am", "CMakeLists.txt")  # (automake's is make syntax)
_PROJECT_MARKS = (*BUILD_FILES, "configure.ac", "meson.build", "setup.py", "pyproject.toml", ".git")
_LEVELS = 2  # the file's folder and two above (a project's src/ and its root)
_SEARCH_LIMIT = 5000  # files looked at in a project for a header by name; a larger tree is not searched
_TOP_LIMIT = 20000  # the same for the top of a CMake tree and for configure templates (listing 8k files: ~0.1 s)
_TOP_LEVELS = 6  # how far above the file the top of a CMake tree (a CMakeLists.txt in every folder) is looked for
_DASH_D = re.compile(r"(?<![\w-])-D\s*([A-Za-z_]\w*)(?:=(\"[^\"\n]*\"|'[^'\n]*'|[^\s\\\"')]+))?")
_CMAKE_DEFS = re.compile(r"\b(?:target_compile_definitions|add_compile_definitions)\s*\(([^)]*)\)", re.I)
_CMAKE_ITEM = re.compile(r"(?<![\w$-])([A-Za-z_]\w*)=([^\s\"')]+)")
_CMAKE_SWITCH = re.compile(r"(?:-D)?[A-Za-z_]\w*")
_GENERATOR = re.compile(r"\$<\$<([^<>]*)>:([^<>]*)>")  # `$<$<CONDITION>:items>`
# a condition a CUDA build satisfies: the language of a .cu file, or an option that turns CUDA on (`USE_CUDA`,
# `SIRIUS_USE_CUDA`, `WITH_CUDA`; not `USE_CUDA_GRAPHS`, a feature of it)
_CUDA_BUILD = re.compile(r"COMPILE_LANGUAGE:CUDA|BOOL:\$\{(?:\w+_)?CUDA\}")


_MAKE_VAR = re.compile(r"^[ \t]*([A-Za-z_][\w.]*)[ \t]*(?::{1,3}=|\?=|\+=|=)[ \t]*(.*?)[ \t]*$", re.M)
_MAKE_REF = re.compile(r"\$[({]([A-Za-z_][\w.]*)[)}]")
_DASH_I = re.compile(r"(?<![\w-])-(?:I|isystem)\s*(\"[^\"\n]+\"|[^\s\"'`;)]+)")
_CMAKE_INCS = re.compile(r"\b(?:include_directories|target_include_directories)\s*\(([^)]*)\)", re.I)
_CMAKE_WORDS = {"SYSTEM", "BEFORE", "AFTER", "PUBLIC", "PRIVATE", "INTERFACE"}
_CMAKE_ROOTS = re.compile(r"\$\{(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR|PROJECT_SOURCE_DIR|"
                          r"CMAKE_SOURCE_DIR)\}/?")


def _expand(text: str, env: dict) -> str:
    """``text`` with make's ``$(NAME)``/``${NAME}`` references to ``env`` replaced (a few levels)."""
    for _ in range(4):
        new = _MAKE_REF.sub(lambda m: env.get(m.group(1), m.group(0)), text)
        if new == text:
            break
        text = new
    return text


def _include_dirs(text: str, folder: Path, cmake: bool) -> list[Path]:
    """The folders ``text`` (a build file of ``folder``) passes with ``-I``, existing ones only."""
    text = re.sub(r"#[^\n]*", " ", text.replace("\\\n", " "))
    if cmake:
        found = []
        for b in _CMAKE_INCS.finditer(text):
            ws = b.group(1).split()
            ws = ws[1:] if b.group(0).lower().startswith("target") else ws  # the target's name
            found += [_CMAKE_ROOTS.sub("", w.strip('"')) or "." for w in ws if w not in _CMAKE_WORDS]
    else:
        env = {m.group(1): m.group(2) for m in _MAKE_VAR.finditer(text)}
        found = [m.group(1).strip('"') for m in _DASH_I.finditer(_expand(text, env))]
    out = []
    for d in found:
        if "$" in d:
            continue  # a variable kopt does not know (the toolkit's CUDA_PATH, a configure-time path)
        if Path(d).is_absolute() and folder.resolve() not in Path(d).resolve().parents:
            continue  # a folder of the machine (`-I/usr/local/cuda/include`): kopt's declarations stand in for it
        p = folder / d
        if p.is_dir() and p.resolve() not in out:
            out.append(p.resolve())
    return out


def _build_files(path: Path):
    """(level, folder, text, label, is CMake) for each build file beside ``path`` (level 0) or up to ``_LEVELS``
    folders above, nearest first; ``label`` names it as the front end's notes do (``Makefile``, ``proj/Makefile``)."""
    folder = Path(path).resolve().parent
    for level, d in enumerate([folder, *folder.parents]):
        if level > _LEVELS:
            return
        for fname in BUILD_FILES:
            f = d / fname
            try:
                text = f.read_text(errors="replace") if f.is_file() and f.stat().st_size < 1 << 20 else ""
            except OSError:
                continue
            cmake = fname == "CMakeLists.txt"
            if text and not cmake and "include" in text:
                text = _with_included(text, d)
            yield level, d, text, f"{f.parent.name}/{fname}" if level else fname, cmake


_MAKE_INCLUDE = re.compile(r"^[ \t]*-?s?include[ \t]+(\S[^\n]*?)[ \t]*$", re.M)


def _with_included(text: str, folder: Path, depth: int = 0) -> str:
    """A Makefile's text with each makefile it includes (``include ../common.mk``, paths from the make's folder,
    variables the text defines before expanded) put in its place: an app's makefile that sets ``TOPLEVEL := ../..``
    and includes the suite's common.mk with ``-I $(TOPLEVEL)/include`` (a few levels)."""
    def inline(m):
        env = {v.group(1): v.group(2) for v in _MAKE_VAR.finditer(text[:m.start()])}
        out = []
        for name in _expand(m.group(1), env).split():
            f = folder / name
            try:
                inner = f.read_text(errors="replace") if "$" not in name and f.is_file() and f.stat().st_size < 1 << 20 \
                    else ""
            except OSError:
                inner = ""
            out.append(_with_included(inner, folder, depth + 1) if depth < 2 and "include" in inner else inner)
        return "\n".join(out)
    return _MAKE_INCLUDE.sub(inline, text)


def include_dirs_for(path: Path) -> list[tuple[Path, str]]:
    """(folder, the build file that names it) for each include folder the build files near ``path`` pass."""
    out, seen = [], set()
    for _, d, text, label, cmake in _build_files(path):
        for inc in _include_dirs(text, d, cmake):
            if inc not in seen:
                seen.add(inc)
                out.append((inc, label))
    return out


_CXX20 = re.compile(r"(?<![\w-])-std=(?:c|gnu)\+\+(?:2[0-9a-z])\b|\bCMAKE_(?:CXX|CUDA)_STANDARD\s+2[0-9]\b|"
                    r"\b(?:cxx|cuda)_std_2[0-9]\b|\b(?:CXX|CUDA)_STANDARD\s+2[0-9]\b")


def cxx20(path: Path) -> str | None:
    """The build file near ``path`` that compiles it as C++20 or later (``-std=c++20``, ``CMAKE_CUDA_STANDARD
    20``, ``cxx_std_20``), or None: its headers may use concepts, ``requires`` and ``std::bit_cast``. Asked at every
    reparse of a file, so read once per version of the build files beside it and above (a makefile they include is
    read with them, not watched itself)."""
    folder = Path(path).resolve().parent
    stamp = []
    for d in [folder, *folder.parents][:_LEVELS + 1]:
        for fname in BUILD_FILES:
            try:
                stamp.append((fname, (d / fname).stat().st_mtime_ns))
            except OSError:
                pass
    return _cxx20_near(folder, tuple(stamp))


@lru_cache(maxsize=256)
def _cxx20_near(folder: Path, stamp: tuple) -> str | None:
    for _, _, text, label, _ in _build_files(folder / "_"):
        if _CXX20.search(re.sub(r"#[^\n]*", " ", text)):
            return label
    return None


def project_root(path: Path) -> Path | None:
    """The nearest folder at or up to ``_LEVELS`` above ``path``'s that holds a build file or ``.git``."""
    folder = Path(path).resolve().parent
    for d in [folder, *folder.parents][:_LEVELS + 1]:
        if any((d / m).exists() for m in _PROJECT_MARKS):
            return d
    return None


def _project_files(root: Path, limit: int = _SEARCH_LIMIT) -> list[Path] | None:
    """Every file under ``root`` (hidden folders skipped); None when there are more than ``limit``."""
    out = []
    for d, subdirs, files in os.walk(root):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith("."))
        out += [Path(d) / f for f in sorted(files)]
        if len(out) > limit:
            return None
    return out


def project_top(path: Path) -> Path | None:
    """The top of the CMake tree holding ``path``: the outermost folder above it, up to ``_TOP_LEVELS``, from which
    every folder down to ``path``'s holds a CMakeLists.txt (``add_subdirectory`` all the way down: a library whose
    modules each have one and export their own ``include/``). None when that is the nearest project root."""
    folder = Path(path).resolve().parent
    top = None
    for d in [folder, *folder.parents][:_TOP_LEVELS + 1]:
        if not (d / "CMakeLists.txt").is_file():
            break
        top = d
    return top if top is not None and top != project_root(path) else None


def project_files(path: Path, include_dirs=()) -> tuple[Path | None, list[Path] | None]:
    """(the project holding ``path``, its files) for ``headers_by_name``; (None, None) when there is none to
    search. With no build file or ``.git`` near ``path``, the nearest folder holding both ``path`` and one of the
    ``include_dirs`` the caller was given, up to ``_TOP_LEVELS`` above ``path``'s (a tree whose build files live
    elsewhere: PhysX's `physx/source/gpubroadphase/src/CUDA/` kernels, built by `physx/source/compiler/cmake`, given
    `-I physx/include`)."""
    root = project_root(path)
    if root is None:
        folder = Path(path).resolve().parent
        near = [folder, *folder.parents][1:_TOP_LEVELS + 1]
        common = [Path(os.path.commonpath([folder, Path(d).resolve()])) for d in include_dirs]
        root = next((c for c in near if c in common), None)
    return root, (_project_files(root) if root is not None else None)


def headers_by_name(path: Path, names, project=None, enclosing: bool = False) -> list[tuple[Path, str]]:
    """(folder, why) for each of the header ``names`` (as written in ``#include``, ``sub/x.h`` too) of which the
    project holding ``path`` has exactly one file: the folder to pass with ``-I``. Two files of one name are
    ambiguous and give nothing. ``project``: ``project_files(path)``, when the caller has listed it already.
    ``enclosing``: also look in the enclosing projects (for a parse; the host scan's many lookups do not)."""
    if not names:
        return []
    root, files = project if project is not None else project_files(path)
    out, rest = [], []

    def take(name, hits, where):
        folder = hits[0].parents[len(Path(name).parts) - 1]
        if folder not in (d for d, _ in out):
            out.append((folder, f"the only {name} under {where.name}/"))

    for name in sorted(names):
        hits = _named(files, name)
        if len(hits) == 1:
            take(name, hits, root)
        elif not hits:
            rest.append(name)
    # a header the nearest project lacks (`gromacs/pbcutil/pbc_aiuc.h`, sundials' `sundials_cuda_kernels.cuh` beside
    # its core sources): the one such file in the whole CMake tree (a sibling module's `include/` folder, which its
    # CMakeLists.txt exports)
    top = project_top(path) if rest else None
    top_files = _tree_files(top) if top is not None else None
    missing = []
    for name in rest:
        hits = _named(top_files, name)
        if len(hits) == 1:
            take(name, hits, top)
        elif not hits:
            missing.append(name)
    # a header of an enclosing project, whose own build files the nearest one's do not chain to (MAGMA's
    # `sparse/blas/Makefile` beside kernels including `magmasparse_internal.h` of `sparse/control/`, which the top
    # Makefile passes with -I): the one such file under the nearest enclosing folder that holds a build file
    for outer in _enclosing_projects(Path(path).resolve().parent, root) if enclosing and missing and root else ():
        by_name = _tree_index(outer)
        for name in list(missing):
            hits = _named(by_name.get(Path(name).name, ()), name)
            if len(hits) == 1:
                take(name, hits, outer)
            if hits:
                missing.remove(name)
        if not missing:
            break
    return out


@lru_cache(maxsize=256)
def _enclosing_projects(folder: Path, root: Path) -> tuple[Path, ...]:
    """The folders above ``root`` (the nearest project of a file in ``folder``), up to ``_TOP_LEVELS`` above
    ``folder``, that hold a build file or ``.git``, nearest first (asked for every header lookup: kept)."""
    levels = [folder, *folder.parents][:_TOP_LEVELS + 1]
    return tuple(d for d in root.parents if d in levels and any((d / m).exists() for m in _PROJECT_MARKS))


@lru_cache(maxsize=16)
def _tree_index(top: Path) -> dict:
    """``_tree_files`` of ``top`` by file name (a header looked for by name in a large tree, many times over)."""
    out: dict = {}
    for f in _tree_files(top) or ():
        out.setdefault(f.name, []).append(f)
    return out


def ancestor_includes(path: Path, names) -> list[tuple[Path, str]]:
    """(folder, why) for each folder up to ``_TOP_LEVELS`` above ``path``'s that holds one of the path-qualified
    header ``names`` at that path (`common/launch.cuh` from `src/bevfusion/x.cu`: the build's `-I src`), nearest
    first."""
    folder = Path(path).resolve().parent
    out = []
    for name in sorted(n for n in names if len(Path(n).parts) > 1 and ".." not in Path(n).parts):
        hit = next((d for d in [folder, *folder.parents][1:_TOP_LEVELS + 1] if (d / name).is_file()), None)
        if hit is not None and hit not in (d for d, _ in out):
            out.append((hit, f"{name} under {hit.name}/"))
    return out


def _named(files, name: str) -> list[Path]:
    """The ``files`` whose path ends with the include path ``name``."""
    parts = Path(name).parts
    return [f for f in files or () if f.parts[-len(parts):] == parts]


def _values(text: str, cmake: bool) -> list[tuple[str, str]]:
    text = re.sub(r"#[^\n]*", " ", text)  # comments (make's and CMake's)
    out = [(m.group(1), (m.group(2) or "1").strip("\"'")) for m in _DASH_D.finditer(text)]
    if cmake:
        for block in _CMAKE_DEFS.finditer(text):
            # a generator expression's definitions count where its condition holds for a CUDA build (`$<$<BOOL:
            # ${SIRIUS_USE_CUDA}>:SIRIUS_GPU SIRIUS_CUDA>`, `$<$<COMPILE_LANGUAGE:CUDA>:X>`); any other's not at all
            items = _GENERATOR.sub(lambda m: m.group(2) if _CUDA_BUILD.fullmatch(m.group(1)) else " ", block.group(1))
            out += [(m.group(1), m.group(2)) for m in _CMAKE_ITEM.finditer(items)]
            words = items.split()
            words = words[1:] if block.group(0).lower().startswith("target") else words  # the target's name
            # a switch named alone (`add_compile_definitions(GPU)`, `-DGPU`): defined, as -D defines it
            out += [(w.removeprefix("-D"), "1") for w in (w.strip('"') for w in words)
                    if _CMAKE_SWITCH.fullmatch(w) and w not in _CMAKE_WORDS]
    return out


def defines_for(path: Path, names) -> dict[str, tuple[str, str]]:
    """name -> (value, the build file that sets it) for each of ``names`` the build files near ``path`` define with
    one value (a value naming a make or CMake variable, ``$(N)``/``${N}``, is not known here and is skipped)."""
    names = set(names)
    found: dict[str, set] = {}
    where: dict[str, str] = {}
    current = 0
    for level, _, text, label, cmake in _build_files(path):
        if level != current:  # the nearest build file that sets a name decides it
            names -= set(found)
            current = level
        if not names:
            break
        for name, value in _values(text, cmake):
            if name in names and "$" not in value:
                found.setdefault(name, set()).add(value)
                where.setdefault(name, label)
    return {n: (next(iter(v)), where[n]) for n, v in found.items() if len(v) == 1}


_TEMPLATE_SUFFIXES = (".in", ".cmake", ".cmake.in", ".cmakein")  # (`config.h.cmakein`: GROMACS, zlib, libpng...)
_CMAKE_SET = re.compile(r"\bset\s*\(\s*([A-Za-z_]\w*)\s+([^\s()\"]+|\"[^\"]*\")", re.I)
_CMAKE_OPTION = re.compile(r"\boption\s*\(\s*([A-Za-z_]\w*)\s+\"[^\"]*\"(?:\s+([^\s()\"]+))?\s*\)", re.I)  # (no default: OFF)
# a project's own option wrapper, name then type, doc and default (`sundials_option(SUNDIALS_PRECISION STRING
# "${DOCSTR}" "DOUBLE")`): the default is an option's
_PROJECT_OPTION = re.compile(r"\b\w+_option\s*\(\s*([A-Za-z_]\w*)\s+(?:BOOL|STRING|PATH|FILEPATH)\s+\"[^\"]*\"\s+"
                             r"(\"[^\"]*\"|[^\s()\"]+)", re.I)
_CMAKEDEFINE = re.compile(r"^([ \t]*)#[ \t]*cmakedefine(01)?[ \t]+([A-Za-z_]\w*)(.*)$", re.M)
# (`${nccl:Version}`: a placeholder a build's own sed or CMake script replaces, taken as an unset variable)
_AT_VAR = re.compile(r"@([A-Za-z_]\w*)@|\$\{([A-Za-z_][^{}\s$]*)\}")
_FALSE = {"", "0", "off", "false", "no", "n", "ignore", "notfound"}
_CMAKE_COMMENT = re.compile(r'("(?:[^"\\]|\\.)*")|#[^\n]*')  # (a `#` inside a quoted argument is text)
_DEREF = re.compile(r"\$\{([A-Za-z_]\w*)\}")
_IDENTIFIER_PART = re.compile(r"\w")  # a character next to a placeholder that makes it part of a name
_LINE_VAR = re.compile(r"^[ \t]*@([A-Za-z_]\w*)@[ \t]*$", re.M)


def configured_header(path: Path, name: str, include_dirs=()) -> tuple[str, str, tuple] | None:
    """``_configured_near`` of ``path``, else of each include folder (a header of another project the build's
    ``-I`` reaches includes its own configured header: cunn's kernels include cutorch's `THC.h`, which includes
    `THCGeneral.h`, configured from cutorch's `THCGeneral.h.in`)."""
    for anchor in [Path(path), *(Path(d) / "_" for d in include_dirs)]:
        found = _configured_near(anchor, name)
        if found:
            return found
    return None


def _configured_near(path: Path, name: str) -> tuple[str, str, tuple] | None:
    """For a header ``name`` found nowhere that a configure step writes (CMake's ``configure_file``: ``config.h``
    from ``config.h.in`` or ``config.h.cmake``): (its text as configured, the template's path, the variables no
    CMake file of the project sets, taken as 0 / off). The template is the one file of that name in the projects at
    or up to three folders above ``path``'s (nearest first). ``@VAR@`` and ``${VAR}`` take the first value a CMake
    file ``set``s or an ``option`` defaults to; ``#cmakedefine VAR`` defines VAR when that value is true,
    ``#cmakedefine01 VAR`` defines it 1 or 0. None when no template is found. (A project's files are listed once
    per process; the template and the CMake files are read as they are now.)"""
    base = Path(name).name
    folder = Path(path).resolve().parent
    for d in [folder, *folder.parents][:4]:
        if not any((d / m).exists() for m in _PROJECT_MARKS):
            continue
        templates, cmake_files = _configure_inputs(d)
        hits = [t for s in _TEMPLATE_SUFFIXES for t in templates.get(base + s, ())] or \
            [t for n in _configure_file_inputs(tuple(cmake_files), base) for t in templates.get(n, ())]
        if len(hits) == 1:
            top = project_top(path)  # (the values: the whole CMake tree's, its root CMakeLists.txt and cmake/ too)
            if top is not None and (top == d or top in d.parents):
                cmake_files = _configure_inputs(top)[1]
            seen: dict = {}
            derived: dict = {}  # var -> [(value read from other variables, kind)], in the files' order
            for f in (f for f in cmake_files if f != hits[0] and not _other_gpu_file(f)):  # (a `config.h.cmake`
                try:                                                                # template sets nothing)
                    sets = _cmake_sets(str(f), f.stat().st_mtime_ns)
                except OSError:
                    continue
                for var, value, kind in sets:
                    if "$" not in value:  # (`set(N ${OLD_N})` before the default `set(N 2)`)
                        seen.setdefault(var, []).append((value, kind == "option"))
                    else:
                        derived.setdefault(var, []).append((value, kind))
            try:
                template = hits[0].read_text(errors="replace")
            except OSError:
                return None
            text, unset = _configure(template, _cmake_values(seen, derived))
            return text, str(hits[0]), unset
    return None


def _cmake_values(seen: dict, derived: dict) -> dict:
    """A CMake tree's variables' values from what its files set them to: ``seen`` (var -> [(literal value, whether an
    option's default)]) and ``derived`` (var -> [(value naming other variables, "set" / "option" / "loop")])."""
    # an option's default, else the one value the files set; one set to different values in different branches
    # (`if(GMX_MPI) set(GMX_LIB_MPI 1) else() set(GMX_LIB_MPI 0)`) is left unset (0 / off)
    values: dict = {}
    for var, vs in seen.items():
        opt = [v for v, option in vs if option]
        plain = {v.lower() for v, option in vs if not option}
        if opt or len(plain) == 1:
            values[var] = opt[0] if opt else vs[0][0]
    # a variable set only from others, one way (`set(PRECISION_LEVEL "#define SUNDIALS_${SUNDIALS_PRECISION}
    # _PRECISION 1")`), takes their values; one set empty, then from others (a configure-time result: `set(T "")`,
    # `foreach(C ${CANDIDATES}) ... set(T ${C}) break()`), the first such value, a loop's variable its first item
    for _ in range(3):  # (values naming values)
        for var, vs in derived.items():
            if var in seen and {v for v, _ in seen[var]} != {""} or var not in seen and len({v for v, _ in vs}) > 1:
                continue
            value, kind = vs[0]
            value = _DEREF.sub(lambda m: values.get(m.group(1), m.group(0)), value)
            if "$" not in value:
                values[var] = value.split(";")[0].strip() if kind == "loop" else value
    return values


_CONFIGURE_FILE = re.compile(r"\bconfigure_file\s*\(\s*\"?([^\s\")]+)\"?\s+\"?([^\s\")]+)", re.I)


def _configure_file_inputs(cmake_files: tuple, header: str) -> list:
    """The names of the templates the CMake files' ``configure_file(IN OUT)`` commands write a header named
    ``header`` from (`configure_file(.../sundials_config.in .../sundials_config.h)`: a template whose name is not the
    header's with a suffix)."""
    found = set()
    for f in cmake_files:
        try:
            found |= {i for i, o in _configured_files(str(f), f.stat().st_mtime_ns) if o == header}
        except OSError:
            continue
    return sorted(found)


@lru_cache(maxsize=256)
def _configured_files(path: str, mtime_ns: int) -> tuple:
    """(template name, output name) of each ``configure_file`` of a CMake file, read once per version."""
    text = Path(path).read_text(errors="replace")
    return tuple((Path(i).name, Path(o).name) for i, o in _CONFIGURE_FILE.findall(text)) if "configure_file" in text \
        else ()


_GPU_BACKENDS = ("hip", "rocm", "acpp", "metal", "vulkan")  # (words of the name)
_GPU_BACKEND_NAMES = ("opencl", "sycl", "oneapi", "dpcpp", "adaptivecpp")  # (anywhere in it)


def _other_gpu_file(f: Path) -> bool:
    """Whether a CMake file is another GPU backend's (``gmxManageHip.cmake``, ``gmxManageSyclOneApi.cmake``,
    ``FindOpenCL.cmake``): a CUDA build never reads it."""
    stem = Path(f).name.split(".")[0]
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", stem)
    return any(w.lower().startswith(_GPU_BACKENDS) for w in words) or any(n in stem.lower() for n in _GPU_BACKEND_NAMES)


@lru_cache(maxsize=16)
def _tree_files(top: Path) -> list[Path] | None:
    """``_project_files`` of a CMake tree's folder, up to ``_TOP_LIMIT`` files (listed once per process)."""
    return _project_files(top, _TOP_LIMIT)


@lru_cache(maxsize=64)
def _configure_inputs(root: Path) -> tuple[dict, list]:
    """({file name: [paths]} of the configure templates under ``root``, its CMake files); empty for a project of
    more than ``_TOP_LIMIT`` files."""
    templates: dict = {}
    cmake_files = []
    for f in _tree_files(root) or ():
        if f.name.endswith(_TEMPLATE_SUFFIXES) and f.name != "CMakeLists.txt":
            templates.setdefault(f.name, []).append(f)
        if f.name == "CMakeLists.txt" or f.suffix == ".cmake":
            cmake_files.append(f)
    return templates, cmake_files


@lru_cache(maxsize=256)
def _cmake_sets(path: str, mtime_ns: int) -> tuple:
    """(variable, value, "set" / "option" / "loop") for each ``set(VAR value)``, ``option(VAR "doc" value)`` and
    ``foreach(VAR ${LIST})`` of a CMake file, in the file's order, read once per version."""
    text = _CMAKE_COMMENT.sub(lambda m: m.group(1) or " ", Path(path).read_text(errors="replace"))
    text = _FOREACH.sub(_unrolled, text)  # (`foreach(_axis X Y Z) set(N_${_axis} 2 ...) endforeach()`)
    found = [(m.start(), m.group(1), m.group(2).strip('"'), "set") for m in _CMAKE_SET.finditer(text)]
    found += [(m.start(), m.group(1), m.group(2) or "OFF", "option") for m in _CMAKE_OPTION.finditer(text)]
    found += [(m.start(), m.group(1), m.group(2).strip('"'), "option") for m in _PROJECT_OPTION.finditer(text)]
    found += [(m.start(), m.group(1), m.group(2), "loop") for m in _LOOP_ITEMS.finditer(text)]
    return tuple(f[1:] for f in sorted(found))


_LOOP_ITEMS = re.compile(r"\bforeach\s*\(\s*([A-Za-z_]\w*)\s+(\$\{[A-Za-z_]\w*\})\s*\)", re.I)
_FOREACH = re.compile(r"\bforeach\s*\(\s*([A-Za-z_]\w*)\s+([^)]*)\)(.*?)\bendforeach\s*\([^)]*\)", re.I | re.S)


def _unrolled(m) -> str:
    """A CMake ``foreach(v a b c)`` loop over literal items as its body once per item, ``${v}`` replaced."""
    var, items, body = m.groups()
    if "$" in items or re.match(r"\s*(?:RANGE|IN)\b", items):
        return f"foreach({var} {items})\n{body}"  # (`foreach(T ${CANDIDATES})`: see _LOOP_ITEMS)
    return "\n".join(body.replace("${" + var + "}", item) for item in items.split())


def _configure(template: str, values: dict) -> tuple[str, tuple]:
    unset = set()

    def value(var: str) -> str:
        v = values.get(var)
        if v is None or "$" in v:
            unset.add(var)
            return "0"
        return v

    def define(m) -> str:
        indent, zero_one, var, rest = m.groups()
        on = gpu_switch(var)  # (a kernel file is compiled by the project's CUDA build)
        if on is None:
            on = value(var).lower() not in _FALSE
        if zero_one:
            return f"{indent}#define {var} {int(on)}"
        return f"{indent}#define {var}{rest}" if on else f"{indent}/* #undef {var} */"

    def whole_line(m) -> str:
        # a placeholder that is a whole line stands for directives (`@PRECISION_LEVEL@`): unset, an empty line
        if m.group(1) in values:
            return m.group(0)
        unset.add(m.group(1))
        return ""

    text = _CMAKEDEFINE.sub(define, template)
    text = _LINE_VAR.sub(whole_line, text)

    def placeholder(m) -> str:
        var = m.group(1) or m.group(2)
        if var not in values and any(_IDENTIFIER_PART.fullmatch(c) for c in (
                m.string[m.start() - 1:m.start()], m.string[m.end():m.end() + 1])):
            # a part of an identifier (`#define @LIBPREFIX@_VERSIONDEF_H`, a CMake function's parameter): the
            # variable's name, an identifier as the template means (`0_VERSIONDEF_H` is none)
            unset.add(var)
            return var
        return value(var)

    text = _AT_VAR.sub(placeholder, text)
    return text, tuple(sorted(unset))
