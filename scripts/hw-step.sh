#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One step of a hardware run (make hw-bench, docs/hardware.md):
#   hw-step.sh STATE DEVICE
# STATE is <run>/hw as scripts/hw-bench.sh wrote it (plan.env, boot-<N>.env,
# boot-<N>.cells, next; key=value files, docs/hardware.md); DEVICE the device under test (a real run finds it
# by its recorded wwid, since NVMe names may change between kernels).
# Which kernel this is comes from the kernel command line:
# - no pollbench.hw_boot= (the original kernel: the start, or a resume):
#   kexec into the kernel of boot <next>;
# - pollbench.hw_boot=N with N = next: apply the label's settings, run the
#   boot's cells that have no result yet against DEVICE (guest/cell.sh),
#   check the kernel log, move the valid cells into <run>/<label>/<cell>/<rep>
#   with their meta.json, and only then advance <next>; then kexec into
#   boot N+1's kernel, or back into the original kernel after the last
#   boot. After any failure (a cell, the settings, the kernel log, a kexec
#   that does not load) it records why in boots/<boot-id>/status, keeps
#   the failed cells under boots/<boot-id>/out/, and returns to the
#   original kernel without advancing: the next `make hw-bench RUN=<id>`
#   retries that boot's missing cells.
# A boot that never reports back (hang, panic, reset) stays "kexec" in its
# status; the next step from the original kernel marks it failed.
# DRY_RUN=1 prints what the step would do and writes nothing; with
# --boot N (DRY_RUN only) it acts as boot N (0: the original kernel).
# POSIX sh (busybox too), so it can run from the guest initramfs.
# Test hooks: PB_HW_KEXEC (the kexec program), PB_HW_CMDLINE_FILE (instead
# of /proc/cmdline), PB_HW_SYS (instead of /sys, for the settings).
set -u
dry=${DRY_RUN:-0}
as_boot=""
if [ "${1:-}" = --boot ]; then
	as_boot=${2:-}
	shift 2
fi
if [ $# != 2 ]; then
	echo "usage: hw-step.sh [--boot N] STATE DEVICE" >&2
	exit 2
fi
state=$1
dev=$2
plan=$state/plan.env
kexec=${PB_HW_KEXEC:-kexec}
sys=${PB_HW_SYS:-/sys}
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "hw-step: error: $*" >&2
	exit 1
}
[ -f "$plan" ] || die "$plan not found: STATE must be the hw/ folder of a run written by scripts/hw-bench.sh"
[ -z "$as_boot" ] || [ "$dry" = 1 ] || die "--boot is for DRY_RUN=1 only"
run=$(cd "$state/.." && pwd)

# get KEY FILE: KEY's value in a key=value file.
get() { sed -n "s/^$1=//p" "$2" | head -n 1; }
now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
# say MESSAGE: to stderr and the run's step.log.
say() {
	echo "hw-step: $*" >&2
	[ "$dry" = 1 ] || echo "$(now) $*" >>"$state/step.log"
}
# put FILE CONTENT: write a file atomically (never under DRY_RUN).
put() {
	printf '%s\n' "$2" >"$1.tmp" && mv -f "$1.tmp" "$1"
}

run_id=$(get run_id "$plan")
total=$(get boots "$plan")
next=$(cat "$state/next" 2>/dev/null || echo 1)
orig_image=$(get orig_image "$plan")
orig_initrd=$(get orig_initrd "$plan")
orig_cmdline=$(get orig_cmdline "$plan")

this=0
marker_run=""
if [ -n "$as_boot" ]; then
	this=$as_boot
else
	for w in $(cat "${PB_HW_CMDLINE_FILE:-/proc/cmdline}"); do
		case $w in
		pollbench.hw_boot=*) this=${w#*=} ;;
		pollbench.hw_run=*) marker_run=${w#*=} ;;
		esac
	done
fi
case $this in '' | *[!0-9]*) die "pollbench.hw_boot='$this' is not a number" ;; esac

# kexec_now: leave for the loaded kernel (systemd shuts down in order).
kexec_now() {
	if [ "$dry" = 1 ]; then
		echo "  kexec: systemctl --no-block kexec (or, without systemd: sync; kexec -e)"
		return 0
	fi
	sync
	if [ -z "${PB_HW_KEXEC:-}" ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
		systemctl --no-block kexec
	else
		"$kexec" -e
	fi
}

# go_original WHY: back to the kernel the run started from (in the
# original kernel already: nothing to do).
go_original() {
	if [ "$this" = 0 ]; then
		say "$1"
		return 0
	fi
	say "$1; returning to the original kernel"
	if [ "$dry" = 1 ]; then
		echo "  return: $kexec -l $orig_image --initrd=$orig_initrd --append=\"$orig_cmdline\""
		kexec_now
		return 0
	fi
	if ! "$kexec" -l "$orig_image" --initrd="$orig_initrd" --append="$orig_cmdline" >>"$state/step.log" 2>&1; then
		say "cannot load the original kernel $orig_image: rebooting through the firmware (its default entry)"
		sync
		if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
			systemctl --no-block reboot
		else
			reboot -f
		fi
		return 0
	fi
	kexec_now
}

# go_boot N: kexec into boot N's kernel. Returns 1 if it could not.
go_boot() {
	benv=$state/boot-$1.env
	label=$(get label "$benv")
	rep=$(get rep "$benv")
	image=$(get image "$benv")
	initrd=$(get initrd "$benv")
	# The markers are kernel words: before init's " -- " part, if any.
	init=$(get cmdline_init "$benv")
	cl="$(get cmdline "$benv") pollbench.hw_run=$run_id pollbench.hw_boot=$1${init:+ -- $init}"
	if [ "$dry" = 1 ]; then
		echo "boot $1/$total: kexec into $(get kernel_release "$benv") for $label rep $rep"
		echo "  kexec: $kexec -l $image --initrd=$initrd --append=\"$cl\""
		kexec_now
		return 0
	fi
	a=1
	while [ -d "$run/boots/$label-r$rep-a$a" ]; do a=$((a + 1)); done
	bid=$label-r$rep-a$a
	bootdir=$run/boots/$bid
	mkdir -p "$bootdir"
	put "$bootdir/kexec-command" "$kexec -l $image --initrd=$initrd --append=\"$cl\""
	put "$bootdir/status" kexec
	put "$state/current" "$bid"
	say "boot $1/$total ($bid): kexec into $image"
	if ! "$kexec" -l "$image" --initrd="$initrd" --append="$cl" >"$bootdir/kexec.log" 2>&1; then
		put "$bootdir/status" "failed: kexec -l could not load $image: $(tail -n 1 "$bootdir/kexec.log")"
		rm -f "$state/current"
		say "boot $1 ($bid) failed: kexec -l could not load $image (see $bootdir/kexec.log)"
		return 1
	fi
	kexec_now
}

# resolve_device: print the device under test: the whole disk whose wwid
# the plan recorded (waiting up to 30 s for it), else DEVICE.
resolve_device() {
	want=$(get device_wwid "$plan")
	if [ -z "$want" ] || [ "$want" = none ] || [ "$dry" = 1 ]; then
		echo "$dev"
		return 0
	fi
	for _ in $(seq 60); do
		for w in "$sys"/block/*/wwid; do
			[ -r "$w" ] && [ "$(cat "$w")" = "$want" ] || continue
			w=${w%/wwid}
			echo "/dev/${w##*/}"
			return 0
		done
		sleep 0.5
	done
	return 1
}

# device_unused DEV: fail if DEV or a partition of it is mounted or held.
device_unused() {
	n=$(basename "$(readlink -f "$1")")
	for d in "$sys/class/block/$n" "$sys/class/block/$n/$n"*; do
		[ -r "$d/dev" ] || continue
		if awk -v mm="$(cat "$d/dev")" '$3 == mm { found = 1 } END { exit !found }' /proc/self/mountinfo; then
			echo "${d##*/} is mounted"
			return 1
		fi
		if [ -n "$(ls "$d/holders" 2>/dev/null)" ]; then
			echo "${d##*/} is held by $(ls "$d/holders" | tr '\n' ' ')"
			return 1
		fi
	done
}

# set_sys FILE VALUE: write a sysfs file and read it back ("[value]"
# among choices counts). Under DRY_RUN, print it.
set_sys() {
	if [ "$dry" = 1 ]; then
		echo "  setting: echo $2 > $1"
		return 0
	fi
	[ -e "$1" ] || { echo "$1 does not exist"; return 1; }
	err=$( (echo "$2" >"$1") 2>&1) || { echo "writing $2 to $1 failed: $err"; return 1; }
	got=$(cat "$1")
	case " $got " in
	*" $2 "* | *"[$2]"*) return 0 ;;
	esac
	echo "$1 reads '$got' after writing $2"
	return 1
}

# apply_hw SETTINGS: the label's hw: knobs that are set at run time
# (poll_queues is on the command line: checked here).
apply_hw() {
	cpu=$sys/devices/system/cpu
	for kv in $1; do
		k=${kv%%=*}
		v=${kv#*=}
		case $k in
		cpuidle_governor) set_sys "$cpu/cpuidle/current_governor" "$v" || return 1 ;;
		cpufreq_governor)
			for f in "$cpu"/cpu[0-9]*/cpufreq/scaling_governor; do
				[ -e "$f" ] || [ "$dry" = 1 ] || { echo "no cpufreq governor to set (no $f)"; return 1; }
				set_sys "$f" "$v" || return 1
			done
			;;
		smt) set_sys "$cpu/smt/control" "$v" || return 1 ;;
		cstate_max)
			for s in "$cpu"/cpu[0-9]*/cpuidle/state[0-9]*; do
				[ -d "$s" ] || [ "$dry" = 1 ] || { echo "no cpuidle states to limit (no $s)"; return 1; }
				i=${s##*state}
				case $i in *[!0-9]*) continue ;; esac
				if [ "$i" -gt "$v" ]; then set_sys "$s/disable" 1 || return 1; else set_sys "$s/disable" 0 || return 1; fi
			done
			;;
		poll_queues)
			if [ "$dry" = 1 ]; then
				echo "  check: $sys/module/nvme/parameters/poll_queues reads $v (nvme.poll_queues=$v on the command line)"
			elif [ "$(cat "$sys/module/nvme/parameters/poll_queues" 2>/dev/null)" != "$v" ]; then
				echo "nvme poll_queues is '$(cat "$sys/module/nvme/parameters/poll_queues" 2>/dev/null)', not $v"
				return 1
			fi
			;;
		*) echo "unknown hw setting '$kv'"; return 1 ;;
		esac
	done
}

# json_of: key=value lines on stdin as one flat JSON object of strings
# (a later key wins).
json_of() {
	awk '{
		i = index($0, "="); if (i < 2) next
		k = substr($0, 1, i - 1); v = substr($0, i + 1)
		gsub(/\\/, "\\\\", v); gsub(/"/, "\\\"", v); gsub(/\t/, "\\t", v); gsub(/\r/, "\\r", v)
		if (!(k in val)) order[n++] = k
		val[k] = v
	} END {
		printf "{"
		for (j = 0; j < n; j++) printf "%s\"%s\": \"%s\"", (j ? ", " : ""), order[j], val[order[j]]
		print "}"
	}'
}

# run_boot N: this is boot N's kernel: run its cells. Returns 1 on any failure.
run_boot() {
	benv=$state/boot-$1.env
	label=$(get label "$benv")
	rep=$(get rep "$benv")
	release=$(get kernel_release "$benv")
	hw=$(get hw_settings "$benv")
	workloads=$(get workloads "$plan")
	pb_lib=$(get pb_lib "$plan")
	if [ "$dry" = 1 ]; then
		bootdir="$run/boots/$label-r$rep-a<n>"
		echo "boot $1/$total: $label rep $rep on $release, device $dev"
	else
		bid=$(cat "$state/current" 2>/dev/null)
		bootdir=$run/boots/${bid:-unknown}
		case $bid in "$label-r$rep-a"*) ;; *) why="the state's current boot is '$bid', not one of $label rep $rep"; return 1 ;; esac
		bootdir=$run/boots/$bid
		put "$bootdir/status" running
		if [ "$(uname -r)" != "$release" ]; then
			why="booted $(uname -r), expected $release"
			return 1
		fi
	fi
	if ! rdev=$(resolve_device); then
		why="no disk with wwid $(get device_wwid "$plan") appeared"
		return 1
	fi
	if [ "$dry" != 1 ] && ! why=$(device_unused "$rdev"); then
		why="device $rdev: $why"
		return 1
	fi
	if ! why=$(apply_hw "$hw"); then
		why="setting $hw: $why"
		return 1
	fi
	[ "$dry" != 1 ] || [ -z "$why" ] || echo "$why"
	if [ "$dry" != 1 ]; then
		{
			cat "$(get build_env "$benv")"
			PB_HW_SYS=$sys sh "$here/hw-provenance.sh" "$rdev"
			echo "timing=hardware"
			echo "host=$(hostname)"
			echo "label=$label"
			echo "hw_settings=$hw"
			echo "start_utc=$(now)"
		} >"$bootdir/boot.env.tmp" && mv -f "$bootdir/boot.env.tmp" "$bootdir/boot.env"
	fi
	PB_RUNTIME=$(get pb_runtime "$plan") PB_RAMP=$(get pb_ramp "$plan") PB_IOS=$(get pb_ios "$plan")
	PB_CPU=$(get pb_cpu "$plan") PB_PERF=$(get pb_perf "$plan") PB_TRACE=$(get trace "$benv")
	PB_CPUSET=$(get pb_cpuset "$plan") PB_NULLB_QUEUES=$(get pb_nullb_queues "$plan")
	# Plans written before these keys: fio's CPU alone, one queue of each.
	PB_CPUSET=${PB_CPUSET:-$PB_CPU} PB_NULLB_QUEUES=${PB_NULLB_QUEUES:-single}
	PB_CYCLICTEST_INTERVAL=$(get pb_cyclictest_interval "$plan") PB_QUEUE=$(get queue_settings "$benv")
	PB_LIB=$pb_lib PB_NVME_DEV=$rdev PATH=$(get tools "$plan"):$PATH
	export PB_RUNTIME PB_RAMP PB_IOS PB_CPU PB_CPUSET PB_NULLB_QUEUES PB_PERF PB_TRACE PB_CYCLICTEST_INTERVAL PB_QUEUE PB_LIB PB_NVME_DEV PATH
	cs=$(get pb_competitor_seconds "$plan")
	if [ -n "$cs" ]; then
		PB_COMPETITOR_SECONDS=$cs
		export PB_COMPETITOR_SECONDS
	fi
	if [ "$(get kprobes "$plan")" = 1 ]; then
		if [ "$dry" = 1 ]; then echo "  kprobes: $pb_lib/kprobes.sh"; else sh "$pb_lib/kprobes.sh" >/dev/null; fi
	fi
	ran="" nfail=0 k=0
	ncells=$(wc -l <"$state/boot-$1.cells")
	for c in $(cat "$state/boot-$1.cells"); do
		k=$((k + 1))
		if [ -d "$run/$label/$c/$rep" ]; then
			[ "$dry" != 1 ] || echo "  cell $k/$ncells: $c: done already"
			continue
		fi
		w=${c%%@*}
		rest=${c#*@}
		cond=${rest%%@*}
		d=nvme
		[ "$rest" = "$cond" ] || d=${rest#*@}
		wf=$workloads/$w.fio
		[ -f "$wf" ] || [ ! -f "$workloads/$w.uring" ] || wf=$workloads/$w.uring
		out=$bootdir/out/$c
		if [ "$dry" = 1 ]; then
			echo "  cell $k/$ncells: PB_DEVICE=$d PB_NVME_DEV=$rdev${PB_QUEUE:+ PB_QUEUE='$PB_QUEUE'} sh $pb_lib/cell.sh $wf $cond $out"
			continue
		fi
		mkdir -p "$out"
		say "boot $1 ($bid): cell $k/$ncells $c"
		PB_DEVICE=$d sh "$pb_lib/cell.sh" "$wf" "$cond" "$out" >>"$bootdir/job.out" 2>&1
		echo $? >"$out/rc"
		ran="$ran $c"
	done
	if [ "$dry" = 1 ]; then
		echo "  then: the kernel log must be clean; valid cells move to $run/$label/<cell>/$rep with meta.json; next boot $(($1 + 1))"
		return 0
	fi
	echo "end_utc=$(now)" >>"$bootdir/boot.env"
	dmesg >"$bootdir/dmesg.txt" 2>&1
	splat=$(grep -m 1 -E "$(get splat_re "$plan")" "$bootdir/dmesg.txt")
	if [ -n "$splat" ]; then
		why="kernel reported: $(echo "$splat" | cut -c1-160)"
		return 1
	fi
	for c in $ran; do
		out=$bootdir/out/$c
		result=$out/fio.json
		case $c in *@competitor-only*) result=$out/competitor.txt ;; esac
		if [ "$(cat "$out/rc")" != 0 ] || [ ! -s "$result" ] ||
			{ [ "$result" = "$out/fio.json" ] && ! grep -q '"jobs"' "$result"; }; then
			nfail=$((nfail + 1))
			say "boot $1 ($bid): cell $c failed (rc $(cat "$out/rc"): $(head -n 1 "$out/error.txt" 2>/dev/null); see $out)"
			continue
		fi
		w=${c%%@*}
		rest=${c#*@}
		cond=${rest%%@*}
		d=nvme
		[ "$rest" = "$cond" ] || d=${rest#*@}
		{
			grep -v '^variant=' "$bootdir/boot.env"
			echo "cell=$c"
			echo "workload=$w"
			echo "condition=$cond"
			echo "device=$d"
			echo "device_path=$rdev"
			echo "rep=$rep"
			echo "boot_id=$bid"
			echo "fio_version=$(fio --version 2>/dev/null)"
			echo "kexec_command=$(cat "$bootdir/kexec-command")"
			echo "variant=$label"
			echo "kernel_variant=$(get kernel_variant "$benv")"
			echo "cmdline_extra=$(get cmdline_extra "$benv")"
			echo "queue_settings=$(get queue_settings "$benv")"
		} | json_of >"$out/meta.json"
		mkdir -p "$run/$label/$c"
		mv "$out" "$run/$label/$c/$rep"
	done
	if [ $nfail -gt 0 ]; then
		why="$nfail cell(s) failed (kept in $bootdir/out/)"
		return 1
	fi
	put "$bootdir/status" ok
	return 0
}

# A kernel of another run, or of this one out of turn: back, recording it.
if [ "$this" != 0 ] && [ -z "$as_boot" ] && [ "$marker_run" != "$run_id" ]; then
	go_original "this kernel was started for run '$marker_run', not $run_id: no step taken"
	exit 1
fi

if [ "$this" = 0 ]; then
	if [ "$dry" != 1 ] && [ "$next" -gt "$total" ]; then
		say "run $run_id is complete ($total boots): nothing to do"
		exit 0
	fi
	[ "$dry" = 1 ] || say "step from the original kernel $(uname -r): next boot $next/$total"
	# The attempt that kexec'd and never reported back.
	bid=$(cat "$state/current" 2>/dev/null || true)
	if [ "$dry" != 1 ] && [ -n "$bid" ]; then
		case $(cat "$run/boots/$bid/status" 2>/dev/null) in
		kexec | running)
			put "$run/boots/$bid/status" "failed: no step reported back after the kexec into its kernel (hang, panic, reset or a failed boot)"
			say "boot $bid failed: it never reported back"
			;;
		esac
		rm -f "$state/current"
	fi
	go_boot "$next" || exit 1
	exit 0
fi

if [ "$dry" != 1 ] && [ "$this" != "$next" ]; then
	go_original "this is boot $this, but the state's next boot is $next: no step taken"
	exit 1
fi
why=""
if ! run_boot "$this"; then
	[ "$dry" = 1 ] || put "$bootdir/status" "failed: $why"
	say "boot $this ($bid) failed: $why"
	go_original "boot $this failed"
	exit 1
fi
# The results are in place: only now does the state move on.
[ "$dry" = 1 ] || { put "$state/next" $((this + 1)); rm -f "$state/current"; sync; }
if [ "$this" -lt "$total" ]; then
	if ! go_boot $((this + 1)); then
		go_original "boot $((this + 1)) could not be loaded"
		exit 1
	fi
else
	[ "$dry" = 1 ] || put "$state/done" "complete $(now)"
	go_original "run $run_id complete: $total boots"
fi
