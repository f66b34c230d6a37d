#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Description: run the unit tests and the end-to-end checks of pollbench-report
#
# Run from analysis/ (make test). Prints "ok - ..." / "not ok - ..." per
# check and a final line "N passed, N failed"; exits 1 on any failure.
set -euo pipefail

cd "$(dirname "$0")/.."
PROG=./pollbench-report
FIX=tests/fixtures
OUT=tests/out
passed=0
failed=0

pass() {
	echo "ok - $1"
	passed=$((passed + 1))
}

fail() {
	echo "not ok - $1"
	failed=$((failed + 1))
}

# expect NAME STATUS PATTERN -- CMD...: CMD exits with STATUS and its
# stdout+stderr matches the extended regex PATTERN ("" = anything).
expect() {
	local name=$1 want=$2 pattern=$3 got=0 log
	shift 4
	log=$("$@" 2>&1) || got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name (exit $got, want $want)"
		printf '%s\n' "$log" | sed 's/^/# /' | tail -n 5
	elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" <<<"$log"; then
		fail "$name (output does not match /$pattern/)"
		printf '%s\n' "$log" | sed 's/^/# /' | tail -n 5
	else
		pass "$name"
	fi
}

unit_tests() {
	local log line rc=0 before=$failed
	log=$(tests/unit-tests 2>/dev/null) || rc=$?
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass "${line#ok - }" ;;
		"not ok - "*) fail "${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done <<<"$log"
	# A crash leaves no "not ok" line: count it.
	if [ "$rc" -ne 0 ] && [ "$failed" -eq "$before" ]; then
		fail "unit-tests exited with status $rc"
	fi
}

# The layers of analysis/, lowest first: a file may include headers of
# its own layer or lower ones, never of a higher one, and the include
# graph (file stem -> header stem) has no cycle. Every .c/.h stem must be
# listed here.
declare -A LAYER=(
	[warn]=0 [hist]=0 [metrics]=0 [jain]=0 [opts]=0
	[fio]=1 [procstat]=1 [cond]=1 [window]=1 [timing]=1 [device]=1 [trace]=1
	[model]=2 [rep]=2 [rundir]=2 [loss]=2
	[stats]=3 [aggregate]=3 [compare]=3 [signif]=3 [engine]=3 [fair]=3
	[sweep]=3 [crossover]=3 [precision]=3 [breakdown]=3 [scale]=3 [scalex]=3
	[runcmp]=3
	[fmt]=4 [mdtab]=4 [names]=4 [headline]=4 [fair_out]=4 [sweep_out]=4
	[crossover_out]=4 [crossover_plot]=4 [scale_out]=4 [scale_answer]=4 [scale_plot]=4
	[scalex_out]=4 [scalex_plot]=4 [runcmp_out]=4 [breakdown_out]=4
	[breakdown_plot]=4 [precision_out]=4 [summary]=4
	[table]=4 [answer]=4 [plot]=4 [plots]=4
	[main]=5
)
LAYER_NAMES=(base parse model statistics render main)

# layer_check DIR: print each violation; exit 1 on any.
layer_check() {
	local dir=$1 f stem dep bad=0 edges
	edges=$(mktemp)
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -e "$f" ] || continue
		stem=$(basename "${f%.*}")
		if [ -z "${LAYER[$stem]+x}" ]; then
			echo "$f: $stem is in no layer"
			bad=1
			continue
		fi
		for dep in $(sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f"); do
			[ "$dep" = "$stem" ] && continue
			if [ -z "${LAYER[$dep]+x}" ]; then
				echo "$f: includes $dep.h, in no layer"
				bad=1
			elif [ "${LAYER[$dep]}" -gt "${LAYER[$stem]}" ]; then
				echo "$f: upward edge $stem (${LAYER_NAMES[${LAYER[$stem]}]}) -> $dep (${LAYER_NAMES[${LAYER[$dep]}]})"
				bad=1
			fi
			echo "$stem $dep" >>"$edges"
		done
	done
	if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
		echo "include cycle: $(tr '\n' ' ' <"$edges.err")"
		bad=1
	fi
	rm -f "$edges" "$edges.err"
	return $bad
}

layers() {
	local log t
	if log=$(layer_check .); then
		pass "layers: includes go one way (base, parse, model, statistics, render, main), no cycle"
	else
		fail "layers: includes go one way (base, parse, model, statistics, render, main), no cycle"
		printf '%s\n' "$log" | sed 's/^/# /'
	fi
	# The check itself: an upward edge and a cycle are caught.
	t=$(mktemp -d)
	printf '#include "table.h"\n' >"$t/rundir.c"
	printf '#include "fair.h"\n' >"$t/sweep.c"
	printf '#include "sweep.h"\n' >"$t/fair.c"
	log=$(layer_check "$t") || true
	if grep -q '^.*rundir.c: upward edge rundir (model) -> table (render)$' <<<"$log" &&
		grep -q '^include cycle' <<<"$log"; then
		pass "layers: the check catches an upward edge and a cycle"
	else
		fail "layers: the check catches an upward edge and a cycle"
		printf '%s\n' "$log" | sed 's/^/# /'
	fi
	rm -rf "$t"
}

good_run() {
	rm -rf "$OUT"
	mkdir -p "$OUT"
	expect "report: run-ok writes report.md" 0 "wrote $OUT/ok/report.md" -- \
		$PROG $FIX/run-ok --out $OUT/ok --no-plots
	if [ -s $OUT/ok/summary.json ] && [ -s $OUT/ok/summary.csv ] &&
		grep -q '"clat_p99_ns":' $OUT/ok/summary.json &&
		grep -q '^baseline,randread-4k-qd1-psync@alone,randread-4k-qd1-psync,alone,,clat_p99_9_ns,ns,lower,' $OUT/ok/summary.csv; then
		pass "report: summary.json and summary.csv have flat keys with units"
	else
		fail "report: summary.json and summary.csv have flat keys with units"
	fi
	if grep -q '| \*\*clat p99\*\* (primary) | ns | [0-9]* (0.00%) | [0-9]* ([+-][0-9.]*%)' $OUT/ok/report.md &&
		grep -q 'accel tcg — emulated wall-clock time (TCG)$' $OUT/ok/report.md &&
		grep -q 'seed 20261203' $OUT/ok/report.md &&
		grep -q '0.78%' $OUT/ok/report.md &&
		grep -q '^### randread-4k-qd1-\*@alone — emulated wall-clock time (TCG) (clat: this run has no total-latency bins; engines are not comparable on it)$' $OUT/ok/report.md &&
		grep -q '^| metric | unit | baseline/psync | baseline/pvsync2 | inline/psync | inline/pvsync2 |' $OUT/ok/report.md; then
		pass "report: compare table, provenance, seed, error bound, engine table"
	else
		fail "report: compare table, provenance, seed, error bound, engine table"
	fi
	if grep -q '^## Precision of QD1 p50' $OUT/ok/report.md &&
		grep -Eq '^\| inline \| randread-4k-qd1-psync@alone \| [0-9]+ \| \[[0-9]+, [0-9]+\] \| [0-9.]+% \| (met|\*\*not met\*\*) \| 3 \| [0-9]+' $OUT/ok/report.md &&
		grep -Eq '^- `baseline`: [0-9.]+% \(`' $OUT/ok/report.md &&
		jq -e '.qd1_p50_precision | length == 8 and all(.target_pct == 3 and (.reps_needed >= .reps))' $OUT/ok/summary.json >/dev/null; then
		pass "report: QD1 p50 CI half-width against the 3% target, boots needed"
	else
		fail "report: QD1 p50 CI half-width against the 3% target, boots needed"
	fi
	if grep -q '^- boot-002: failed: timeout' $OUT/ok/report.md &&
		grep -q '"boots_failed": 1' $OUT/ok/summary.json; then
		pass "report: failed boots listed from boots/*/status"
	else
		fail "report: failed boots listed from boots/*/status"
	fi
	if grep -q '"baseline_cell": "randread-4k-qd1-psync@alone"' $OUT/ok/summary.json &&
		grep -q '"family": "randread-4k-qd1-\*@alone"' $OUT/ok/summary.json; then
		pass "report: engine comparisons in summary.json"
	else
		fail "report: engine comparisons in summary.json"
	fi
	# Multiple comparisons: primaries on p, the rest on Holm's p, none untested.
	if jq -e '(.primary_metrics | index("clat_p50_ns") and index("cpu_busy_ns_per_io")) and .holm_tests > 0 and
		(.cells[] | select(.variant == "inline" and .cell == "randread-4k-qd1-psync@alone") |
		 .clat_p50_ns_primary == true and .clat_p50_ns_p_value_holm == null and
		 .iops_primary == false and .iops_p_value_holm >= .iops_p_value and
		 .intr_nvme_per_io_p_value == null and .intr_nvme_per_io_significant == false and
		 .clat_p50_ns_significant == (.clat_p50_ns_p_value < 0.05) and
		 .iops_significant == (.iops_p_value_holm < 0.05))' $OUT/ok/summary.json >/dev/null &&
		grep -q 'Holm-adjusted p (over all [0-9]* secondary p-values of this report)' $OUT/ok/report.md; then
		pass "report: primary metrics, Holm p and no test for direction none in summary.json"
	else
		fail "report: primary metrics, Holm p and no test for direction none in summary.json"
	fi
	expect "report: second identical run" 0 "^wrote" -- \
		$PROG $FIX/run-ok --out $OUT/ok2 --no-plots
	if cmp -s $OUT/ok/summary.json $OUT/ok2/summary.json; then
		pass "report: summary.json is deterministic"
	else
		fail "report: summary.json is deterministic"
	fi
	$PROG $FIX/run-ok --out $OUT/seed --seed 7 --no-plots >/dev/null 2>&1 || true
	if grep -q '"seed": 7' $OUT/seed/summary.json &&
		! cmp -s $OUT/ok/summary.json $OUT/seed/summary.json; then
		pass "report: --seed is recorded and changes the CIs"
	else
		fail "report: --seed is recorded and changes the CIs"
	fi
	expect "validate: fresh summary matches" 0 "matches the raw files" -- \
		$PROG $FIX/run-ok --out $OUT/ok --validate
	# Tamper with one p99 value: --validate must name that key.
	mkdir -p $OUT/tamper
	sed '0,/"clat_p99_ns": [0-9.e+]*/s//"clat_p99_ns": 1.5/' \
		$OUT/ok/summary.json >$OUT/tamper/summary.json
	expect "validate: changed value fails naming clat_p99_ns" 1 \
		'cells\[baseline/randread-4k-qd1-psync@alone\]\.clat_p99_ns: summary.json has 1.5' -- \
		$PROG $FIX/run-ok --out $OUT/tamper --validate
	# Another format_version: a schema difference, not a drift of one key.
	mkdir -p $OUT/oldfmt
	sed 's/"format_version": [0-9]*/"format_version": 1/' $OUT/ok/summary.json >$OUT/oldfmt/summary.json
	expect "validate: older format_version is a schema difference" 1 \
		'^schema differs \(format_version 1 vs 5\): regenerate' -- \
		$PROG $FIX/run-ok --out $OUT/oldfmt --validate
	if $PROG $FIX/run-ok --out $OUT/oldfmt --validate 2>&1 | grep -q 'clat_p99_ns\|not recomputed'; then
		fail "validate: a schema difference names no key"
	else
		pass "validate: a schema difference names no key"
	fi
	# Version 2 had no cyclictest _pooled and _lower_bound keys.
	sed 's/"format_version": [0-9]*/"format_version": 2/' $OUT/ok/summary.json >$OUT/oldfmt/summary.json
	expect "validate: format_version 2 (pooled cyclictest) is a schema difference" 1 \
		'^schema differs \(format_version 2 vs 5\): regenerate' -- \
		$PROG $FIX/run-ok --out $OUT/oldfmt --validate
	jq 'del(.format_version)' $OUT/ok/summary.json >$OUT/oldfmt/summary.json
	expect "validate: no format_version is a schema difference" 1 \
		'^schema differs \(format_version none vs 5\)' -- \
		$PROG $FIX/run-ok --out $OUT/oldfmt --validate
	expect "validate: different seed fails" 1 "DIFFERS" -- \
		$PROG $FIX/run-ok --out $OUT/ok --validate --seed 8
	# In place, as "make report RUN=..." does: the second run must not
	# take report outputs (plots/, summary.*) for results.
	cp -r $FIX/run-ok $OUT/inplace
	$PROG $OUT/inplace --no-plots >/dev/null 2>&1 || true
	expect "report: in place twice, then --validate" 0 "matches the raw files" -- \
		sh -c "$PROG $OUT/inplace >/dev/null && $PROG $OUT/inplace --validate"
	expect "validate: missing summary.json is an error" 1 "summary.json" -- \
		$PROG $FIX/run-ok --out $OUT/none --validate
}

broken_runs() {
	expect "broken: truncated fio.json names file and position" 1 \
		'run-truncated/.*/1/fio.json: line [0-9]+ column [0-9]+:' -- \
		$PROG $FIX/run-truncated --out $OUT/b --no-plots
	expect "broken: missing clat_ns names file and field" 1 \
		'run-noclat/.*/1/fio.json: jobs\[0\]\.read: missing clat_ns' -- \
		$PROG $FIX/run-noclat --out $OUT/b --no-plots
	expect "broken: empty bins named" 1 \
		'run-emptybins/.*/1/fio.json: .*empty histogram' -- \
		$PROG $FIX/run-emptybins --out $OUT/b --no-plots
	expect "broken: crashed rep skipped with a warning naming it" 0 \
		'warning: .*run-crashed/baseline/randread-4k-qd1-psync@alone/2: no fio.json' -- \
		$PROG $FIX/run-crashed --out $OUT/crashed --no-plots
	if grep -q '"reps": 1' $OUT/crashed/summary.json &&
		grep -q 'no fio.json' $OUT/crashed/report.md; then
		pass "broken: crashed rep left out of summary, warning in report"
	else
		fail "broken: crashed rep left out of summary, warning in report"
	fi
	expect "broken: cell with zero valid reps is an error" 1 \
		'run-crashed-only/baseline/randread-4k-qd1-psync@alone: cell has no valid repetition' -- \
		$PROG $FIX/run-crashed-only --out $OUT/b --no-plots
	expect "broken: nonexistent run dir" 1 "nonexistent" -- \
		$PROG $FIX/nonexistent --out $OUT/b --no-plots
}

# The conditions and devices, on the real guest fixture run-cond/.
conditions() {
	local r=$OUT/cond/report.md j=$OUT/cond/summary.json
	expect "cond: run-cond (competitor-only cells have no fio.json)" 0 \
		"wrote $OUT/cond/report.md" -- \
		$PROG $FIX/run-cond --out $OUT/cond --no-plots
	if grep -q '^| nvme | randread-4k-qd1-iouring-hipri | baseline | 5536 | +97.97% |.* | 56.1 n/a | 53.5 | baseline/randread-4k-qd1-psync@competitor | 1 |$' $r &&
		grep -q '^| nullb-20us | randread-4k-qd1-psync | baseline |' $r; then
		pass "cond: fairness trade-off table (gain vs psync, loss with CI)"
	else
		fail "cond: fairness trade-off table (gain vs psync, loss with CI)"
	fi
	# nvme is not part of the sweep: cyclictest ran on nvme only. The
	# iouring-hipri nullb-20us cell (lat min 9.09 us, the real unpatched
	# null_blk) is invalid: first in report.md, in no table or plot.
	if sed -n '/^## Device-latency sweep/,/^## Per rep/p' $r >$OUT/cond/sweep.md &&
		grep -q '^| baseline | randread-4k-qd1-psync | 96768 / 3948544 |$' $OUT/cond/sweep.md &&
		! grep -q 'iouring' $OUT/cond/sweep.md &&
		grep -q '^### alone — emulated wall-clock time (TCG)$' $OUT/cond/sweep.md &&
		! grep -q '^### cyclictest' $OUT/cond/sweep.md; then
		pass "cond: device-latency sweep table, nvme and invalid cells left out"
	else
		fail "cond: device-latency sweep table, nvme and invalid cells left out"
	fi
	if [ "$(grep '^## ' $r | sed -n 2p)" = "## Invalid cells" ] &&
		grep -q '^- `baseline/randread-4k-qd1-iouring-hipri@alone@nullb-20us`: smallest latency 9.09 us (rep 1) is below the device.s 20 us: the device did not delay its completions' $r &&
		[ "$(grep -c 'iouring-hipri@alone@nullb-20us' $r)" -eq 2 ] &&
		! grep -q 'iouring-hipri@alone@nullb-20us' $OUT/cond/summary.csv &&
		jq -e '(.invalid_cells | length == 1 and .[0].cell == "randread-4k-qd1-iouring-hipri@alone@nullb-20us" and (.[0].invalid_reason | test("below the device"))) and
			([.cells[].cell] | index("randread-4k-qd1-iouring-hipri@alone@nullb-20us") == null)' $j >/dev/null; then
		pass "cond: invalid nullb cell listed first, in summary.json invalid_cells only"
	else
		fail "cond: invalid nullb cell listed first, in summary.json invalid_cells only"
	fi
	expect "cond: invalid cell warned about on stderr" 0 \
		'warning: baseline/randread-4k-qd1-iouring-hipri@alone@nullb-20us: invalid, left out' -- \
		$PROG $FIX/run-cond --out $OUT/cond-w --no-plots
	if grep -q '| cyclictest p99 | us | ≥2000 (0.00%) |' $r &&
		grep -q '| cyclictest max | us | 13205 (0.00%) |' $r &&
		grep -q '| competitor work rate | units/s | 115597 (0.00%) |' $r &&
		grep -q "| busy hogs' work rate (sum) | units/s | 180818 (0.00%) |" $r; then
		pass "cond: cyclictest (overflow marked), competitor and busy rows"
	else
		fail "cond: cyclictest (overflow marked), competitor and busy rows"
	fi
	if grep -q '"fairness_tradeoff": \[' $j &&
		grep -q '"competitor_loss_pct": 53.57' $j &&
		grep -q '"cyclictest_range_us": 2000' $j &&
		jq -e '.cells[] | select(.cell == "randread-4k-qd1-psync@cyclictest") |
			.cyclictest_p99_us == 2000 and .cyclictest_p99_us_lower_bound and
			.cyclictest_p99_us_pooled == 2000 and .cyclictest_p50_us_lower_bound == false and
			.cyclictest_max_us_pooled == 13205' $j >/dev/null &&
		grep -q '^baseline,none@competitor-only,none,competitor-only,,competitor_units_per_sec,units/s,higher,' $OUT/cond/summary.csv; then
		pass "cond: summary.json and summary.csv carry the new metrics"
	else
		fail "cond: summary.json and summary.csv carry the new metrics"
	fi
	expect "cond: --validate on run-cond" 0 "matches the raw files" -- \
		$PROG $FIX/run-cond --out $OUT/cond --validate
	expect "cond: --fair-ref" 0 "" -- $PROG $FIX/run-cond --out $OUT/fref \
		--no-plots --fair-ref baseline/randread-4k-qd1-iouring-hipri
	if grep -q '^| nvme | randread-4k-qd1-psync | baseline | 272384 | -4820.23% |.*| baseline/randread-4k-qd1-iouring-hipri@competitor | 1 |$' $OUT/fref/report.md &&
		grep -q '^| nullb-20us | randread-4k-qd1-psync | baseline |.*| - |.*| none | 1 |$' $OUT/fref/report.md; then
		pass "cond: --fair-ref sets the reference, none where absent"
	else
		fail "cond: --fair-ref sets the reference, none where absent"
	fi
	expect "cond: truncated competitor.txt names the file" 1 \
		'run-badcomp/baseline/randread-4k-qd1-psync@competitor/1/competitor.txt: no units_per_sec' -- \
		$PROG $FIX/run-badcomp --out $OUT/b --no-plots
	expect "cond: empty cyclictest histogram names the file" 1 \
		'run-emptycyc/baseline/randread-4k-qd1-psync@cyclictest/1/cyclictest.txt: empty histogram' -- \
		$PROG $FIX/run-emptycyc --out $OUT/b --no-plots
	# Sweep columns in numeric order of N: copies of the 20 us cells
	# renamed to 5, 10 and 100 us (the device comes from the name); at
	# 100 us the psync cell's lat min (49.3 us) makes it invalid.
	mkdir -p $OUT/sweep/baseline
	for us in 5 10 20 100; do
		cp -r "$FIX/run-cond/baseline/randread-4k-qd1-psync@alone@nullb-20us" \
			"$OUT/sweep/baseline/randread-4k-qd1-psync@alone@nullb-${us}us"
	done
	cp -r "$FIX/run-cond/baseline/randread-4k-qd1-psync@alone" $OUT/sweep/baseline/
	expect "cond: sweep over three N" 0 "" -- $PROG $OUT/sweep --out $OUT/sweep-out
	if grep -q '^| variant | workload | 5 us: p50 / p99 | 10 us: p50 / p99 | 20 us: p50 / p99 |$' $OUT/sweep-out/report.md &&
		grep -q '^- `baseline/randread-4k-qd1-psync@alone@nullb-100us`: smallest latency 49.29 us' $OUT/sweep-out/report.md &&
		! grep -q '^100 ' $OUT/sweep-out/plots/device-sweep@alone.dat &&
		! compgen -G "$OUT/sweep-out/plots/*nullb-100us*" >/dev/null; then
		pass "cond: sweep columns sorted by N, the invalid 100 us cell in no table or plot"
	else
		fail "cond: sweep columns sorted by N, the invalid 100 us cell in no table or plot"
	fi
	cp -r $FIX/run-cond $OUT/nocomp
	rm "$OUT/nocomp/baseline/none@competitor-only/2/competitor.txt"
	expect "cond: competitor-only rep without competitor.txt skipped with a warning" 0 \
		'warning: .*none@competitor-only/2: no competitor.txt' -- \
		$PROG $OUT/nocomp --out $OUT/nocomp-out --no-plots
	rm -r "$OUT/nocomp/baseline/none@competitor-only"
	expect "cond: no competitor-only rate: warning, loss left out" 0 \
		'warning: .*randread-4k-qd1-psync@competitor: no competitor-only rate' -- \
		$PROG $OUT/nocomp --out $OUT/nocomp-out --no-plots
}

# Total latency (fio --lat_percentiles=1) on run-lat/: engines compare on lat.
total_latency() {
	local r=$OUT/lat/report.md j=$OUT/lat/summary.json
	expect "lat: run-lat (lat_ns bins) is reported" 0 "wrote" -- \
		$PROG $FIX/run-lat --out $OUT/lat --no-plots
	if grep -q '^## Engine comparisons — instruction-count time (1 instruction = 2^0 ns)$' $r &&
		grep -q '^| \*\*lat p50\*\* (primary) | ns |' $r && grep -q '^| clat p50 | ns |' $r &&
		jq -e '[.cells[] | select(.variant == "baseline" and .workload == "randread-4k-qd1-iouring-hipri")][0] |
			.lat_p50_ns_per_rep == [98816, 60160] and .clat_p50_ns_per_rep == [69120, 39168]' $j >/dev/null &&
		jq -e '.qd1_p50_precision | length == 4 and all(has("lat_p50_ns") and has("lat_p50_ns_ci95_lo"))' $j >/dev/null &&
		grep -q '^## Precision of QD1 p50 — instruction-count time (1 instruction = 2^0 ns)$' $r; then
		pass "lat: lat and clat per rep from their own bins; engine and precision tables on lat"
	else
		fail "lat: lat and clat per rep from their own bins; engine and precision tables on lat"
	fi
	expect "lat: --validate on run-lat" 0 "matches the raw files" -- \
		$PROG $FIX/run-lat --out $OUT/lat --validate
	rm -rf $OUT/latpart
	cp -r $FIX/run-lat $OUT/latpart
	f=$OUT/latpart/inline/randread-4k-qd1-psync@alone/2/fio.json
	jq 'del(.jobs[].read.lat_ns.bins)' $f >$f.new && mv $f.new $f
	expect "lat: one rep without lat bins: the run falls back to clat" 0 "wrote" -- \
		$PROG $OUT/latpart --out $OUT/latpart-out --no-plots
	if grep -q '^## Engine comparisons — .* (clat: this run has no total-latency bins; engines are not comparable on it)$' $OUT/latpart-out/report.md &&
		jq -e '.qd1_p50_precision | all(has("clat_p50_ns"))' $OUT/latpart-out/summary.json >/dev/null; then
		pass "lat: clat fallback named in the table headings"
	else
		fail "lat: clat fallback named in the table headings"
	fi
}

# window-{before,after}.txt (run-window/): per-I/O figures over the window,
# divided by the device's I/Os (600: fio's 300 plus a ramp as long), not
# by fio's total_ios (300), and the counted CPU metrics.
window() {
	local j=$OUT/win/summary.json w=$OUT/winb/baseline/randread-4k-qd1-psync@alone/1
	expect "window: run-window is reported" 0 "wrote" -- \
		$PROG $FIX/run-window --out $OUT/win --no-plots
	if jq -e '.cells[0] | .task_cpu_ns_per_io == 10000 and
			.vcpu_busy_ns_per_io == 20000 and .cpu_per_io_ns == 22000 and
			.cpu_busy_ns_per_io == 1000000 and
			((.ios_per_busy_cpu_sec * 22000 - 1e9) | fabs) < 1e-3 and
			.intr_nvme_per_io == 1 and
			.intr_all_per_io == 3 and .poll_idle_poll_ns_per_io == 2000' $j >/dev/null &&
		grep -q '^| \*\*CPU per I/O incl. idle-loop polling\*\* (primary) | ns/I/O | 22000 (0.00%) |$' $OUT/win/report.md &&
		grep -q '^| fio task CPU per I/O (counted) | ns/I/O | 10000 (0.00%) |$' $OUT/win/report.md &&
		grep -q '^| all vCPUs busy per I/O (counted) | ns/I/O | 20000 (0.00%) |$' $OUT/win/report.md; then
		pass "window: per-I/O over Δdev_ios (600), counted task, vCPU and idle-poll CPU, I/Os per busy second from it"
	else
		fail "window: per-I/O over Δdev_ios (600), counted task, vCPU and idle-poll CPU, I/Os per busy second from it"
	fi
	rm -rf $OUT/winb
	cp -r $FIX/run-window $OUT/winb
	rm $w/window-*.txt
	expect "window: without window files" 0 "wrote" -- \
		$PROG $OUT/winb --out $OUT/winb-out --no-plots
	if jq -e '.cells[0] | .intr_nvme_per_io == 2 and .cpu_busy_ns_per_io == 2000000 and
			.ios_per_busy_cpu_sec == null and
			.cpu_per_io_ns == null and .task_cpu_ns_per_io == null' $OUT/winb-out/summary.json >/dev/null; then
		pass "window: without window files per I/O is over fio's total_ios, as before"
	else
		fail "window: without window files per I/O is over fio's total_ios, as before"
	fi
	cp $FIX/run-window/baseline/randread-4k-qd1-psync@alone/1/window-before.txt $w/
	expect "window: a before file without its after file" 1 \
		'has window-before.txt but not window-after.txt' -- \
		$PROG $OUT/winb --out $OUT/b --no-plots
	sed 's/^dev_ios .*/dev_ios 1000/' $w/window-before.txt >$w/window-after.txt
	expect "window: Δdev_ios = 0 names the file" 1 \
		'psync@alone/1/window-after.txt: dev_ios did not advance' -- \
		$PROG $OUT/winb --out $OUT/b --no-plots
	sed 's/^fio_task_ns .*/fio_task_ns 1/' $FIX/run-window/baseline/randread-4k-qd1-psync@alone/1/window-after.txt >$w/window-after.txt
	expect "window: a counter going backwards names the file" 1 \
		'psync@alone/1/window-after.txt: fio_task_ns went backwards' -- \
		$PROG $OUT/winb --out $OUT/b --no-plots
	grep -v '^cpu' $FIX/run-window/baseline/randread-4k-qd1-psync@alone/1/window-after.txt >$w/window-after.txt
	expect "window: no cpu<K>_idle_ns line" 1 'window-after.txt: no cpu<K>_idle_ns' -- \
		$PROG $OUT/winb --out $OUT/b --no-plots
}

# The crossover headline on run-crossover/ (hand-made, known p50s: see
# tests/fixtures/make-crossover-fixture.sh).
crossover() {
	local r=$OUT/xo/report.md j=$OUT/xo/summary.json
	expect "crossover: run-crossover is reported" 0 "wrote" -- \
		$PROG $FIX/run-crossover --out $OUT/xo
	if [ "$(grep '^## ' $r | head -n 1)" = "## Headline" ] &&
		[ "$(sed -n 5p $r)" = "## Headline" ] &&
		grep -q '^Timing model: \*\*instruction-count time (1 instruction = 2^0 ns)\*\*\.$' $r &&
		grep -Eq '^\| baseline/randread-4k-qd1-psync \(interrupts\) +\| +30\.70 \| +30\.70 \| +\+0\.00% \|' $r &&
		grep -Eq '^\| inline/randread-4k-qd1-pvsync2-hipri +\| +10\.35 \| +10\.35 \| +\+50\.00% \| +- \|.*\| +2\.52% \|$' $r &&
		grep -Eq '^\| inline/randread-4k-qd1-pvsync2-hipri +\| +26\.29 \| +26\.29 \| +\+6\.29% \|' $r &&
		grep -Eq '^\| inline/randread-4k-qd1-pvsync2-hipri +\| +43\.71 \| +43\.71 \| +-4\.39% \|' $r; then
		pass "crossover: report.md starts with the headline tables (overhead, gain, spread)"
	else
		fail "crossover: report.md starts with the headline tables (overhead, gain, spread)"
	fi
	if grep -q '^- `inline/randread-4k-qd1-pvsync2-hipri`: p50 gain over interrupts below 10% from 50 us (16.67 us on a core retiring 3 instructions per ns); below 0 from 200 us (66.67 us on a core retiring 3 instructions per ns)\.$' $r &&
		! grep -q '^- `baseline/randread-4k-qd1-psync`' $r; then
		pass "crossover: statements at 50 and 200 us, and 16.67 and 66.67 us for 3 instructions per ns"
	else
		fail "crossover: statements at 50 and 200 us, and 16.67 and 66.67 us for 3 instructions per ns"
	fi
	if jq -e '.crossover | .devices_us == [10, 50, 200] and .latency == "lat" and
			.timing_model == "icount" and .headline_condition == "alone" and
			(.conditions[0].designs[] | select(.variant == "inline") |
			 .gain_below_10pct_from_us == 50 and .gain_below_0_from_us == 200 and
			 (.gain_below_10pct_from_us_core_3ipns * 3 | round) == 50 and
			 ([.points[].p50_ns] == [20352, 76288, 243712]) and
			 ([.points[].overhead_p50_ns] == [10352, 26288, 43712]) and
			 (.points[0].gain_p50_pct == 50) and
			 (.points[0].reference_cell == "randread-4k-qd1-psync@alone@nullb-10us"))' $j >/dev/null; then
		pass "crossover: summary.json crossover object"
	else
		fail "crossover: summary.json crossover object"
	fi
	if [ -s $OUT/xo/plots/crossover-overhead@alone.dat ] &&
		grep -Eq '^10 10\.35(2|19)[0-9]* 10\.35(2|19)[0-9]*$' $OUT/xo/plots/crossover-overhead@alone.dat &&
		grep -q 'set logscale x' $OUT/xo/plots/plots.gp &&
		grep -q 'crossover (alone): software overhead' $OUT/xo/plots/plots.gp; then
		pass "crossover: overhead plot data and script (log x)"
	else
		fail "crossover: overhead plot data and script (log x)"
	fi
	expect "crossover: --validate" 0 "matches the raw files" -- \
		$PROG $FIX/run-crossover --out $OUT/xo --validate
	rm -rf $OUT/xo2
	cp -r $FIX/run-crossover $OUT/xo2
	rm -r "$OUT/xo2/inline/randread-4k-qd1-pvsync2-hipri@alone@nullb-200us"
	expect "crossover: without the 200 us point" 0 "wrote" -- \
		$PROG $OUT/xo2 --out $OUT/xo2-out --no-plots
	if grep -q 'below 10% from 50 us (16.67 us on a core retiring 3 instructions per ns); below 0 not within 10-200 us\.$' $OUT/xo2-out/report.md; then
		pass "crossover: a gain that never falls below 0 is 'not within' the run's range"
	else
		fail "crossover: a gain that never falls below 0 is 'not within' the run's range"
	fi
	# Without nullb cells: the compare-kernels headline, first. run-lat:
	# baseline psync lat p50 per boot 59648 and 61696 ns, median 60.67 us,
	# CV 1448.2 / 60672 = 2.39 %; inline 76.16 us is 25.53 % worse, not
	# significant with 2 boots against 2.
	r=$OUT/lat/report.md
	if grep -q '^In the form of mmtests' $r &&
		[ "$(grep '^## ' $r | head -n 1)" = "## Headline — instruction-count time (1 instruction = 2^0 ns)" ] &&
		grep -Eq '^\| randread-4k-qd1-psync@alone +\| lat p50 \(us\) +\| +60\.67 \(0\.00%\) \| +76\.16 \(-25\.53%\) \| .*\| +2\.39% / 28\.76% \| +59\.65-61\.70 / 60\.67-91\.65 \|$' $r &&
		grep -Eq '^\| randread-4k-qd1-iouring-hipri@alone +\| lat p99 \(us\) +\|' $r &&
		! grep -q 'clat p50 (us)' $r &&
		[ "$(grep -n '^## Provenance' $r | cut -d: -f1)" -gt "$(grep -n '^## Headline' $r | cut -d: -f1)" ] &&
		[ "$(grep -n '^## Comparisons per cell' $r | cut -d: -f1)" -gt "$(grep -n '^## Provenance' $r | cut -d: -f1)" ]; then
		pass "headline: a run without nullb cells starts with the compare-kernels table (us, gain, CI, CV, min-max)"
	else
		fail "headline: a run without nullb cells starts with the compare-kernels table (us, gain, CI, CV, min-max)"
	fi
}

# answer_cols FILE: its widest line (answer.txt is ASCII: bytes = columns).
answer_cols() {
	LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"
}

# report_cell REPORT N DESIGN FIELD: field FIELD (3 overhead p50, 5 gain,
# 6 CPU per I/O) of the row of DESIGN (label/workload) in the N us table
# of report.md's crossover headline, spaces removed.
report_cell() {
	awk -F'|' -v h="#### $2 us device latency" -v d=" $3 " -v f="$4" '
		$0 == h { on = 1; next }
		/^#+ / { on = 0 }
		on && index($2, d) == 1 { gsub(/ /, "", $f); print $f; exit }' "$1"
}

# answer_row ANSWER NAME: the values of NAME's rows in answer.txt, all
# blocks joined, one line.
answer_row() {
	awk -v d="$2" 'index($0, d "  ") == 1 { printf "%s%s", n++ ? " " : "",
		substr($0, length(d) + 1) }' "$1" | tr -s ' ' | sed 's/^ //'
}

# answer.txt, the headline to paste into a mail: run-crossover's known
# overheads and gains under the designs' usual names, equal to report.md's
# headline cells; split into even blocks when the device latencies do not
# fit in 100 columns; run-breakdown's CPU per I/O as in the headline; and
# a run without null_blk cells.
answer() {
	local a=$OUT/ans/answer.txt r=$OUT/ans/report.md w=$OUT/ans-wide/answer.txt
	local b=$OUT/ans-bd/answer.txt l=$OUT/ans-lat/answer.txt us
	expect "answer: run-crossover writes answer.txt" 0 "wrote $a" -- \
		$PROG $FIX/run-crossover --out $OUT/ans --no-plots
	if [ -s $a ] && [ "$(answer_cols $a)" -le 100 ] &&
		! LC_ALL=C grep -q '[^ -~]' $a; then
		pass "answer: exists, plain ASCII, no line over 100 columns ($(answer_cols $a))"
	else
		fail "answer: exists, plain ASCII, no line over 100 columns ($(answer_cols $a))"
	fi
	if [ "$(head -n 1 $a)" = "pollbench run run-crossover, instruction-count time (1 instruction = 2^0 ns)." ] &&
		grep -q '^Kernels: fixture (commit fixture)\.$' $a &&
		grep -q '^QEMU fixture, accel tcg\.$' $a &&
		tr '\n' ' ' <$a | tr -s ' ' |
		grep -q ' overhead = total-latency p50 - N, in us (p50: the median of the per-boot p50s); gain = p50 gain vs interrupts, (interrupts - design) / interrupts, positive = faster\. ' &&
		grep -Eq '^device latency +10 us +50 us +200 us$' $a &&
		grep -Eq '^interrupts +30\.70 +ref +' $a &&
		grep -Eq '^inline \(waiter polls\) +10\.35 +\+50\.00% ' $a &&
		! grep -Eq 'psync|pvsync2|baseline' $a &&
		[ "$(tail -n 1 $a)" = "Full report: $r" ]; then
		pass "answer: run, timing, provenance, design names (interrupts, inline (waiter polls)), full report's path"
	else
		fail "answer: run, timing, provenance, design names (interrupts, inline (waiter polls)), full report's path"
		sed 's/^/# /' $a
	fi
	if [ "$(answer_row $a 'inline (waiter polls)')" = "$(report_cell $r 10 inline/randread-4k-qd1-pvsync2-hipri 3) $(report_cell $r 10 inline/randread-4k-qd1-pvsync2-hipri 5) $(report_cell $r 50 inline/randread-4k-qd1-pvsync2-hipri 3) $(report_cell $r 50 inline/randread-4k-qd1-pvsync2-hipri 5) $(report_cell $r 200 inline/randread-4k-qd1-pvsync2-hipri 3) $(report_cell $r 200 inline/randread-4k-qd1-pvsync2-hipri 5)" ] &&
		[ "$(answer_row $a 'inline (waiter polls)')" = "10.35 +50.00% 26.29 +6.29% 43.71 -4.39%" ] &&
		[ "$(answer_row $a interrupts | cut -d' ' -f1)" = "$(report_cell $r 10 baseline/randread-4k-qd1-psync 3)" ]; then
		pass "answer: overheads and gains equal report.md's headline cells (inline 10.35 us, +50.00% at 10 us)"
	else
		fail "answer: overheads and gains equal report.md's headline cells (inline 10.35 us, +50.00% at 10 us)"
		sed 's/^/# /' $a
	fi
	rm -rf $OUT/ans-run
	cp -r $FIX/run-crossover $OUT/ans-run
	for us in 60 70 80 90 100; do
		cp -r "$OUT/ans-run/baseline/randread-4k-qd1-psync@alone@nullb-200us" \
			"$OUT/ans-run/baseline/randread-4k-qd1-psync@alone@nullb-${us}us"
		cp -r "$OUT/ans-run/inline/randread-4k-qd1-pvsync2-hipri@alone@nullb-200us" \
			"$OUT/ans-run/inline/randread-4k-qd1-pvsync2-hipri@alone@nullb-${us}us"
	done
	expect "answer: eight device latencies" 0 "wrote $w" -- \
		$PROG $OUT/ans-run --out $OUT/ans-wide --no-plots
	if [ "$(grep -c '^device latency' $w)" = 2 ] &&
		grep -Eq '^device latency +10 us +50 us +60 us +70 us$' $w &&
		grep -Eq '^device latency +80 us +90 us +100 us +200 us$' $w &&
		[ "$(answer_cols $w)" -le 100 ] &&
		[ "$(answer_row $w 'inline (waiter polls)' | wc -w)" = 16 ] &&
		[ "$(answer_row $w 'inline (waiter polls)' | cut -d' ' -f15-)" = "43.71 -4.39%" ]; then
		pass "answer: eight device latencies split into two blocks of four, within 100 columns"
	else
		fail "answer: eight device latencies split into two blocks of four, within 100 columns"
		sed 's/^/# /' $w
	fi
	expect "answer: run-breakdown" 0 "wrote $b" -- \
		$PROG $FIX/run-breakdown --out $OUT/ans-bd --no-plots
	if grep -q '^CPU per I/O at 10 us, in us' $b &&
		grep -Eq "^  baseline-nullb\.traced +$(report_cell $OUT/ans-bd/report.md 10 baseline-nullb.traced/randread-4k-qd1-psync 6)\$" $b &&
		grep -Eq '^  baseline-nullb\.traced +166\.67$' $b &&
		grep -Eq '^  interrupts +-$' $b &&
		grep -Eq '^idle \(idle loop polls\) +6\.19 +-1\.61%$' $b; then
		pass "answer: CPU per I/O at 10 us as in the headline; a label without a usual name keeps its own"
	else
		fail "answer: CPU per I/O at 10 us as in the headline; a label without a usual name keeps its own"
		sed 's/^/# /' $b
	fi
	expect "answer: run-lat, no null_blk cells" 0 "wrote $l" -- \
		$PROG $FIX/run-lat --out $OUT/ans-lat --no-plots
	if grep -q '^No valid null_blk (nullb-<N>us) cells' $l &&
		[ "$(tail -n 1 $l)" = "Full report: $OUT/ans-lat/report.md" ]; then
		pass "answer: a run without null_blk cells says so and names the full report"
	else
		fail "answer: a run without null_blk cells says so and names the full report"
		sed 's/^/# /' $l
	fi
}

# The path breakdown on run-breakdown/ (hand-made traces, steps known:
# tests/fixtures/make-breakdown-fixture.sh): report section, summary.json,
# plot; a trace with a lost I/O is invalid, one without markers missing.
breakdown() {
	local r=$OUT/bd/report.md j=$OUT/bd/summary.json b
	local cell="idle.traced/randread-4k-qd1-pvsync2-hipri@alone@nullb-10us"
	expect "breakdown: run-breakdown is reported" 0 "wrote" -- \
		$PROG $FIX/run-breakdown --out $OUT/bd
	if grep -q '^## Where the microseconds go — instruction-count time (1 instruction = 2^0 ns)$' $r &&
		[ "$(grep -n '^## Where the microseconds go' $r | cut -d: -f1)" -lt "$(grep -n '^## Provenance' $r | cut -d: -f1)" ] &&
		grep -Eq '^\| nullb-10us +\| baseline-nullb +\| +2\.10 \| +10\.00 \| +0\.60 \| +0\.50 \| +1\.00 \| +2\.00 \| +- \| +- \| +16\.20 \| +16\.64 \| +16\.37 \| +16\.81 \| +0\.44 \| +97\.4% \| +97\.4% \(syscall only\) \| +100% \| +\+4\.4% \|$' $r &&
		grep -Eq '^\| nullb-10us +\| idle +\| +1\.50 \| +10\.00 \| +0\.50 \| +0\.40 \| +2\.00 \| +2\.00 \| +- \| +- \| +16\.40 \| +16\.51 \| +16\.53 \| +16\.68 \| +0\.15 \| +99\.1% \| +99\.1% \(syscall only\) \| +100% \| +\+2\.0% \|$' $r &&
		grep -Eq '^\| nullb-10us +\| inline +\| +1\.50 \| +10\.00 \| +0\.30 \| +0\.00 \| +0\.00 \| +1\.20 \| +0\.06 \| +0\.06 \| +13\.12 \| +13\.25 \| +13\.10 \| +13\.25 \| +0\.15 \| +98\.9% \| +99\.8% \| +0% \| +\+4\.0% \|$' $r &&
		sed -n '/^### competitor/,/^\*\*Tracing/p' $r >$OUT/bd/comp.md &&
		grep -Eq '^\| nullb-10us +\| baseline-nullb +\| +2\.00 \| +10\.00 \| +0\.50 \| +0\.50 \| +7\.00 \| +2\.00 \| +- \| +- \| +22\.00 \| +22\.66 \| +20\.67 \| +21\.29 \| +0\.62 \| +97\.1% \| +97\.1% \(syscall only\) \| +100% \| +\+4\.7% \|$' $OUT/bd/comp.md &&
		grep -Eq '^\| alone +\| nullb-10us +\| baseline-nullb \(`baseline-nullb`\) +\| +15\.94 \| +16\.64 \| +\+0\.70 \| +\+4\.4% \| +15\.94 \| +16\.81 \| +\+0\.87 \| +\+5\.5% \|$' $r; then
		pass "breakdown: report.md tables per condition, step medians, coverage, tracing's cost"
	else
		fail "breakdown: report.md tables per condition, step medians, coverage, tracing's cost"
	fi
	if jq -e '.format_version == 5 and .breakdown.timing_model == "icount" and
			.breakdown.steps == ["submit", "device", "find", "wake", "runq", "return"] and
			(.breakdown.cells | length == 4) and
			(.breakdown.cells[] | select(.variant == "baseline-nullb.traced" and .condition == "alone") |
			 .status == "ok" and .reps == 2 and .ios_parsed_per_rep == [3, 3] and
			 .window_ios_per_rep == [3, 3] and .tick_ns_per_rep == [1, 1] and
			 .submit_median_ns == 2100 and .find_median_ns_per_rep == [500, 700] and
			 .runq_median_ns == 1000 and .step_medians_sum_ns == 16200 and
			 .fio_p50_ns == 16640 and .coverage_ok and
			 .task_at_completion_ios.asleep == 6 and
			 .tracing_cost.untraced_variant == "baseline-nullb" and
			 .tracing_cost.p50_diff_ns == 704) and
			(.breakdown.cells[] | select(.variant == "inline.traced") | .user_ns == 64 and
			 .edge_ns == 60 and .total_mean_ns == 13224 and .coverage_syscall_only == false and
			 .coverage_ok) and
			(.breakdown.cells[] | select(.variant == "idle.traced") | .tick_ns_per_rep == [0.5] and
			 .runq_median_ns == 2000 and .design == "idle")' $j >/dev/null; then
		pass "breakdown: summary.json breakdown per traced cell (format_version 4)"
	else
		fail "breakdown: summary.json breakdown per traced cell (format_version 4)"
	fi
	if [ -s "$OUT/bd/plots/breakdown@alone.dat" ] && [ -s "$OUT/bd/plots/breakdown@competitor.dat" ] &&
		grep -Eq '^"inline nullb-10us" 1\.5 10 0\.4[0-9]* 0 0 1\.2 0\.064[0-9]* 0\.0[56][0-9]*$' "$OUT/bd/plots/breakdown@alone.dat" &&
		grep -q 'set style histogram rowstacked' $OUT/bd/plots/plots.gp &&
		grep -q "where the microseconds go (alone): each step's mean per I/O, stacked" $OUT/bd/plots/plots.gp; then
		pass "breakdown: stacked plot of the step means per condition"
	else
		fail "breakdown: stacked plot of the step means per condition"
	fi
	expect "breakdown: --validate" 0 "matches the raw files" -- \
		$PROG $FIX/run-breakdown --out $OUT/bd --validate
	sed 's/"format_version": [0-9]*/"format_version": 3/' $j >$OUT/oldfmt/summary.json
	expect "validate: format_version 3 (no breakdown) is a schema difference" 1 \
		'^schema differs \(format_version 3 vs 5\): regenerate' -- \
		$PROG $FIX/run-breakdown --out $OUT/oldfmt --validate
	# One I/O more in the window than in the trace: invalid, not shown.
	rm -rf $OUT/bdlost
	cp -r $FIX/run-breakdown $OUT/bdlost
	sed -i 's/^dev_ios .*/dev_ios 104/' "$OUT/bdlost/$cell/1/window-after.txt"
	expect "breakdown: a trace missing an I/O of the window is invalid, with a warning" 0 \
		"warning: $cell: path breakdown invalid: rep 1: 3 I/Os in the trace, 4 in the window" -- \
		$PROG $OUT/bdlost --out $OUT/bdlost-out
	if grep -Eq '^\| nullb-10us +\| idle: \*\*invalid\*\* \(below\) +\| +- \|' $OUT/bdlost-out/report.md &&
		jq -e '.breakdown.cells[] | select(.variant == "idle.traced") | .status == "invalid" and
			(.reason | test("3 I/Os in the trace, 4 in the window")) and .coverage_ok == false' \
			$OUT/bdlost-out/summary.json >/dev/null &&
		! grep -q '^"idle ' "$OUT/bdlost-out/plots/breakdown@alone.dat"; then
		pass "breakdown: the invalid cell is marked in report.md and summary.json, left out of the plot"
	else
		fail "breakdown: the invalid cell is marked in report.md and summary.json, left out of the plot"
	fi
	# No pb_clock markers: no tick scale, so no breakdown at all.
	rm -rf $OUT/bdmark
	cp -r $FIX/run-breakdown $OUT/bdmark
	b="$OUT/bdmark/$cell/1/trace.txt.gz"
	gzip -dc "$b" | grep -v pb_clock | gzip -n >"$b.new" && mv "$b.new" "$b"
	expect "breakdown: a trace without markers gives no breakdown, with a warning" 0 \
		"warning: $cell: path breakdown missing: rep 1: 0 pb_clock markers" -- \
		$PROG $OUT/bdmark --out $OUT/bdmark-out --no-plots
	if jq -e '.breakdown.cells[] | select(.variant == "idle.traced") | .status == "missing" and
			.submit_median_ns == null and .syscall_mean_ns == null and .markers_per_rep == [0]' \
			$OUT/bdmark-out/summary.json >/dev/null &&
		grep -Eq '^- `'"$cell"'`: breakdown missing: rep 1: 0 pb_clock markers' $OUT/bdmark-out/report.md; then
		pass "breakdown: the missing cell has no step values, and says why"
	else
		fail "breakdown: the missing cell has no step values, and says why"
	fi
	# A trace that is not gzip: broken input, named.
	echo "not gzip" >"$b"
	expect "breakdown: a trace.txt.gz that does not decompress names the file" 1 \
		"$cell/1/trace.txt.gz: gzip -dc failed" -- \
		$PROG $OUT/bdmark --out $OUT/b --no-plots
}

# Per-reader fairness on run-readers/ (hand-made: make-reader-fixtures.sh):
# rep 1 Jain 8/11 and smallest share 50 %, rep 2 1 and 100 %.
readers() {
	local j=$OUT/rd/summary.json f
	expect "readers: run-readers is reported" 0 "wrote" -- \
		$PROG $FIX/run-readers --out $OUT/rd --no-plots
	if jq -e '.format_version == 5 and (.cells[0] |
			(.reader_jain * 22 | round) == 19 and (.reader_jain - 19 / 22 | fabs) < 1e-12 and
			.reader_min_share_pct == 75 and (.reader_jain_per_rep[1] == 1) and
			(.reader_min_share_pct_per_rep == [50, 100]))' $j >/dev/null &&
		grep -Eq "^\| readers' fairness \(Jain's index\) \| 1 = fair \| 0\.864 \(0\.00%\) \|$" $OUT/rd/report.md &&
		grep -q '^| smallest reader.s share x readers | % (100 = fair) | 75 (0.00%) |$' $OUT/rd/report.md; then
		pass "readers: reader_jain 19/22 and reader_min_share_pct 75 in summary.json and report.md"
	else
		fail "readers: reader_jain 19/22 and reader_min_share_pct 75 in summary.json and report.md"
	fi
	sed 's/"format_version": [0-9]*/"format_version": 4/' $j >$OUT/oldfmt/summary.json
	expect "validate: format_version 4 (no reader metrics) is a schema difference" 1 \
		'^schema differs \(format_version 4 vs 5\): regenerate' -- \
		$PROG $FIX/run-readers --out $OUT/oldfmt --validate
	rm -rf $OUT/rdmany
	cp -r $FIX/run-readers $OUT/rdmany
	f="$OUT/rdmany/baseline/randread-4k-r4-psync@alone/1/fio.json"
	jq '.jobs as $j | .jobs = [range(1025) | $j[0]]' $FIX/fio-readers-4.json >$f
	expect "readers: 1025 jobs in one fio.json is refused, naming the file" 1 \
		'r4-psync@alone/1/fio.json: 1025 jobs, more than the 1024 readers a cell can have' -- \
		$PROG $OUT/rdmany --out $OUT/b --no-plots
}

# set_meta DIR JQ-FILTER: rewrite every meta.json under DIR with jq.
set_meta() {
	local m
	find "$1" -name meta.json | while read -r m; do
		jq "$2" "$m" >"$m.new" && mv "$m.new" "$m"
	done
}

# one_cell_run OUT VCPUS JQ-FILTER: run-scale's r1 psync cell alone as a
# run of VCPUS vCPUs, its meta.json rewritten by JQ-FILTER.
one_cell_run() {
	rm -rf "$1"
	mkdir -p "$1/baseline"
	cp -r "$FIX/run-scale/baseline/randread-4k-r1-psync@alone@nullb-10us" "$1/baseline/"
	jq --arg v "$2" '.vcpus = $v' $FIX/run-scale/run.json >"$1/run.json"
	set_meta "$1" "$3 | .vcpus = \"$2\""
}

# --scale across vCPU counts: run-scale (2 vCPUs) and the same matrix at
# 4 vCPUs where interrupts' r4 IOPS is lower (make-scale-fixture.sh with
# IRQ_X4=7000: 28060), so inline falls below it from r8 there; and the
# refusals (mixed timing models or devices, one vCPU count twice, a run
# without r<N> workloads, a run without vcpus).
scale_across() {
	local x=$OUT/sx m=$OUT/sx/scale.md
	rm -rf $OUT/s4 $x
	(cd $FIX && IRQ_X4=7000 ./make-scale-fixture.sh "$PWD/../out/s4" 4)
	expect "scale across: --scale OUT_DIR RUN_DIR... writes scale.md" 0 "^wrote $m\$" -- \
		$PROG --scale $x $OUT/s4 $FIX/run-scale
	if grep -q '^- 2 vCPUs: `tests/fixtures/run-scale`$' $m && grep -q '^- 4 vCPUs: `tests/out/s4`$' $m &&
		grep -q 'timing model \*\*instruction-count time (1 instruction = 2^0 ns)\*\*' $m &&
		grep -q '^## randread-4k-r<N>-\* @alone @nullb-10us$' $m &&
		grep -Eq '^\| design +\| vCPUs \| +r1 \| +r2 \| +r4 \| +r8 \|$' $m &&
		grep -Eq '^\| interrupts +\| 2 +\| 10015 \| 19030 \| 36060 \| 40120 \|$' $m &&
		grep -Eq '^\| interrupts +\| 4 +\| 10015 \| 19030 \| 28060 \| 40120 \|$' $m &&
		grep -Eq '^\| inline \(waiter polls\) +\| 4 +\| 15015 \| 26145 \| 30075 \| 32535 \|$' $m &&
		grep -Eq '^\| inline \(waiter polls\) +\| 2 +\| 39\.96 \| 39\.78 \| 39\.90 \| 39\.80 \|$' $m &&
		grep -Eq '^\| design +\| +2 vCPUs \| +4 vCPUs \|$' $m &&
		grep -Eq '^\| inline \(waiter polls\) +\| r4 \(2/vCPU\), n\.s\. \| r8 \(2/vCPU\), n\.s\. \|$' $m &&
		grep -Eq '^\| idle \(idle loop polls\) +\| +- \| +- \|$' $m &&
		grep -Eq '^\| inline \(waiter polls\) \| r4 \(2/vCPU\), point \| r4 \(1/vCPU\), point \|$' $m &&
		! grep -Eq '^\| interrupts .*vCPU' $m; then
		pass "scale across: IOPS and CPU per design and vCPU count, below interrupts from r4 at 2 and r8 at 4 vCPUs"
	else
		fail "scale across: IOPS and CPU per design and vCPU count, below interrupts from r4 at 2 and r8 at 4 vCPUs"
		sed 's/^/# /' $m | head -n 40
	fi
	grep '^|' $m >$m.tables
	if [ "$(answer_cols $m.tables)" -le 100 ]; then
		pass "scale across: tables within 100 columns ($(answer_cols $m.tables))"
	else
		fail "scale across: tables within 100 columns ($(answer_cols $m.tables))"
	fi
	local pl="$x/plots/scale-iops@randread-4k-rN@alone@nullb-10us@inline-pvsync2-hipri"
	if [ -s "$pl.dat" ] && [ "$(grep -c '^# [24] vCPUs: readers iops$' "$pl.dat")" = 2 ] &&
		grep -q '^4 30075$' "$pl.dat" &&
		[ -s "$x/plots/scale-cpu@randread-4k-rNpin@busy@nullb-10us@baseline-psync.dat" ] &&
		grep -q '^set title "inline (waiter polls), randread-4k-r<N>-\* @alone @nullb-10us: IOPS against readers, per vCPU count' $x/plots/plots.gp &&
		grep -q 'index 1 using 1:2 with linespoints lc 2 pt 7 title "4 vCPUs"' $x/plots/plots.gp &&
		grep -q '^set xtics ("1" 1, "2" 2, "4" 4, "8" 8)$' $x/plots/plots.gp; then
		pass "scale across: a plot per design of IOPS and CPU against readers, a line per vCPU count"
	else
		fail "scale across: a plot per design of IOPS and CPU against readers, a line per vCPU count"
	fi
	if command -v gnuplot >/dev/null; then
		if [ -s "$pl.png" ] && [ -s "$pl.svg" ] && [ -z "$(cd $x/plots && gnuplot plots.gp 2>&1)" ]; then
			pass "scale across: plots rendered, gnuplot silent (no warning)"
		else
			fail "scale across: plots rendered, gnuplot silent (no warning)"
		fi
	fi
	expect "scale across: one vCPU count twice is refused" 2 \
		'^--scale: tests/fixtures/run-scale and tests/fixtures/run-scale both ran 2 vCPUs; give one run per vCPU count$' -- \
		$PROG --scale $OUT/b $FIX/run-scale $FIX/run-scale
	expect "scale across: a run without r<N> workloads is refused" 2 \
		'run-crossover has no r<N> workloads' -- \
		$PROG --scale $OUT/b $FIX/run-scale $FIX/run-crossover
	one_cell_run $OUT/s8rt 8 '.timing = "realtime" | del(.icount_shift)'
	expect "scale across: mixed timing models are refused" 2 \
		'^--scale: tests/fixtures/run-scale is instruction-count time \(1 instruction = 2\^0 ns\), tests/out/s8rt is emulated wall-clock time \(TCG\); never compare numbers across timing models$' -- \
		$PROG --scale $OUT/b $FIX/run-scale $OUT/s8rt
	one_cell_run $OUT/s8dev 8 '.'
	mv "$OUT/s8dev/baseline/randread-4k-r1-psync@alone@nullb-10us" "$OUT/s8dev/baseline/randread-4k-r1-psync@alone@nullb-20us"
	expect "scale across: mixed devices are refused" 2 \
		'^--scale: tests/fixtures/run-scale ran on nullb-10us, tests/out/s8dev on nullb-20us; the runs must share their devices$' -- \
		$PROG --scale $OUT/b $FIX/run-scale $OUT/s8dev
	one_cell_run $OUT/s8novc 8 'del(.vcpus)'
	jq 'del(.vcpus)' $OUT/s8novc/run.json >$OUT/s8novc/run.json.new && mv $OUT/s8novc/run.json.new $OUT/s8novc/run.json
	set_meta $OUT/s8novc 'del(.vcpus)'
	expect "scale across: a run without vcpus is broken input" 1 \
		'tests/out/s8novc: neither run.json nor meta.json says "vcpus"' -- \
		$PROG --scale $OUT/b $FIX/run-scale $OUT/s8novc
	one_cell_run $OUT/s8 8 '.'
	expect "scale across: a third run of one cell" 0 "wrote" -- \
		$PROG --scale $OUT/sx3 $FIX/run-scale $OUT/s8 $OUT/s4 --no-plots
	if grep -Eq '^\| interrupts +\| 8 +\| 10015 \| +- \| +- \| +- \|$' $OUT/sx3/scale.md &&
		grep -Eq '^\| inline \(waiter polls\) +\| r4 \(2/vCPU\), n\.s\. \| r8 \(2/vCPU\), n\.s\. \| +n/a \|$' $OUT/sx3/scale.md &&
		[ ! -e $OUT/sx3/plots ]; then
		pass "scale across: vCPU counts in order, a point not run is -, a design not run n/a"
	else
		fail "scale across: vCPU counts in order, a point not run is -, a design not run n/a"
	fi
	expect "scale across: --scale without RUN_DIR is a usage error" 2 'takes RUN_DIR' -- \
		$PROG --scale $OUT/b
}

# cmp_row MD LABEL CELL: CELL's rows in LABEL's tables of compare.md,
# one per metric (p50, mean, CPU), the cell name and spaces removed.
cmp_row() {
	awk -F'|' -v h="### $2" -v c=" $3 " '
		$0 == h || index($0, h " — ") == 1 { on = 1; next }
		/^#+ / { on = 0 }
		on && index($2, c) == 1 { sub(/^\|[^|]*\|/, ""); gsub(/ /, ""); print }' "$1"
}

# cmp_want A B LABEL CELL: what cmp_row should give, from jq on the two
# summary.json: A, B in us, (B - A) / A in %, the p50, mean and CPU
# intervals disjoint.
cmp_want() {
	jq -rn --slurpfile a "$1/summary.json" --slurpfile b "$2/summary.json" \
		--arg v "$3" --arg c "$4" '
		def cell(s): s[0].cells[] | select(.variant == $v and .cell == $c);
		cell($a) as $x | cell($b) as $y |
		("lat_p50_ns", "lat_mean_ns", "cpu_per_io_ns") as $k |
		[$x[$k], $y[$k], $x[$k + "_ci95_lo"], $x[$k + "_ci95_hi"],
		 $y[$k + "_ci95_lo"], $y[$k + "_ci95_hi"]] | @tsv' |
		LC_ALL=C awk -F'\t' '{
			printf "%.2f|%.2f|%+.2f%%|%s|\n", $1 / 1000, $2 / 1000,
				($2 - $1) / $1 * 100, $4 < $5 || $6 < $3 ? "yes" : "no" }'
}

# --compare: a committed run against itself, against its rerun on the
# same timing model (default-4 and default-6, instruction-count time, one
# matrix, known cells checked against jq on their summary.json), cells of
# one run only, and the refusals (timing models, no summary.json, no
# shared cell), none of which writes anything.
compare_runs() {
	local a=../data/default-4 b=../data/default-6 x=$OUT/cmp-self y=$OUT/cmp-46
	local c1='randread-4k-qd1-pvsync2-hipri@alone@nullb-1us'
	local c2='randread-4k-qd1-pvsync2-hipri@alone@nullb-10us'
	local w1 w2 g1 g2 rows
	rm -rf $OUT/cmp-*
	expect "compare runs: a run against itself writes compare.md" 0 "^wrote $x/compare.md\$" -- \
		$PROG --compare $x $b $b
	# Every row of the cell tables: change +0.00% (or -), intervals not
	# disjoint; 247 cells x 3 metrics, 240 with a latency.
	rows=$(sed -n '/^## Cells in both runs/,/^## Cells in one run/p' $x/compare.md |
		awk -F'|' '/^\| [a-z]/ && $2 !~ /^ cell / { n++
			if ($5 !~ /^ +(\+0\.00%|-) $/ || $6 !~ /^ +(no|-) $/) bad++ }
			END { print n + 0, bad + 0 }')
	if [ "$rows" = "741 0" ] &&
		jq -e '(.cells | length) == 247 and (.only_in_a + .only_in_b | length) == 0 and
			([.cells[] | to_entries[] | select(.key | endswith("_change_pct")) |
			  .value | select(. != null)] | length == 240 + 240 + 240 and all(. == 0)) and
			([.cells[] | to_entries[] | select(.key | endswith("_disjoint")) |
			  .value | select(. == true)] | length == 0) and
			all(.labels[]; .series == "same")' $x/compare.json >/dev/null &&
		grep -q '^| inline  *| inline  *| be812eb8cb1b (11) *| be812eb8cb1b (11) *| same  *|$' $x/compare.md &&
		grep -q '^None: every cell is in both runs\.$' $x/compare.md; then
		pass "compare runs: a run against itself: every change +0.00%, no disjoint interval, series same"
	else
		fail "compare runs: a run against itself: every change +0.00%, no disjoint interval, series same ($rows)"
	fi
	expect "compare runs: default-4 against default-6" 0 "^wrote $y/compare.md\$" -- \
		$PROG --compare $y $a $b
	w1=$(cmp_want $a $b baseline-nullb $c1) g1=$(cmp_row $y/compare.md baseline-nullb $c1)
	w2=$(cmp_want $a $b inline $c2) g2=$(cmp_row $y/compare.md inline $c2)
	if [ -n "$w1" ] && [ "$g1" = "$w1" ] && [ "$g2" = "$w2" ] &&
		[ "$(sed -n 1p <<<"$w1")" = "10.05|9.54|-5.10%|yes|" ]; then
		pass "compare runs: known cells' p50, mean, CPU, changes and intervals equal jq's"
	else
		fail "compare runs: known cells' p50, mean, CPU, changes and intervals equal jq's"
		printf '# want %s\n# got  %s\n' $w1 $g1 $w2 $g2
	fi
	if jq -e --slurpfile a $a/summary.json --slurpfile b $b/summary.json --arg c $c1 '
		($a[0].cells[] | select(.variant == "baseline-nullb" and .cell == $c)) as $x |
		($b[0].cells[] | select(.variant == "baseline-nullb" and .cell == $c)) as $y |
		(.cells[] | select(.variant == "baseline-nullb" and .cell == $c)) as $r |
		$r.lat_p50_ns_a == $x.lat_p50_ns and $r.lat_p50_ns_b == $y.lat_p50_ns and
		$r.cpu_per_io_ns_b_ci95_hi == $y.cpu_per_io_ns_ci95_hi and
		($r.lat_mean_ns_change_pct - ($y.lat_mean_ns - $x.lat_mean_ns) /
		 $x.lat_mean_ns * 100 | fabs) < 1e-9 and
		$r.lat_p50_ns_ci95_disjoint == true and
		.a.run_id == "20261207-062009" and .b.run_id == "default-6" and
		.timing_model == "icount" and .metrics == ["lat_p50_ns", "lat_mean_ns", "cpu_per_io_ns"] and
		(.labels[] | select(.label == "inline") | .series == "differs" and
		 .patches_only_in_b == ["0002-nvme-pci-add-a-parameter-to-leave-the-shadow-doorbel.patch"] and
		 .a.kernel_commit == first($a[0].cells[] | select(.variant == "inline") | .kernel_commit) and
		 (.a.kernel_commit | startswith("12540a58971f")))' \
		$y/compare.json >/dev/null &&
		grep -q '^- \*\*A\*\* `\.\./data/default-4`: run 20261207-062009, started 2026-12-07T06:20:09Z, seed 121725242, matrix `matrix/default.matrix`, QEMU 7\.2\.22 ' $y/compare.md &&
		grep -q '^- \*\*B\*\* `\.\./data/default-6`: run default-6, ' $y/compare.md &&
		grep -q 'timing model \*\*instruction-count time (1 instruction = 2^0 ns)\*\*' $y/compare.md &&
		grep -q '^A and B are separate boots, .*one fio histogram bin (`hist_bin_rel_width_max` = 0\.015625 of the value) is the resolution.*not a test\.$' $y/compare.md &&
		grep -q '^| inline  *| inline  *| 12540a58971f (10) *| be812eb8cb1b (11) *| \*\*differs\*\* (+1 -0) *|$' $y/compare.md &&
		grep -q '^| idle-window  *| idle  *|' $y/compare.md &&
		grep -q '^### baseline-nullb — interrupts, io_uring IOPOLL, baseline-nullb pvsync2-hipri$' $y/compare.md; then
		pass "compare runs: compare.json's values, the runs, the resolution sentence, the kernels and their series"
	else
		fail "compare runs: compare.json's values, the runs, the resolution sentence, the kernels and their series"
	fi
	grep '^|' $y/compare.md | sed 's/Δ/D/g' >$y/tables
	if [ "$(answer_cols $y/tables)" -le 100 ]; then
		pass "compare runs: tables within 100 columns ($(answer_cols $y/tables))"
	else
		fail "compare runs: tables within 100 columns ($(answer_cols $y/tables))"
	fi
	# B without one cell and with another one moved to invalid_cells.
	mkdir -p $OUT/cmp-drop
	jq --arg c $c2 '
		def this($v): .variant == $v and .cell == $c;
		.invalid_cells = [.cells[] | select(this("idle")) | .invalid_reason = "too fast"] |
		.cells |= map(select((this("inline") or this("idle")) | not))' \
		$b/summary.json >$OUT/cmp-drop/summary.json
	expect "compare runs: cells of one run only" 0 "wrote" -- \
		$PROG --compare $OUT/cmp-one $b $OUT/cmp-drop
	if grep -q "^- only in A: \`idle/$c2\` (invalid in B: too fast)\$" $OUT/cmp-one/compare.md &&
		grep -q "^- only in A: \`inline/$c2\`\$" $OUT/cmp-one/compare.md &&
		[ "$(grep -c '^- only in' $OUT/cmp-one/compare.md)" = 2 ] &&
		[ -z "$(cmp_row $OUT/cmp-one/compare.md inline $c2)" ] &&
		jq -e '(.cells | length) == 245 and (.only_in_a | length) == 2 and
			(.only_in_b | length) == 0 and .only_in_a[0].invalid_in_other == "too fast"' \
			$OUT/cmp-one/compare.json >/dev/null; then
		pass "compare runs: cells of one run only listed by name, an invalid one with its reason"
	else
		fail "compare runs: cells of one run only listed by name, an invalid one with its reason"
	fi
	expect "compare runs: runs of different timing models are refused" 2 \
		'^--compare: \.\./data/default-3 is emulated wall-clock time \(TCG\), \.\./data/default-6 is instruction-count time \(1 instruction = 2\^0 ns\); never compare numbers across timing models$' -- \
		$PROG --compare $OUT/cmp-no ../data/default-3 $b
	mkdir -p $OUT/cmp-empty
	expect "compare runs: a directory without summary.json is refused" 2 \
		"^--compare: $OUT/cmp-empty has no summary.json" -- \
		$PROG --compare $OUT/cmp-no $b $OUT/cmp-empty
	expect "compare runs: runs without a shared cell are refused" 2 \
		'share no cell \(label, workload, condition, device\): nothing to compare$' -- \
		$PROG --compare $OUT/cmp-no $b ../data/scale-1cpu-1
	mkdir -p $OUT/cmp-unknown
	jq '.timing_model = "unknown" | .icount_shift = null' $b/summary.json >$OUT/cmp-unknown/summary.json
	expect "compare runs: an unknown timing model is refused" 2 \
		"^--compare: $OUT/cmp-unknown's timing model is unknown" -- \
		$PROG --compare $OUT/cmp-no $OUT/cmp-unknown $OUT/cmp-unknown
	if [ ! -e $OUT/cmp-no ]; then
		pass "compare runs: a refusal writes nothing"
	else
		fail "compare runs: a refusal writes nothing"
	fi
	expect "compare runs: one run is a usage error" 2 'takes RUN_A RUN_B' -- \
		$PROG --compare $OUT/cmp-no $b
	expect "compare runs: with another option is a usage error" 2 'no other option' -- \
		$PROG --compare $OUT/cmp-no $b $b --no-plots
}

# scale_section REPORT: report.md's Scale section, heading to next "## ".
scale_section() {
	sed -n '/^## Scale/,/^## [^S]/p' "$1" | sed '$d'
}

# The Scale section on run-scale/ (hand-made, known IOPS, CPU, latency
# and Jain: tests/fixtures/make-scale-fixture.sh).
scale() {
	local r=$OUT/sc/report.md j=$OUT/sc/summary.json d=$OUT/sc/plots sec=$OUT/sc/scale.md
	local a='randread-4k-rN@alone@nullb-10us'
	expect "scale: run-scale is reported" 0 "wrote" -- \
		$PROG $FIX/run-scale --out $OUT/sc
	scale_section $r >$sec
	if [ "$(grep -n '^## Scale' $r | cut -d: -f1)" -gt "$(grep -n '^## Headline' $r | cut -d: -f1)" ] &&
		[ "$(grep -n '^## Scale' $r | cut -d: -f1)" -lt "$(grep -n '^## Provenance' $r | cut -d: -f1)" ] &&
		grep -q '^## Scale — instruction-count time (1 instruction = 2^0 ns)$' $sec &&
		grep -q 'on a guest with 2 vCPUs' $sec &&
		grep -q '^### randread-4k-r<N>-\* @alone @nullb-10us$' $sec &&
		grep -q '^### randread-4k-r<N>pin-\* @busy @nullb-10us$' $sec &&
		grep -Eq '^\| design +\| r4 IOPS \| r4 CPU us \| r4 p50 us \| r4 p99 us \| r4 Jain \|$' $sec &&
		grep -Eq '^\| interrupts +\| +36060 \| +19\.97 \| +80\.38 \| +160\.77 \| +1\.000 \|$' $sec &&
		grep -Eq '^\| inline \(waiter polls\) +\| +30075 \| +39\.90 \| +75\.26 \| +150\.53 \| +0\.893 \|$' $sec &&
		grep -Eq '^\| inline \(waiter polls\) +\| +26145 \| +39\.78 \| +40\.19 \| +80\.38 \| +0\.900 \|$' $sec &&
		grep -Eq '^\| inline \(waiter polls\) +\| +32535 \| .* \| +0\.920 \|$' $sec &&
		grep -Eq '^\| io_uring IOPOLL +\| +16015 \| +9\.99 \| +20\.10 \| +40\.19 \| +- \|$' $sec &&
		grep -Eq '^\| idle \(idle loop polls\) +\| +38060 \|' $sec; then
		pass "scale: report.md's Scale section, a row per design, IOPS, CPU, p50, p99 and Jain per N"
	else
		fail "scale: report.md's Scale section, a row per design, IOPS, CPU, p50, p99 and Jain per N"
		sed 's/^/# /' $sec | head -n 40
	fi
	grep '^|' $sec >$sec.tables
	if [ "$(answer_cols $sec.tables)" -le 100 ] && [ "$(answer_cols $sec.tables)" -gt 50 ] &&
		[ "$(grep -c '^| design ' $sec)" = 6 ]; then
		pass "scale: tables within 100 columns ($(answer_cols $sec.tables)), split per reader count"
	else
		fail "scale: tables within 100 columns ($(answer_cols $sec.tables)), split per reader count"
	fi
	if grep -q '^- inline (waiter polls) (`inline/pvsync2-hipri`): from N = 4: 30075 vs 36060 IOPS (-16.60%); Mann-Whitney p = 0.0286, Holm p = 1 over the report.s [0-9]* secondary tests: not significant\.$' $sec &&
		grep -q '^- idle (idle loop polls) (`idle/pvsync2-hipri`): at no reader count of the table\.$' $sec &&
		grep -q '^- io_uring IOPOLL (`baseline/iouring-hipri`): at no reader count of the table\.$' $sec &&
		! grep -q '^- interrupts' $sec &&
		grep -q '^- inline (waiter polls) (`inline/pvsync2-hipri`): from N = 4: 30000 vs 36000 IOPS (-16.67%); a point comparison (1 and 1 boots: no test)\.$' $sec &&
		jq -e '(.engine_comparisons[] | select(.variant == "inline" and .cell == "randread-4k-r4-pvsync2-hipri@alone@nullb-10us") | .iops_p_value_holm) as $h |
			.scale.vcpus == 2 and (.scale.tables | length == 2) and .scale.tables[0].readers == [1, 2, 4, 8] and
			(.scale.tables[0].designs[] | select(.name == "inline (waiter polls)") |
			 .below_interrupts_from_readers == 4 and (.below_p_value * 70 | round) == 2 and
			 .below_p_value_holm == $h and .below_significant == false and
			 ([.points[].iops] == [15015, 26145, 30075, 32535]) and
			 (.points[3].reader_jain * 88 | round) == 81) and
			(.scale.tables[0].designs[] | select(.name == "idle (idle loop polls)") |
			 .below_interrupts_from_readers == null and .below_p_value == null)' $j >/dev/null; then
		pass "scale: inline below interrupts from N = 4 with the report's Holm p; idle, io_uring never; a point comparison on 1 boot"
	else
		fail "scale: inline below interrupts from N = 4 with the report's Holm p; idle, io_uring never; a point comparison on 1 boot"
		grep '^- ' $sec | sed 's/^/# /'
	fi
	expect "scale: --validate" 0 "matches the raw files" -- \
		$PROG $FIX/run-scale --out $OUT/sc --validate
	expect "scale: engine reference moved by --baseline VARIANT/CELL" 0 "wrote" -- \
		$PROG $FIX/run-scale --out $OUT/sc-b --no-plots \
		--baseline 'baseline/randread-4k-r4-iouring-hipri@alone@nullb-10us'
	if grep -q '^- inline (waiter polls) (`inline/pvsync2-hipri`): from N = 4: 30075 vs 36060 IOPS (-16.60%); uncorrected Mann-Whitney p = 0.0286, not among the report.s Holm tests: read it as a point comparison\.$' $OUT/sc-b/report.md; then
		pass "scale: a pair outside the report's Holm tests is a point comparison"
	else
		fail "scale: a pair outside the report's Holm tests is a point comparison"
	fi
	if ! grep -q '^## Scale' $OUT/xo/report.md && jq -e '.scale.tables == []' $OUT/xo/summary.json >/dev/null; then
		pass "scale: a run without r<N> workloads has no Scale section"
	else
		fail "scale: a run without r<N> workloads has no Scale section"
	fi
	if [ -s "$d/scale-iops@$a.dat" ] && [ -s "$d/scale-cpu@$a.dat" ] &&
		[ -s "$d/scale-iops@randread-4k-rNpin@busy@nullb-10us.dat" ] &&
		[ "$(sed -n '/^# inline/,/^$/p' "$d/scale-iops@$a.dat" | awk 'NR > 1 && NF' | tr '\n' ' ')" = "1 15015 2 26145 4 30075 8 32535 " ] &&
		grep -Eq '^4 39\.90[0-9]*$' "$d/scale-cpu@$a.dat" &&
		grep -q '^set logscale x 2$' $d/plots.gp &&
		grep -q '^set xtics ("1" 1, "2" 2, "4" 4, "8" 8)$' $d/plots.gp &&
		grep -q "index 1 using 1:2 with linespoints lc 2 pt 7 title \"inline (waiter polls)\"" $d/plots.gp; then
		pass "scale: IOPS and CPU plots per table, log2 x with a tick per N, designs by name"
	else
		fail "scale: IOPS and CPU plots per table, log2 x with a tick per N, designs by name"
	fi
	if command -v gnuplot >/dev/null; then
		awk 'BEGIN { RS = "\nreset\n" } /set output "scale-/ { print "reset"; print }' \
			$d/plots.gp >$d/scale-only.gp
		if [ -s "$d/scale-iops@$a.png" ] && [ -s "$d/scale-cpu@$a.svg" ] &&
			[ "$(grep -c '^reset' $d/scale-only.gp)" = 8 ] &&
			[ -z "$(cd $d && gnuplot scale-only.gp 2>&1)" ]; then
			pass "scale: plots rendered, gnuplot silent on them (no warning)"
		else
			fail "scale: plots rendered, gnuplot silent on them (no warning)"
		fi
	fi
	# scale.txt: a few lines per table, at most 100 columns.
	local t=$OUT/sc/scale.txt
	if [ -f $t ] && grep -q '^2 vCPUs: N synchronous QD1 readers$' $t &&
		grep -q '^randread-4k-r<N>-\* @alone @nullb-10us$' $t &&
		grep -Eq '^interrupts +10015 +ref +19030 +ref +36060 +ref +40120 +ref +461 us$' $t &&
		grep -Eq '^inline \(waiter polls\) +15015 +\+50% +26145 +\+37% +30075 +-17% +32535 +-19% +481 us$' $t &&
		! awk 'length($0) > 100 { bad = 1 } END { exit !bad }' $t; then
		pass "scale: scale.txt, IOPS per N against interrupts and p99 per design, 100 columns"
	else
		fail "scale: scale.txt, IOPS per N against interrupts and p99 per design, 100 columns"
		sed 's/^/# /' $t | head -n 20
	fi
	expect "scale: a run without scale workloads writes no scale.txt" 0 "wrote" -- \
		$PROG $FIX/run-ok --out $OUT/noscale --no-plots
	if [ -e $OUT/noscale/scale.txt ]; then
		fail "scale: a run without scale workloads has no scale.txt"
	else
		pass "scale: a run without scale workloads has no scale.txt"
	fi
}


# Timing models (meta.json timing/icount_shift/accel), from copies of run-ok.
timing() {
	rm -rf $OUT/icount $OUT/mixed $OUT/shifts
	cp -r $FIX/run-ok $OUT/icount
	set_meta $OUT/icount '.timing = "icount" | .icount_shift = "0"'
	expect "timing: an icount run is reported" 0 "wrote" -- \
		$PROG $OUT/icount --out $OUT/icount-out
	if grep -q '^## Comparisons per cell — instruction-count time (1 instruction = 2^0 ns)$' $OUT/icount-out/report.md &&
		grep -q '^### randread-4k-qd1-psync@alone — instruction-count time (1 instruction = 2^0 ns)$' $OUT/icount-out/report.md &&
		grep -q 'accel tcg — instruction-count time (1 instruction = 2^0 ns)$' $OUT/icount-out/report.md &&
		! grep -q 'emulated wall-clock\|emulated timing' $OUT/icount-out/report.md &&
		grep -q 'timing_model = "instruction-count time (1 instruction = 2^0 ns)"' $OUT/icount-out/plots/plots.gp &&
		grep -q 'set title ".*\\n" . timing_model' $OUT/icount-out/plots/plots.gp &&
		jq -e '.timing_model == "icount" and .icount_shift == 0' $OUT/icount-out/summary.json >/dev/null; then
		pass "timing: headings, plot titles and summary.json name instruction-count time"
	else
		fail "timing: headings, plot titles and summary.json name instruction-count time"
	fi
	cp -r $FIX/run-ok $OUT/mixed
	set_meta $OUT/mixed/inline '.timing = "icount" | .icount_shift = "0"'
	expect "timing: a run mixing icount and emulated cells is refused" 1 \
		'cell baseline/randread-4k-qd1-psync@alone is emulated wall-clock time \(TCG\), cell inline/randread-4k-qd1-psync@alone is instruction-count time \(1 instruction = 2\^0 ns\); never compare numbers across timing models' -- \
		$PROG $OUT/mixed --out $OUT/b --no-plots
	cp -r $OUT/icount $OUT/shifts
	set_meta $OUT/shifts/inline '.icount_shift = 3'
	expect "timing: two icount shifts are refused" 1 \
		'2\^0 ns\), cell inline/.* is instruction-count time \(1 instruction = 2\^3 ns\); never compare' -- \
		$PROG $OUT/shifts --out $OUT/b --no-plots
	set_meta $OUT/mixed/inline '.timing = "realtime" | .accel = "kvm"'
	expect "timing: realtime on KVM against emulated is refused" 1 \
		'is virtualised wall-clock time \(KVM\); never compare' -- \
		$PROG $OUT/mixed --out $OUT/b --no-plots
}

cli() {
	local opt missing=""
	expect "cli: --help exits 0" 0 "Usage:" -- $PROG --help
	for opt in --out --seed --resamples --baseline --fair-ref --validate --no-plots --scale --compare; do
		$PROG --help | grep -- "$opt" | grep -q "default" ||
			$PROG --help | grep -A2 -- "$opt" | grep -q "default" ||
			missing="$missing $opt"
	done
	if [ -z "$missing" ]; then
		pass "cli: usage lists every option with its default"
	else
		fail "cli: usage lacks defaults for:$missing"
	fi
	expect "cli: unknown option exits 2" 2 "Usage:" -- $PROG --bogus x
	expect "cli: bad seed exits 2" 2 "--seed" -- $PROG $FIX/run-ok --seed x
	expect "cli: --baseline VARIANT/CELL picks the engine table's first column" 0 "" -- \
		$PROG $FIX/run-ok --out $OUT/eng --no-plots \
		--baseline 'inline/randread-4k-qd1-pvsync2@alone'
	if grep -A 12 '^### randread-4k-qd1-\*@alone — ' $OUT/eng/report.md |
		grep -q '^| metric | unit | inline/pvsync2 | baseline/psync | baseline/pvsync2 | inline/psync |'; then
		pass "cli: engine table baseline column from --baseline"
	else
		fail "cli: engine table baseline column from --baseline"
	fi
	expect "cli: --baseline inline puts inline first" 0 "" -- \
		$PROG $FIX/run-ok --out $OUT/inl --no-plots --baseline inline
	if grep -q '| metric | unit | inline | baseline |' $OUT/inl/report.md; then
		pass "cli: --baseline VARIANT sets the first column"
	else
		fail "cli: --baseline VARIANT sets the first column"
	fi
}

# run.json "baseline": the first column when --baseline is not given.
runjson_baseline() {
	rm -rf $OUT/rjb
	cp -r $FIX/run-ok $OUT/rjb
	jq '.baseline = "inline"' $FIX/run-ok/run.json >$OUT/rjb/run.json
	expect "run.json baseline: report" 0 "wrote" -- $PROG $OUT/rjb --out $OUT/rjb-out --no-plots
	expect "run.json baseline: --baseline overrides it" 0 "wrote" -- \
		$PROG $OUT/rjb --out $OUT/rjb-out2 --no-plots --baseline baseline
	if grep -q '| metric | unit | inline | baseline |' $OUT/rjb-out/report.md &&
		jq -e '.baseline_variant == "inline"' $OUT/rjb-out/summary.json >/dev/null &&
		grep -q '| metric | unit | baseline | inline |' $OUT/rjb-out2/report.md; then
		pass "run.json baseline: first column from run.json, --baseline wins"
	else
		fail "run.json baseline: first column from run.json, --baseline wins"
	fi
}

plots() {
	expect "plots: without gnuplot, warning and exit 0" 0 \
		"warning: gnuplot not found" -- \
		env PATH=/nonexistent $PROG $FIX/run-ok --out $OUT/nognuplot
	if ! command -v gnuplot >/dev/null; then
		echo "# gnuplot not installed: PNG/SVG check not run"
		return
	fi
	expect "plots: with gnuplot" 0 "wrote" -- $PROG $FIX/run-ok --out $OUT/plots
	if [ -s "$OUT/plots/plots/randread-4k-qd1-psync@alone-latency.png" ] &&
		[ -s "$OUT/plots/plots/randread-4k-qd1-psync@alone-p50-p99.svg" ] &&
		[ -s "$OUT/plots/plots/randread-4k-qd1-psync@alone-cpu.png" ]; then
		pass "plots: latency, p50/p99 and CPU plots as PNG and SVG"
	else
		fail "plots: latency, p50/p99 and CPU plots as PNG and SVG"
	fi
	expect "plots: run-cond with gnuplot" 0 "wrote" -- \
		$PROG $FIX/run-cond --out $OUT/cplots
	local d=$OUT/cplots/plots
	if [ -s "$d/fairness-tradeoff.png" ] && [ -s "$d/fairness-tradeoff.svg" ] &&
		[ -s "$d/fairness-tradeoff@nullb-20us.png" ] &&
		[ -s "$d/device-sweep@alone.png" ] && [ -s "$d/device-sweep@alone.svg" ] &&
		[ -s "$d/randread-4k-qd1-psync@cyclictest-cyclictest.png" ] &&
		[ -s "$d/randread-4k-qd1-psync@cyclictest-cyclictest.svg" ] &&
		[ ! -e "$d/none@competitor-only-latency.dat" ]; then
		pass "plots: fairness trade-off, device sweep, cyclictest histograms"
	else
		fail "plots: fairness trade-off, device sweep, cyclictest histograms"
	fi
}

layers
unit_tests
good_run
broken_runs
conditions
total_latency
window
crossover
answer
breakdown
readers
scale
scale_across
compare_runs
timing
runjson_baseline
cli
plots
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
