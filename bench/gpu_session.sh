#!/usr/bin/env bash
# One device call: install kopt on the GPU machine, then run the named stages, each under its own time limit, with
# logs and results under $OUT. Usage (device machine, repo root): bash bench/gpu_session.sh STAGE...
# KOPT_SKIP_INSTALL=1 skips the installs (a second lane on another GPU: CUDA_VISIBLE_DEVICES=1 ... &); KOPT_NO_PACK=1
# leaves $OUT unpacked (lanes: pack once at the end); KOPT_LANE=N suffixes a lane's log names; KOPT_DEADLINE (epoch
# seconds) shortens or skips stages so that everything ends before the device call's limit. Everything under $OUT ends in $OUT/out.tgz.
# Stages: doctor, tests (GPU tests except the timed shapes), timed (timed-shape tests), timing, kb, optimize,
#         pytest:SELECTION (e.g. pytest:tests/gpu/test_gpu_mcp.py; SELECTION@EXPR adds -k EXPR), kbonly:a,b (kb_measure on some examples;
#         KB_ARGS adds kb_measure options, e.g. KB_ARGS="--compile-limit 90 --max-time 1"),
#         profile:TASK:FILE.cu (kopt profile --json into results/), kbadd:TASK:FILE.cu (kopt kb add FILE --task TASK
#         into a scratch cache), tune:TASK:FILE.cu (kopt optimize --workflow tune --strategy exhaustive),
#         cpu:SELECTION (pytest without the gpu mark: torch-dependent CPU tests), launchtime (bench/launch_time.py),
#         kernelbench (bench/kernelbench.py run; KB_PROBLEMS, KB_ONLY, KB_COMMIT, KB_LIMIT from the environment).
#         checkspeed (bench/check_speed.py; CS_ONLY, CS_ARGS from the environment), ktvs (kopt's tuner against
#         Kernel Tuner: bench/tuner_vs_kernel_tuner.py, KT_ARGS),
#         nvcc:CORPUS (bench/nvcc_corpus.py gpu: kopt import's tasks run on the GPU; CORPUS from its fetch stage).
#         capture (bench/capture_structured.py gpu: sanitizer text + XML and ncu reports + CSV into tests/data, so
#         later cpu: stages read them, and copied to $OUT/capture); capture:CASE[,CASE] only those ncu profile cases
#         (e.g. capture:bandwidth_low_occupancy) and the device's ceilings.
#         runprofile:TASK[,TASK] (bench/run_profile.py: cProfile of a warm `kopt run`'s parent process).
#         bytecode (compile kopt's and the carried wheels' bytecode, as a pip install does; the device image may
#         set PYTHONDONTWRITEBYTECODE, which makes every process compile its imports from source).
#         refspeed:TASK (bench/reference_speed.py: the task's reference_cuda versions in REF_ARGS, e.g.
#         REF_ARGS="--ref old.cu --ref new.cu@NAME=V"), poolcheck (bench/pool_check.py: --workers 1 against the local path on softmax_rows and vector_add).
set -uo pipefail
OUT=${OUT:-/tmp/kopt-out}
mkdir -p "$OUT/results"
if [ -d .whl ]; then
  export PYTHONPATH=/tmp/site
fi
if [ -d .whl ] && [ -z "${KOPT_SKIP_INSTALL:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    > "$OUT/wheels.log" 2>&1 || tail -5 "$OUT/wheels.log"
fi
export PYTHONUNBUFFERED=1
if [ -z "${KOPT_SKIP_INSTALL:-}" ]; then
  rm -rf build
  python3 -m pip install -q --no-build-isolation --no-deps -e . > "$OUT/install.log" 2>&1 || { tail -30 "$OUT/install.log"; exit 1; }
fi

stage() {  # $1: name, $2: seconds, rest: command
  local name=$1${KOPT_LANE:+_$KOPT_LANE} limit=$2; shift 2
  local start=$(date +%s)
  if [ -n "${KOPT_DEADLINE:-}" ]; then  # epoch seconds by which every stage must be done (the device call's limit)
    local left=$(( KOPT_DEADLINE - start - 5 ))
    if [ "$left" -lt 20 ]; then echo "=== $name: skipped, too close to the deadline"; return; fi
    [ "$left" -lt "$limit" ] && limit=$left
  fi
  echo "=== $name (limit $limit s)"
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  tail -40 "$OUT/$name.log"
  echo "=== $name: exit $rc, $(( $(date +%s) - start )) s"
}
PYTEST=(python3 -m pytest -m gpu -p no:cacheprovider -v -rfs --tb=short --timeout=300 --durations=12)
sfx=${KOPT_LANE:+_$KOPT_LANE}  # result files of a second lane get their own names
INTO='out=$1; shift; "$@" > "$out"'  # bash -c "$INTO" _ FILE CMD...: CMD's stdout into FILE, no re-quoting

for s in "$@"; do
  spec=${s#*:}; task=${spec%%:*}; file=${spec#*:}  # for NAME:TASK:FILE stages
  case "$s" in
    profile:*|kbadd:*|tune:*) if [ "$task" = "$spec" ]; then echo "stage $s: expected ${s%%:*}:TASK:FILE.cu"; continue; fi ;;
  esac
  case "$s" in
    doctor) stage doctor 60 bash -c "python3 -m kopt.cli doctor; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv" ;;
    tests) stage pytest_gpu 300 "${PYTEST[@]}" -k "not timed_shape" tests/gpu ;;
    timed) stage pytest_gpu_timed 240 "${PYTEST[@]}" -s -k "timed_shape" tests/gpu ;;
    timing) stage timing 240 python3 bench/timing_accuracy.py --out "$OUT/results/timing_accuracy$sfx.json" ;;
    kb) stage kb 420 python3 bench/kb_measure.py --out "$OUT/results/kb_examples$sfx.json" ${KB_ARGS:-} ;;
    kbonly:*) part=$((${part:-0} + 1))
              stage "kbonly$part" 420 python3 bench/kb_measure.py --only "${s#kbonly:}" \
                --out "$OUT/results/kb_examples_part${sfx}_$part.json" ${KB_ARGS:-} ;;
    profile:*) stage "profile_$(basename "$file" .cu)" 300 bash -c "$INTO" _ \
                 "$OUT/results/profile_$(basename "$file" .cu)$sfx.json" python3 -m kopt.cli profile "$task" "$file" --json ;;
    optimize) stage optimize 360 python3 bench/optimize_runs.py --out "$OUT/results/optimize_runs$sfx.json" \
                --store-copy "$OUT/runs$sfx.db" ;;
    kbadd:*) stage "kbadd_$(basename "$file" .cu)" 300 env KOPT_CACHE_DIR="$OUT/kb-cache$sfx" bash -c "$INTO" _ \
               "$OUT/results/kbadd_$(basename "$file" .cu)$sfx.json" python3 -m kopt.cli kb add "$file" --task "$task" --json ;;
    tune:*) stage "tune_$(basename "$file" .cu)" 400 bash -c 'cd "$(mktemp -d)" && '"$INTO" _ \
              "$OUT/results/tune_$(basename "$file" .cu)$sfx.json" python3 -m kopt.cli optimize "$PWD/$task" \
              --from "$PWD/$file" --workflow tune --strategy exhaustive --json ;;
    pytest:*@*) sel=${s#pytest:}; stage "pytest_$(basename "${sel%@*}" .py)_k" 300 "${PYTEST[@]}" -k "${sel##*@}" "${sel%@*}" ;;
    pytest:*) stage "pytest_$(basename "${s#pytest:}" .py)" 300 "${PYTEST[@]}" "${s#pytest:}" ;;
    cpu:*) stage "cpu_$(basename "${s#cpu:}" .py)" 300 python3 -m pytest -p no:cacheprovider -v -rfs --tb=short \
             --timeout=300 "${s#cpu:}" ;;
    checkspeed) stage checkspeed 540 python3 bench/check_speed.py --out "$OUT/results/check_speed$sfx.json" \
                  ${CS_ONLY:+--only "$CS_ONLY"} ${CS_ARGS:-} ;;
    ktvs) stage ktvs 560 python3 bench/tuner_vs_kernel_tuner.py --out "$OUT/results/tuner_vs_kernel_tuner$sfx.json" \
            ${KT_ARGS:-} ;;
    runprofile:*) stage runprofile 300 python3 bench/run_profile.py --out "$OUT/results/run_profile$sfx.json" \
                    $(printf -- '--task %s ' ${spec//,/ }) ;;
    bytecode) stage bytecode 120 bash -c 'env | grep -i "^PYTHON" ; python3 -m compileall -q -j 0 kopt analyzers \
                $( [ -d /tmp/site ] && echo /tmp/site ) ; echo "bytecode compiled"' ;;
    refspeed:*) stage refspeed 300 python3 bench/reference_speed.py "${s#refspeed:}" ${REF_ARGS:-} \
                  --out "$OUT/results/reference_speed$sfx.json" ;;
    poolcheck) stage poolcheck 240 python3 bench/pool_check.py --out "$OUT/results/pool_check$sfx.json" ;;
    launchtime) stage launchtime 300 python3 bench/launch_time.py --out "$OUT/results/launch_time$sfx.json" ;;
    kernelbench) stage kernelbench "${KB_LIMIT:-540}" python3 bench/kernelbench.py run \
                   --problems "${KB_PROBLEMS:-.corpus/KernelBench/level1}" --tasks /tmp/kb_tasks \
                   --corpus-commit "${KB_COMMIT:-}" --only "${KB_ONLY:-}" --out "$OUT/results/kernelbench_run$sfx.json" ;;
    nvcc:*) stage nvcc_corpus 540 python3 bench/nvcc_corpus.py gpu --corpus "${s#nvcc:}" \
              --out "$OUT/results/nvcc_corpus_gpu$sfx.json" ;;
    capture|capture:*) stage capture 420 bash -c 'python3 bench/capture_structured.py gpu tests/data $2 && \
               mkdir -p "$1/capture" && cp -r tests/data/sanitizer tests/data/ncu "$1/capture/"' _ "$OUT" \
               "$([ "$s" = capture ] || echo "${s#capture:}" | tr , ' ')" ;;
    *) echo "unknown stage $s" ;;
  esac
done

# The device returns at most 8 files: pack everything under $OUT into one archive (unpack with tar xzf).
if [ -z "${KOPT_NO_PACK:-}" ]; then
  (cd "$OUT" && tar czf /tmp/kopt-out.tgz --exclude=out.tgz . && find . -mindepth 1 -delete && mv /tmp/kopt-out.tgz out.tgz)
fi
