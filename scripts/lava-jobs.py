#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write one LAVA job definition per boot that `bench.sh --payloads` laid
out, and check each against lava-common's own job schema
(lava_common.schemas.validate, what lava-server and lava-run check) as it
reads back from the file. scripts/lava-jobs.sh checks the inputs, lays out
the upload folder and renames the output into place; this only writes YAML.
Exit 1 with the job and the schema's message on the first invalid job."""

import argparse
import hashlib
import math
import os
import re
import sys

import yaml
from lava_common.schemas import validate
from voluptuous import Invalid

# A heredoc's end marker: no line of an embedded file may equal it.
EOF_MARK = "PB_EOF"
# What a cell name may hold: it goes unquoted on the test's command line.
CELL_RE = re.compile(r"^[A-Za-z0-9_.@-]+$")


def die(msg):
    print(f"lava-jobs.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def read_env(path):
    """key=value lines (the value may hold '=')."""
    env = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if "=" in line:
                key, value = line.split("=", 1)
                env[key] = value
    return env


_sums = {}


def sha256(path):
    if path not in _sums:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _sums[path] = h.hexdigest()
    return _sums[path]


def heredoc(dest, path):
    """Test-shell steps that write the file at path to dest in the guest.
    LAVA writes each step as one line of its run.sh, so a quoted heredoc
    spread over the steps carries the file unchanged and readable."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        # LAVA rewrites $N in steps holding these (testdef.py), and the
        # marker would end the heredoc early.
        if line == EOF_MARK or "--cmd" in line or "--shell" in line:
            die(f"{path}: line {line!r} cannot travel in a LAVA test step")
    return [f"cat >{dest} <<'{EOF_MARK}'"] + lines + [EOF_MARK]


def minutes(m):
    return {"minutes": int(m)}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--payloads", required=True, help="bench.sh --payloads folder")
    ap.add_argument("--upload", required=True, help="the upload folder (kernels/, initramfs)")
    ap.add_argument("--jobs", required=True, help="where the YAML files go")
    ap.add_argument("--device-type", required=True, choices=["qemu", "x86"])
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--guest-script", required=True)
    ap.add_argument("--cmdline", required=True, help="the guest command line every boot starts from")
    ap.add_argument("--splat", required=True, help="what in the kernel log fails a boot")
    ap.add_argument("--memory", type=int, default=1024)
    ap.add_argument("--accel", choices=["tcg", "kvm"], default="tcg")
    ap.add_argument("--icount-shift", default="0")
    ap.add_argument("--qemu-version", default="")
    ap.add_argument("--disk", default="", help="the NVMe disk image, relative to --upload")
    a = ap.parse_args()

    run = read_env(os.path.join(a.payloads, "run.env"))
    boots = sorted((d for d in os.listdir(a.payloads) if d.isdigit()), key=int)
    if len(boots) != int(run["boots"]):
        die(f"{a.payloads} holds {len(boots)} boots, run.env says {run['boots']}")
    if "'" in a.splat:
        die("the splat pattern holds a single quote")
    width = len(str(len(boots)))
    # bench.sh's run.json boot_order: every boot of the run, as label:rep.
    order = []
    for n in boots:
        b = read_env(os.path.join(a.payloads, n, "boot.env"))
        order.append(f"{b['label']}:{b['rep']}")
    base = a.base_url.rstrip("/")
    timing = run["timing"]
    os.makedirs(a.jobs)

    for n in boots:
        pdir = os.path.join(a.payloads, n)
        boot = read_env(os.path.join(pdir, "boot.env"))
        with open(os.path.join(pdir, "cells"), encoding="utf-8") as f:
            cells = f.read().split()
        for c in cells:
            if not CELL_RE.match(c):
                die(f"boot {n}: cell {c!r} cannot travel on a LAVA test step")
        kv = boot["kernel_variant"]
        kdir = f"kernels/{kv}"
        build = read_env(os.path.join(a.upload, kdir, "pollbench-build.env"))

        def up(rel):
            """A download of upload/REL, checked by its sha256."""
            return {"url": f"{base}/{rel}", "sha256sum": sha256(os.path.join(a.upload, rel))}

        cmdline = " ".join(x for x in (a.cmdline, boot["cmdline_extra"], "pollbench.shell=1") if x)

        share = os.path.join(pdir, "share")
        steps = ["mkdir -p /share/workloads /share/out"]
        for w in sorted(os.listdir(os.path.join(share, "workloads"))):
            steps += heredoc(f"/share/workloads/{w}", os.path.join(share, "workloads", w))
        steps += heredoc("/share/job.sh", os.path.join(share, "job.sh"))
        steps += heredoc("/share/lava-guest.sh", a.guest_script)
        steps.append(f"sh /share/lava-guest.sh '{a.splat}' " + " ".join(cells))

        # bench.sh's limit covers the boot and the cells; printing the raw
        # files takes a few minutes more on a slow serial line.
        t_deploy = 15 if a.device_type == "qemu" else 10
        t_boot = 5
        t_test = math.ceil(int(boot["limit_s"]) / 60) + 10
        t_job = t_deploy + t_boot + t_test + 5

        meta = {
            "generator": "pollbench scripts/lava-jobs.sh",
            "run_id": run["run_id"],
            "seed": run["seed"],
            "matrix": run["matrix"],
            "matrix_sha256": run["matrix_sha256"],
            "boot": f"{n}/{len(boots)}",
            "boot_id": f"{boot['label']}-r{boot['rep']}",
            "variant": boot["label"],
            "kernel_variant": kv,
            "rep": boot["rep"],
            "cells": str(len(cells)),
            "cmdline_extra": boot["cmdline_extra"],
            "queue_settings": boot["queue_settings"],
            # The label's and the run's settings, for the importer's
            # run.json (bench.sh's keys).
            "label_workloads": boot["label_workloads"],
            "trace": boot["trace"],
            "boot_order": " ".join(order),
        }
        for key in ("runtime_s", "ramp_s", "ios", "fio_cpu", "perf_stat", "cyclictest_interval_us", "baseline"):
            meta[key] = run[key]
        for key in ("flavour", "kernel_release", "kernel_commit", "kernel_baseline",
                    "kernel_source", "series", "series_hash", "config_hash"):
            meta[key] = build.get(key, "")
        meta["initramfs_sha256"] = sha256(os.path.join(a.upload, "initramfs.cpio.gz"))
        meta["device_type"] = a.device_type

        definition = {
            "from": "inline",
            "name": "pollbench",
            "path": "inline/pollbench.yaml",
            "repository": {
                "metadata": {
                    "format": "Lava-Test Test Definition 1.0",
                    "name": "pollbench",
                    "description": f"pollbench boot {meta['boot_id']}: bench.sh's job.sh, "
                                   "then one test case per cell and its raw files on the console",
                },
                "run": {"steps": steps},
            },
        }
        test = {"test": {"timeout": minutes(t_test), "definitions": [definition]}}

        if a.device_type == "qemu":
            # QEMU as scripts/guest-run.sh starts it, less what LAVA's qemu
            # device type owns (the serial console on stdio, its NIC, -m)
            # and the 9p share (the payload travels in the test definition).
            extra = ["-machine q35", f"-smp {run['vcpus']}", "-nodefaults", "-no-reboot", "-serial stdio"]
            if timing == "icount":
                extra += ["-accel tcg", "-cpu max", f"-icount shift={a.icount_shift},sleep=off,align=off"]
                accel = "tcg"
            elif a.accel == "tcg":
                # Single-threaded, as guest-run.sh: multi-threaded TCG keeps
                # stale translations of patched static keys (methodology.md).
                extra += ["-accel tcg,thread=single", "-cpu max"]
                accel = "tcg"
            else:
                accel = "kvm"  # the device type adds -cpu host -enable-kvm
            meta.update({
                "timing": timing,
                "accel": accel,
                "vcpus": run["vcpus"],
                "memory_mib": str(a.memory),
                "qemu_version_generator": a.qemu_version,
            })
            if timing == "icount":
                meta["icount_shift"] = a.icount_shift
            context = {"arch": "x86_64", "memory": a.memory, "extra_options": extra}
            if accel == "tcg":
                context["no_kvm"] = True
            initrd = up("initramfs.cpio.gz")
            initrd.update({"image_arg": "-initrd {initrd}", "compression": "gz",
                           "format": "cpio.newc", "overlays": {"lava": True}})
            kernel = up(f"{kdir}/bzImage")
            kernel["image_arg"] = f'-kernel {{kernel}} -append "{cmdline}"'
            nvme = up(a.disk)
            nvme.update({"image_arg": "-drive file={nvme},if=none,id=nvm,format=raw,cache=none,aio=native "
                                      "-device nvme,serial=pollbench,drive=nvm",
                         "compression": "gz"})
            actions = [
                {"deploy": {"timeout": minutes(t_deploy), "to": "tmpfs", "os": "oe",
                            "images": {"kernel": kernel, "initrd": initrd, "nvme": nvme}}},
                {"boot": {"timeout": minutes(t_boot), "method": "qemu", "media": "tmpfs",
                          "prompts": ["# "]}},
                test,
            ]
            header = ""
        else:
            meta.update({"timing": "hardware", "accel": "none"})
            context = {"extra_kernel_args": cmdline}
            ramdisk = up("initramfs.cpio.gz")
            ramdisk["compression"] = "gz"
            actions = [
                {"deploy": {"timeout": minutes(t_deploy), "to": "tftp", "os": "oe",
                            "kernel": up(f"{kdir}/bzImage"), "ramdisk": ramdisk}},
                {"boot": {"timeout": minutes(t_boot), "method": "ipxe", "commands": "ramdisk",
                          "prompts": ["# "]}},
                test,
            ]
            header = ("# TEMPLATE for a physical x86 board (LAVA device type x86: iPXE, TFTP),\n"
                      "# untested on hardware: the guest kernel has QEMU's drivers only, and\n"
                      "# cells on device nvme read (verify workloads write) the board's\n"
                      "# /dev/nvme0n1. docs/lava.md.\n")

        job = {
            "device_type": a.device_type,
            "job_name": f"pollbench {run['run_id']} boot {n}/{len(boots)}: {boot['label']} rep {boot['rep']}",
            "timeouts": {"job": minutes(t_job), "connection": minutes(2)},
            "visibility": "public",
            "priority": "medium",
            "context": context,
            "metadata": meta,
            "actions": actions,
        }
        text = (f"# Generated by scripts/lava-jobs.sh: boot {n} of {len(boots)} of run {run['run_id']}\n"
                f"# ({run['matrix']}, seed {run['seed']}), in bench.sh's order. Regenerate, do not edit.\n"
                + header + yaml.safe_dump(job, sort_keys=False, default_flow_style=False, width=4096))
        name = f"{int(n):0{width}d}-{boot['label']}-r{boot['rep']}.yaml"
        try:
            validate(yaml.safe_load(text), strict=True)
        except Invalid as exc:
            die(f"{name}: LAVA's job schema refuses it: {exc}")
        with open(os.path.join(a.jobs, name), "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
