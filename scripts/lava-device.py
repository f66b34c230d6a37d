#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Render lava/qemu-device.yaml for one job, as lava-server renders its
qemu.jinja2 with the job's context before it hands a job to lava-run:
the context's memory becomes "-m" and its extra_options the QEMU
command's "extra". Prints the device dictionary on stdout:
  lava-device.py TEMPLATE JOB.yaml"""

import sys

import yaml


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: lava-device.py TEMPLATE JOB.yaml")
    with open(sys.argv[1], encoding="utf-8") as f:
        device = yaml.safe_load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        context = (yaml.safe_load(f) or {}).get("context", {})
    if context.get("arch") not in device["available_architectures"]:
        sys.exit(f"lava-device.py: {sys.argv[2]}: context arch {context.get('arch')!r} is not this device's")
    params = device["actions"]["boot"]["methods"]["qemu"]["parameters"]
    params["options"] = [o for o in params["options"] if not o.startswith("-m ")]
    params["options"].append(f"-m {int(context.get('memory', 512))}")
    params["extra"] = [str(o) for o in context.get("extra_options", [])]
    if not context.get("no_kvm"):
        params["options"] += ["-cpu host", "-enable-kvm"]
    yaml.safe_dump(device, sys.stdout, sort_keys=False, default_flow_style=False)


if __name__ == "__main__":
    main()
