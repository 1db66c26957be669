#!/usr/bin/env bash
# One device call: install kopt on the GPU machine, record doctor output, run the GPU tests and the GPU benchmarks.
# Usage (on the device machine, from the repo root): bash bench/gpu_session.sh [pytest -k expression]
set -uo pipefail
OUT=${OUT:-/tmp/kopt-out}
mkdir -p "$OUT"
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site
fi
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-build-isolation --no-deps -e . > "$OUT/install.log" 2>&1 || { tail -30 "$OUT/install.log"; exit 1; }
python3 -m kopt.cli doctor 2>&1 | tee "$OUT/doctor.txt" || true
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee -a "$OUT/doctor.txt"
start=$(date +%s)
python3 -m pytest -m gpu -p no:cacheprovider -v -s -rfs --tb=short --timeout=120 --durations=15 ${1:+-k "$1"} tests 2>&1 | tee "$OUT/pytest_gpu.txt"
echo "gpu tests wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/pytest_gpu.txt"
