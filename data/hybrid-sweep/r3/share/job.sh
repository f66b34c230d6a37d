DEVICES='20 50 200'
RT=3
#!/bin/sh
# Hybrid sweep: per device, modes psync(irq), -1 (classic), 0 (adaptive), fixed f*D
set -u
out=/share/out; mkdir -p $out
uname -r > $out/uname.txt
nb=/sys/kernel/config/nullb/nullb0
RT=${RT:-3}
mk_nullb() {
	mkdir $nb
	for kv in queue_mode=2 submit_queues=1 poll_queues=1 irqmode=2 completion_nsec=$(($1*1000)) blocksize=4096 size=1024 memory_backed=0 power=1; do
		echo "${kv#*=}" > $nb/${kv%%=*}
	done
	for _ in $(seq 50); do [ -b /dev/nullb0 ] && return 0; sleep 0.1; done
}
rm_nullb() { echo 0 > $nb/power; rmdir $nb; }
snap() { # dev file
	for f in /sys/kernel/debug/block/$1/hctx*/poll_stats /sys/kernel/debug/block/$1/hctx*/poll_hybrid; do
		[ -f $f ] && sed "s|^|${f#/sys/kernel/debug/block/} |" $f
	done > $2
	head -1 /proc/stat >> $2
}
run() { # dev tag delay engine
	dev=$1 tag=$2 d=$3 eng=$4
	echo $d > /sys/block/$dev/queue/io_poll_delay
	hip="--hipri=1"; [ $eng = psync ] && hip=""
	snap $dev $out/$tag.before
	taskset -c 1 fio --name=t --filename=/dev/$dev --direct=1 --rw=randread --bs=4k --size=512m --ioengine=$eng $hip \
		--time_based --runtime=$RT --ramp_time=1 --output-format=json --output=$out/$tag.json > /dev/null 2>&1
	snap $dev $out/$tag.after
}
for us in $DEVICES; do
	mk_nullb $us
	modes="psync:-1 classic:-1 adaptive:0"
	for f in 25 50 75 100; do modes="$modes fixed$f:$((us * f / 100))"; done
	# shuffle order per boot
	modes=$(for m in $modes; do echo "$(od -An -N2 -tu2 /dev/urandom) $m"; done | sort -n | awk '{print $2}')
	for m in $modes; do
		name=${m%%:*} d=${m#*:}
		[ "$d" = 0 ] && [ "$name" != adaptive ] && continue
		eng=pvsync2; [ $name = psync ] && eng=psync
		run nullb0 nullb-${us}us.$name $d $eng
	done
	rm_nullb
done
echo done
