#!/usr/bin/env bash
# One device call on a two-GPU machine: install once (doctor stage), then run two lists of gpu_session.sh stages at
# the same time, one per GPU, all ending before KOPT_BUDGET seconds (default 560) from the start; pack $OUT once.
# Usage (device machine, repo root): bash bench/gpu_two_lanes.sh "STAGES FOR GPU 0" "STAGES FOR GPU 1"
set -uo pipefail
set -f  # the stage lists are split on spaces below, never globbed
if [ $# -ne 2 ]; then echo "usage: $0 \"STAGES FOR GPU 0\" \"STAGES FOR GPU 1\"" >&2; exit 2; fi
OUT=${OUT:-/tmp/kopt-out}
export OUT KOPT_DEADLINE=$(( $(date +%s) + ${KOPT_BUDGET:-560} )) KOPT_NO_PACK=1
here=$(dirname "$0")
pack() { KOPT_SKIP_INSTALL=1 KOPT_NO_PACK= bash "$here/gpu_session.sh"; }  # no stages: it only packs $OUT
bash "$here/gpu_session.sh" doctor || { echo "install failed: no lanes run"; pack; exit 1; }
CUDA_VISIBLE_DEVICES=1 KOPT_SKIP_INSTALL=1 KOPT_LANE=1 bash "$here/gpu_session.sh" $2 > "$OUT/lane1.txt" 2>&1 &
CUDA_VISIBLE_DEVICES=0 KOPT_SKIP_INSTALL=1 bash "$here/gpu_session.sh" $1
wait
echo "=== lane 1"; cat "$OUT/lane1.txt"
pack
