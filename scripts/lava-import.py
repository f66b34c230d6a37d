#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Import finished pollbench LAVA jobs into a run directory laid out as
bench.sh lays one out (docs/results-layout.md), so that analysis/ reads it
like any other run. scripts/lava-import.sh is the front end:
  lava-import.py --results DIR [--host NAME] JOB.yaml LOG [JOB.yaml LOG]...
JOB.yaml: a job scripts/lava-jobs.sh wrote (its metadata carry the run's
provenance). LOG: the job's log, LAVA's YAML records one a line: lava-run's
standard error, or a server's output.yaml (`lavacli jobs logs --raw ID`).
Every input is read and checked before anything is written; the run is
assembled in a staging folder beside it and moved into place."""

import argparse
import base64
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import sys
import tarfile
import tempfile

import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

GENERATOR = "pollbench scripts/lava-jobs.sh"
# Metadata an importable job carries (lava-jobs.sh since the importer).
NEEDED = ("run_id", "seed", "matrix", "matrix_sha256", "boot_id", "variant", "kernel_variant", "rep",
          "cells", "cmdline_extra", "queue_settings", "label_workloads", "trace", "boot_order",
          "runtime_s", "ramp_s", "ios", "fio_cpu", "perf_stat", "cyclictest_interval_us", "baseline",
          "timing", "accel", "vcpus", "memory_mib")
# The build's provenance, as guest-run.sh copies it into boot.env.
BUILD_KEYS = ("flavour", "kernel_release", "kernel_commit", "kernel_baseline", "kernel_source",
              "series", "series_hash", "config_hash")
BEGIN = "pollbench-tar-begin "
END = "pollbench-tar-end "
B64_RE = re.compile(r"^[A-Za-z0-9+/=]+$")
NAME_RE = re.compile(r"^[A-Za-z0-9_.@-]+$")


class Refused(Exception):
    """Input the importer will not turn into a run."""


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_definition(path):
    """The job definition, its metadata and its cells, or Refused."""
    try:
        with open(path, encoding="utf-8") as f:
            job = yaml.safe_load(f)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise Refused(f"{path}: not a readable job definition: {exc}") from exc
    meta = job.get("metadata") if isinstance(job, dict) else None
    if not isinstance(meta, dict) or meta.get("generator") != GENERATOR:
        raise Refused(f"{path}: not a pollbench job (no metadata generator '{GENERATOR}')")
    missing = [k for k in NEEDED if k not in meta]
    if missing:
        raise Refused(f"{path}: its metadata lack {', '.join(missing)}: "
                      "written by an older scripts/lava-jobs.sh; regenerate the jobs")
    meta = {k: str(v) for k, v in meta.items()}
    try:
        steps = job["actions"][-1]["test"]["definitions"][0]["repository"]["run"]["steps"]
        words = shlex.split(steps[-1])
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise Refused(f"{path}: no pollbench test step") from exc
    if words[:2] != ["sh", "/share/lava-guest.sh"] or len(words) < 3:
        raise Refused(f"{path}: its last test step does not run /share/lava-guest.sh")
    cells = words[3:]
    if str(len(cells)) != meta["cells"] or not all(NAME_RE.match(c) for c in cells):
        raise Refused(f"{path}: its cells ({' '.join(cells)}) do not match its metadata ({meta['cells']} cells)")
    for key in ("run_id", "variant", "rep"):
        if not NAME_RE.match(meta[key]):
            raise Refused(f"{path}: metadata {key} '{meta[key]}' is not a name")
    return job, meta, cells


def read_log(path):
    """LAVA's log records (dicts with dt, lvl, msg), or Refused."""
    records = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                if line.startswith("- "):
                    line = line[2:]
                # lava-run's standard error may hold a stray Python warning.
                if not line.startswith("{"):
                    continue
                try:
                    rec = yaml.load(line, Loader=Loader)
                except yaml.YAMLError:
                    rec = None
                if not isinstance(rec, dict) or "lvl" not in rec or "msg" not in rec:
                    raise Refused(f"{path}:{n}: not a LAVA log record (lava-run's standard error, "
                                  "or a server's output.yaml)")
                records.append(rec)
    except OSError as exc:
        raise Refused(f"{path}: {exc.strerror}") from exc
    if not records:
        raise Refused(f"{path}: not a LAVA log (no record in it)")
    return records


def frames(console, complete, where):
    """The framed tars on the console: {name: bytes}. A frame that does
    not check out refuses the job; one the log cut short is dropped when
    the job did not complete."""
    out, name, body = {}, None, []
    for line in console:
        if line.startswith(BEGIN):
            if name is not None:
                raise Refused(f"{where}: frame '{name}' is not closed before the next one begins")
            name = line[len(BEGIN):].strip()
            body = []
            if not NAME_RE.match(name):
                raise Refused(f"{where}: a frame named '{name}'")
            if name in out:
                raise Refused(f"{where}: frame '{name}' appears twice")
        elif line.startswith(END):
            words = line[len(END):].split()
            if name is None or len(words) != 2 or words[0] != name:
                raise Refused(f"{where}: a stray or mismatched frame end: '{line}'")
            try:
                data = base64.b64decode("".join(body), validate=True)
            except ValueError as exc:
                raise Refused(f"{where}: frame '{name}' is not base64 ({exc}): a corrupt console copy") from exc
            if hashlib.sha256(data).hexdigest() != words[1]:
                raise Refused(f"{where}: frame '{name}': sha256 {hashlib.sha256(data).hexdigest()} "
                              f"does not match the guest's {words[1]} (a corrupt console copy)")
            out[name] = data
            name = None
        elif name is not None:
            if not B64_RE.match(line):
                raise Refused(f"{where}: frame '{name}' holds a line that is not base64: '{line[:80]}'")
            body.append(line)
    if name is not None and complete:
        raise Refused(f"{where}: frame '{name}' never ends, yet the job completed")
    return out


def untar(data, top, dest, where):
    """Unpack a frame's tar into dest; every member must lie under top."""
    try:
        tar = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")
        members = tar.getmembers()
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise Refused(f"{where}: frame '{top}' is not a gzipped tar: {exc}") from exc
    for m in members:
        parts = m.name.split("/")
        if parts[0] != top or ".." in parts or m.name.startswith("/") or not (m.isfile() or m.isdir()):
            raise Refused(f"{where}: frame '{top}' holds '{m.name}', outside {top}/ or not a plain file")
    for m in members:
        path = os.path.join(dest, m.name)
        if m.isdir():
            os.makedirs(path, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with tar.extractfile(m) as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)


def utc(dt):
    """LAVA's record time (UTC, ISO) as bench's start_utc/end_utc."""
    return str(dt).split(".")[0] + "Z"


def cell_ok(out, cell):
    """bench.sh's test before it keeps a cell: status 0 and a result file
    (fio.json with jobs)."""
    try:
        with open(os.path.join(out, "rc"), encoding="utf-8") as f:
            if f.read().strip() != "0":
                return "its rc is not 0"
    except OSError:
        return "no rc file"
    result = os.path.join(out, "competitor.txt" if "@competitor-only" in cell else "fio.json")
    if not os.path.isfile(result) or os.path.getsize(result) == 0:
        return f"no {os.path.basename(result)}"
    if result.endswith(".json"):
        try:
            with open(result, encoding="utf-8") as f:
                if "jobs" not in json.load(f):
                    return "fio.json has no jobs"
        except (OSError, ValueError):
            return "fio.json is not JSON"
    return ""


class Job:
    """One finished LAVA job, read and checked; nothing written yet."""

    def __init__(self, definition, log, host):
        # lava-smoke.sh keeps lava-run's log in its output folder.
        if os.path.isdir(log):
            log = os.path.join(log, "output.yaml")
        self.definition, self.log, self.host = definition, log, host
        self.job, self.meta, self.cells = read_definition(definition)
        records = read_log(log)
        self.log_sha256 = sha256_of(log)
        self.console = [str(r["msg"]).rstrip("\r\n") for r in records if r["lvl"] == "target"]
        results = [r["msg"] for r in records if r["lvl"] == "results" and isinstance(r["msg"], dict)]
        info = [str(r["msg"]) for r in records if r["lvl"] == "info"]
        self.start_utc, self.end_utc = utc(records[0].get("dt", "")), utc(records[-1].get("dt", ""))
        lava = [r for r in results if r.get("definition") == "lava" and r.get("case") == "job"]
        ours = {r.get("case"): r.get("result") for r in results
                if re.match(r"^[0-9]+_pollbench$", str(r.get("definition", "")))}
        self.cases = ours
        self.qemu_version = ""
        for r in results:
            if r.get("case") == "execute-qemu" and isinstance(r.get("extra"), dict):
                self.qemu_version = str(r["extra"].get("qemu_version", ""))
        for line in info:
            m = re.match(r"^qemu-system-\S+, installed at version: ([^,]+)", line)
            if m and not self.qemu_version:
                self.qemu_version = m.group(1)
        self.qemu_version = f"qemu-system-x86 {self.qemu_version} (the LAVA worker's)" if self.qemu_version else ""
        self.qemu_command = next((line[len("Boot command: "):] for line in info
                                  if line.startswith("Boot command: ")), "")
        # Why the boot failed ("" when it did not): bench.sh's judgement,
        # from LAVA's verdict and the guest's test cases.
        why = ""
        if not lava:
            why = "LAVA job incomplete (the log has no final job result)"
        elif lava[-1].get("result") != "pass":
            why = f"LAVA job failed: {lava[-1].get('error_type', '?')}: {lava[-1].get('error_msg', '?')}"
        elif ours.get("job") != "pass":
            why = f"test case job: {ours.get('job', 'missing')} (job.sh did not finish cleanly)"
        elif ours.get("kernel-log") != "pass":
            splat = next((line for line in self.console if line.startswith("pollbench: the kernel log has:")), "")
            why = f"test case kernel-log: {ours.get('kernel-log', 'missing')}" + (f" ({splat[:160]})" if splat else "")
        self.failed = why
        self.frames = frames(self.console, bool(lava), log)
        self.check_pairing(results)
        self.label, self.rep = self.meta["variant"], self.meta["rep"]

    def check_pairing(self, results):
        """The log must be this definition's: the kernel LAVA downloaded
        and the cells the guest reported are the job's."""
        try:
            kernel = self.job["actions"][0]["deploy"]["images"]["kernel"]["sha256sum"]
        except (KeyError, IndexError, TypeError):
            kernel = None
        for r in results:
            extra = r.get("extra") if isinstance(r.get("extra"), dict) else {}
            if r.get("case") == "file-download" and extra.get("label") == "kernel" and kernel \
                    and extra.get("sha256sum") != kernel:
                raise Refused(f"{self.log}: not the log of {self.definition}: it booted another kernel "
                              f"(sha256 {extra.get('sha256sum')})")
        names = set(self.cases) | set(self.frames)
        strangers = sorted(names - set(self.cells) - {"job", "kernel-log"})
        if strangers:
            raise Refused(f"{self.log}: not the log of {self.definition}: it reports "
                          f"{', '.join(strangers)}, which the job does not run")

    def boot_env(self):
        """What guest-run.sh writes to boot.env, from the job's metadata
        and LAVA's log."""
        m = self.meta
        env = {k: m.get(k, "") for k in BUILD_KEYS}
        env.update({"qemu_version": self.qemu_version, "accel": m["accel"], "timing": m["timing"]})
        if m["timing"] == "icount":
            env["icount_shift"] = m.get("icount_shift", "0")
        env.update({"vcpus": m["vcpus"], "memory_mib": m["memory_mib"], "host": self.host,
                    "initramfs_sha256": m.get("initramfs_sha256", ""),
                    "start_utc": self.start_utc, "end_utc": self.end_utc})
        for line in self.console:
            c = re.search(r"pollbench: cpuidle driver (\S+) governor (\S+)", line)
            if c:
                env["guest_cpuidle_driver"], env["guest_cpuidle_governor"] = c.group(1), c.group(2)
                break
        env.update({"lava_device_type": m.get("device_type", ""), "lava_log": os.path.basename(self.log),
                    "lava_log_sha256": self.log_sha256,
                    "qemu_version_generator": m.get("qemu_version_generator", "")})
        return env

    def config(self):
        """The label's entry in run.json's configs, as bench.sh writes it."""
        m = self.meta
        c = {"kernel_variant": m["kernel_variant"], "cmdline_extra": m["cmdline_extra"],
             "queue_settings": m["queue_settings"]}
        if m["label_workloads"]:
            c["workloads"] = m["label_workloads"]
        if m["trace"] != "0":
            c["trace"] = 1
        return c


def run_json(jobs, old):
    """run.json as bench.sh writes it, from the jobs (and an earlier import)."""
    m = jobs[0].meta
    configs = dict(old.get("configs", {})) if old else {}
    for j in jobs:
        configs[j.label] = j.config()
    start = min([j.start_utc for j in jobs] + ([old["start_utc"]] if old and old.get("start_utc") else []))
    qemu = next((j.qemu_version for j in jobs if j.qemu_version), old.get("qemu_version", "") if old else "")
    rj = {"run_id": m["run_id"], "seed": int(m["seed"]), "matrix": m["matrix"],
          "matrix_sha256": m["matrix_sha256"], "host": jobs[0].host, "qemu_version": qemu,
          "kernel_source": m.get("kernel_source", ""), "start_utc": start,
          "runtime_s": m["runtime_s"], "ramp_s": m["ramp_s"], "ios": m["ios"], "vcpus": m["vcpus"],
          "fio_cpu": m["fio_cpu"], "timing": m["timing"], "perf_stat": m["perf_stat"],
          "cyclictest_interval_us": m["cyclictest_interval_us"]}
    if m["timing"] == "icount":
        rj["icount_shift"] = m.get("icount_shift", "0")
    rj.update({"baseline": m["baseline"], "configs": configs, "boot_order": m["boot_order"].split(),
               "imported_from": "lava"})
    return rj


def check_same_run(jobs, run, old):
    """Every job and an earlier run.json must describe one run."""
    first = jobs[0]
    for j in jobs[1:] + ([None] if old else []):
        other = j.meta if j else {k: str(v) for k, v in old.items() if not isinstance(v, (dict, list))}
        what = j.definition if j else os.path.join(run, "run.json")
        for key in ("run_id", "seed", "matrix_sha256", "timing"):
            if key in other and other[key] != first.meta[key]:
                raise Refused(f"{what}: {key} '{other[key]}' differs from {first.definition}'s "
                              f"'{first.meta[key]}': one import, one run")
    configs = dict(old.get("configs", {})) if old else {}
    for j in jobs:
        was = configs.setdefault(j.label, j.config())
        if was != j.config():
            raise Refused(f"{j.definition}: label '{j.label}' ran as {json.dumps(was)} in this run; "
                          f"this job says {json.dumps(j.config())}")


def write_boot(stage, boot_id, job, kept):
    """boots/<boot-id>/ (console, status, boot.env, the job) and the cells
    kept, under stage; returns the messages of what failed."""
    failed = []
    bdir = os.path.join(stage, "boots", boot_id)
    os.makedirs(os.path.join(bdir, "share", "out"))
    with open(os.path.join(bdir, "console.log"), "w", encoding="utf-8") as f:
        f.write("\n".join(job.console) + "\n")
    env = job.boot_env()
    with open(os.path.join(bdir, "boot.env"), "w", encoding="utf-8") as f:
        f.write("".join(f"{k}={v}\n" for k, v in env.items()))
    shutil.copyfile(job.definition, os.path.join(bdir, "lava-job.yaml"))
    if job.qemu_command:
        with open(os.path.join(bdir, "qemu-command"), "w", encoding="utf-8") as f:
            f.write(job.qemu_command + "\n")
    if "job" in job.frames:
        untar(job.frames["job"], "job.out", os.path.join(bdir, "share"), job.log)
    with open(os.path.join(bdir, "status"), "w", encoding="utf-8") as f:
        f.write(f"failed: {job.failed}\n" if job.failed else "ok\n")
    if job.failed:
        failed.append(f"{boot_id}: {job.failed}")
    for cell in job.cells:
        out = os.path.join(bdir, "share", "out", cell)
        if cell in job.frames:
            untar(job.frames[cell], cell, os.path.join(bdir, "share", "out"), job.log)
        if job.failed:
            continue
        why = "no frame of its files on the console" if cell not in job.frames else cell_ok(out, cell)
        if job.cases.get(cell) != "pass":
            why = f"test case {cell}: {job.cases.get(cell, 'missing')}" + (f", {why}" if why else "")
        if why:
            failed.append(f"{boot_id}: cell {cell} failed ({why}; see boots/{boot_id}/share/out/{cell})")
            continue
        workload, condition, *device = cell.split("@")
        meta = dict(env)
        for k in ("lava_log", "lava_log_sha256", "lava_device_type"):
            meta.pop(k)
        fio_version = ""
        try:
            with open(os.path.join(out, "fio.json"), encoding="utf-8") as f:
                fio_version = str(json.load(f).get("fio version", ""))
        except (OSError, ValueError):
            pass
        m = job.meta
        meta.update({"cell": cell, "workload": workload, "condition": condition,
                     "device": device[0] if device else "nvme", "rep": job.rep, "boot_id": boot_id,
                     "fio_version": fio_version, "qemu_command": job.qemu_command, "variant": job.label,
                     "kernel_variant": m["kernel_variant"], "cmdline_extra": m["cmdline_extra"],
                     "queue_settings": m["queue_settings"], "lava_log": os.path.basename(job.log)})
        with open(os.path.join(out, "meta.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=2)
            f.write("\n")
        dest = os.path.join(stage, job.label, cell)
        if os.path.exists(os.path.join(dest, job.rep)):
            raise Refused(f"{job.log}: {job.label}/{cell}/{job.rep} comes from another job of this import too")
        os.makedirs(dest, exist_ok=True)
        os.rename(out, os.path.join(dest, job.rep))
        kept.append(f"{job.label}/{cell}/{job.rep}")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", required=True, help="the results folder (RESULTS_DIR)")
    ap.add_argument("--host", default="unknown LAVA worker", help="the LAVA worker that ran the jobs, when known")
    ap.add_argument("pairs", nargs="+", metavar="JOB.yaml LOG")
    a = ap.parse_args()
    if len(a.pairs) % 2:
        raise Refused("give a job definition and its log, in pairs (JOB.yaml LOG ...)")
    jobs = [Job(a.pairs[i], a.pairs[i + 1], a.host) for i in range(0, len(a.pairs), 2)]
    run_id = jobs[0].meta["run_id"]
    run = os.path.join(a.results, run_id)
    old = None
    if os.path.exists(run):
        try:
            with open(os.path.join(run, "run.json"), encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError) as exc:
            raise Refused(f"{run} exists but has no readable run.json: not a run to import into") from exc
    check_same_run(jobs, run, old)
    # A log imported twice would count its boot twice.
    seen = set()
    for bootenv in (os.path.join(run, "boots", b, "boot.env") for b in
                    (os.listdir(os.path.join(run, "boots")) if os.path.isdir(os.path.join(run, "boots")) else [])):
        try:
            with open(bootenv, encoding="utf-8") as f:
                seen.update(line.split("=", 1)[1].strip() for line in f if line.startswith("lava_log_sha256="))
        except OSError:
            pass
    for j in jobs:
        if j.log_sha256 in seen:
            raise Refused(f"{j.log}: imported into {run} already")
        seen.add(j.log_sha256)

    os.makedirs(a.results, exist_ok=True)
    stage = tempfile.mkdtemp(prefix=f".{run_id}-import.", dir=a.results)
    try:
        kept, failed, boot_ids = [], [], []
        for j in sorted(jobs, key=lambda j: int(j.meta.get("boot", "0/0").split("/")[0] or 0)):
            attempt = 1
            while any(os.path.exists(os.path.join(d, "boots", f"{j.label}-r{j.rep}-a{attempt}"))
                      for d in (run, stage)):
                attempt += 1
            boot_id = f"{j.label}-r{j.rep}-a{attempt}"
            failed += write_boot(stage, boot_id, j, kept)
            boot_ids.append(boot_id)
        for k in kept:
            if os.path.exists(os.path.join(run, k)):
                raise Refused(f"{run}/{k} exists already: that cell and rep was imported or run before")
        with open(os.path.join(stage, "run.json"), "w", encoding="utf-8") as f:
            json.dump(run_json(jobs, old), f, indent=2)
            f.write("\n")
        if old is None:
            os.chmod(stage, 0o755)
            os.rename(stage, run)
        else:
            # Into an earlier import: every check is done; each rename is whole.
            os.makedirs(os.path.join(run, "boots"), exist_ok=True)
            for b in boot_ids:
                os.rename(os.path.join(stage, "boots", b), os.path.join(run, "boots", b))
            for k in kept:
                os.makedirs(os.path.dirname(os.path.join(run, k)), exist_ok=True)
                os.rename(os.path.join(stage, k), os.path.join(run, k))
            os.replace(os.path.join(stage, "run.json"), os.path.join(run, "run.json"))
            shutil.rmtree(stage)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    print(f"lava-import: {len(jobs)} job(s), {len(kept)} cell(s) kept, "
          f"{sum(1 for j in jobs if j.failed)} failed boot(s)", file=sys.stderr)
    for f in failed:
        print(f"FAILED: {f}", file=sys.stderr)
    print(f"run: {run}")


if __name__ == "__main__":
    try:
        main()
    except Refused as exc:
        print(f"lava-import: error: {exc}", file=sys.stderr)
        sys.exit(1)
