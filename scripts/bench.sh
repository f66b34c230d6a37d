#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a benchmark matrix: bench.sh [--matrix FILE] [--run ID] [--seed N]
#   [--variant V] [--reps N]
# One boot per (variant, rep), boots in an order shuffled with a recorded
# seed, the cells inside a boot shuffled too. Resumable: --run ID redoes
# only the cells that have no result yet. A failed boot keeps its console
# log under boots/ and is reported, never turned into data.
# A name in `variants` is a kernel variant or a label defined by a line
#   config LABEL KERNEL-VARIANT [cmdline:ARG]... [queue:ATTR=VALUE]...
# (cmdline: words go on the guest kernel command line of the label's boots,
# queue: settings are written to the device under test before each cell);
# results land under <run>/<LABEL>/. --variant V keeps the names whose
# label or kernel variant is V.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

matrix=$PB_ROOT/matrix/default.matrix run_id="" seed="" only_variant="" reps_override=""
while [ $# -gt 0 ]; do
	case $1 in
	--matrix) matrix=$2; shift 2 ;;
	--run) run_id=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--variant) only_variant=$2; shift 2 ;;
	--reps) reps_override=$2; shift 2 ;;
	*) die "unknown argument '$1' (see the header of $0)" ;;
	esac
done
need_tool jq sha256sum qemu-system-x86_64
[ -f "$matrix" ] || die "matrix file '$matrix' not found"

# is_variant NAME: true if NAME is a kernel variant.
is_variant() {
	local v
	for v in $PB_VARIANTS; do [ "$v" = "$1" ] && return 0; done
	return 1
}

# parse_config WHERE "LABEL KERNEL-VARIANT SETTING...": record a config line.
declare -A CFG_KERNEL=() CFG_CMDLINE=() CFG_QUEUE=() CFG_WHERE=()
parse_config() {
	local where=$1 label kvar w arg attrs=" " cmd="" queue=""
	local -a words
	read -ra words <<<"$2"
	[ ${#words[@]} -ge 2 ] ||
		die "$where: expected 'config LABEL KERNEL-VARIANT [cmdline:ARG]... [queue:ATTR=VALUE]...', got 'config $2'"
	label=${words[0]} kvar=${words[1]}
	[[ $label =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] ||
		die "$where: config label '$label' may only hold letters, digits, '_', '.' and '-'"
	case $label in boots | plots) die "$where: config label '$label' is reserved (a folder of the run)" ;; esac
	[ -z "${CFG_KERNEL[$label]+set}" ] ||
		die "$where: config label '$label' is defined twice (first at ${CFG_WHERE[$label]})"
	is_variant "$kvar" || die "$where: config $label: unknown kernel variant '$kvar' (known: $PB_VARIANTS)"
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
		*) die "$where: config $label: malformed setting '$w' (cmdline:ARG or queue:ATTR=VALUE)" ;;
		esac
	done
	CFG_KERNEL[$label]=$kvar CFG_CMDLINE[$label]=$cmd CFG_QUEUE[$label]=$queue CFG_WHERE[$label]=$where
}

# Read the matrix: "key value..." lines, '#' comments, config lines.
declare -A M=()
lineno=0
while read -r key rest; do
	lineno=$((lineno + 1))
	case $key in
	"" | \#*) continue ;;
	variants | workloads | conditions | cells | devices | reps | runtime | ramp | smp | cpu | kprobes) M[$key]=$rest ;;
	config) parse_config "$matrix:$lineno" "$rest" ;;
	*) die "$matrix: unknown key '$key'" ;;
	esac
done <"$matrix"
for key in variants workloads conditions reps runtime ramp; do
	[ -n "${M[$key]:-}" ] || die "$matrix: missing '$key'"
done
[ -n "$reps_override" ] && M[reps]=$reps_override
for key in reps runtime ramp; do
	[[ ${M[$key]} =~ ^[0-9]+$ ]] && [ "${M[$key]}" -gt 0 ] || [ "$key" = ramp ] ||
		die "$matrix: '$key' must be a positive integer, got '${M[$key]}'"
done
smp=${M[smp]:-2} cpu=${M[cpu]:-1} kprobes=${M[kprobes]:-0}
[[ $cpu =~ ^[0-9]+$ ]] && [ "$cpu" -lt "$smp" ] || die "$matrix: cpu $cpu is not a vCPU of smp $smp"

# Every name of `variants` becomes a label with a kernel variant; a kernel
# variant named without a config line runs with no extra settings.
declare -A KERNEL_OF=() seen=()
for v in ${M[variants]}; do
	[ -z "${seen[$v]:-}" ] || die "$matrix: '$v' is listed twice in variants"
	seen[$v]=1
	if [ -n "${CFG_KERNEL[$v]:-}" ]; then
		KERNEL_OF[$v]=${CFG_KERNEL[$v]}
	elif is_variant "$v"; then
		KERNEL_OF[$v]=$v
	else
		die "$matrix: unknown variant '$v' in variants: neither a kernel variant ($PB_VARIANTS) nor a label defined by a config line"
	fi
done
for l in "${!CFG_KERNEL[@]}"; do
	[ -n "${seen[$l]:-}" ] || log "config label '$l' (${CFG_WHERE[$l]}) is not in variants: not run"
done
if [ -n "$only_variant" ] && [ -z "${KERNEL_OF[$only_variant]:-}" ]; then
	is_variant "$only_variant" || die "unknown variant '$only_variant' (known: $PB_VARIANTS, or a label of $matrix)"
fi

variants=()
for v in ${M[variants]}; do
	kv=${KERNEL_OF[$v]}
	[ -n "$only_variant" ] && [ "$v" != "$only_variant" ] && [ "$kv" != "$only_variant" ] && continue
	if ! variant_has_patches "$kv"; then
		log "skipping '$v': patches-$kv has no patches yet"
		continue
	fi
	[ -f "$(variant_obj "$kv")/pollbench-build.env" ] ||
		die "variant '$kv' is not built: run 'make kernel VARIANT=$kv'"
	variants+=("$v")
done
[ ${#variants[@]} -gt 0 ] || die "no variant of $matrix is buildable${only_variant:+ (asked for '$only_variant')}"
for w in ${M[workloads]}; do
	[ -f "$PB_ROOT/workloads/$w.fio" ] || die "$matrix: workload '$w' has no workloads/$w.fio"
done
for c in ${M[conditions]}; do
	case $c in
	alone | competitor | competitor-only | cyclictest | busy) ;;
	*) die "$matrix: unknown condition '$c'" ;;
	esac
done
# cells: extra WORKLOAD@CONDITION pairs, beside workloads x conditions.
for wc in ${M[cells]:-}; do
	[[ $wc =~ ^[A-Za-z0-9_.-]+@[a-z-]+$ ]] || die "$matrix: malformed cell '$wc' in cells (WORKLOAD@CONDITION)"
	[ -f "$PB_ROOT/workloads/${wc%@*}.fio" ] || die "$matrix: cell '$wc': workload '${wc%@*}' has no workloads/${wc%@*}.fio"
	case ${wc#*@} in
	alone | competitor | cyclictest | busy) ;;
	*) die "$matrix: cell '$wc': condition '${wc#*@}' is not alone, competitor, cyclictest or busy" ;;
	esac
	for c in ${M[conditions]}; do
		[[ " ${M[workloads]} " != *" ${wc%@*} "* || $c != "${wc#*@}" ]] ||
			die "$matrix: cell '$wc' is already in workloads x conditions"
	done
done
devices=${M[devices]:-nvme}
for d in $devices; do
	[[ $d == nvme || $d =~ ^nullb-[0-9]+us$ ]] || die "$matrix: unknown device '$d' (nvme or nullb-<N>us)"
done

# The labels' settings, as recorded in run.json and checked on resume.
configs='{}'
for v in "${variants[@]}"; do
	configs=$(jq -c --arg l "$v" --arg k "${KERNEL_OF[$v]}" --arg c "${CFG_CMDLINE[$v]:-}" \
		--arg q "${CFG_QUEUE[$v]:-}" '. + {($l): {kernel_variant: $k, cmdline_extra: $c, queue_settings: $q}}' <<<"$configs")
done

[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
[[ $seed =~ ^[0-9]+$ ]] || die "--seed must be a number, got '$seed'"
[ -n "$run_id" ] || run_id=$(date -u +%Y%m%d-%H%M%S)
run=$RESULTS_DIR/$run_id
mkdir -p "$run/boots"
if [ -f "$run/run.json" ]; then
	seed=$(jq -r .seed "$run/run.json")
	log "resuming run $run_id (seed $seed)"
	# A label must mean the same settings in every boot of a run.
	for v in "${variants[@]}"; do
		was=$(jq -c --arg l "$v" '.configs[$l] // empty' "$run/run.json")
		now=$(jq -c --arg l "$v" '.[$l]' <<<"$configs")
		[ -z "$was" ] || [ "$was" = "$now" ] ||
			die "run $run_id ran '$v' as $was; the matrix now says $now: use another run id"
	done
	# Keep the labels of earlier invocations (bench.sh --variant narrows).
	configs=$(jq -c --argjson now "$configs" '(.configs // {}) + $now' "$run/run.json")
fi

# shuffle SEED: a deterministic shuffle of stdin's lines for SEED.
shuffle() {
	shuf --random-source=<(i=0; while :; do
		printf '%s-%s' "$1" $i | sha256sum | cut -c1-64 | xxd -r -p
		i=$((i + 1))
	done 2>/dev/null)
}

boots=()
for v in "${variants[@]}"; do
	for r in $(seq 1 "${M[reps]}"); do boots+=("$v:$r"); done
done
mapfile -t boots < <(printf '%s\n' "${boots[@]}" | shuffle "$seed")
cells=()
# A cell is <workload>@<condition>, with @<device> unless the device is nvme.
# The competitor's rate alone runs no I/O: one cell per boot, none@competitor-only.
# add_cell WORKLOAD@CONDITION: that cell on every device of the matrix.
add_cell() {
	local d
	for d in $devices; do
		if [ "$d" = nvme ]; then cells+=("$1"); else cells+=("$1@$d"); fi
	done
}
for c in ${M[conditions]}; do
	if [ "$c" = competitor-only ]; then
		cells+=("none@$c")
		continue
	fi
	for w in ${M[workloads]}; do add_cell "$w@$c"; done
done
for wc in ${M[cells]:-}; do add_cell "$wc"; done

jq -n --arg run_id "$run_id" --argjson seed "$seed" --arg matrix "${matrix#"$PB_ROOT"/}" \
	--arg matrix_sha256 "$(sha256sum "$matrix" | cut -d' ' -f1)" \
	--arg host "$(hostname)" --arg qemu_version "$(qemu-system-x86_64 --version | head -n1)" \
	--arg kernel_source "$SRC_ID${KSRC:+:$KSRC}" --arg start_utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	--arg runtime_s "${M[runtime]}" --arg ramp_s "${M[ramp]}" --arg vcpus "$smp" --arg fio_cpu "$cpu" \
	--argjson configs "$configs" \
	--args '{run_id: $run_id, seed: $seed, matrix: $matrix, matrix_sha256: $matrix_sha256,
		host: $host, qemu_version: $qemu_version, kernel_source: $kernel_source,
		start_utc: $start_utc, runtime_s: $runtime_s, ramp_s: $ramp_s, vcpus: $vcpus,
		fio_cpu: $fio_cpu, configs: $configs, boot_order: $ARGS.positional}' "${boots[@]}" |
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
	for c in "${cells[@]}"; do
		[ -d "$run/$v/$c/$r" ] || todo+=("$c")
	done
	if [ ${#todo[@]} = 0 ]; then
		log "boot $n/${#boots[@]} ($v rep $r): done already"
		continue
	fi
	mapfile -t todo < <(printf '%s\n' "${todo[@]}" | shuffle "$seed-$v-$r")
	attempt=1
	while [ -d "$run/boots/$v-r$r-a$attempt" ]; do attempt=$((attempt + 1)); done
	boot_id=$v-r$r-a$attempt
	bootdir=$run/boots/$boot_id
	mkdir -p "$bootdir/share/workloads" "$bootdir/share/out"
	{
		echo "# Generated by bench.sh for boot $boot_id; cells in shuffled order."
		echo "set -u"
		echo "export PB_RUNTIME=${M[runtime]} PB_RAMP=${M[ramp]} PB_CPU=$cpu"
		echo "export PB_QUEUE='${CFG_QUEUE[$v]:-}'"
		echo "uname -r"
		[ "$kprobes" = 1 ] && echo "/pb/kprobes.sh >/dev/null"
		for c in "${todo[@]}"; do
			IFS=@ read -r w cond dev <<<"$c"
			[ "$w" = none ] || cp "$PB_ROOT/workloads/$w.fio" "$bootdir/share/workloads/"
			echo "PB_DEVICE=${dev:-nvme} /pb/cell.sh /share/workloads/$w.fio $cond /share/out/$c; echo \$? >/share/out/$c/rc"
		done
	} >"$bootdir/share/job.sh"
	limit=$((120 + ${#todo[@]} * (${M[runtime]} + ${M[ramp]} + 20) * 2))
	log "boot $n/${#boots[@]}: $v rep $r, ${#todo[@]} cells (limit ${limit}s)"
	if ! "$PB_ROOT/scripts/guest-run.sh" --smp "$smp" --timeout "$limit" \
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
