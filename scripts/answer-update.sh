#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Put a committed run's answer (data/<run>/answer.txt, written by
# analysis/pollbench-report) into the documents that cite it:
#   answer-update.sh [--check] FILE...
# In FILE, the lines between
#   <!-- answer: data/RUN -->    (or data/RUN/FILE.txt, e.g. scale.txt)
#   <!-- end answer -->
# become data/RUN/answer.txt (or that file) in a fenced block, a
# "Full report:" line naming data/RUN/report.md. With --check nothing is written: exit 1 if
# any block differs from its run's answer.txt (make test runs it, so a
# document never quotes a table the tool did not give for that run).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

check=0
files=()
for a in "$@"; do
	case $a in
	--check) check=1 ;;
	-*) die "unknown option '$a' (see the header of $0)" ;;
	*) files+=("$a") ;;
	esac
done
[ ${#files[@]} -gt 0 ] || die "usage: answer-update.sh [--check] FILE..."
stale=0
for f in "${files[@]}"; do
	[ -f "$f" ] || die "$f not found"
	new=$(mktemp)
	awk -v root="$PB_ROOT" -v f="$f" '
		/^<!-- answer: [^ ]+ -->$/ {
			if (open) { printf "%s:%d: answer block opened inside another\n", f, NR > "/dev/stderr"; exit 2 }
			run = $3; open = NR; print
			a = root "/" run (run ~ /\.txt$/ ? "" : "/answer.txt")
			if ((getline l < a) <= 0) { printf "%s:%d: no %s\n", f, NR, a > "/dev/stderr"; exit 2 }
			print "```"
			do {
				if (l ~ /^Full report: /) l = "Full report: " run "/report.md"
				print l
			} while ((getline l < a) > 0)
			close(a)
			print "```"
			next
		}
		/^<!-- end answer -->$/ {
			if (!open) { printf "%s:%d: end of an answer block never opened\n", f, NR > "/dev/stderr"; exit 2 }
			open = 0; print; next
		}
		!open { print }
		END { if (open) { printf "%s:%d: answer block never closed\n", f, open > "/dev/stderr"; exit 2 } }
	' "$f" >"$new" || { rm -f "$new"; die "$f: bad answer markers"; }
	if cmp -s "$new" "$f"; then
		rm -f "$new"
	elif [ $check = 1 ]; then
		echo "$f: an answer block differs from its run's answer.txt (run scripts/answer-update.sh $f)"
		diff "$f" "$new" | head -n 20 || true
		rm -f "$new"
		stale=1
	else
		mv "$new" "$f"
		log "$f: answer blocks updated"
	fi
done
exit $stale
