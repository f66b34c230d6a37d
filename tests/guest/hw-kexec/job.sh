# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The job of tests/guest/hw-kexec-in-guest.sh: guest/init.sh runs it in
# every kernel of the run, as the systemd unit of scripts/hw-install.sh
# runs scripts/hw-step.sh on a real machine. The state is on /dev/vda
# (ext2); the device under test is the NVMe disk with serial "pollbench".
exec >>/share/steps.log 2>&1
echo "== job on $(uname -r): $(cat /proc/cmdline)"
for _ in $(seq 100); do [ -b /dev/vda ] && break; sleep 0.1; done
mkdir -p /state
mount -t ext2 /dev/vda /state || { echo "cannot mount the state disk"; exit 1; }
st=/state/run/hw
case " $(cat /proc/cmdline) " in
*" pollbench.hw_boot="*) ;;
*)
	if [ -f /state/started ]; then
		# Back in the original kernel: the run ends here (a real machine
		# waits for the next make hw-bench RUN=).
		rc=1
		[ -f $st/done ] && rc=0
		umount /state
		exit $rc
	fi
	# The start: record the device's wwid in the plan, as hw-bench does.
	wwid=""
	for d in /sys/block/nvme*; do
		# NVMe pads the serial with spaces.
		[ "$(tr -d ' ' <"$d/device/serial" 2>/dev/null)" = pollbench ] && wwid=$(cat "$d/wwid")
	done
	[ -n "$wwid" ] || { echo "no NVMe disk with serial pollbench"; exit 1; }
	sed -i "s|^device_wwid=.*|device_wwid=$wwid|" $st/plan.env
	: >/state/started
	sync
	;;
esac
# kexec -e after a read-only remount, as systemd's kexec target unmounts.
cat >/tmp/kexec <<'EOT'
#!/bin/sh
if [ "$1" = -e ]; then
	sync
	mount -o remount,ro /state || exit 1
	exec kexec -e
fi
exec kexec "$@"
EOT
chmod +x /tmp/kexec
PB_HW_KEXEC=/tmp/kexec sh /share/scripts/hw-step.sh $st /dev/nvme0n1
rc=$?
# Only a step that did not kexec gets here.
echo "hw-step.sh exited $rc without a kexec"
umount /state
exit 1
