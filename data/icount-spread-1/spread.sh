#!/bin/bash
# spread.sh RUN...: per cell, pooled over the boots of the runs given, the
# range of fio's total latency p50, p90, p99 and mean (ns), the mean's
# spread in % of its lowest, and the largest difference of two boots'
# means in standard errors of that difference (1000 I/Os a boot).
set -euo pipefail
mapfile -t cells < <(for run in "$@"; do (cd "$run" && ls -d ./*/*@*); done | sort -u)
for c in "${cells[@]}"; do
	c=${c#./}
	for run in "$@"; do
		for d in "$run/$c"/[0-9]*; do
			[ -f "$d/fio.json" ] || continue
			jq -r '.jobs[0].read.lat_ns | [.percentile["50.000000"], .percentile["90.000000"], .percentile["99.000000"], .mean, .stddev] | @tsv' "$d/fio.json"
		done
	done | awk -v name="$c" -v runs="$*" '
	function range(a,  i, lo, hi) { lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }; return sprintf("%d-%d", lo, hi) }
	{ n++; p50[n] = $1; p90[n] = $2; p99[n] = $3; m[n] = $4; s[n] = $5 }
	END {
		lo = hi = m[1]; for (i = 2; i <= n; i++) { if (m[i] < lo) lo = m[i]; if (m[i] > hi) hi = m[i] }
		z = 0; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) { d = m[i] - m[j]; if (d < 0) d = -d; t = d / sqrt((s[i] ^ 2 + s[j] ^ 2) / 1000); if (t > z) z = t }
		printf "| %s | %s | %d | %s | %s | %s | %.0f-%.0f | %.2f%% | %.1f |\n", runs, name, n, range(p50), range(p90), range(p99), lo, hi, 100 * (hi - lo) / lo, z
	}'
done
