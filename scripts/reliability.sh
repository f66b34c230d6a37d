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
#                       (every flavour at the form's sizes; the soak on
#                       release kernels only)
#     --case C          only this case (repeatable)
#     --skip-case C     every case but this one (repeatable)
#     --soak S          soak length in seconds (default 600 full, 30 quick)
#     --out DIR         results folder (default results/reliability-<id>)
#     --doc FILE        write the report here (default docs/reliability.md
#                       in the full form, none in the quick form)
#     --no-doc          write no report
#     --resume          go on with the run in --out: variants and flavours
#                       already judged are kept, an interrupted one is run
#                       again (its partial boot folders kept aside)
#
# A case that needs its own kernel command line says so in a "# Boot: ARGS"
# line; the cases of one variant and flavour run in one boot per distinct
# ARGS (the cases without one first).
#
# Writes DIR/<variant>-<flavour>[-<args>]/ (a boot: console.log,
# share/rel/out/<case>/ with log, rc, counts, raw fio json), DIR/rows/ (the
# judged rows of each variant and flavour), DIR/results.tsv (one line per
# variant, flavour and case: verdict, reason, seconds, counts) and
# DIR/meta.txt. Exit 0 when no case failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

CASES="integrity signals contention cpu-hotplug controller-reset bad-input privilege sync-poll-waiter-never-sleeps-unwoken flush-on-poll-queue split-bio-fifo isolated-cpu soak"
quick=0 variants=() flavours=() cases=() skips=() soak="" out="" doc="" nodoc=0 resume=0
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
	--skip-case)
		[ $# -ge 2 ] || die "--skip-case needs a value"
		[[ " $CASES " == *" $2 "* ]] || die "unknown case '$2' (cases: $CASES)"
		skips+=("$2"); shift 2 ;;
	--soak)
		[[ ${2:-} =~ ^[0-9]+$ ]] && [ "$2" -ge 10 ] || die "--soak must be a number of seconds >= 10, got '${2:-}'"
		soak=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
	--doc) [ $# -ge 2 ] || die "--doc needs a value"; doc=$2; shift 2 ;;
	--no-doc) nodoc=1; shift ;;
	--resume) resume=1; shift ;;
	*) die "unknown argument '$1' (see the header of $0)" ;;
	esac
done
need_tool qemu-system-x86_64 awk
mode=full
[ $quick = 1 ] && mode=quick
[ -n "$soak" ] || soak=$([ $quick = 1 ] && echo 30 || echo 600)
[ ${#cases[@]} -gt 0 ] || read -ra cases <<<"$CASES"
for c in "${skips[@]}"; do
	for i in "${!cases[@]}"; do
		[ "${cases[$i]}" != "$c" ] || unset 'cases[i]'
	done
done
cases=("${cases[@]}")
[ ${#cases[@]} -gt 0 ] || die "no case left to run"
if [ ${#flavours[@]} = 0 ]; then
	flavours=(release)
	[ $quick = 1 ] || flavours+=(debug rt)
fi
if [ ${#variants[@]} = 0 ]; then
	for v in $PB_VARIANTS; do variant_has_patches "$v" && variants+=("$v"); done
fi
id=$(date -u +%Y%m%d-%H%M%S)
[ $resume = 0 ] || [ -n "$out" ] || die "--resume needs --out DIR (the run to go on with)"
[ -n "$out" ] || out=$RESULTS_DIR/reliability-$id
[ $nodoc = 1 ] || [ -n "$doc" ] || [ $quick = 1 ] || doc=$PB_ROOT/docs/reliability.md
if [ $resume = 1 ]; then
	[ -f "$out/meta.txt" ] || die "--resume: $out holds no run (no meta.txt)"
	old=$(sed -n 's/^mode=//p' "$out/meta.txt")
	[ "$old" = "$mode" ] || die "--resume: $out is a $old run; this one is $mode"
	old=$(sed -n 's/^soak_seconds=//p' "$out/meta.txt")
	[ "$old" = "$soak" ] || die "--resume: $out soaked ${old}s; this run asks ${soak}s"
	echo "resumed_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ) host_load=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/meta.txt"
else
	[ ! -e "$out/results.tsv" ] || die "$out already holds results; give another --out, or --resume"
	mkdir -p "$out"
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
fi
mkdir -p "$out/rows"

# write_results: results.tsv from the judged rows, in the run's order.
write_results() {
	local f v
	printf 'variant\tflavour\tcase\tverdict\treason\tseconds\tcounts\n' >"$out/results.tsv.new"
	for f in "${flavours[@]}"; do
		for v in "${variants[@]}"; do
			[ ! -f "$out/rows/$v-$f.tsv" ] || cat "$out/rows/$v-$f.tsv" >>"$out/results.tsv.new"
		done
	done
	mv "$out/results.tsv.new" "$out/results.tsv"
}

# boot_args CASE: the case's own kernel command line ("# Boot:" line).
boot_args() {
	sed -n 's/^# Boot: //p' "$PB_ROOT/tests/reliability/$1.sh" | head -n1
}

# judge_case BOOT CASE: prints "verdict<TAB>reason".
judge_case() {
	local boot=$1 c=$2 o rc splat
	o=$boot/share/rel/out/$c
	splat=$(awk -v re="$PB_SPLAT_RE" -v s="pollbench-reliability: case $c start" -v e="pollbench-reliability: case $c end" '
		index($0, s) { on = 1; next }
		index($0, e) { on = 0 }
		on && $0 ~ re { print; exit }
	' "$boot/console.log" 2>/dev/null || true)
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
		echo "soak runs on release kernels only (10 min a kernel; on debug ones KASAN's quarantine would also move the slab figures it checks)"
		return 0
	fi
	[ $mode = quick ] || return 1
	# The quick form keeps make test within CI's time: on the kernels that
	# do not poll synchronous I/O (baseline is upstream, common the base
	# alone) it runs only the cases that do not need a polling waiter.
	if ! polling_variant "$1"; then
		case $3 in integrity | signals | bad-input | privilege) return 1 ;; esac
		echo "quick form: polling-waiter case, run on $1 in the full form only"
		return 0
	fi
	return 1
}

# judge_boot V FLAVOUR BOOT CASE...: run CASE... in one boot of V (the
# cases' own "# Boot:" arguments appended) and append a row per case to
# $rows; a kernel report outside every case's markers is appended to
# $boot_splats.
judge_boot() {
	local v=$1 flavour=$2 boot=$3 args limit case_limit start c o verdict reason secs counts bsplat
	shift 3
	args=$(boot_args "$1")
	# KASAN reads 5-level paging from a CPU feature bit that identify_cpu()
	# clears for a while early in boot, with interrupts on: an interrupt
	# then can take a valid address for a wild one (an upstream race, not
	# a series', docs/reliability-findings.md 3). Debug kernels boot with
	# 4-level paging, where the bit and the paging agree.
	[ "$flavour" != debug ] || args="${args:+$args }no5lvl"
	mkdir -p "$boot/share/rel/bin" "$boot/share/rel/out"
	cp "$PB_ROOT"/tests/reliability/*.sh "$PB_ROOT/tests/reliability/bounds.env" "$boot/share/rel/bin/"
	# Per case: 15 min, or the soak and 5 min; three times that on the
	# debug and rt kernels, which run the same sizes several times slower.
	case_limit=$((soak + 300 > 900 ? soak + 300 : 900))
	[ "$flavour" = release ] || case_limit=$((case_limit * 3))
	cat >"$boot/share/job.sh" <<-EOT
		export REL_VARIANT=$v REL_FLAVOUR=$flavour REL_MODE=$mode REL_SOAK_S=$soak REL_CASE_LIMIT=$case_limit
		sh /share/rel/bin/run-cases.sh $*
	EOT
	if [ $quick = 1 ]; then limit=$((600 + soak)); else limit=$((3600 + soak)); fi
	[ "$flavour" = release ] || limit=$((limit * 3))
	log "$v ($flavour, $mode${args:+, $args}): cases $*; limit ${limit}s"
	start=$(date +%s)
	"$PB_ROOT/scripts/guest-run.sh" --flavour "$flavour" --timeout "$limit" ${args:+--append "$args"} "$v" "$boot" ||
		log "$v ($flavour): boot judged failed: $(cat "$boot/status" 2>/dev/null || echo 'it did not start'); judging each case"
	log "$v ($flavour): boot took $(($(date +%s) - start)) s"
	for c in "$@"; do
		o=$boot/share/rel/out/$c
		IFS=$'\t' read -r verdict reason < <(judge_case "$boot" "$c")
		secs=0
		[ -f "$o/uptime" ] && secs=$(awk '{ printf "%d", $2 - $1 }' "$o/uptime")
		counts=$(awk '{ printf "%s%s=%s", (NR > 1 ? ";" : ""), $1, $2 }' "$o/counts" 2>/dev/null || true)
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$flavour" "$c" "$verdict" "$reason" "$secs" "$counts" >>"$rows"
		echo "$verdict $v $flavour $c (${secs}s) $reason"
		[ "$verdict" != fail ] || failed=1
	done
	bsplat=$(awk -v re="$PB_SPLAT_RE" '/pollbench-reliability: case .* start/ { on = 1; next }
		/pollbench-reliability: case .* end/ { on = 0; next }
		!on && $0 ~ re { print; exit }' "$boot/console.log" 2>/dev/null || true)
	[ -z "$bsplat" ] || echo "${args:-default boot}: $(sed 's/^\[[ 0-9.]*\] //' <<<"${bsplat:0:200}")" >>"$boot_splats"
	grep -h -m1 '^kernel_commit=' "$boot/boot.env" 2>/dev/null | sed "s/^/${v}_${flavour}_/" >>"$out/meta.txt" || true
	grep -h -m1 '^accel=' "$boot/boot.env" 2>/dev/null >>"$out/meta.txt" || true
}

failed=0
for flavour in "${flavours[@]}"; do
	for v in "${variants[@]}"; do
		done_rows=$out/rows/$v-$flavour.tsv
		if [ -f "$done_rows" ]; then
			log "$v ($flavour): judged before, kept ($done_rows)"
			grep -q "$(printf '\tfail\t')" "$done_rows" && failed=1
			continue
		fi
		# An interrupted attempt's boots are kept aside, never judged.
		for b in "$out/$v-$flavour" "$out/$v-$flavour"-*; do
			[ -d "$b" ] && [[ $b != *.interrupted-* ]] || continue
			n=1
			while [ -e "$b.interrupted-$n" ]; do n=$((n + 1)); done
			mv "$b" "$b.interrupted-$n"
			log "$v ($flavour): an interrupted attempt kept as $b.interrupted-$n"
		done
		rows=$done_rows.partial boot_splats=$out/rows/$v-$flavour.splats
		: >"$rows"
		: >"$boot_splats"
		obj=$(variant_obj "$v" "$flavour")
		if [ ! -f "$obj/arch/x86/boot/bzImage" ] || [ ! -f "$obj/pollbench-build.env" ]; then
			# A release kernel must be there; debug and rt kernels are noted.
			log "$v ($flavour): no built kernel in $obj"
			[ "$flavour" != release ] || failed=1
			for c in "${cases[@]}"; do
				printf '%s\t%s\t%s\tnot-built\tno %s kernel built\t0\t\n' "$v" "$flavour" "$c" "$flavour" >>"$rows"
			done
			mv "$rows" "$done_rows"
			rm -f "$boot_splats"
			write_results
			continue
		fi
		# The cases of this boot, grouped by their kernel command line.
		groups=()
		declare -A group_cases=()
		for c in "${cases[@]}"; do
			if why=$(skipped_here "$v" "$flavour" "$c"); then
				printf '%s\t%s\t%s\tnot-run\t%s\t0\t\n' "$v" "$flavour" "$c" "$why" >>"$rows"
				continue
			fi
			# Keyed "+ARGS": an associative array takes no empty key.
			g=+$(boot_args "$c")
			[ -n "${group_cases[$g]+set}" ] || groups+=("$g")
			group_cases[$g]="${group_cases[$g]:-} $c"
		done
		for g in "${groups[@]}"; do
			boot=$out/$v-$flavour
			[ "$g" = + ] || boot=$boot-$(tr -c 'A-Za-z0-9\n' '-' <<<"${g#+}")
			# shellcheck disable=SC2086 # the group's case names
			judge_boot "$v" "$flavour" "$boot" ${group_cases[$g]}
		done
		unset group_cases
		# A report outside every case's markers (boot, between cases, power
		# off) belongs to no case: it fails the variant's boot row.
		if [ -s "$boot_splats" ]; then
			printf '%s\t%s\tboot\tfail\tkernel reported outside the cases: %s\t0\t\n' "$v" "$flavour" "$(head -n1 "$boot_splats")" >>"$rows"
			echo "fail $v $flavour boot: $(head -n1 "$boot_splats")"
			failed=1
		else
			printf '%s\t%s\tboot\tpass\t\t0\t\n' "$v" "$flavour" >>"$rows"
		fi
		rm -f "$boot_splats"
		mv "$rows" "$done_rows"
		write_results
	done
done
write_results
echo "end_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$out/meta.txt"
echo "results: $out/results.tsv"
if [ -n "$doc" ] && [ $nodoc = 0 ]; then
	"$PB_ROOT/tests/reliability/report.sh" "$out" >"$doc.tmp"
	mv "$doc.tmp" "$doc"
	echo "report: $doc"
fi
[ $failed = 0 ]
