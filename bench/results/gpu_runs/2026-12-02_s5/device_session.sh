#!/usr/bin/env bash
# Device session 2: install; ablation bench of the variants (checks every shape, then times them interleaved);
# the best-ranked variant's values become the example's defaults; kb_measure of that configuration vs SDPA.
set -u
T0=$(date +%s); LIMIT=${LIMIT:-285}
left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
KOPT_NO_PACK=1 bash bench/gpu_session.sh > "$OUT/install.txt" 2>&1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
F=kb/cutlass_examples/attention_fwd_wgmma.cu; T=bench/tasks/attention_fwd_long
cp .kx26/attention_fwd_wgmma.cu .kx26/attention_fwd_wgmma.toml kb/cutlass_examples/
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
mkdir -p .kx26/abl; cands=()
for v in $ABL; do  # NAME=K:V,K:V -> a copy of the example with those tune values only
  name=${v%%=*}; c=.kx26/abl/$name.cu; cp $F $c
  for kv in $(echo ${v#*=} | tr , ' '); do k=${kv%%:*}; val=${kv#*:}; sed -i "s|^// kopt: tune $k in \[.*\]|// kopt: tune $k in [$val]|" $c; done
  cands+=($c)
done
[ -n "${R1:-}" ] && { cp .kx26/r1.cu .kx26/abl/r1.cu; cands+=(.kx26/abl/r1.cu); }
echo "=== ablation bench (left $(left) s)"
timeout $(( $(left) - ${KB_RESERVE:-120} )) python3 -m kopt.cli bench $T "${cands[@]}" --no-baseline --arch sm_90a \
  --max-time ${ABL_MAXT:-0.4} --json --out "$OUT/ablation.json" > /dev/null 2> "$OUT/ablation.err"; echo "ablation rc $?"
tail -5 "$OUT/ablation.err"
python3 - "$OUT/ablation.json" $F <<'PY' 2>&1 | tee "$OUT/select.txt"
import json, re, sys
d = json.load(open(sys.argv[1])); f = sys.argv[2]
for r in d["ranking"]:
    print(r["rank"], r["candidate"], r["status"], r.get("time_us"))
best = next(r["candidate"] for r in d["ranking"] if r["status"] == "ok" and not r["candidate"].endswith("r1.cu"))
vals = dict(re.findall(r"^// kopt: tune (\w+) in \[([^,\]]+)\]$", open(best).read(), re.M))
src = open(f).read()
def fix(m):
    k, items = m.group(1), [x.strip() for x in m.group(2).split(",")]
    if k in vals: items = [vals[k]] + [x for x in items if x != vals[k]]
    return f"// kopt: tune {k} in [{', '.join(items)}]"
src = re.sub(r"^// kopt: tune (\w+) in \[(.*)\]$", fix, src, flags=re.M)
open(f, "w").write(src)
print("defaults from", best, vals)
PY
grep "kopt: tune" $F | tee -a "$OUT/select.txt"
echo "=== kb_measure (left $(left) s)"
timeout $(( $(left) - 5 )) python3 bench/kb_measure.py --only attention_fwd_wgmma --task attention_fwd_long \
  --max-time ${KB_MAXT:-1} --compile-limit ${KB_CL:-5} --out "$OUT/kb_wgmma_long.json" > "$OUT/kb.txt" 2>&1; echo "kb rc $?"
tail -12 "$OUT/kb.txt"
cp $F "$OUT/attention_fwd_wgmma.measured.cu"
(cd "$OUT" && tar czf /tmp/o.tgz --exclude=out.tgz . && find . -mindepth 1 -delete && mv /tmp/o.tgz out.tgz)
echo "=== done in $(( $(date +%s) - T0 )) s"
