#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a benchmark matrix: bench.sh [--matrix FILE] [--run ID] [--seed N]
#   [--variant V] [--reps N] [--list] [--kernels] [--payloads DIR]
# One boot per (variant, rep), boots in an order shuffled with a recorded
# seed, the cells inside a boot shuffled too. Resumable: --run ID redoes
# only the cells that have no result yet. A failed boot keeps its console
# log under boots/ and is reported, never turned into data.
# A name in `variants` is a kernel variant or a label defined by a line
#   config LABEL KERNEL-VARIANT [cmdline:ARG]... [queue:ATTR=VALUE]...
# (cmdline: words go on the guest kernel command line of the label's boots,
# queue: settings are written to the device under test before each cell);
# results land under <run>/<LABEL>/. --variant V keeps the names whose
# label or kernel variant is V. --list prints the boots and cells the
# matrix would run, in order, and exits without building or booting;
# --kernels prints the kernel variants the matrix boots. --payloads DIR
# writes what each boot would run, in order, and exits without booting:
# DIR/<n>/share/ (the boot's share: job.sh, workloads/), DIR/<n>/cells,
# DIR/<n>/boot.env (label, rep, kernel, settings, time limit) and
# DIR/run.env (run id, seed, matrix, timing, vCPUs); scripts/lava-jobs.sh
# turns them into LAVA jobs.
# The matrix format: docs/results-layout.md ("Matrix files").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/matrix.sh
. "$(dirname "$0")/matrix.sh"

matrix=$PB_ROOT/matrix/default.matrix run_id="" seed="" only_variant="" reps_override="" list=0
while [ $# -gt 0 ]; do
	case $1 in
	--matrix) matrix=$2; shift 2 ;;
	--run) run_id=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--variant) only_variant=$2; shift 2 ;;
	--reps) reps_override=$2; shift 2 ;;
	--list) list=1; shift ;;
	--kernels) list=kernels; shift ;;
	--payloads) list=payloads payloads=$2; shift 2 ;;
	*) die "unknown argument '$1' (see the header of $0)" ;;
	esac
done
need_tool jq sha256sum xxd shuf
matrix_read "$matrix"
# A real machine's matrix (its hw: knobs, its clock) never runs in QEMU.
[ "${M[timing]}" != hardware ] ||
	die "$matrix says 'timing hardware': it runs on a real machine with 'make hw-bench DEVICE=/dev/nvmeXnY MATRIX=$matrix' (docs/hardware.md), not in QEMU"
if [ -n "$reps_override" ]; then
	M[reps]=$reps_override
	matrix_positive "--reps" reps
fi
if [ -n "$only_variant" ] && [ -z "${KERNEL_OF[$only_variant]:-}" ]; then
	is_variant "$only_variant" || die "unknown variant '$only_variant' (known: $PB_VARIANTS $PB_REFERENCE_VARIANTS, or a label of $matrix)"
fi
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
[[ $seed =~ ^[0-9]+$ ]] || die "--seed must be a number, got '$seed'"

if [ -n "$only_variant" ]; then
	found=0
	for v in "${LABELS[@]}"; do
		[ "$v" != "$only_variant" ] && [ "${KERNEL_OF[$v]}" != "$only_variant" ] || found=1
	done
	[ $found = 1 ] || die "$matrix does not run '$only_variant' (its labels: ${LABELS[*]})"
fi
variants=()
for v in "${LABELS[@]}"; do
	kv=${KERNEL_OF[$v]}
	[ -n "$only_variant" ] && [ "$v" != "$only_variant" ] && [ "$kv" != "$only_variant" ] && continue
	if ! variant_has_patches "$kv"; then
		log "skipping '$v': patches-$kv has no patches yet"
		continue
	fi
	variants+=("$v")
done
[ ${#variants[@]} -gt 0 ] || die "no variant of $matrix is buildable${only_variant:+ (asked for '$only_variant')}"
smp=${M[smp]} cpu=${M[cpu]} kprobes=${M[kprobes]}
# cpu all: the load may run on every vCPU; the window's "fio vCPU" is 0.
cpuset=$cpu
[ "$cpu" != all ] || cpu=0 cpuset=0-$((smp - 1))

# null_blk caps a device's poll queues at its module parameter (1 by
# default): per-vCPU queues need it on the command line.
if [ "${M[queues]}" = percpu ]; then
	for v in "${variants[@]}"; do
		CFG_CMDLINE[$v]="${CFG_CMDLINE[$v]:-}${CFG_CMDLINE[$v]:+ }null_blk.poll_queues=$smp"
	done
fi

# The labels' settings, as recorded in run.json and checked on resume.
configs='{}'
for v in "${variants[@]}"; do
	configs=$(jq -c --arg l "$v" --arg k "${KERNEL_OF[$v]}" --arg c "${CFG_CMDLINE[$v]:-}" \
		--arg q "${CFG_QUEUE[$v]:-}" --arg w "${CFG_WORKLOADS[$v]:-}" --arg t "${CFG_TRACE[$v]:-0}" \
		'. + {($l): ({kernel_variant: $k, cmdline_extra: $c, queue_settings: $q}
			+ (if $w == "" then {} else {workloads: $w} end)
			+ (if $t == "0" then {} else {trace: 1} end))}' <<<"$configs")
done

[ -n "$run_id" ] || run_id=$(date -u +%Y%m%d-%H%M%S)
run=$RESULTS_DIR/$run_id
[ ! -f "$run/run.json" ] || seed=$(jq -r .seed "$run/run.json")

mapfile -t boots < <(matrix_boots "$seed" "${variants[@]}")

# boot_limit NCELLS: the host-side time limit of a boot, in seconds.
boot_limit() {
	echo $((120 + $1 * (${M[runtime]} + ${M[ramp]} + 20) * 2))
}

# write_share DIR BOOT-ID LABEL CELL...: a boot's share folder: job.sh,
# which runs the cells in the order given, and the workload files they name.
write_share() {
	local dir=$1 boot_id=$2 v=$3 c w cond dev wf
	shift 3
	mkdir -p "$dir/workloads" "$dir/out"
	{
		echo "# Generated by bench.sh for boot $boot_id; cells in shuffled order."
		echo "set -u"
		echo "export PB_RUNTIME=${M[runtime]} PB_RAMP=${M[ramp]} PB_IOS=${M[ios]} PB_CPU=$cpu PB_CPUSET=$cpuset PB_PERF=${M[perf]} PB_TRACE=${CFG_TRACE[$v]:-0}"
		echo "export PB_NULLB_QUEUES=${M[queues]}"
		echo "export PB_CYCLICTEST_INTERVAL=${M[cyclictest_interval]}"
		# A fixed I/O count leaves the run time open: the competitor's
		# rate alone needs only a second of it.
		[ "${M[ios]}" = 0 ] || echo "export PB_COMPETITOR_SECONDS=1"
		echo "export PB_QUEUE='${CFG_QUEUE[$v]:-}'"
		echo "uname -r"
		[ "$kprobes" = 1 ] && echo "/pb/kprobes.sh >/dev/null"
		for c in "$@"; do
			IFS=@ read -r w cond dev <<<"$c"
			wf=$w.fio
			if [ "$w" != none ]; then
				wf=$(workload_materialize "$w" "$dir/workloads")
				wf=${wf##*/}
			fi
			echo "PB_DEVICE=${dev:-nvme} /pb/cell.sh /share/workloads/$wf $cond /share/out/$c; echo \$? >/share/out/$c/rc"
		done
	} >"$dir/job.sh"
}

if [ $list = kernels ]; then
	for v in "${variants[@]}"; do echo "${KERNEL_OF[$v]}"; done | LC_ALL=C sort -u
	exit 0
fi
if [ $list = 1 ]; then
	ncells=0
	echo "matrix: ${matrix#"$PB_ROOT"/} (timing ${M[timing]}, seed $seed, ${#boots[@]} boots)"
	n=0
	for b in "${boots[@]}"; do
		n=$((n + 1))
		v=${b%:*} r=${b#*:}
		mapfile -t todo < <(label_cells "$v" | shuffle "$seed-$v-$r")
		echo "boot $n: $v rep $r (kernel ${KERNEL_OF[$v]}): ${#todo[@]} cells"
		printf '  %s\n' "${todo[@]}"
		ncells=$((ncells + ${#todo[@]}))
	done
	echo "total: ${#boots[@]} boots, $ncells cells"
	exit 0
fi
if [ $list = payloads ]; then
	[ ! -e "$payloads" ] || die "--payloads: '$payloads' exists already"
	n=0
	for b in "${boots[@]}"; do
		n=$((n + 1))
		v=${b%:*} r=${b#*:}
		mapfile -t todo < <(label_cells "$v" | shuffle "$seed-$v-$r")
		write_share "$payloads/$n/share" "$v-r$r" "$v" "${todo[@]}"
		printf '%s\n' "${todo[@]}" >"$payloads/$n/cells"
		printf '%s\n' "label=$v" "rep=$r" "kernel_variant=${KERNEL_OF[$v]}" "cmdline_extra=${CFG_CMDLINE[$v]:-}" \
			"queue_settings=${CFG_QUEUE[$v]:-}" "limit_s=$(boot_limit ${#todo[@]})" >"$payloads/$n/boot.env"
	done
	printf '%s\n' "run_id=$run_id" "seed=$seed" "matrix=${matrix#"$PB_ROOT"/}" \
		"matrix_sha256=$(sha256sum "$matrix" | cut -d' ' -f1)" "timing=${M[timing]}" "vcpus=$smp" \
		"boots=${#boots[@]}" >"$payloads/run.env"
	exit 0
fi

need_tool qemu-system-x86_64
for v in "${variants[@]}"; do
	[ -f "$(variant_obj "${KERNEL_OF[$v]}")/pollbench-build.env" ] ||
		die "variant '${KERNEL_OF[$v]}' is not built: run 'make kernel VARIANT=${KERNEL_OF[$v]}'"
done
pb_lock "bench.sh --matrix ${matrix#"$PB_ROOT"/} --run $run_id"
mkdir -p "$run/boots"
if [ -f "$run/run.json" ]; then
	log "resuming run $run_id (seed $seed)"
	# A label must mean the same settings in every boot of a run.
	for v in "${variants[@]}"; do
		was=$(jq -c --arg l "$v" '.configs[$l] // empty' "$run/run.json")
		now=$(jq -c --arg l "$v" '.[$l]' <<<"$configs")
		[ -z "$was" ] || [ "$was" = "$now" ] ||
			die "run $run_id ran '$v' as $was; the matrix now says $now: use another run id"
	done
	was=$(jq -r '.timing // "realtime"' "$run/run.json")
	[ "$was" = "${M[timing]}" ] ||
		die "run $run_id ran on timing $was; the matrix now says ${M[timing]}: use another run id"
	# Keep the labels of earlier invocations (bench.sh --variant narrows).
	configs=$(jq -c --argjson now "$configs" '(.configs // {}) + $now' "$run/run.json")
fi

jq -n --arg run_id "$run_id" --argjson seed "$seed" --arg matrix "${matrix#"$PB_ROOT"/}" \
	--arg matrix_sha256 "$(sha256sum "$matrix" | cut -d' ' -f1)" \
	--arg host "$(hostname)" --arg qemu_version "$(qemu-system-x86_64 --version | head -n1)" \
	--arg kernel_source "$SRC_ID${KSRC:+:$KSRC}" --arg start_utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	--arg runtime_s "${M[runtime]}" --arg ramp_s "${M[ramp]}" --arg ios "${M[ios]}" \
	--arg vcpus "$smp" --arg fio_cpu "$cpuset" --arg timing "${M[timing]}" --arg perf "${M[perf]}" \
	--arg cyc "${M[cyclictest_interval]}" --arg queues "${M[queues]}" \
	--arg icount_shift "$([ "${M[timing]}" = icount ] && echo "${PB_ICOUNT_SHIFT:-0}")" \
	--arg baseline "${M[baseline]}" --argjson configs "$configs" \
	--args '{run_id: $run_id, seed: $seed, matrix: $matrix, matrix_sha256: $matrix_sha256,
		host: $host, qemu_version: $qemu_version, kernel_source: $kernel_source,
		start_utc: $start_utc, runtime_s: $runtime_s, ramp_s: $ramp_s, ios: $ios,
		vcpus: $vcpus, fio_cpu: $fio_cpu, timing: $timing, perf_stat: $perf,
		cyclictest_interval_us: $cyc}
		+ (if $queues == "single" then {} else {nullb_queues: $queues} end)
		+ (if $icount_shift == "" then {} else {icount_shift: $icount_shift} end)
		+ {baseline: $baseline, configs: $configs, boot_order: $ARGS.positional}' "${boots[@]}" |
	write_atomic "$run/run.json"

# meta_json BOOTENV CELL REP BOOT-ID QEMU-COMMAND LABEL: the cell's
# provenance as JSON. "variant" is the label (the results folder),
# "kernel_variant" the kernel it booted.
meta_json() {
	local args=() k v
	while IFS='=' read -r k v; do
		[ -n "$k" ] && [ "$k" != variant ] && args+=(--arg "$k" "$v")
	done <"$1"
	local workload condition device
	IFS=@ read -r workload condition device <<<"$2"
	jq -n "${args[@]}" --arg cell "$2" --arg workload "$workload" --arg condition "$condition" \
		--arg device "${device:-nvme}" \
		--arg rep "$3" --arg boot_id "$4" --arg fio_version "$(fio --version 2>/dev/null)" \
		--arg qemu_command "$(cat "$5")" --arg variant "$6" --arg kernel_variant "${KERNEL_OF[$6]}" \
		--arg cmdline_extra "${CFG_CMDLINE[$6]:-}" --arg queue_settings "${CFG_QUEUE[$6]:-}" '$ARGS.named'
}

failed=()
n=0
for b in "${boots[@]}"; do
	n=$((n + 1))
	v=${b%:*} r=${b#*:}
	todo=()
	while read -r c; do
		[ -d "$run/$v/$c/$r" ] || todo+=("$c")
	done < <(label_cells "$v")
	if [ ${#todo[@]} = 0 ]; then
		log "boot $n/${#boots[@]} ($v rep $r): done already"
		continue
	fi
	mapfile -t todo < <(printf '%s\n' "${todo[@]}" | shuffle "$seed-$v-$r")
	attempt=1
	while [ -d "$run/boots/$v-r$r-a$attempt" ]; do attempt=$((attempt + 1)); done
	boot_id=$v-r$r-a$attempt
	bootdir=$run/boots/$boot_id
	write_share "$bootdir/share" "$boot_id" "$v" "${todo[@]}"
	limit=$(boot_limit ${#todo[@]})
	log "boot $n/${#boots[@]}: $v rep $r, ${#todo[@]} cells (limit ${limit}s)"
	if ! "$PB_ROOT/scripts/guest-run.sh" --smp "$smp" --timeout "$limit" --timing "${M[timing]}" \
		--append "${CFG_CMDLINE[$v]:-}" "${KERNEL_OF[$v]}" "$bootdir"; then
		failed+=("$boot_id: $(cat "$bootdir/status")")
		continue
	fi
	for c in "${todo[@]}"; do
		out=$bootdir/share/out/$c
		result=$out/fio.json
		[[ $c == *@competitor-only* ]] && result=$out/competitor.txt
		if [ "$(cat "$out/rc" 2>/dev/null)" != 0 ] || [ ! -s "$result" ] ||
			{ [[ $result == *.json ]] && ! jq -e .jobs "$result" >/dev/null 2>&1; }; then
			why=$(head -n1 "$out/error.txt" 2>/dev/null || true)
			failed+=("$boot_id: cell $c failed (rc $(cat "$out/rc" 2>/dev/null || echo none)${why:+: $why}; see $out)")
			continue
		fi
		meta_json "$bootdir/boot.env" "$c" "$r" "$boot_id" "$bootdir/qemu-command" "$v" >"$out/meta.json"
		mkdir -p "$run/$v/$c"
		mv "$out" "$run/$v/$c/$r"
	done
done

echo "run: $run"
if [ ${#failed[@]} -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}" >&2
	die "${#failed[@]} boot(s) or cell(s) failed; 'make bench RUN=$run_id' retries only what is missing"
fi
