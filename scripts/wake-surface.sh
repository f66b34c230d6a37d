#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The modelled wake-up cost as a table: wake-surface.sh RUN
# Reads RUN/summary.json (pollbench-report's output for a run of
# matrix/wake-cost.matrix) and prints a markdown table: one row per design
# (kernel variant and engine), one column per modelled wake-up cost
# (idle_wake_cost_ns= on the label's command line, 0 without it), each
# cell the total-latency p50 in us and its gain over interrupts (psync on
# the interrupt reference kernel) at the same cost.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_tool jq
run=${1:?usage: wake-surface.sh RUN}
[ -f "$run/summary.json" ] || die "$run/summary.json not found: run 'make report RUN=$run' first"
jq -r --arg ref "$(jq -r '.run.baseline // "baseline"' "$run/summary.json")" '
	def cost: ((.cmdline_extra // "") | capture("idle_wake_cost_ns=(?<n>[0-9]+)").n // "0" | tonumber);
	def engine: (.workload | split("-") | .[3:] | join("-"));
	def lat: (.lat_p50_ns // .clat_p50_ns);
	[.cells[] | select(.condition == "alone" and lat != null)
		| {design: "\(.kernel_variant) \(engine) \(.device)", dev: .device, ref: (.kernel_variant == $ref and engine == "psync"),
		   cost: cost, p50: lat}] as $c
	| ($c | map(.cost) | unique) as $costs
	| ($c | map(select(.ref)) | map({key: "\(.cost) \(.dev)", value: .p50}) | from_entries) as $irq
	| "| design | " + ($costs | map("wake-up cost \(. / 1000) us") | join(" | ")) + " |",
	  "|---|" + ($costs | map("---:") | join("|")) + "|",
	  ($c | map(.design) | unique[] as $d
		| "| \($d) | " + ($costs | map(. as $n | ($c | map(select(.design == $d and .cost == $n)) | first) as $x
			| if $x == null then "-"
			  else "\($x.p50 / 1000 * 100 | round / 100) us" +
				(if $irq["\($n) \($x.dev)"] then " (\((($irq["\($n) \($x.dev)"] - $x.p50) / $irq["\($n) \($x.dev)"] * 1000 | round) / 10)%)" else "" end)
			  end) | join(" | ")) + " |")
' "$run/summary.json"
