#!/usr/bin/env python3
"""qmp.py SOCKET IOPS: set the QEMU drive 'nvm' to IOPS (0 = unthrottled)."""
import json
import socket
import sys

s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rw")


def cmd(c, **a):
    f.write(json.dumps({"execute": c, "arguments": a} if a else {"execute": c}) + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            return r


json.loads(f.readline())  # greeting
cmd("qmp_capabilities")
iops = int(sys.argv[2])
print(json.dumps(cmd("block_set_io_throttle", device="nvm", bps=0, bps_rd=0, bps_wr=0,
                     iops=iops, iops_rd=0, iops_wr=0)))
