/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_PROCSTAT_H
#define PB_PROCSTAT_H

#include <stdint.h>

/* USER_HZ: /proc/stat counts in 1/100 s on every Linux architecture. */
#define USER_HZ 100

enum cpu_field {
	CPU_USER, CPU_NICE, CPU_SYSTEM, CPU_IDLE, CPU_IOWAIT, CPU_IRQ,
	CPU_SOFTIRQ, CPU_STEAL, CPU_NR_FIELDS
};

/* The aggregate "cpu" line of /proc/stat (sum over CPUs), in USER_HZ. */
struct cpustat {
	uint64_t f[CPU_NR_FIELDS];
};

struct irqsum {
	uint64_t nvme;		/* lines whose name starts with "nvme" */
	uint64_t all;		/* every per-CPU line */
};

#define KV_NAME_LEN 64

struct kv {
	char name[KV_NAME_LEN];
	double v;
};

struct kvlist {
	struct kv *v;
	unsigned int n;
};

int cpustat_load(const char *path, struct cpustat *cs);
int interrupts_load(const char *path, struct irqsum *s);
int kprobes_load(const char *path, struct kvlist *l);
int perfstat_load(const char *path, struct kvlist *l);
int pollstats_load(const char *path, struct kvlist *l);
int kvfile_load(const char *path, struct kvlist *l);
const struct kv *kv_find(const struct kvlist *l, const char *name);
int kv_delta(const struct kvlist *before, const char *before_path,
	     const struct kvlist *after, const char *after_path,
	     int missing_is_zero, const char *skip, struct kvlist *out);
void kv_free(struct kvlist *l);

#endif
