#!/usr/bin/env bash
# One device call: install kopt on the GPU machine, record doctor output, run the GPU tests.
# Usage (on the device machine, from the repo root): bash bench/gpu_session.sh [SECONDS_FOR_TIMED_SHAPES]
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
run_tests() {  # $1: log name, $2: time limit, rest: pytest selection
  local log=$1 limit=$2; shift 2
  local start=$(date +%s)
  timeout "$limit" python3 -m pytest -m gpu -p no:cacheprovider -v -rfs --tb=short --timeout=150 --durations=12 "$@" \
    2>&1 | tee "$OUT/$log"
  echo "wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/$log"
}
run_tests pytest_gpu_small.txt 300 -k "not timed_shape" tests
run_tests pytest_gpu_timed.txt "${1:-240}" -s -k "timed_shape" tests
