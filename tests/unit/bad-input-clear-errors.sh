#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: bad arguments, unknown variants, bad matrices and missing
# tools stop every entry point with a clear message and a non-zero exit,
# and leave earlier results alone.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
s=$PB_ROOT/scripts
expect_fail "kernel-build unknown variant" "unknown variant 'nonexistent'" "$s/kernel-build.sh" nonexistent
expect_fail "kernel-build unknown flavour" "unknown flavour 'fast'" "$s/kernel-build.sh" baseline fast
expect_fail "guest-run unknown variant" "unknown variant 'nonexistent'" "$s/guest-run.sh" nonexistent "$TEST_DIR/b"
expect_fail "guest-run bad smp" "--smp must be 1..8" "$s/guest-run.sh" --smp 99 baseline "$TEST_DIR/b"
expect_fail "guest-run bad option" "unknown option '--frobnicate'" "$s/guest-run.sh" --frobnicate baseline "$TEST_DIR/b"
expect_fail "guest-run missing extra disk" "--extra-disk: no file '$TEST_DIR/none.img'" "$s/guest-run.sh" --extra-disk "$TEST_DIR/none.img" baseline "$TEST_DIR/b"
expect_fail "kernel-build unknown flavour" "unknown flavour 'turbo'" "$s/kernel-build.sh" baseline turbo
expect_fail "accel bad ACCEL" "ACCEL must be kvm or tcg" env ACCEL=xen "$s/accel.sh" baseline
expect_fail "bench missing matrix" "matrix file '/nonexistent' not found" "$s/bench.sh" --matrix /nonexistent
expect_fail "guest-run bad PB_TCG_THREAD" "PB_TCG_THREAD must be single or multi, got 'many'" env PB_TCG_THREAD=many "$s/guest-run.sh" baseline "$TEST_DIR/b"
expect_fail "tests/run.sh with a name that selects no test" "no test is named like 'no-such-test'" "$PB_ROOT/tests/run.sh" --unit-only no-such-test
expect_fail "tests/run.sh with one good name and a typo" "no test is named like 'answer-blocks-currnet'" "$PB_ROOT/tests/run.sh" --unit-only answer-blocks-current answer-blocks-currnet

# A results folder with an earlier run in it: bad input must not touch it.
results=$TEST_DIR/results
mkdir -p "$results/earlier/baseline/x@alone/1"
echo keep >"$results/earlier/baseline/x@alone/1/fio.json"
m=$TEST_DIR/m
printf 'variants nonexistent\nworkloads randread-4k-qd1-psync\nconditions alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench unknown variant" "unknown variant 'nonexistent'" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads no-such-workload\nconditions alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench unknown workload" "no workloads/no-such-workload.fio" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
# A uring-lat workload (workloads/*.uring) takes a ramp only when it runs
# for a time (ios 0; tests/unit/matrix-list.sh reads such a matrix).
printf 'variants iouring-hybrid\nworkloads randread-4k-qd1-uring-hybrid\nconditions alone\nreps 1\nios 10\nruntime 1\nramp 2\n' >"$m"
expect_fail "bench uring workload with ios and a ramp" "$m:2: workload 'randread-4k-qd1-uring-hybrid' runs uring-lat, which takes no ramp with a read count: set 'ramp 0' or 'ios 0' \\(got ramp 2 with ios 10\\)" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants iouring-hybrid\nworkloads randread-4k-qd1-psync\ncells randread-4k-qd1-uring-iopoll@alone\nconditions alone\nreps 1\nruntime 1\nramp 1\nios 10\n' >"$m"
expect_fail "bench uring cell with ios and a ramp" "cell 'randread-4k-qd1-uring-iopoll@alone': workload 'randread-4k-qd1-uring-iopoll' runs uring-lat, which takes no ramp with a read count" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants iouring-hybrid\nworkloads randread-4k-qd1-uring-iopoll\nconditions alone\nreps 1\nruntime 0\nramp 1\n' >"$m"
expect_fail "bench uring workload without run time" "'runtime' must be a positive integer, got '0'" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions upside-down\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench unknown condition" "unknown condition 'upside-down'" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\nreps -3\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench bad reps" "'reps' must be a positive integer" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\ncells randread-4k-qd1-psync@sideways\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench cell unknown condition" "cell 'randread-4k-qd1-psync@sideways': condition 'sideways' is not" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\ncells randread-4k-qd1-psync\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench cell without condition" "malformed cell 'randread-4k-qd1-psync' in cells" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\ncells randread-4k-qd1-psync@alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench cell twice" "cell 'randread-4k-qd1-psync@alone' is already in workloads x conditions" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench variant not in the matrix" "does not run 'hybrid' \\(its labels: baseline\\)" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m" --variant hybrid
# A name twice would run its cells twice into the same folders.
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\ndevices nullb-10us nullb-2us nullb-10us\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench device twice" "'nullb-10us' is listed twice in devices" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync randread-4k-qd1-psync\nconditions alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench workload twice" "'randread-4k-qd1-psync' is listed twice in workloads" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
# Scale matrices: the queue layout, every vCPU, reader counts.
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\nreps 1\nruntime 1\nramp 0\nqueues many\n' >"$m"
expect_fail "bench bad queues" "queues must be single or percpu, got 'many'" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-qd1-psync\nconditions alone\nreps 1\nruntime 1\nramp 0\ncpu some\n' >"$m"
expect_fail "bench bad cpu" "cpu some is not a vCPU of smp 2 \\(nor 'all'\\)" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-r65-psync\nconditions alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench too many readers" "workload 'randread-4k-r65-psync': at most 64 readers" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\nworkloads randread-4k-r8-sideways\nconditions alone\nreps 1\nruntime 1\nramp 0\n' >"$m"
expect_fail "bench scale workload without template" "workload 'randread-4k-r8-sideways' has no workloads/randread-4k-r8-sideways.fio" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'variants baseline\ncolour blue\n' >"$m"
expect_fail "bench unknown key" "unknown key 'colour'" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
# config lines (matrix/*.matrix header): caught while reading the matrix,
# before any kernel is looked for or booted.
body='workloads randread-4k-qd1-psync\nconditions alone\nreps 1\nruntime 1\nramp 0\n'
# shellcheck disable=SC2059 # $body holds the format's \n on purpose
cfg() { printf "$1\n$body" >"$m"; }
cfg 'config fast nonexistent\nvariants fast'
expect_fail "bench config unknown kernel variant" "$m:1: config fast: unknown kernel variant 'nonexistent'" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config hy hybrid queue:io_poll_delay\nvariants hy'
expect_fail "bench config queue setting without value" "$m:1: config hy: malformed setting 'queue:io_poll_delay'" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config hy hybrid queue:../../x=1\nvariants hy'
expect_fail "bench config queue path" "config hy: malformed setting 'queue:../../x=1'" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config hy hybrid io_poll_delay=0\nvariants hy'
expect_fail "bench config setting without kind" "config hy: malformed setting 'io_poll_delay=0' \\(cmdline:ARG, queue:ATTR=VALUE, workloads:W,..., trace:1 or hw:KNOB=VALUE\\)" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg "config ip baseline cmdline:idle=poll'\nvariants ip"
expect_fail "bench config cmdline quote" "config ip: malformed setting 'cmdline:idle=poll''" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
printf 'config ip baseline\nconfig hy hybrid\nconfig ip inline\nvariants ip\n' >"$m"
expect_fail "bench config label twice" "$m:3: config label 'ip' is defined twice \\(first at $m:1\\)" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config ip baseline cmdline:idle=poll\nvariants baseline ip typo-label'
expect_fail "bench undefined label" "unknown variant 'typo-label' in variants: neither a kernel variant .* nor a label defined by a config line" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config boots baseline\nvariants boots'
expect_fail "bench reserved label" "config label 'boots' is reserved" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config a:b baseline\nvariants a:b'
expect_fail "bench bad label" "config label 'a:b' may only hold" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config\nvariants baseline'
expect_fail "bench empty config" "$m:1: expected 'config LABEL KERNEL-VARIANT" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config hy hybrid queue:io_poll_delay=0 queue:io_poll_delay=5\nvariants hy'
expect_fail "bench config attribute twice" "config hy: queue attribute 'io_poll_delay' is set twice" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config in inline trace:on\nvariants in'
expect_fail "bench config trace value" "config in: malformed setting 'trace:on'" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config in inline trace:1\nvariants in\nkprobes 1'
expect_fail "bench trace with kprobes" "$m:1: config in: trace:1 and 'kprobes 1' share the ring buffer" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'variants baseline inline baseline'
expect_fail "bench variant listed twice" "'baseline' is listed twice in variants" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
# Timing, devices and per-label workloads (docs/results-layout.md).
cfg 'variants baseline\ntiming sundial'
expect_fail "bench unknown timing" "$m:2: unknown timing 'sundial' \\(known: icount realtime hardware\\)" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'variants baseline\ntiming icount'
expect_fail "bench icount with KVM" "timing icount runs on TCG only, but ACCEL=kvm" \
	env ACCEL=kvm RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
expect_fail "guest-run icount with KVM" "timing icount runs on TCG only" \
	env ACCEL=kvm "$s/guest-run.sh" --timing icount baseline "$TEST_DIR/b"
expect_fail "guest-run unknown timing" "unknown timing 'sundial'" "$s/guest-run.sh" --timing sundial baseline "$TEST_DIR/b"
for d in nullb-0us nullb-1.5us nullb-us nullb-10; do
	cfg "variants baseline\ndevices nvme $d"
	expect_fail "bench device $d" "$m:2: unknown device '$d' \\(nvme, or nullb-<N>us with N a positive integer\\)" \
		env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
done
# Real-machine knobs (hw:, docs/hardware.md): only with timing hardware,
# and a timing hardware matrix never runs in QEMU.
cfg 'config sh baseline hw:cpuidle_governor=haltpoll\nvariants sh'
expect_fail "bench hw knob in a QEMU matrix" "$m:1: config sh: 'hw:cpuidle_governor=haltpoll' is a real-machine knob, which a QEMU guest does not have: set 'timing hardware'" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m" --list
cfg 'config sh baseline hw:cpuidle_governor=haltpoll\nvariants sh\ntiming hardware'
expect_fail "bench timing hardware" "says 'timing hardware': it runs on a real machine with 'make hw-bench" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m" --list
cfg 'config sh baseline hw:c_states=1\nvariants sh\ntiming hardware'
expect_fail "bench unknown hw knob" "$m:1: config sh: unknown hw knob 'c_states' in 'hw:c_states=1' \\(known: cpuidle_governor cstate_max poll_queues cpufreq_governor smt\\)" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m" --list
cfg 'config pq inline hw:poll_queues=0\nvariants pq\ntiming hardware'
expect_fail "bench hw knob bad value" "config pq: bad value in 'hw:poll_queues=0'" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m" --list
cfg 'config st baseline hw:smt=off hw:smt=on\nvariants st\ntiming hardware'
expect_fail "bench hw knob twice" "config st: hw setting 'smt' is set twice" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m" --list
cfg 'variants baseline\nios -5'
expect_fail "bench bad ios" "'ios' must be a non-negative integer, got '-5'" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'variants baseline inline\nbaseline hybrid'
expect_fail "bench baseline not in variants" "$m:2: baseline 'hybrid' is not a name in variants" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'config in inline workloads:randread-4k-qd1-pvsync2-hipri\nvariants in'
expect_fail "bench label workload not in matrix" "$m:1: config in: workload 'randread-4k-qd1-pvsync2-hipri' is not in this matrix" \
	env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
cfg 'variants baseline\nreps 2'
expect_fail "bench key twice" "$m:5: 'reps' is given twice \\(first at line 2\\)" env RESULTS_DIR="$results" "$s/bench.sh" --matrix "$m"
# make bench checks the matrix before it builds anything.
expect_fail "make bench missing matrix" "matrix file '/nonexistent.matrix' not found" \
	env RESULTS_DIR="$results" make -s -C "$PB_ROOT" bench MATRIX=/nonexistent.matrix
expect_fail "make bench VARIANT=nonexistent" "unknown variant 'nonexistent'" \
	env RESULTS_DIR="$results" make -s -C "$PB_ROOT" bench VARIANT=nonexistent

# docs/debate.md's generated parts: bad markers or a broken run change nothing.
if [ -x "$PB_ROOT/analysis/pollbench-report" ]; then
	d=$TEST_DIR/debate.md
	fx=analysis/tests/fixtures
	printf 'hand\n<!-- generated: latency from %s/run-ok -->\nold\n' "$fx" >"$d"
	cp "$d" "$d.orig"
	expect_fail "debate part never ends" "debate.md:2: generated part never ends" "$s/debate-update.sh" --doc "$d" "$fx/run-ok"
	printf 'hand\n<!-- generated: colour from %s/run-ok -->\n<!-- end generated -->\n' "$fx" >"$d"
	cp "$d" "$d.orig"
	expect_fail "debate unknown part" "debate.md:2: unknown generated part \"colour\"" "$s/debate-update.sh" --doc "$d" "$fx/run-ok"
	printf 'hand\n<!-- generated: latency from %s/run-crashed-only -->\nold\n<!-- end generated -->\n' "$fx" >"$d"
	cp "$d" "$d.orig"
	expect_fail "debate broken run" "pollbench-report failed on $fx/run-crashed-only" "$s/debate-update.sh" --doc "$d" "$fx/run-crashed-only"
	cmp -s "$d" "$d.orig" || fail "a failed debate update changed the document"
	expect_fail "debate run without parts" "has no generated part from '$fx/run-ok'" "$s/debate-update.sh" --doc "$d" "$fx/run-ok"
	expect_fail "debate missing run" "run folder 'no/such/run' not found" "$s/debate-update.sh" --doc "$d" no/such/run
	cmp -s "$d" "$d.orig" || fail "a failed debate update changed the document"
fi

# The reliability suite: bad options, and a run to resume that is not one,
# or is of another form, stop before any boot and leave the run alone.
r=$s/reliability.sh
rel=$TEST_DIR/rel-earlier
mkdir -p "$rel/rows"
printf 'id=x\nmode=full\nsoak_seconds=600\n' >"$rel/meta.txt"
printf 'variant\tflavour\tcase\tverdict\treason\tseconds\tcounts\n' >"$rel/results.tsv"
cp -a "$rel" "$rel.orig"
expect_fail "reliability unknown case" "unknown case 'tea' \\(cases: " "$r" --case tea
expect_fail "reliability unknown skipped case" "unknown case 'tea'" "$r" --skip-case tea
expect_fail "reliability no case left" "no case left to run" "$r" --case soak --skip-case soak
expect_fail "reliability resume without a run" "--resume needs --out DIR" "$r" --resume
expect_fail "reliability resume of no run" "--resume: $TEST_DIR holds no run \\(no meta.txt\\)" "$r" --resume --out "$TEST_DIR"
expect_fail "reliability resume of another form" "--resume: $rel is a full run; this one is quick" "$r" --resume --quick --out "$rel"
expect_fail "reliability resume with another soak" "--resume: $rel soaked 600s; this run asks 60s" "$r" --resume --soak 60 --out "$rel"
expect_fail "reliability run into a run" "$rel already holds results; give another --out, or --resume" "$r" --out "$rel"
diff -r "$rel" "$rel.orig" >/dev/null || fail "a refused reliability run changed the earlier run"

# A missing tool: a PATH with only what is needed to reach the check.
mkdir -p "$TEST_DIR/bin"
ln -sf "$(command -v dirname)" "$TEST_DIR/bin/dirname"
expect_fail "bench without jq" "required tool 'jq' not found" env PATH="$TEST_DIR/bin" "$s/bench.sh"
expect_fail "guest-image without fio" "required tool '(busybox|fio)' not found" env PATH="$TEST_DIR/bin" "$s/guest-image.sh"

[ "$(cat "$results/earlier/baseline/x@alone/1/fio.json")" = keep ] || fail "an earlier result was changed"
[ "$(find "$results" -mindepth 1 -maxdepth 1 | wc -l)" = 1 ] || fail "bad input created a run folder: $(ls "$results")"
