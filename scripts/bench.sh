#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a benchmark matrix: bench.sh [--matrix FILE] [--run ID] [--seed N]
#   [--variant V] [--reps N]
# One boot per (variant, rep), boots in an order shuffled with a recorded
# seed, the cells inside a boot shuffled too. Resumable: --run ID redoes
# only the cells that have no result yet. A failed boot keeps its console
# log under boots/ and is reported, never turned into data.
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

# Read the matrix: "key value..." lines, '#' comments.
declare -A M=()
while read -r key rest; do
	case $key in
	"" | \#*) continue ;;
	variants | workloads | conditions | devices | reps | runtime | ramp | smp | cpu | kprobes) M[$key]=$rest ;;
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

variants=()
for v in ${M[variants]}; do
	check_variant "$v"
	[ -n "$only_variant" ] && [ "$v" != "$only_variant" ] && continue
	if ! variant_has_patches "$v"; then
		log "skipping variant '$v': patches-$v has no patches yet"
		continue
	fi
	[ -f "$(variant_obj "$v")/pollbench-build.env" ] ||
		die "variant '$v' is not built: run 'make kernel VARIANT=$v'"
	variants+=("$v")
done
[ -n "$only_variant" ] && check_variant "$only_variant"
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
devices=${M[devices]:-nvme}
for d in $devices; do
	[[ $d == nvme || $d =~ ^nullb-[0-9]+us$ ]] || die "$matrix: unknown device '$d' (nvme or nullb-<N>us)"
done

[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
[[ $seed =~ ^[0-9]+$ ]] || die "--seed must be a number, got '$seed'"
[ -n "$run_id" ] || run_id=$(date -u +%Y%m%d-%H%M%S)
run=$RESULTS_DIR/$run_id
mkdir -p "$run/boots"
if [ -f "$run/run.json" ]; then
	seed=$(jq -r .seed "$run/run.json")
	log "resuming run $run_id (seed $seed)"
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
for c in ${M[conditions]}; do
	if [ "$c" = competitor-only ]; then
		cells+=("none@$c")
		continue
	fi
	for w in ${M[workloads]}; do
		for d in $devices; do
			if [ "$d" = nvme ]; then cells+=("$w@$c"); else cells+=("$w@$c@$d"); fi
		done
	done
done

jq -n --arg run_id "$run_id" --argjson seed "$seed" --arg matrix "${matrix#"$PB_ROOT"/}" \
	--arg matrix_sha256 "$(sha256sum "$matrix" | cut -d' ' -f1)" \
	--arg host "$(hostname)" --arg qemu_version "$(qemu-system-x86_64 --version | head -n1)" \
	--arg kernel_source "$SRC_ID${KSRC:+:$KSRC}" --arg start_utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	--arg runtime_s "${M[runtime]}" --arg ramp_s "${M[ramp]}" --arg vcpus "$smp" --arg fio_cpu "$cpu" \
	--args '{run_id: $run_id, seed: $seed, matrix: $matrix, matrix_sha256: $matrix_sha256,
		host: $host, qemu_version: $qemu_version, kernel_source: $kernel_source,
		start_utc: $start_utc, runtime_s: $runtime_s, ramp_s: $ramp_s, vcpus: $vcpus,
		fio_cpu: $fio_cpu, boot_order: $ARGS.positional}' "${boots[@]}" |
	write_atomic "$run/run.json"

# meta_json BOOTENV CELL REP: the cell's provenance as JSON.
meta_json() {
	local args=() k v
	while IFS='=' read -r k v; do
		[ -n "$k" ] && args+=(--arg "$k" "$v")
	done <"$1"
	local workload condition device
	IFS=@ read -r workload condition device <<<"$2"
	jq -n "${args[@]}" --arg cell "$2" --arg workload "$workload" --arg condition "$condition" \
		--arg device "${device:-nvme}" \
		--arg rep "$3" --arg boot_id "$4" --arg fio_version "$(fio --version 2>/dev/null)" \
		--arg qemu_command "$(cat "$5")" '$ARGS.named'
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
	if ! "$PB_ROOT/scripts/guest-run.sh" --smp "$smp" --timeout "$limit" "$v" "$bootdir"; then
		failed+=("$boot_id: $(cat "$bootdir/status")")
		continue
	fi
	for c in "${todo[@]}"; do
		out=$bootdir/share/out/$c
		result=$out/fio.json
		[[ $c == *@competitor-only* ]] && result=$out/competitor.txt
		if [ "$(cat "$out/rc" 2>/dev/null)" != 0 ] || [ ! -s "$result" ] ||
			{ [[ $result == *.json ]] && ! jq -e .jobs "$result" >/dev/null 2>&1; }; then
			failed+=("$boot_id: cell $c failed (rc $(cat "$out/rc" 2>/dev/null || echo none); see $out)")
			continue
		fi
		meta_json "$bootdir/boot.env" "$c" "$r" "$boot_id" "$bootdir/qemu-command" >"$out/meta.json"
		mkdir -p "$run/$v/$c"
		mv "$out" "$run/$v/$c/$r"
	done
done

echo "run: $run"
if [ ${#failed[@]} -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}" >&2
	die "${#failed[@]} boot(s) or cell(s) failed; 'make bench RUN=$run_id' retries only what is missing"
fi
