#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Description: integrity: fio writes with crc32c headers and reads every block
# back (verify_fatal), in mixed 4-128 KiB blocks, at QD1 and with several
# jobs on disjoint regions, polled (pvsync2 hipri=1) and interrupt-driven
# (psync): zero mismatches, zero errors, and nothing left in flight.
. "$REL_DIR/lib.sh"
wait_dev || finish
# Per job: quick 4 MiB; full 256 MiB (x 5 jobs x 2 engines: 2.5 GiB
# written and read back).
if [ "$REL_MODE" = full ]; then mib=256; else mib=4; fi
size=${mib}m
for eng in polled irq; do
	if [ $eng = polled ]; then opts=$POLLED; else opts=$IRQ; fi
	for jobs in 1 4; do
		name=$eng-qd1-jobs$jobs
		p0=$(pstat polls)
		# shellcheck disable=SC2086
		fio_run "$name" --name="$name" --filename=$DEV --direct=1 $opts \
			--rw=randwrite --bsrange=4k-128k --iodepth=1 --numjobs=$jobs \
			--size=$size --offset_increment=$size --verify=crc32c \
			--verify_fatal=1 --do_verify=1 --group_reporting=0
		rc=$?
		ios=$(fio_ios "$name")
		errs=$(fio_errors "$name")
		add ios_verified "$ios"
		add fio_runs 1
		if [ $rc != 0 ] || [ "$errs" != 0 ] || fio_verify_mismatch "$name"; then
			bad "$name: fio exit $rc, error $errs: $(tail -n 3 "$REL_OUT/$name.log")"
			add mismatches_or_errors 1
		else
			say "ok - $name: $ios I/Os written and verified ($jobs job(s) x $size)"
			add mib_verified $((jobs * mib))
		fi
		polls=$(($(pstat polls) - p0))
		[ $eng = polled ] && add polls_during_polled_runs "$polls"
		if [ $eng = polled ] && is_polling && [ "$polls" -le 0 ]; then
			bad "$name: no poll counted on a polling kernel: the I/O was not polled"
		fi
		drained "$name"
	done
done
add mismatches_or_errors 0
finish
