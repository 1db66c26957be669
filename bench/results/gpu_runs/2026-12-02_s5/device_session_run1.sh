#!/usr/bin/env bash
# Device session for the wgmma attention example: install, correctness on every shape, KB row vs SDPA, ablation.
set -u
T0=$(date +%s); LIMIT=${LIMIT:-285}
left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
KOPT_NO_PACK=1 bash bench/gpu_session.sh > "$OUT/install.txt" 2>&1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
cp .kx26/attention_fwd_wgmma.cu .kx26/attention_fwd_wgmma.toml kb/cutlass_examples/
F=kb/cutlass_examples/attention_fwd_wgmma.cu; T=bench/tasks/attention_fwd_long
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
i=0
for sets in ${RUNS:-""}; do
  i=$((i+1)); args=(); for kv in ${sets//,/ }; do args+=(--set "$kv"); done
  echo "=== run $i: $sets (left $(left) s)"
  timeout 60 python3 -m kopt.cli run $T $F --arch sm_90a "${args[@]}" > "$OUT/run_$i.txt" 2>&1; echo "rc $?" >> "$OUT/run_$i.txt"
  tail -25 "$OUT/run_$i.txt"
done
if [ -n "${KB:-}" ] && [ "$(left)" -gt 60 ]; then
  echo "=== kb_measure (left $(left) s)"
  timeout $(( $(left) - ${ABL_RESERVE:-0} )) python3 bench/kb_measure.py --only attention_fwd_wgmma --task attention_fwd_long \
    --max-time ${KB_MAXT:-1} --compile-limit ${KB_CL:-5} --out "$OUT/kb_wgmma_long.json" > "$OUT/kb.txt" 2>&1; echo "rc $?" >> "$OUT/kb.txt"
  tail -30 "$OUT/kb.txt"
fi
if [ -n "${ABL:-}" ] && [ "$(left)" -gt 30 ]; then
  echo "=== ablation bench (left $(left) s)"
  cands=()
  for v in $ABL; do  # v: NAME=SETS, e.g. ov0=OVERLAP:0,BN:64 -> a copy whose first tune value is the one set
    name=${v%%=*}; c=.kx26/abl_$name.cu; cp $F $c
    for kv in $(echo ${v#*=} | tr , ' '); do k=${kv%%:*}; val=${kv#*:}; sed -i "s|^// kopt: tune $k in \[.*\]|// kopt: tune $k in [$val]|" $c; done
    cands+=($c)
  done
  timeout $(( $(left) - 3 )) python3 -m kopt.cli bench $T "${cands[@]}" --no-baseline --arch sm_90a --max-time ${ABL_MAXT:-0.5} \
    --json --out "$OUT/ablation.json" > "$OUT/ablation.txt" 2>&1; echo "rc $?" >> "$OUT/ablation.txt"
  tail -40 "$OUT/ablation.txt"
fi
echo "=== done in $(( $(date +%s) - T0 )) s"
