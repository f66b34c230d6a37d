#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The reliability suite (docs/reliability.md): boots each variant once per
# flavour and runs the cases of tests/reliability/ in that boot, judging each
# case by its exit status and by the console log between its kmsg markers
# (any WARNING, BUG, lockdep, KASAN, hung-task or soft-lockup report fails it).
#
#   reliability.sh [options]
#     --quick           short cases (the form in `make test`); default: full
#     --variant V       a variant (repeatable); default: every built variant
#     --flavour F       release, debug or rt (repeatable); default: release,
#                       and in the full form debug and rt too where built
#     --case C          only this case (repeatable)
#     --soak S          soak length in seconds (default 600 full, 30 quick)
#     --out DIR         results folder (default results/reliability-<id>)
#     --doc FILE        write the report here (default docs/reliability.md
#                       in the full form, none in the quick form)
#     --no-doc          write no report
#
# Writes DIR/<variant>-<flavour>/ (the boot: console.log, share/rel/out/<case>/
# with log, rc, counts, raw fio json), DIR/results.tsv (one line per variant,
# flavour and case: verdict, reason, seconds, counts) and DIR/meta.txt.
# Exit 0 when no case failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

CASES="integrity signals contention cpu-hotplug controller-reset bad-input privilege sync-poll-waiter-never-sleeps-unwoken flush-on-poll-queue soak"
quick=0 variants=() flavours=() cases=() soak="" out="" doc="" nodoc=0
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--variant) [ $# -ge 2 ] || die "--variant needs a value"; check_variant "$2"; variants+=("$2"); shift 2 ;;
	--flavour)
		[ $# -ge 2 ] || die "--flavour needs a value"
		case $2 in release | debug | rt) flavours+=("$2") ;; *) die "--flavour must be release, debug or rt, got '$2'" ;; esac
		shift 2 ;;
	--case)
		[ $# -ge 2 ] || die "--case needs a value"
		[[ " $CASES " == *" $2 "* ]] || die "unknown case '$2' (cases: $CASES)"
		cases+=("$2"); shift 2 ;;
	--soak)
		[[ ${2:-} =~ ^[0-9]+$ ]] && [ "$2" -ge 10 ] || die "--soak must be a number of seconds >= 10, got '${2:-}'"
		soak=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
	--doc) [ $# -ge 2 ] || die "--doc needs a value"; doc=$2; shift 2 ;;
	--no-doc) nodoc=1; shift ;;
	*) die "unknown argument '$1' (see the header of $0)" ;;
	esac
done
need_tool qemu-system-x86_64 awk
mode=full
[ $quick = 1 ] && mode=quick
[ -n "$soak" ] || soak=$([ $quick = 1 ] && echo 30 || echo 600)
[ ${#cases[@]} -gt 0 ] || read -ra cases <<<"$CASES"
if [ ${#flavours[@]} = 0 ]; then
	flavours=(release)
	[ $quick = 1 ] || flavours+=(debug rt)
fi
if [ ${#variants[@]} = 0 ]; then
	for v in $PB_VARIANTS; do variant_has_patches "$v" && variants+=("$v"); done
fi
id=$(date -u +%Y%m%d-%H%M%S)
[ -n "$out" ] || out=$RESULTS_DIR/reliability-$id
[ $nodoc = 1 ] || [ -n "$doc" ] || [ $quick = 1 ] || doc=$PB_ROOT/docs/reliability.md
mkdir -p "$out"
[ ! -s "$out/results.tsv" ] || die "$out already holds results; give another --out"
printf 'variant\tflavour\tcase\tverdict\treason\tseconds\tcounts\n' >"$out/results.tsv"
{
	echo "id=$id"
	echo "mode=$mode"
	echo "soak_seconds=$soak"
	echo "cases=boot ${cases[*]}"
	echo "start_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "host=$(hostname)"
	echo "host_cpus=$(nproc)"
	echo "host_load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/meta.txt"

# judge_case BOOT CASE: prints "verdict<TAB>reason".
judge_case() {
	local boot=$1 c=$2 o rc splat
	o=$boot/share/rel/out/$c
	splat=$(awk -v re="$PB_SPLAT_RE" -v s="pollbench-reliability: case $c start" -v e="pollbench-reliability: case $c end" '
		index($0, s) { on = 1; next }
		index($0, e) { on = 0 }
		on && $0 ~ re { print; exit }
	' "$boot/console.log" 2>/dev/null)
	if [ ! -f "$o/rc" ]; then
		printf 'fail\tdid not finish: %s\n' "$(cat "$boot/status" 2>/dev/null || echo 'no boot status')"
		return
	fi
	rc=$(cat "$o/rc")
	if [ -n "$splat" ]; then
		printf 'fail\tkernel reported: %s\n' "$(sed 's/^\[[ 0-9.]*\] //' <<<"${splat:0:200}")"
	elif [ "$rc" = 0 ]; then
		printf 'pass\t\n'
	elif [ "$rc" = 77 ]; then
		printf 'skip\t%s\n' "$(head -c 200 "$o/skip-reason" 2>/dev/null)"
	else
		printf 'fail\t%s\n' "$(grep -m2 '^FAIL' "$o/log" | tr '\n' ' ' | head -c 300)"
	fi
}

# skipped_here VARIANT FLAVOUR CASE: true (and why) if the case is left out
# of this boot by design.
skipped_here() {
	if [ "$2" != release ] && [ "$3" = soak ]; then
		echo "soak runs on release kernels only (KASAN and lockdep under TCG are too slow)"
		return 0
	fi
	# The quick form keeps make test within CI's time: on the kernels that
	# do not poll synchronous I/O (baseline is upstream, common the base
	# alone) it runs only the cases that do not need a polling waiter.
	case $mode:$1:$3 in
	quick:baseline:* | quick:common:*)
		case $3 in integrity | signals | bad-input | privilege) return 1 ;; esac
		echo "quick form: polling-waiter case, run on $1 in the full form only"
		return 0
		;;
	esac
	return 1
}

failed=0
for flavour in "${flavours[@]}"; do
	for v in "${variants[@]}"; do
		obj=$(variant_obj "$v" "$flavour")
		if [ ! -f "$obj/arch/x86/boot/bzImage" ] || [ ! -f "$obj/pollbench-build.env" ]; then
			# A release kernel must be there; debug and rt kernels are noted.
			log "$v ($flavour): no built kernel in $obj"
			[ "$flavour" != release ] || failed=1
			for c in "${cases[@]}"; do
				printf '%s\t%s\t%s\tnot-built\tno %s kernel built\t0\t\n' "$v" "$flavour" "$c" "$flavour" >>"$out/results.tsv"
			done
			continue
		fi
		boot=$out/$v-$flavour
		mkdir -p "$boot/share/rel/bin" "$boot/share/rel/out"
		cp "$PB_ROOT"/tests/reliability/*.sh "$PB_ROOT/tests/reliability/bounds.env" "$boot/share/rel/bin/"
		bcases=()
		for c in "${cases[@]}"; do
			skipped_here "$v" "$flavour" "$c" >/dev/null || bcases+=("$c")
		done
		# The debug and rt flavours run the functional cases at the quick sizes.
		bmode=$mode
		[ "$flavour" = release ] || bmode=quick
		cat >"$boot/share/job.sh" <<-EOT
			export REL_VARIANT=$v REL_FLAVOUR=$flavour REL_MODE=$bmode REL_SOAK_S=$soak
			sh /share/rel/bin/run-cases.sh ${bcases[*]}
		EOT
		if [ $quick = 1 ]; then limit=$((600 + soak)); else limit=$((3600 + soak)); fi
		[ "$flavour" = release ] || limit=$((limit * 3))
		log "$v ($flavour, $mode): cases ${bcases[*]}; limit ${limit}s"
		start=$(date +%s)
		"$PB_ROOT/scripts/guest-run.sh" --flavour "$flavour" --timeout "$limit" "$v" "$boot" ||
			log "$v ($flavour): boot judged failed: $(cat "$boot/status"); judging each case"
		log "$v ($flavour): boot took $(($(date +%s) - start)) s"
		for c in "${cases[@]}"; do
			o=$boot/share/rel/out/$c
			if why=$(skipped_here "$v" "$flavour" "$c"); then
				printf '%s\t%s\t%s\tnot-run\t%s\t0\t\n' "$v" "$flavour" "$c" "$why" >>"$out/results.tsv"
				continue
			fi
			IFS=$'\t' read -r verdict reason < <(judge_case "$boot" "$c")
			secs=0
			[ -f "$o/uptime" ] && secs=$(awk '{ printf "%d", $2 - $1 }' "$o/uptime")
			counts=$(awk '{ printf "%s%s=%s", (NR > 1 ? ";" : ""), $1, $2 }' "$o/counts" 2>/dev/null || true)
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$flavour" "$c" "$verdict" "$reason" "$secs" "$counts" >>"$out/results.tsv"
			echo "$verdict $v $flavour $c (${secs}s) $reason"
			[ "$verdict" != fail ] || failed=1
		done
		# A report outside every case's markers (boot, between cases, power
		# off) belongs to no case: it fails the boot's own row.
		bsplat=$(awk -v re="$PB_SPLAT_RE" '/pollbench-reliability: case .* start/ { on = 1; next }
			/pollbench-reliability: case .* end/ { on = 0; next }
			!on && $0 ~ re { print; exit }' "$boot/console.log" 2>/dev/null)
		if [ -n "$bsplat" ]; then
			printf '%s\t%s\tboot\tfail\tkernel reported outside the cases: %s\t0\t\n' "$v" "$flavour" "$(sed 's/^\[[ 0-9.]*\] //' <<<"${bsplat:0:200}")" >>"$out/results.tsv"
			echo "fail $v $flavour boot: $bsplat"
			failed=1
		else
			printf '%s\t%s\tboot\tpass\t\t0\t\n' "$v" "$flavour" >>"$out/results.tsv"
		fi
		grep -h -m1 '^kernel_commit=' "$boot/boot.env" | sed "s/^/${v}_${flavour}_/" >>"$out/meta.txt" || true
		grep -h -m1 '^accel=' "$boot/boot.env" >>"$out/meta.txt" || true
	done
done
echo "end_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$out/meta.txt"
echo "results: $out/results.tsv"
if [ -n "$doc" ] && [ $nodoc = 0 ]; then
	"$PB_ROOT/tests/reliability/report.sh" "$out" >"$doc.tmp"
	mv "$doc.tmp" "$doc"
	echo "report: $doc"
fi
[ $failed = 0 ]
