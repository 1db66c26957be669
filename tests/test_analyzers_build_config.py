"""The analyzer's reading of a CMake project's configuration (``analyzers.build_flags``): the configure templates it
writes headers from, the values it takes from the whole CMake tree, and the headers it finds in sibling modules."""
from __future__ import annotations

from pathlib import Path

from analyzers import build_flags as bf


def _tree(root: Path, files: dict) -> Path:
    """Write ``files`` (relative path -> text) under ``root``; ``root``, resolved."""
    for rel, text in files.items():
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return root.resolve()


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


# a CMake project whose modules each have a CMakeLists.txt (add_subdirectory all the way down)
_MODULES = {"CMakeLists.txt": "project(proj)\nadd_subdirectory(src)\n",
            "src/CMakeLists.txt": "add_subdirectory(mod)\n",
            "src/mod/CMakeLists.txt": "add_library(mod k.cu)\n",
            "src/mod/k.cu": "\n"}


def test_a_cmakein_template_is_configured(tmp_path):
    """A project whose configure template is named `config.h.cmakein` (not `.in` / `.cmake`)."""
    root = _tree(tmp_path, {"CMakeLists.txt": "set(PROJ_TILE 16)\n", "config.h.cmakein": "#define TILE @PROJ_TILE@\n",
                            "k.cu": "\n"})
    got = bf.configured_header(root / "k.cu", "config.h")
    assert got is not None and got[1] == str(root / "config.h.cmakein")
    assert _lines(got[0]) == ["#define TILE 16"]


def test_the_cuda_builds_switches_are_on_whatever_the_cmake_default(tmp_path):
    """A project with a GPU option defaulting to off: the kernel file is compiled by the CUDA build, so it is on."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": 'option(PROJ_GPU_CUDA "CUDA" OFF)\nset(PROJ_GPU OFF)\noption(USE_CUDA "CUDA" OFF)\n',
        "config.h.in": "#cmakedefine01 PROJ_GPU_CUDA\n#cmakedefine PROJ_GPU\n#cmakedefine USE_CUDA 1\n", "k.cu": "\n"})
    text = bf.configured_header(root / "k.cu", "config.h")[0]
    assert _lines(text) == ["#define PROJ_GPU_CUDA 1", "#define PROJ_GPU", "#define USE_CUDA 1"]


def test_another_gpu_backends_switches_are_off_whatever_the_cmake_value(tmp_path):
    """A project that can build for HIP, SYCL or OpenCL too, with those set on: a CUDA build has them off."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": "set(PROJ_GPU_HIP ON)\nset(PROJ_GPU_SYCL 1)\noption(PROJ_GPU_OPENCL \"OpenCL\" ON)\n",
        "config.h.in": "#cmakedefine01 PROJ_GPU_HIP\n#cmakedefine01 PROJ_GPU_SYCL\n#cmakedefine01 PROJ_GPU_OPENCL\n",
        "k.cu": "\n"})
    text = bf.configured_header(root / "k.cu", "config.h")[0]
    assert _lines(text) == ["#define PROJ_GPU_HIP 0", "#define PROJ_GPU_SYCL 0", "#define PROJ_GPU_OPENCL 0"]


def test_a_switch_of_no_gpu_backend_follows_its_cmake_value(tmp_path):
    """A project's ordinary configure switches (double precision, MPI) keep the value CMake gives them."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": 'option(PROJ_DOUBLE "fp64" ON)\nset(PROJ_MPI OFF)\n',
        "config.h.in": "#cmakedefine01 PROJ_DOUBLE\n#cmakedefine01 PROJ_MPI\n#cmakedefine PROJ_DOUBLE_ALIAS\n",
        "k.cu": "\n"})
    text, _, unset = bf.configured_header(root / "k.cu", "config.h")
    assert _lines(text) == ["#define PROJ_DOUBLE 1", "#define PROJ_MPI 0", "/* #undef PROJ_DOUBLE_ALIAS */"]
    assert unset == ("PROJ_DOUBLE_ALIAS",)


def test_a_value_the_root_cmakelists_sets_configures_a_modules_template(tmp_path):
    """A CMake project whose modules each have a CMakeLists.txt: the root one sets what a module's template reads."""
    root = _tree(tmp_path, {**_MODULES, "CMakeLists.txt": "project(proj)\nset(PROJ_WIDTH 8)\nadd_subdirectory(src)\n",
                            "src/mod/config.h.in": "#define WIDTH @PROJ_WIDTH@\n"})
    text, _, unset = bf.configured_header(root / "src/mod/k.cu", "config.h")
    assert _lines(text) == ["#define WIDTH 8"] and unset == ()


def test_a_value_a_cmake_file_of_the_root_sets_configures_a_modules_template(tmp_path):
    """The same, the value set in a `cmake/*.cmake` file of the project root (included by its CMakeLists.txt)."""
    root = _tree(tmp_path, {**_MODULES, "cmake/ProjSettings.cmake": "set(PROJ_WIDTH 8)\n",
                            "src/mod/config.h.in": "#define WIDTH @PROJ_WIDTH@\n"})
    assert _lines(bf.configured_header(root / "src/mod/k.cu", "config.h")[0]) == ["#define WIDTH 8"]


def test_the_root_is_not_read_when_a_folder_between_has_no_cmakelists(tmp_path):
    """A project whose module is not reached by add_subdirectory from the root (src/ has no CMakeLists.txt)."""
    files = {**_MODULES, "CMakeLists.txt": "set(PROJ_WIDTH 8)\n", "src/mod/config.h.in": "#define WIDTH @PROJ_WIDTH@\n"}
    del files["src/CMakeLists.txt"]
    root = _tree(tmp_path, files)
    text, _, unset = bf.configured_header(root / "src/mod/k.cu", "config.h")
    assert _lines(text) == ["#define WIDTH 0"] and unset == ("PROJ_WIDTH",)


def test_a_foreach_loop_over_literal_items_sets_each_items_variable(tmp_path):
    """A project that sets one size per axis in a `foreach(_axis X Y Z)` loop."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": "foreach(_axis X Y Z)\n  set(PROJ_N_${_axis} 2)\nendforeach()\n",
        "config.h.in": "#define NX @PROJ_N_X@\n#define NZ @PROJ_N_Z@\n", "k.cu": "\n"})
    assert _lines(bf.configured_header(root / "k.cu", "config.h")[0]) == ["#define NX 2", "#define NZ 2"]


def test_a_value_naming_another_variable_does_not_hide_a_later_literal(tmp_path):
    """A project that keeps a user's earlier value (`set(N ${OLD_N})`) before setting the default `set(N 2)`."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": "if(DEFINED PROJ_OLD_N)\n  set(PROJ_N ${PROJ_OLD_N})\nelse()\n  set(PROJ_N 2)\nendif()\n",
        "config.h.in": "#define N @PROJ_N@\n", "k.cu": "\n"})
    assert _lines(bf.configured_header(root / "k.cu", "config.h")[0]) == ["#define N 2"]


def test_a_variable_set_to_different_values_in_different_branches_is_left_unset(tmp_path):
    """A project that sets a switch per branch (`if(MPI) set(X 1) else() set(X 0)`): its value is not known."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": "if(PROJ_MPI)\n  set(PROJ_LIB_MPI 1)\nelse()\n  set(PROJ_LIB_MPI 0)\nendif()\n",
        "cmake/ProjThreads.cmake": "set(PROJ_THREADS 4)\n", "src/CMakeLists.txt": "set(PROJ_THREADS 8)\n",
        "config.h.in": "#cmakedefine01 PROJ_LIB_MPI\n#define THREADS @PROJ_THREADS@\n", "k.cu": "\n"})
    text, _, unset = bf.configured_header(root / "k.cu", "config.h")
    assert _lines(text) == ["#define PROJ_LIB_MPI 0", "#define THREADS 0"]
    assert unset == ("PROJ_LIB_MPI", "PROJ_THREADS")


def test_an_options_default_wins_over_values_set_in_branches(tmp_path):
    """A project with `option(X ... ON)` that some branch later sets off: the option's default is taken."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": 'if(PROJ_TINY)\n  set(PROJ_FAST OFF)\nendif()\noption(PROJ_FAST "fast path" ON)\n'
                          "if(PROJ_HUGE)\n  set(PROJ_FAST 1)\nendif()\n",
        "config.h.in": "#cmakedefine01 PROJ_FAST\n", "k.cu": "\n"})
    assert _lines(bf.configured_header(root / "k.cu", "config.h")[0]) == ["#define PROJ_FAST 1"]


def test_another_gpu_backends_cmake_files_are_not_read(tmp_path):
    """A project with HIP and OpenCL build files that set a value differently than its CUDA build does."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": "add_subdirectory(src)\n", "cmake/ProjManageHip.cmake": "set(PROJ_WARP 64)\n",
        "cmake/FindOpenCL.cmake": "set(PROJ_WARP 16)\n", "src/CMakeLists.txt": "set(PROJ_WARP 32)\n",
        "config.h.in": "#define WARP @PROJ_WARP@\n", "k.cu": "\n"})
    assert _lines(bf.configured_header(root / "k.cu", "config.h")[0]) == ["#define WARP 32"]


def test_the_top_of_the_cmake_tree_is_the_outermost_folder_with_cmakelists_all_the_way_down(tmp_path):
    """A CMake project whose modules each have a CMakeLists.txt: its top is the root, above the module's own."""
    root = _tree(tmp_path, {**_MODULES, "README": "not a module\n"})
    assert bf.project_root(root / "src/mod/k.cu") == root / "src/mod"
    assert bf.project_top(root / "src/mod/k.cu") == root


def test_the_top_of_the_cmake_tree_is_none_when_it_is_the_nearest_project(tmp_path):
    """A module that no CMakeLists.txt above adds (src/ has none): no tree beyond its own project."""
    files = dict(_MODULES)
    del files["src/CMakeLists.txt"]
    root = _tree(tmp_path, files)
    assert bf.project_top(root / "src/mod/k.cu") is None


def test_the_top_of_the_cmake_tree_is_looked_for_up_to_six_folders_above(tmp_path):
    """A deeply nested CMake tree: the top is taken no further than six folders above the file's."""
    deep = "/".join(f"d{i}" for i in range(8))
    root = _tree(tmp_path, {**{"/".join([*deep.split("/")[:i], "CMakeLists.txt"]): "\n" for i in range(9)},
                            f"{deep}/k.cu": "\n"})
    assert bf.project_top(root / deep / "k.cu") == root / "d0/d1"


def test_a_path_qualified_header_of_a_sibling_module_is_found_in_the_cmake_tree(tmp_path):
    """A CMake project whose modules each export an include/ folder: a module includes another's header by path."""
    root = _tree(tmp_path, {**_MODULES, "src/other/CMakeLists.txt": "add_library(other o.cpp)\n",
                            "src/other/include/proj/other/x.h": "\n"})
    got = bf.headers_by_name(root / "src/mod/k.cu", {"proj/other/x.h"})
    assert [d for d, _ in got] == [root / "src/other/include"]
    assert got[0][1] == f"the only proj/other/x.h under {root.name}/"


def test_a_path_qualified_header_the_cmake_tree_holds_twice_is_not_guessed(tmp_path):
    """The same project with two modules exporting a header of that path: which one is ambiguous."""
    root = _tree(tmp_path, {**_MODULES, "src/other/include/proj/other/x.h": "\n",
                            "src/third/include/proj/other/x.h": "\n"})
    assert bf.headers_by_name(root / "src/mod/k.cu", {"proj/other/x.h"}) == []


def test_a_kernel_using_a_sibling_modules_type_under_a_configured_cuda_switch_parses(tmp_path):
    """A CMake project whose modules each export an include/ folder, the header's type declared under the CUDA
    build's switch of a `config.h.cmakein`, its field's type from a third module."""
    from analyzers import clang_front as cf

    root = _tree(tmp_path, {
        **_MODULES, "CMakeLists.txt": 'project(proj)\noption(PROJ_GPU_CUDA "CUDA" OFF)\nadd_subdirectory(src)\n',
        "src/config.h.cmakein": "#cmakedefine01 PROJ_GPU_CUDA\n",
        "src/CMakeLists.txt": "add_subdirectory(base)\nadd_subdirectory(other)\nadd_subdirectory(mod)\n",
        "src/base/CMakeLists.txt": "add_library(base INTERFACE)\n",
        "src/base/include/proj/base/real.h": "#pragma once\ntypedef float real_t;\n",
        "src/other/CMakeLists.txt": "add_library(other INTERFACE)\n",
        "src/other/include/proj/other/t.h": '#pragma once\n#include "config.h"\n#include "proj/base/real.h"\n'
                                            "#if PROJ_GPU_CUDA\nstruct Pair { real_t a, b; };\n#endif\n",
        "src/mod/k.cu": '#include "proj/base/real.h"\n#include "proj/other/t.h"\n'
                        "__global__ void k(Pair *p) { p[threadIdx.x].a = p[threadIdx.x].b; }\n"})
    p = root / "src/mod/k.cu"
    u = cf.parse(p, p.read_text(), include_dirs=())
    assert "k" in u.funcs and not u.broken


def test_a_header_of_another_project_reads_its_own_projects_configured_header(tmp_path):
    """cunn's kernels include cutorch's `THC.h` (through `-I`), which includes `THCGeneral.h`, configured from
    cutorch's `THCGeneral.h.in`: the template is looked for near the include folder too."""
    from analyzers import clang_front as cf

    root = _tree(tmp_path, {
        "lib/CMakeLists.txt": "project(lib)\nset(LIB_TILE 16)\n",
        "lib/THC/General.h.in": "#define LIB_CLASS\n#define LIB_TILE @LIB_TILE@\n",
        "lib/THC/THC.h": '#pragma once\n#include "General.h"\ntypedef struct LIB_CLASS Buf { float v[LIB_TILE]; } Buf;\n',
        "nn/CMakeLists.txt": "project(nn)\n",
        "nn/k.cu": '#include "THC.h"\n__global__ void k(Buf *b) { b->v[threadIdx.x % 16] = 1; }\n'})
    p = root / "nn/k.cu"
    assert bf.configured_header(p, "General.h") is None
    text = bf.configured_header(p, "General.h", [str(root / "lib/THC")])[0]
    assert _lines(text) == ["#define LIB_CLASS", "#define LIB_TILE 16"]
    u = cf.parse(p, p.read_text(), include_dirs=[str(root / "lib/THC")])
    assert "k" in u.funcs and not u.broken and not u.skipped_host


def test_a_configured_headers_host_declarations_that_do_not_parse_are_skipped(tmp_path):
    """A configured header holding a host struct of a library the suite lacks (cutorch's `THCState`, of TH's
    `THAllocator`): that declaration is skipped, the header's macros and types kept."""
    from analyzers import clang_front as cf

    root = _tree(tmp_path, {
        "CMakeLists.txt": "project(lib)\nset(LIB_TILE 16)\n",
        "General.h.in": "#define LIB_TILE @LIB_TILE@\nstruct State { THAllocator *host; int devices; };\n"
                        "typedef struct Buf { float v[LIB_TILE]; } Buf;\n",
        "k.cu": '#include "General.h"\n__global__ void k(Buf *b) { b->v[threadIdx.x % LIB_TILE] = 1; }\n'})
    p = root / "k.cu"
    u = cf.parse(p, p.read_text())
    assert "k" in u.funcs and not u.broken and u.skipped_host == 1


def test_headers_are_found_in_the_tree_the_include_folder_shares_with_a_file_far_from_any_build_file(tmp_path):
    """PhysX's kernels sit three folders below `physx/source` with no build file near them (its CMake files are in
    `physx/source/compiler/cmake`): given `-I physx/include`, a header of a sibling module is found in `physx/`."""
    from analyzers import clang_front as cf

    root = _tree(tmp_path, {
        "physx/include/Pub.h": "#pragma once\nstruct Vec { float x, y; };\n",
        "physx/source/mod/include/Agg.h": '#pragma once\n#include "Pub.h"\nstruct Agg { Vec v[4]; int n; };\n',
        "physx/source/mod/src/CUDA/k.cu": '#include "Agg.h"\n'
                                          "__global__ void k(Agg *a) { a[blockIdx.x].v[threadIdx.x % 4].x = 1.f; }\n"})
    p = root / "physx/source/mod/src/CUDA/k.cu"
    assert bf.project_files(p) == (None, None)
    assert bf.project_files(p, [str(root / "physx/include")])[0] == root / "physx"
    u = cf.parse(p, p.read_text(), include_dirs=[str(root / "physx/include")])
    assert "k" in u.funcs and not u.broken
    assert [f for _, f in u.build_includes] == ["the only Agg.h under physx/"]


def test_a_header_found_by_name_may_include_another_found_by_name(tmp_path):
    """PhysX's `PxgArticulation.h` (found in `gpusimulationcontroller/include`) includes `PxSpatialMatrix.h` of
    `gpucommon/include`, which the first search could not know it needed; and its foundation headers take their
    SSE path, as nvcc's device pass does on x86."""
    from analyzers import clang_front as cf

    root = _tree(tmp_path, {
        "physx/include/Pub.h": "#pragma once\n#include <xmmintrin.h>\n#include <alloca.h>\n"
                               "struct Vec { float x, y; };\ntypedef __m128 Vec4V;\n"
                               "inline Vec4V add4(Vec4V a, Vec4V b) { return _mm_add_ps(a, _mm_shuffle_ps(b, b, "
                               "_MM_SHUFFLE(0, 1, 2, 3))); }\n"
                               "inline void *scratch(int n) { return alloca(n); }\n",
        "physx/source/common/include/Spatial.h": '#pragma once\n#include "Pub.h"\nstruct Spatial { Vec v[4]; };\n',
        "physx/source/sim/include/Arti.h": '#pragma once\n#include "Spatial.h"\nstruct Arti { Spatial s; int n; };\n',
        "physx/source/arti/src/CUDA/k.cu": '#include "Arti.h"\n'
                                           "__global__ void k(Arti *a) { a[blockIdx.x].s.v[threadIdx.x % 4].x = 1.f; }\n"})
    p = root / "physx/source/arti/src/CUDA/k.cu"
    u = cf.parse(p, p.read_text(), include_dirs=[str(root / "physx/include")])
    assert "k" in u.funcs and not u.broken
    assert [f for _, f in u.build_includes] == ["the only Arti.h under physx/", "the only Spatial.h under physx/"]


def test_a_system_header_a_found_header_includes_is_not_taken_from_a_projects_windows_copy(tmp_path):
    """ccminer's `miner.h` (found by name) includes <pthread.h> and <getopt.h>, of which the project keeps Windows
    copies in `compat/`: the later rounds look for quoted includes only, so those copies stay out of the parse."""
    from analyzers import clang_front as cf

    root = _tree(tmp_path, {
        "proj/Makefile.am": "AM_CPPFLAGS = -I.\n",
        "proj/miner.h": "#pragma once\n#include <pthread.h>\n#define MAX_GPUS 16\n",
        "proj/compat/pthreads/pthread.h": "#pragma once\n#error this is the Windows build's pthread\n",
        "proj/algo/k.cu": '#include "miner.h"\n'
                          "__global__ void k(float *x) { __shared__ float s[MAX_GPUS]; s[threadIdx.x % MAX_GPUS] = x[0]; }\n"})
    p = root / "proj/algo/k.cu"
    u = cf.parse(p, p.read_text())
    assert "k" in u.funcs and not u.broken, u.broken
    assert not any("pthreads" in d for d, _ in u.build_includes), u.build_includes


def test_a_path_qualified_header_is_found_under_a_folder_above_the_file(tmp_path):
    """`#include "common/launch.cuh"` in `src/bevfusion/k.cu`, built with `-I src` by a build file kopt was not
    given: the folder above that holds `common/launch.cuh` is the include folder."""
    from analyzers import clang_front as cf

    root = _tree(tmp_path, {
        "app/src/common/launch.cuh": "#pragma once\n#define linear_index (blockDim.x * blockIdx.x + threadIdx.x)\n",
        "app/src/bevfusion/k.cu": '#include "common/launch.cuh"\n'
                                  "__global__ void k(float *x, int n) { int i = linear_index; if (i < n) x[i] = 1.f; }\n"})
    p = root / "app/src/bevfusion/k.cu"
    assert bf.ancestor_includes(p, {"common/launch.cuh", "launch.cuh", "../common/launch.cuh"}) == [
        (root / "app/src", "common/launch.cuh under src/")]
    u = cf.parse(p, p.read_text())
    assert "k" in u.funcs and not u.broken


def test_a_switch_that_turns_the_gpu_off_or_names_a_cuda_feature_follows_its_cmake_value(tmp_path):
    """`PROJ_NO_GPU`, `DISABLE_CUDA` and `USE_CUDA_AWARE_MPI` are not the CUDA build's own switch: CMake decides."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": "set(PROJ_NO_GPU OFF)\nset(DISABLE_CUDA OFF)\nset(USE_CUDA_AWARE_MPI OFF)\n",
        "config.h.in": "#cmakedefine01 PROJ_NO_GPU\n#cmakedefine01 DISABLE_CUDA\n#cmakedefine01 USE_CUDA_AWARE_MPI\n",
        "k.cu": "\n"})
    text = bf.configured_header(root / "k.cu", "config.h")[0]
    assert _lines(text) == ["#define PROJ_NO_GPU 0", "#define DISABLE_CUDA 0", "#define USE_CUDA_AWARE_MPI 0"]


def test_an_option_without_a_default_is_off_and_a_quoted_cached_value_is_its_value(tmp_path):
    """`option(X "doc")` defaults to OFF (not to its doc string); `set(N "4" CACHE STRING "doc")` sets 4."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": 'option(PROJ_FAST "fast math")\nset(PROJ_N "4" CACHE STRING "the width")\n',
        "config.h.in": "#cmakedefine01 PROJ_FAST\n#define N @PROJ_N@\n", "k.cu": "\n"})
    text = bf.configured_header(root / "k.cu", "config.h")[0]
    assert _lines(text) == ["#define PROJ_FAST 0", "#define N 4"]


def test_a_placeholder_a_build_script_replaces_is_an_unset_value(tmp_path):
    """A template whose version placeholder a build script (not CMake) fills in, `${lib:Version}`: 0, reported unset,
    so `#if LIB_VERSION_CODE >= ...` reads a number (the raw placeholder broke the directive)."""
    root = _tree(tmp_path, {"CMakeLists.txt": "project(p)\n", "k.cu": "\n",
                            "lib.h.in": "#define LIB_VERSION_CODE ${lib:Version}\n"})
    text, _, unset = bf.configured_header(root / "k.cu", "lib.h")
    assert _lines(text) == ["#define LIB_VERSION_CODE 0"] and unset == ("lib:Version",)


def test_a_build_that_compiles_cpp20_is_read_by_the_parse(tmp_path):
    """Concepts, `requires` and a constexpr `std::bit_cast` in a project built as C++20 (CMake's standard, or
    `-std=c++20` in a makefile a Makefile includes): parsed as C++20; as C++17 the kernel went to the fallback."""
    from kopt.analyze import analyze

    kernel = """#include <bit>
template <class T> concept small = sizeof(T) <= 4;
constexpr float inf = std::bit_cast<float>(0x7f800000u);
template <small T> __device__ T clamp_inf(T v) requires (sizeof(T) > 1) { return v < inf ? v : T(inf); }
__global__ void k(float *x) { x[threadIdx.x] = clamp_inf(x[threadIdx.x]); }
"""
    cm = _tree(tmp_path / "cm", {"CMakeLists.txt": "set(CMAKE_CUDA_STANDARD 20)\nadd_library(k k.cu)\n", "k.cu": kernel})
    mk = _tree(tmp_path / "mk", {"common.mk": "NVCCFLAGS += -std=c++20 -O3\n", "app/Makefile": "include ../common.mk\n",
                                 "app/k.cu": kernel})
    plain = _tree(tmp_path / "plain", {"k.cu": kernel})
    assert bf.cxx20(cm / "k.cu") == "CMakeLists.txt" and bf.cxx20(mk / "app" / "k.cu") == "Makefile"
    assert bf.cxx20(plain / "k.cu") is None
    for f in (cm / "k.cu", mk / "app" / "k.cu"):
        res = analyze(f, block=(128, 1, 1))
        assert res.paths["k"].startswith("libclang"), res.paths
    assert not analyze(plain / "k.cu", block=(128, 1, 1)).paths["k"].startswith("libclang")


def test_a_header_of_a_sibling_module_named_alone_is_found_in_the_cmake_tree(tmp_path):
    """sundials: a module's kernel header includes "core_kernels.cuh", which the core module beside it holds (its
    CMakeLists.txt exports the folder); once in the tree, it is that one, and twice, none."""
    root = _tree(tmp_path / "once", {**_MODULES, "src/core/CMakeLists.txt": "add_library(core c.cpp)\n",
                                     "src/core/core_kernels.cuh": "\n"})
    assert [d for d, _ in bf.headers_by_name(root / "src/mod/k.cu", {"core_kernels.cuh"})] == [root / "src/core"]
    twice = _tree(tmp_path / "twice", {**_MODULES, "src/core/core_kernels.cuh": "\n", "src/other/core_kernels.cuh": "\n"})
    assert bf.headers_by_name(twice / "src/mod/k.cu", {"core_kernels.cuh"}) == []


def test_a_whole_line_placeholder_takes_a_value_set_from_a_project_option(tmp_path):
    """sundials' `@PRECISION_LEVEL@` line: set to `#define SUNDIALS_${SUNDIALS_PRECISION}_PRECISION 1`, the precision
    a default of the project's own option wrapper; a whole-line placeholder left unset is an empty line."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": 'macro(proj_option NAME TYPE DOC DEFAULT)\nendmacro()\n'
                          'proj_option(PROJ_PRECISION STRING "${DOCSTR}" "DOUBLE")\n'
                          'set(PRECISION_LEVEL "#define PROJ_${PROJ_PRECISION}_PRECISION 1")\n',
        "config.h.in": "@PRECISION_LEVEL@\n  @PROJ_NOT_SET@\n#define N @PROJ_NOT_SET@\n", "k.cu": "\n"})
    text, _, unset = bf.configured_header(root / "k.cu", "config.h")
    assert _lines(text) == ["#define PROJ_DOUBLE_PRECISION 1", "#define N 0"] and unset == ("PROJ_NOT_SET",)


def test_a_value_a_configure_step_finds_is_the_first_candidate_it_tries(tmp_path):
    """sundials' index type: set empty, then in a loop over candidate types to the first that has the size; the
    template named in `configure_file` is not the header's name with a suffix."""
    root = _tree(tmp_path, {
        "CMakeLists.txt": 'set(PROJ_CINDEX_TYPE "")\nset(POSSIBLE_INT64 int64_t;__int64;long)\n'
                          'foreach(INT64_TYPE ${POSSIBLE_INT64})\n  check_type_size("${INT64_TYPE}" HAS)\n'
                          '  if(HAS EQUAL "8")\n    set(PROJ_CINDEX_TYPE ${INT64_TYPE})\n    break()\n  endif()\n'
                          'endforeach()\nconfigure_file(${PROJECT_SOURCE_DIR}/proj_config.in proj_config.h)\n',
        "proj_config.in": "#define PROJ_INDEX_TYPE @PROJ_CINDEX_TYPE@\n", "k.cu": "\n"})
    text, template, unset = bf.configured_header(root / "k.cu", "proj_config.h")
    assert _lines(text) == ["#define PROJ_INDEX_TYPE int64_t"] and template == str(root / "proj_config.in")


def test_a_cuda_enabled_switch_is_on_and_another_backends_off(tmp_path):
    """sundials' `#cmakedefine SUNDIALS_CUDA_ENABLED` (set by no CMake file: the CUDA build's) and its HIP twin."""
    root = _tree(tmp_path, {"CMakeLists.txt": "set(PROJ_HIP_ENABLED ON)\n", "k.cu": "\n",
                            "config.h.in": "#cmakedefine PROJ_CUDA_ENABLED\n#cmakedefine PROJ_HIP_ENABLED\n"})
    text, _, unset = bf.configured_header(root / "k.cu", "config.h")
    assert _lines(text) == ["#define PROJ_CUDA_ENABLED", "/* #undef PROJ_HIP_ENABLED */"] and unset == ()


def test_an_unset_placeholder_inside_a_name_keeps_the_name_an_identifier(tmp_path):
    """CV-CUDA's `VersionDef.h.in` writes `#define @LIBPREFIX@_VERSIONDEF_H` (a CMake function's parameter, set by no
    file): `0_VERSIONDEF_H` would be no macro name; a placeholder standing alone still reads 0."""
    root = _tree(tmp_path, {"CMakeLists.txt": "project(p)\n", "k.cu": "\n",
                            "VersionDef.h.in": "#define @LIBPREFIX@_VERSIONDEF_H\n#define V @LIBPREFIX@\n"})
    text, _, unset = bf.configured_header(root / "k.cu", "VersionDef.h")
    assert _lines(text) == ["#define LIBPREFIX_VERSIONDEF_H", "#define V 0"] and unset == ("LIBPREFIX",)
