#!/usr/bin/env bash
# Grades a course folder (one subfolder per student) in shards with the grader's --shard, --out and
# --gather: as N local worker processes, or with --slurm as a Slurm job array of N tasks followed by
# a gather job. Both launch the same two grader commands, built once below; only the launcher differs.
# Student names never pass through a shell: the grader lists the folder itself.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: mk/grade-course.sh [options] SUBMISSIONS
Grades every subfolder of SUBMISSIONS (one per student) in N shards, then gathers the results into
OUT/gradebook.csv. Without --slurm the shards run here, P at a time; with --slurm they run as a Slurm
job array (sbatch --array=0-(N-1)%P) followed by a gather job (--dependency=afterany).

  --slurm              submit to Slurm instead of running here
  --shards N           how many shards (default: one per core here, 8 with --slurm)
  --parallel P         at most P shards at once (default N)
  --partition NAME     Slurm partition (default: the cluster's default one)
  --account NAME       Slurm account to charge (default: your default one)
  --time T             Slurm time limit of one shard, as sbatch reads it (default 04:00:00)
  --mode gpu|cpu|auto  how the grader builds runners (default gpu with --slurm, which then asks for
                       --gres=gpu:1; auto otherwise: the GPU if there is one)
  --out DIR            results, logs, job scripts and gradebook (default build/course/NAME, NAME being
                       SUBMISSIONS' last part)
  --lab NN             grade only this lab; repeatable
  --grader-arg ARG     pass ARG on to the grader, e.g. --grader-arg --timeout --grader-arg 20; repeatable
  --rerun K            run (or submit) shard K alone, then gather again: for a shard that failed or was
                       cancelled. Give the same options as the first time
  --grader PATH        the grader (default build/grader/grader)
EOF
}
die() {
    echo "grade-course: $*" >&2
    exit 2
}

kit=$(cd "$(dirname "$0")/.." && pwd)
grader=$kit/build/grader/grader
slurm=0 shards= parallel= partition= account= time=04:00:00 mode= out= rerun= subs=
extra=()
while [ $# -gt 0 ]; do
    case $1 in
    --slurm) slurm=1; shift; continue ;;
    -h | --help) usage; exit 0 ;;
    --shards | --parallel | --partition | --account | --time | --mode | --out | --lab | --grader-arg | --rerun | --grader)
        [ $# -ge 2 ] || die "$1 needs a value (try --help)" ;;
    esac
    case $1 in
    --shards) shards=$2 ;;
    --parallel) parallel=$2 ;;
    --partition) partition=$2 ;;
    --account) account=$2 ;;
    --time) time=$2 ;;
    --mode) mode=$2 ;;
    --out) out=$2 ;;
    --lab) extra+=(--lab "$2") ;;
    --grader-arg) extra+=("$2") ;;
    --rerun) rerun=$2 ;;
    --grader) grader=$2 ;;
    -*) die "unknown option $1 (try --help)" ;;
    *) [ -z "$subs" ] || die "one submissions folder only (got '$subs' and '$1')"; subs=$1; shift; continue ;;
    esac
    shift 2
done

# Everything is checked before anything runs or is submitted.
[ -n "$subs" ] || die "say which folder to grade: mk/grade-course.sh [options] SUBMISSIONS (or make grade-course SUBMISSIONS=DIR)"
[ -x "$grader" ] || die "no grader at $grader: run make build/grader/grader first"
# The grader lists the students itself; this only refuses, early, a folder it would find empty.
[ -d "$subs" ] && [ -r "$subs" ] && [ -x "$subs" ] || die "cannot read the submissions folder $subs"
[ -n "$(find "$subs" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -print -quit)" ] ||
    die "$subs holds no submission folders (it needs one subfolder per student)"
# One shard per core here (more would only share the cores); a cluster's array defaults to 8 tasks.
shards=${shards:-$([ $slurm = 1 ] && echo 8 || nproc 2>/dev/null || echo 2)}
[[ $shards =~ ^[1-9][0-9]*$ ]] || die "--shards (SHARDS) must be a whole number of at least 1, not '$shards'"
parallel=${parallel:-$shards}
[[ $parallel =~ ^[1-9][0-9]*$ ]] || die "--parallel (PARALLEL) must be a whole number of at least 1, not '$parallel'"
# The grader is the judge of a shard's bounds: K/N for the last shard, or the one to rerun.
"$grader" --shard "${rerun:-$((shards - 1))}/$shards" --help >/dev/null || exit 2
mode=${mode:-$([ $slurm = 1 ] && echo gpu || echo auto)}
case $mode in gpu | cpu | auto) ;; *) die "--mode (MODE) is gpu, cpu or auto, not '$mode'" ;; esac
for v in "$partition" "$account" "$time"; do
    [[ $v =~ ^[A-Za-z0-9_.,:+-]*$ ]] || die "'$v' is no partition, account or time limit that Slurm would take"
done
if [ $slurm = 1 ] && ! command -v sbatch >/dev/null 2>&1; then
    die "SLURM=1 (--slurm) needs Slurm's sbatch, which is not on PATH here: run this on a login node of a Slurm" \
        "cluster (Debian's client is 'apt-get install slurm-client', and it needs that cluster's slurm.conf)," \
        "or leave SLURM=1 out to run the shards on this machine"
fi

subs=$(cd "$subs" && pwd)
grader=$(cd "$(dirname "$grader")" && pwd)/$(basename "$grader")
if [ -z "$out" ]; then
    name=$(basename "$subs")
    out=$kit/build/course/${name//[^A-Za-z0-9_.+-]/_}
fi
mkdir -p "$out/logs" "$out/slurm"
out=$(cd "$out" && pwd)
# The two commands, for both launchers. A shard adds --shard K/N.
shard_cmd=("$grader" --kit "$kit" --batch "$subs" --out "$out/results" --mode "$mode" "${extra[@]+"${extra[@]}"}")
gather_cmd=("$grader" --gather "$out/results" --batch "$subs" --gradebook "$out/gradebook.csv")
first=${rerun:-0} last=${rerun:-$((shards - 1))}

# Local: P shard processes at a time, each with its log, whose student lines ("  NAME: P/M (...) in S s")
# are also shown here as each student is graded; then the gather, whatever they came to.
run_local() {
    local k running=0 failed=()
    echo "Grading $subs in $shards shards here, $parallel at a time (logs: $out/logs/shard-K.log)"
    for ((k = first; k <= last; k++)); do
        if [ $running -ge "$parallel" ]; then
            wait -n || true
            running=$((running - 1))
        fi
        { { "${shard_cmd[@]}" --shard "$k/$shards" 2>&1 && s=0 || s=$?
            echo $s >"$out/logs/shard-$k.status"; } | tee "$out/logs/shard-$k.log" | grep --line-buffered '^  '; } &
        running=$((running + 1))
    done
    wait
    for ((k = first; k <= last; k++)); do
        [ "$(cat "$out/logs/shard-$k.status")" = 0 ] || failed+=("$k")
    done
    [ ${#failed[@]} = 0 ] || echo "grade-course: shards ${failed[*]} failed; see their logs, then rerun each with --rerun K" >&2
    "${gather_cmd[@]}"
}

# Slurm: the two job scripts (kept in OUT/slurm/), submitted from OUT so that the logs' relative paths
# land in OUT/logs whatever characters OUT's path holds.
write_job_scripts() {
    local opts=() o
    [ -z "$partition" ] || opts+=("#SBATCH --partition=$partition")
    [ -z "$account" ] || opts+=("#SBATCH --account=$account")
    {
        echo '#!/bin/bash'
        echo "# One task of this array grades one shard of the course (written by mk/grade-course.sh)."
        echo "#SBATCH --job-name=grade-course"
        echo "#SBATCH --array=0-$((shards - 1))%$parallel"
        echo "#SBATCH --ntasks=1"
        echo "#SBATCH --time=$time"
        echo "#SBATCH --output=logs/shard-%a.log"
        for o in "${opts[@]+"${opts[@]}"}"; do echo "$o"; done
        [ "$mode" != gpu ] || echo "#SBATCH --gres=gpu:1"
        echo
        printf 'exec'
        printf ' %q' "${shard_cmd[@]}"
        printf ' --shard "$SLURM_ARRAY_TASK_ID/%d"\n' "$shards"
    } >"$out/slurm/shard.sbatch"
    {
        echo '#!/bin/bash'
        echo "# Merges the shards' results into the gradebook, once the array is over (written by mk/grade-course.sh)."
        echo "#SBATCH --job-name=grade-gather"
        echo "#SBATCH --ntasks=1"
        echo "#SBATCH --time=00:10:00"
        echo "#SBATCH --output=logs/gather.log"
        for o in "${opts[@]+"${opts[@]}"}"; do echo "$o"; done
        echo
        printf 'exec'
        printf ' %q' "${gather_cmd[@]}"
        printf '\n'
    } >"$out/slurm/gather.sbatch"
}

submit_slurm() {
    local array=0-$((shards - 1))%$parallel id gid
    [ -z "$rerun" ] || array=$rerun
    write_job_scripts
    cd "$out"
    id=$(sbatch --parsable --array="$array" slurm/shard.sbatch) || die "sbatch refused the array job (its message is above)"
    id=${id%%;*}
    gid=$(sbatch --parsable --dependency=afterany:"$id" slurm/gather.sbatch) ||
        die "the array job $id is in, but sbatch refused the gather job: cancel it (scancel $id) or gather later with: $(printf '%q ' "${gather_cmd[@]}")"
    gid=${gid%%;*}
    echo "Submitted array job $id (--array=$array, $shards shards) and gather job $gid (after it, whatever its tasks came to)."
    echo "Watch:    squeue -j $id,$gid    and    sacct -j $id,$gid --format=JobID,State,Elapsed,ExitCode"
    echo "Logs:     $out/logs/shard-K.log, $out/logs/gather.log"
    echo "Results:  $out/gradebook.csv once job $gid is done; a student whose shard failed has a row saying result:missing"
    echo "A shard that failed or was cancelled: the same command with --rerun K (make: RERUN=K) grades it again."
}

if [ $slurm = 1 ]; then submit_slurm; else run_local; fi
