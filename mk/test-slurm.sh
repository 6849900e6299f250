#!/usr/bin/env bash
# Grades a small course through a real one-node Slurm and checks the result against grader --batch.
# It starts munged, slurmctld and slurmd from a slurm.conf in a temporary folder, on free ports
# bound to 127.0.0.1, and submits the job array of mk/grade-course.sh: 6 students (good, partial, broken, hanging,
# a name full of shell metacharacters, empty) in 3 shards. The gathered gradebook must equal the
# one-machine gradebook row for row; then one shard's task is cancelled with scancel, its students
# must show result:missing, and the shard resubmitted alone must bring the same gradebook back.
# As root it installs Debian's slurmctld, slurmd, slurm-client and munge when missing; otherwise it
# skips. It stops the daemons it started, by PID, and fails loudly past its deadline (LIMIT seconds
# for the whole script, the install included). Quiet: one summary line, or on failure one line that
# says what differed.
# Usage: test-slurm.sh BUILD GRADER
set -uo pipefail
build=${1:?usage: test-slurm.sh BUILD GRADER}
grader=${2:?usage: test-slurm.sh BUILD GRADER}
kit=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
grader=$(cd "$(dirname "$grader")" && pwd)/$(basename "$grader")
export PATH=$PATH:/usr/sbin:/sbin
LIMIT=180
packages=(slurmctld slurmd slurm-client munge)
install="apt-get install -y --no-install-recommends ${packages[*]}"
reproduce="bash mk/test-slurm.sh $1 $2"
passed=0 ok=0 pids=() tmp= reference=
deadline=$((SECONDS + LIMIT))

summary() { echo "test-slurm: $passed passed, $1 failed, $2 skipped"; }
skip() {
    echo "test-slurm: skipped: $*"
    summary 0 1
    exit 0
}
fail() {
    echo "test-slurm: FAILED: $*; temp folder kept: $tmp; reproduce: $reproduce"
    summary 1 0
    exit 1
}
left() { echo $((deadline - SECONDS)); }
# Runs a command within what is left of the deadline; past it, the test fails and says where.
bounded() {
    local l rc
    l=$(left)
    [ "$l" -gt 0 ] || fail "over the ${LIMIT} s deadline before: $*"
    timeout "$l" "$@"
    rc=$?
    [ $rc != 124 ] || fail "over the ${LIMIT} s deadline during: $*"
    return $rc
}
pass() { passed=$((passed + 1)); }

have_all() {
    local t
    for t in munged slurmctld slurmd sbatch squeue scancel sinfo; do command -v $t >/dev/null 2>&1 || return 1; done
}
[ "$(id -u)" = 0 ] || skip "not root: slurmd runs as root, and so does installing Slurm (as root this test runs: $install)"
if ! have_all; then
    command -v apt-get >/dev/null 2>&1 || skip "Slurm and MUNGE are not installed, and there is no apt-get: install ${packages[*]}"
    export DEBIAN_FRONTEND=noninteractive
    log=$(mktemp /tmp/kit-slurm-install-XXXXXX.log)
    within() { timeout "$(($(left) > 1 ? $(left) : 1))" "$@"; } # timeout 0 would mean no limit
    within $install >"$log" 2>&1 || { within apt-get update -q && within $install; } >>"$log" 2>&1
    status=$?
    if [ $status != 0 ]; then
        why="'$install' did not work"
        [ $status != 124 ] || why="'$install' was still running at the ${LIMIT} s deadline"
        echo "test-slurm: FAILED: $why (its output: $log); run it by hand, then: $reproduce"
        summary 1 0
        exit 1
    fi
    rm -f "$log"
    have_all || fail "installed ${packages[*]}, but munged, slurmctld, slurmd or the client commands are still missing"
fi
[ -x "$grader" ] && [ -f "$build/libkitcpu.a" ] || fail "no $grader or $build/libkitcpu.a: make $2 $1/libkitcpu.a"

tmp=$(mktemp -d /tmp/kit-slurm-XXXXXX)
chmod 755 "$tmp" # the grader's sandbox user reads the submissions
stop_all() {
    kill "$reference" 2>/dev/null
    if [ ${#pids[@]} -gt 0 ]; then
        timeout 5 scancel --quiet --user=root 2>/dev/null # only this test's cluster: SLURM_CONF is its own
        kill "${pids[@]}" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 "${pids[@]}" 2>/dev/null || break
            sleep 0.5
        done
        kill -9 "${pids[@]}" 2>/dev/null
    fi
    [ $ok = 1 ] && rm -rf "$tmp"
}
trap stop_all EXIT

# ---- the course: 6 students, copied from the kit --------------------------------------------
subs=$tmp/subs
weird='two words $(touch x); `touch y` & ;|'
mkdir -p "$subs"/{good,partial,broken,hanging,empty} "$subs/$weird"
cp -r "$kit"/solutions/01-sequential-merge "$kit"/solutions/02-co-rank "$subs/good/"
cp -r "$kit"/solutions/01-sequential-merge "$kit"/solutions/02-co-rank "$subs/$weird/"
cp -r "$kit"/solutions/01-sequential-merge "$subs/partial/"
mkdir "$subs/partial/02-co-rank" && cp "$kit"/labs/02-co-rank/co_rank.cuh "$subs/partial/02-co-rank/"
cp -r "$kit"/solutions/01-sequential-merge "$kit"/solutions/02-co-rank "$subs/broken/"
patch -s -p1 -F0 -d "$subs/broken" <"$kit/grader/tests/submissions/compile-error/patch.diff" ||
    fail "could not make the broken submission (the compile-error fixture no longer applies?)"
cp -r "$kit"/solutions/01-sequential-merge "$kit"/solutions/02-co-rank "$subs/hanging/"
patch -s -p1 -F0 -d "$subs/hanging" <"$kit/grader/tests/submissions/infinite-loop/patch.diff" ||
    fail "could not make the hanging submission (the infinite-loop fixture no longer applies?)"
chmod -R a+rX "$subs"
grading=(--lab 01 --lab 02 --mode cpu)
timeout=(--timeout 2) # CPU seconds a test may take: the hanging student hits it, the others stay far below

# ---- the reference: one machine, grader --batch, meanwhile (it waits mostly on the hanging student) --
"$grader" --kit "$kit" --batch "$subs" --gradebook "$tmp/reference.csv" "${grading[@]}" "${timeout[@]}" \
    --libkit-cpu "$build/libkitcpu.a" >"$tmp/reference.log" 2>&1 &
reference=$!

# ---- a one-node Slurm on loopback ---------------------------------------------------------
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none && chmod 400 "$tmp/munge/munge.key"
read -r ctld_port slurmd_port < <(python3 -c 'import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
[ -n "${slurmd_port:-}" ] || fail "could not find two free loopback ports (python3 missing?)"
mem=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
# A one-node cluster for mk/test-slurm.sh: no cgroups (proctrack/linuxproc, task/none), no accounting.
ClusterName=kittest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
# Listen on the address the hosts resolve to (127.0.0.1 above), not on every address.
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
KillWait=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" \
    >>"$tmp/munge/munged.out" 2>&1 &
pids+=($!)
until [ -S "$tmp/munge/munge.socket" ]; do
    [ "$(left)" -gt 0 ] && kill -0 "${pids[0]}" 2>/dev/null || fail "munged did not start (see $tmp/munge/munged.log)"
    sleep 0.2
done
slurmctld -D -i -f "$SLURM_CONF" >>"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >>"$tmp/slurmd.out" 2>&1 &
pids+=($!)
until [ "$(timeout 5 sinfo -h -N -o %t 2>/dev/null)" = idle ]; do
    [ "$(left)" -gt 0 ] || fail "the node never became idle: sinfo says '$(timeout 5 sinfo -h -N -o %t 2>&1)' (see $tmp/slurmctld.log, $tmp/slurmd.log)"
    kill -0 "${pids[1]}" "${pids[2]}" 2>/dev/null || fail "slurmctld or slurmd stopped (see $tmp/slurmctld.log, $tmp/slurmd.log)"
    sleep 0.5
done

# ---- grading through Slurm ----------------------------------------------------------------------
course=(bash "$kit/mk/grade-course.sh" --slurm --shards 3 --parallel 3 "${grading[@]}" --out "$tmp/course"
    --grader "$grader" --grader-arg --libkit-cpu --grader-arg "$build/libkitcpu.a" --grader-arg "${timeout[0]}" --grader-arg "${timeout[1]}")
# Submits through mk/grade-course.sh (extra options after the usual ones), sets array and gather to the jobs' ids.
submit() {
    rm -f "$tmp/course/gradebook.csv" # what is there after wait_jobs is this submission's gather, or nothing
    bounded "${course[@]}" "$@" "$subs" >"$tmp/submit.log" 2>&1 || fail "mk/grade-course.sh $* exited $? ($(tail -n 1 "$tmp/submit.log"))"
    read -r array gather < <(sed -n 's/^Submitted array job \([0-9]*\) .* gather job \([0-9]*\) .*/\1 \2/p' "$tmp/submit.log")
    [ -n "${gather:-}" ] || fail "mk/grade-course.sh printed no job ids: $(head -n 1 "$tmp/submit.log")"
}
# Waits until the jobs given have left the queue.
wait_jobs() {
    while [ -n "$(timeout 10 squeue -h -j "$1" -o %i 2>/dev/null)" ]; do
        [ "$(left)" -gt 0 ] || fail "jobs $1 still in the queue at the ${LIMIT} s deadline: $(timeout 5 squeue -h -j "$1" -o '%i %T %R' | tr '\n' ';')"
        sleep 1
    done
}
# Compares a gathered gradebook with the reference, rows sorted; a third argument lists students
# whose row must say result:missing instead (no points, the failures column result:missing).
compare() {
    local got=$2 want student tasks
    [ -f "$got" ] || fail "$1: no gradebook was gathered (see $tmp/course/logs/gather.log)"
    [ "$(head -n 1 "$got")" = "$(head -n 1 "$tmp/reference.csv")" ] || fail "$1: the header differs from the reference's"
    tasks=$(head -n 1 "$got" | tr -cd , | cut -c 5-) # a comma per task column
    while IFS= read -r want; do
        student=${want%%,*}
        grep -qxF -- "$student" <<<"${3:-}" && want="$student,,,,result:missing$tasks"
        grep -qxF -- "$want" "$got" ||
            fail "$1: row differs: expected [$want], got [$(grep -F -- "$student," "$got" | head -n 1)] ($got vs $tmp/reference.csv)"
    done < <(tail -n +2 "$tmp/reference.csv" | sort)
    [ "$(wc -l <"$got")" = "$(wc -l <"$tmp/reference.csv")" ] ||
        fail "$1: $(wc -l <"$got") lines in $got, $(wc -l <"$tmp/reference.csv") in the reference"
}

# The whole course. Its gradebook is kept to compare once the reference is done.
submit
wait_jobs "$array,$gather"
cp "$tmp/course/gradebook.csv" "$tmp/gradebook-array.csv" 2>/dev/null

# Cancel the shard of the hanging student while it runs: its students must come out as result:missing.
shard=$(grep -l '^  "hanging":' "$tmp"/course/logs/shard-*.log | sed 's/.*shard-\([0-9]*\)\.log/\1/')
[ -n "$shard" ] || fail "no shard log names the hanging student (see $tmp/course/logs)"
members=$(sed -n 's/^  "\([^"]*\)":.*/\1/p' "$tmp/course/logs/shard-$shard.log")
# The first run's log goes aside, so that its first line cannot pass for the rerun's: the grader writes that line
# only once the shard's old results are gone, and a cancel before then would leave them to be gathered.
mv "$tmp/course/logs/shard-$shard.log" "$tmp/course/logs/shard-$shard.first.log"
submit --rerun "$shard"
until grep -q "^Shard $shard/3: " "$tmp/course/logs/shard-$shard.log" 2>/dev/null &&
    [ "$(timeout 10 squeue -h -j "$array" -o %T)" = RUNNING ]; do
    [ "$(left)" -gt 0 ] || fail "the rerun of shard $shard never started"
    sleep 0.5
done
sleep 1
timeout 10 scancel "$array" || fail "scancel $array failed"
wait_jobs "$array,$gather"
cp "$tmp/course/gradebook.csv" "$tmp/gradebook-cancelled.csv" 2>/dev/null

# Resubmit that shard alone: the gradebook must be whole again.
submit --rerun "$shard"
wait_jobs "$array,$gather"

while kill -0 "$reference" 2>/dev/null; do
    [ "$(left)" -gt 0 ] || fail "grader --batch still running at the ${LIMIT} s deadline (see $tmp/reference.log)"
    sleep 0.5
done
wait "$reference" || fail "grader --batch exited $? (see $tmp/reference.log)"
# The cancel above is only a test while the hanging student is still being graded.
grep -q '^hanging,.*01-sequential-merge/merge:timeout' "$tmp/reference.csv" ||
    fail "the hanging student did not time out: [$(grep '^hanging,' "$tmp/reference.csv")] in $tmp/reference.csv"
compare "the array job" "$tmp/gradebook-array.csv"
pass
compare "after scancel of shard $shard" "$tmp/gradebook-cancelled.csv" "$members"
pass
compare "shard $shard resubmitted" "$tmp/course/gradebook.csv"
pass

# No student's name ran as shell code anywhere.
for d in "$tmp" "$subs" "$tmp/course" "$tmp/course/results" "$kit" "$PWD"; do
    [ ! -e "$d/x" ] && [ ! -e "$d/y" ] || fail "a student's folder name ran as a command: $d/x or $d/y exists"
done
pass

# Bad input stops mk/grade-course.sh before anything is submitted, with one line.
mkdir "$tmp/nobody"
expect_refusal() {
    local want=$1 out
    shift
    out=$(bounded "${course[@]}" "$@" 2>&1) && fail "mk/grade-course.sh $* was accepted"
    [ "$(wc -l <<<"$out")" = 1 ] && grep -qF -- "$want" <<<"$out" ||
        fail "mk/grade-course.sh $*: expected one line with [$want], got [$out]"
}
expect_refusal "holds no submission folders" "$tmp/nobody"
expect_refusal "cannot read the submissions folder" "$tmp/missing"
expect_refusal "bad shard '3/3'" --rerun 3 "$subs"
expect_refusal "must be a whole number" --shards 0 "$subs"
# A PATH with what the script needs but sbatch.
mkdir "$tmp/bin"
for t in bash dirname basename find mkdir cat timeout wc grep; do ln -s "$(command -v $t)" "$tmp/bin/$t"; done
PATH=$tmp/bin expect_refusal "needs Slurm's sbatch, which is not on PATH" "$subs"
pass

ok=1
summary 0 0
