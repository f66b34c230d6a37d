# SPDX-License-Identifier: GPL-2.0
# The matrix reader: source it, then `matrix_read FILE`. It checks the whole
# file (keys, labels, workloads, conditions, devices, timing) and dies with
# FILE:LINE on the first problem, before anything is built or booted. The
# format is specified in docs/results-layout.md ("Matrix files").
# Sets: M[key] (the plain keys), LABELS (the `variants` line, in order),
# KERNEL_OF[label], CFG_CMDLINE[label], CFG_QUEUE[label], CFG_WORKLOADS[label],
# CFG_TRACE[label], CFG_HW[label], CFG_WHERE[label]; `label_cells LABEL`
# prints the label's cells; `shuffle SEED` orders lines for a seed.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the arrays are what bench.sh reads

# The conditions guest/cell.sh knows: the files of guest/conditions/
# (competitor-only runs no I/O).
PB_CONDITIONS=$(cd "$PB_ROOT/guest/conditions" && for f in *.sh; do printf '%s ' "${f%.sh}"; done)
PB_CONDITIONS=${PB_CONDITIONS% }

declare -A M=() CFG_KERNEL=() CFG_CMDLINE=() CFG_QUEUE=() CFG_WORKLOADS=() CFG_TRACE=() CFG_HW=() CFG_WHERE=() KERNEL_OF=()
LABELS=()

# is_condition NAME: true if guest/cell.sh runs condition NAME (a file
# guest/conditions/NAME.sh).
is_condition() {
	[[ $1 =~ ^[a-z][a-z-]*$ ]] && [ -f "$PB_ROOT/guest/conditions/$1.sh" ]
}

# matrix_config WHERE "LABEL KERNEL-VARIANT SETTING...": record a config line.
matrix_config() {
	local where=$1 label kvar w arg attrs=" " cmd="" queue="" wls="" trace=0 hw="" hwkeys=" "
	local -a words
	read -ra words <<<"$2"
	[ ${#words[@]} -ge 2 ] ||
		die "$where: expected 'config LABEL KERNEL-VARIANT [cmdline:ARG]... [queue:ATTR=VALUE]... [workloads:W,...] [trace:1]', got 'config $2'"
	label=${words[0]} kvar=${words[1]}
	[[ $label =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] ||
		die "$where: config label '$label' may only hold letters, digits, '_', '.' and '-'"
	case $label in boots | plots) die "$where: config label '$label' is reserved (a folder of the run)" ;; esac
	[ -z "${CFG_KERNEL[$label]+set}" ] ||
		die "$where: config label '$label' is defined twice (first at ${CFG_WHERE[$label]})"
	is_variant "$kvar" || die "$where: config $label: unknown kernel variant '$kvar' (known: $PB_VARIANTS $PB_REFERENCE_VARIANTS)"
	for w in "${words[@]:2}"; do
		case $w in
		cmdline:*)
			arg=${w#cmdline:}
			[[ $arg =~ ^[A-Za-z0-9_.,:/+=-]+$ ]] ||
				die "$where: config $label: malformed setting '$w' (cmdline:ARG, ARG one kernel parameter of letters, digits and _.,:/+=-)"
			cmd="$cmd${cmd:+ }$arg"
			;;
		queue:*)
			arg=${w#queue:}
			[[ $arg =~ ^[a-z0-9_]+=[A-Za-z0-9_.+-]+$ ]] ||
				die "$where: config $label: malformed setting '$w' (queue:ATTR=VALUE, ATTR a file of /sys/block/<dev>/queue/)"
			[[ $attrs != *" ${arg%%=*} "* ]] ||
				die "$where: config $label: queue attribute '${arg%%=*}' is set twice"
			attrs="$attrs${arg%%=*} "
			queue="$queue${queue:+ }$arg"
			;;
		workloads:*)
			[ -z "$wls" ] || die "$where: config $label: workloads: is given twice"
			arg=${w#workloads:}
			[[ $arg =~ ^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$ ]] ||
				die "$where: config $label: malformed setting '$w' (workloads:W[,W]...)"
			wls=${arg//,/ }
			;;
		# The path breakdown's tracepoints over each cell's window
		# (guest/trace.sh); they cost time, so a traced label is
		# compared with an untraced one of the same settings.
		trace:1) trace=1 ;;
		# Real-machine knobs (make hw-bench, docs/hardware.md); a
		# matrix with one must say 'timing hardware'.
		hw:*)
			arg=${w#hw:}
			matrix_hw_knob "$where: config $label" "$arg"
			[[ $hwkeys != *" ${arg%%=*} "* ]] ||
				die "$where: config $label: hw setting '${arg%%=*}' is set twice"
			hwkeys="$hwkeys${arg%%=*} "
			hw="$hw${hw:+ }$arg"
			;;
		*) die "$where: config $label: malformed setting '$w' (cmdline:ARG, queue:ATTR=VALUE, workloads:W,..., trace:1 or hw:KNOB=VALUE)" ;;
		esac
	done
	CFG_KERNEL[$label]=$kvar CFG_CMDLINE[$label]=$cmd CFG_QUEUE[$label]=$queue
	CFG_WORKLOADS[$label]=$wls CFG_TRACE[$label]=$trace CFG_HW[$label]=$hw CFG_WHERE[$label]=$where
}

# The real-machine knobs a config line may set (hw:KNOB=VALUE), applied by
# scripts/hw-step.sh in each of the label's boots: cpuidle_governor (the
# cpuidle governor's name), cstate_max (the deepest cpuidle state index
# left enabled on every CPU), poll_queues (nvme.poll_queues, 1 otherwise),
# cpufreq_governor (every CPU's scaling governor), smt (on or off).
PB_HW_KNOBS="cpuidle_governor cstate_max poll_queues cpufreq_governor smt"

# matrix_hw_knob WHERE KNOB=VALUE: die unless KNOB=VALUE is a valid knob.
matrix_hw_knob() {
	local k=${2%%=*} v=${2#*=} ok=0
	[[ $2 == *=* ]] || die "$1: malformed setting 'hw:$2' (hw:KNOB=VALUE, KNOB one of $PB_HW_KNOBS)"
	case $k in
	cpuidle_governor | cpufreq_governor) [[ $v =~ ^[a-z][a-z0-9_]*$ ]] && ok=1 ;;
	cstate_max) [[ $v =~ ^(0|[1-9][0-9]?)$ ]] && ok=1 ;;
	poll_queues) [[ $v =~ ^[1-9][0-9]?$ ]] && ok=1 ;;
	smt) [[ $v =~ ^(on|off)$ ]] && ok=1 ;;
	*) die "$1: unknown hw knob '$k' in 'hw:$2' (known: $PB_HW_KNOBS)" ;;
	esac
	[ $ok = 1 ] || die "$1: bad value in 'hw:$2' (cpuidle_governor, cpufreq_governor: a name; cstate_max: 0-99; poll_queues: 1-99; smt: on or off)"
}

# shuffle SEED: a deterministic shuffle of stdin's lines for SEED (the
# order of a run's boots and of the cells inside a boot).
shuffle() {
	shuf --random-source=<(i=0; while :; do
		printf '%s-%s' "$1" $i | sha256sum | cut -c1-64 | xxd -r -p
		i=$((i + 1))
	done 2>/dev/null)
}

# matrix_boots SEED LABEL...: every (label, repetition) of the matrix as
# "label:rep", in SEED's shuffled order (bench.sh and hw-bench.sh boot so).
matrix_boots() {
	local seed=$1 v r
	shift
	for v in "$@"; do
		for r in $(seq 1 "${M[reps]}"); do echo "$v:$r"; done
	done | shuffle "$seed"
}

# A scale workload names its readers (fio jobs) and, optionally, each
# reader's queue depth in the <qd> slot of <rw>-<bs>-<qd>-<engine>:
# randread-4k-r8-psync, randread-4k-r8pin-psync, randread-4k-r4q16-iouring-hipri.
# Its file is the template with N (and D) for the numbers,
# workloads/randread-4k-rN-psync.fio, which reads PB_READERS and PB_DEPTH.
PB_SCALE_RE='^([a-z0-9]+-[a-z0-9]+)-r([1-9][0-9]*)(q([1-9][0-9]*))?([a-z]*)-([a-z0-9-]+)$'

# workload_file NAME: the workload's file, workloads/NAME.fio (a fio job
# file) or workloads/NAME.uring (guest/tools/uring-lat's options), or a
# scale workload's template; fails if there is none.
workload_file() {
	local f names=("$1")
	# Without a depth, the template may still take one (D is then 1).
	if [ ! -f "$PB_ROOT/workloads/$1.fio" ] && [[ $1 =~ $PB_SCALE_RE ]]; then
		names=("${BASH_REMATCH[1]}-rN${BASH_REMATCH[3]:+qD}${BASH_REMATCH[5]}-${BASH_REMATCH[6]}")
		[ -n "${BASH_REMATCH[3]}" ] || names+=("${BASH_REMATCH[1]}-rNqD${BASH_REMATCH[5]}-${BASH_REMATCH[6]}")
	fi
	for f in "${names[@]/#/$PB_ROOT/workloads/}"; do
		[ -f "$f.fio" ] && { echo "$f.fio"; return 0; }
		[ -f "$f.uring" ] && { echo "$f.uring"; return 0; }
	done
	return 1
}

# workload_env NAME: the numbers a scale workload fills into its template
# ("PB_READERS=N PB_DEPTH=D"), or nothing for any other workload.
workload_env() {
	[ ! -f "$PB_ROOT/workloads/$1.fio" ] && [[ $1 =~ $PB_SCALE_RE ]] || return 0
	echo "PB_READERS=${BASH_REMATCH[2]} PB_DEPTH=${BASH_REMATCH[4]:-1}"
}

# workload_materialize NAME DIR: write the file the cell runs,
# DIR/NAME.fio (or .uring): a copy, or a scale template with its numbers
# written in (so the file kept with the results says what ran); prints it.
workload_materialize() {
	local f ext kv sub=()
	f=$(workload_file "$1") || die "workload '$1' has no file"
	ext=${f##*.}
	for kv in $(workload_env "$1"); do
		sub+=(-e "s/\\\${${kv%%=*}}/${kv#*=}/g")
	done
	mkdir -p "$2"
	if [ ${#sub[@]} -gt 0 ]; then
		sed "${sub[@]}" "$f" >"$2/$1.$ext"
	else
		cp "$f" "$2/$1.$ext"
	fi
	echo "$2/$1.$ext"
}

# matrix_workload WHERE NAME: die unless this matrix can run workload NAME:
# a .uring workload needs a valid options= line, and no ramp with an I/O
# count (uring-lat's ramp is in seconds only when it runs for `runtime`).
matrix_workload() {
	local f opts
	f=$(workload_file "$2") || die "$1: workload '$2' has no workloads/$2.fio (nor .uring, nor a scale template)"
	if [ ! -f "$PB_ROOT/workloads/$2.fio" ] && [[ $2 =~ $PB_SCALE_RE ]]; then
		[ "${BASH_REMATCH[2]}" -le 64 ] && [ "${BASH_REMATCH[4]:-1}" -le 128 ] ||
			die "$1: workload '$2': at most 64 readers of queue depth at most 128"
	fi
	[[ $f == *.uring ]] || return 0
	opts=$(sed -n 's/^options=//p' "$f")
	[[ $opts =~ ^(-[HI]|-[qbs]\ [0-9]+)(\ (-[HI]|-[qbs]\ [0-9]+))*$ ]] ||
		die "$f: 'options=' must hold uring-lat's -H, -I, -q N, -b N or -s N, got '$opts'"
	[ "${M[ios]}" = 0 ] || [ "${M[ramp]}" = 0 ] ||
		die "$1: workload '$2' runs uring-lat, which takes no ramp with a read count: set 'ramp 0' or 'ios 0' (got ramp ${M[ramp]} with ios ${M[ios]})"
}

# matrix_positive FILE KEY [zero-ok]: die unless M[KEY] is a positive integer.
matrix_positive() {
	[[ ${M[$2]} =~ ^[0-9]+$ ]] && { [ "${M[$2]}" -gt 0 ] || [ -n "${3:-}" ]; } ||
		die "$1: '$2' must be a $([ -n "${3:-}" ] && echo non-negative || echo positive) integer, got '${M[$2]}'"
}

# matrix_read FILE: read and check the whole matrix.
matrix_read() {
	local file=$1 key rest lineno=0 v w c wc d
	local -A seen=() where=()
	[ -f "$file" ] || die "matrix file '$file' not found"
	while read -r key rest; do
		lineno=$((lineno + 1))
		case $key in
		"" | \#*) continue ;;
		variants | workloads | conditions | cells | devices | reps | runtime | ramp | ios | smp | cpu | \
			kprobes | timing | baseline | perf | cyclictest_interval | queues)
			[ -z "${where[$key]:-}" ] || die "$file:$lineno: '$key' is given twice (first at line ${where[$key]})"
			where[$key]=$lineno
			M[$key]=$rest
			;;
		config) matrix_config "$file:$lineno" "$rest" ;;
		*) die "$file:$lineno: unknown key '$key'" ;;
		esac
	done <"$file"
	for key in variants workloads conditions reps runtime ramp; do
		[ -n "${M[$key]:-}" ] || die "$file: missing '$key'"
	done
	: "${M[smp]:=2}" "${M[cpu]:=1}" "${M[kprobes]:=0}" "${M[ios]:=0}" "${M[timing]:=realtime}"
	: "${M[baseline]:=baseline}" "${M[devices]:=nvme}" "${M[cyclictest_interval]:=500}" "${M[queues]:=single}"
	matrix_positive "$file" reps
	matrix_positive "$file" runtime
	matrix_positive "$file" ramp zero-ok
	matrix_positive "$file" ios zero-ok
	matrix_positive "$file" cyclictest_interval
	[[ ${M[smp]} =~ ^[1-8]$ ]] || die "$file:${where[smp]}: smp must be 1..8, got '${M[smp]}'"
	# On a real machine (timing hardware) smp is not used and cpu is
	# checked against the machine's online CPUs (scripts/hw-bench.sh).
	if [ "${M[timing]}" = hardware ]; then
		[ "${M[cpu]}" = all ] || [[ ${M[cpu]} =~ ^[0-9]+$ ]] ||
			die "$file:${where[cpu]:-?}: cpu must be a CPU number or 'all', got '${M[cpu]}'"
	else
		# all: the load runs unpinned on every vCPU (the scale matrices).
		[ "${M[cpu]}" = all ] || { [[ ${M[cpu]} =~ ^[0-9]+$ ]] && [ "${M[cpu]}" -lt "${M[smp]}" ]; } ||
			die "$file:${where[cpu]:-?}: cpu ${M[cpu]} is not a vCPU of smp ${M[smp]} (nor 'all')"
	fi
	# A null_blk device's queues: one submit and one poll queue, or one
	# of each per vCPU (nvme's default mapping).
	[[ ${M[queues]} =~ ^(single|percpu)$ ]] ||
		die "$file:${where[queues]}: queues must be single or percpu, got '${M[queues]}'"
	[[ ${M[kprobes]} =~ ^[01]$ ]] || die "$file:${where[kprobes]}: kprobes must be 0 or 1, got '${M[kprobes]}'"
	# kprobe hits would land in the trace's ring buffer.
	if [ "${M[kprobes]}" = 1 ]; then
		for v in "${!CFG_TRACE[@]}"; do
			[ "${CFG_TRACE[$v]}" = 0 ] ||
				die "${CFG_WHERE[$v]}: config $v: trace:1 and 'kprobes 1' share the ring buffer: drop one"
		done
	fi
	# perf stat hooks fio's context switches: 2.5 us of a 17 us read under
	# icount (docs/methodology.md), so it is off there unless asked for.
	[ -n "${M[perf]:-}" ] || M[perf]=$([ "${M[timing]}" = icount ] && echo 0 || echo 1)
	[[ ${M[perf]} =~ ^[01]$ ]] || die "$file:${where[perf]}: perf must be 0 or 1, got '${M[perf]}'"
	# hardware: a real machine's own clock (make hw-bench, docs/hardware.md).
	[[ ${M[timing]} =~ ^[a-z]+$ ]] && [[ " $PB_TIMINGS hardware " == *" ${M[timing]} "* ]] ||
		die "$file:${where[timing]}: unknown timing '${M[timing]}' (known: $PB_TIMINGS hardware)"
	if [ "${M[timing]}" != hardware ]; then
		for v in "${!CFG_HW[@]}"; do
			[ -z "${CFG_HW[$v]}" ] ||
				die "${CFG_WHERE[$v]}: config $v: 'hw:${CFG_HW[$v]%% *}' is a real-machine knob, which a QEMU guest does not have: set 'timing hardware' and run the matrix with make hw-bench (docs/hardware.md)"
		done
	fi
	[ "${M[timing]}" != icount ] || [ "${ACCEL:-tcg}" = tcg ] ||
		die "$file:${where[timing]}: timing icount runs on TCG only, but ACCEL=$ACCEL"

	# Every name of `variants` becomes a label with a kernel variant; a
	# kernel variant named without a config line runs with no extra settings.
	for v in ${M[variants]}; do
		[ -z "${seen[$v]:-}" ] || die "$file:${where[variants]}: '$v' is listed twice in variants"
		seen[$v]=1
		if [ -n "${CFG_KERNEL[$v]:-}" ]; then
			KERNEL_OF[$v]=${CFG_KERNEL[$v]}
		elif is_variant "$v"; then
			KERNEL_OF[$v]=$v
		else
			die "$file:${where[variants]}: unknown variant '$v' in variants: neither a kernel variant ($PB_VARIANTS $PB_REFERENCE_VARIANTS) nor a label defined by a config line"
		fi
		LABELS+=("$v")
	done
	for v in "${!CFG_KERNEL[@]}"; do
		[ -n "${seen[$v]:-}" ] || log "config label '$v' (${CFG_WHERE[$v]}) is not in variants: not run"
	done
	[ -z "${where[baseline]:-}" ] || [ -n "${seen[${M[baseline]}]:-}" ] ||
		die "$file:${where[baseline]:-?}: baseline '${M[baseline]}' is not a name in variants"
	# A name listed twice would run its cells twice into the same folders.
	for key in workloads conditions devices; do
		d=$(tr ' ' '\n' <<<"${M[$key]}" | grep . | LC_ALL=C sort | uniq -d | head -n 1)
		[ -z "$d" ] || die "$file:${where[$key]:-?}: '$d' is listed twice in $key"
	done
	for w in ${M[workloads]}; do
		matrix_workload "$file:${where[workloads]}" "$w"
	done
	for c in ${M[conditions]}; do
		is_condition "$c" || die "$file:${where[conditions]}: unknown condition '$c' (known: $PB_CONDITIONS)"
	done
	# cells: extra WORKLOAD@CONDITION pairs, beside workloads x conditions.
	for wc in ${M[cells]:-}; do
		[[ $wc =~ ^[A-Za-z0-9_.-]+@[a-z-]+$ ]] || die "$file:${where[cells]}: malformed cell '$wc' in cells (WORKLOAD@CONDITION)"
		matrix_workload "$file:${where[cells]}: cell '$wc'" "${wc%@*}"
		is_condition "${wc#*@}" && [ "${wc#*@}" != competitor-only ] ||
			die "$file:${where[cells]}: cell '$wc': condition '${wc#*@}' is not one of alone, competitor, cyclictest, busy"
		for c in ${M[conditions]}; do
			[[ " ${M[workloads]} " != *" ${wc%@*} "* || $c != "${wc#*@}" ]] ||
				die "$file:${where[cells]}: cell '$wc' is already in workloads x conditions"
		done
	done
	for v in "${LABELS[@]}"; do
		for w in ${CFG_WORKLOADS[$v]:-}; do
			[[ " ${M[workloads]} ${M[cells]:-} " == *" $w"[\ @]* ]] ||
				die "${CFG_WHERE[$v]}: config $v: workload '$w' is not in this matrix's workloads or cells"
		done
	done
	for d in ${M[devices]}; do
		[[ $d == nvme || $d =~ ^nullb-[1-9][0-9]*us$ ]] ||
			die "$file:${where[devices]}: unknown device '$d' (nvme, or nullb-<N>us with N a positive integer)"
	done
	[ "${M[timing]}" != icount ] || [[ " ${M[devices]} " != *" nvme "* ]] ||
		log "$file: the emulated NVMe disk completes through host AIO: its latency is host time even under icount"
}

# label_runs LABEL WORKLOAD: true if LABEL runs WORKLOAD (its workloads:
# setting, or every workload).
label_runs() {
	[ -z "${CFG_WORKLOADS[$1]:-}" ] || [[ " ${CFG_WORKLOADS[$1]} " == *" $2 "* ]]
}

# label_cells LABEL: the label's cells, one a line. A cell is
# <workload>@<condition>, with @<device> unless the device is nvme; the
# competitor's rate alone runs no I/O: one cell none@competitor-only.
label_cells() {
	local label=$1 c w wc d
	for c in ${M[conditions]}; do
		if [ "$c" = competitor-only ]; then
			echo "none@$c"
			continue
		fi
		for w in ${M[workloads]}; do
			label_runs "$label" "$w" || continue
			for d in ${M[devices]}; do
				if [ "$d" = nvme ]; then echo "$w@$c"; else echo "$w@$c@$d"; fi
			done
		done
	done
	for wc in ${M[cells]:-}; do
		label_runs "$label" "${wc%@*}" || continue
		for d in ${M[devices]}; do
			if [ "$d" = nvme ]; then echo "$wc"; else echo "$wc@$d"; fi
		done
	done
}
