#!/usr/bin/env bash
# Download the Python packages the GPU machine's image lacks (for Python 3.12 there) into .whl/, which a device call
# carries and bench/gpu_session.sh installs. The analyzers' libclang, tree-sitter and z3 stay behind (tests/gpu does
# not need them; sanitize then notes that static analysis was skipped). Usage: bash bench/gpu_wheels.sh
set -euo pipefail
cd "$(dirname "$0")/.."
grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo /.whl/ >> .git/info/exclude
mkdir -p .whl
pkgs=(mcp==2.3.0 mcp-types==2.3.0 httpx2 httpcore2 pydantic==2.14.4 pydantic-core==2.50.5 annotated-types
      typing-inspection starlette sse-starlette python-multipart uvicorn pyjwt jsonschema jsonschema-specifications
      referencing rpds-py opentelemetry-api cryptography cffi pycparser "nvidia-cuda-cccl<13.2" platformdirs tomli-w
      ncu-report kernel_tuner python-constraint2 xmltodict)
# ncu-report: Nsight Compute's report interface (abi3), which profile reads reports through; the last three:
# bench/tuner_vs_kernel_tuner.py only
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_25_x86_64 \
  --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .whl "${pkgs[@]}"
du -sh .whl
