# pollbench: where should a block driver poll for completions?
# `make help` lists the targets.

SHELL := /bin/bash
VARIANT ?= baseline
FLAVOUR ?= release
VARIANTS := $(shell . scripts/lib.sh && echo $$PB_VARIANTS $$PB_REFERENCE_VARIANTS)
MATRIX ?= $(if $(QUICK),matrix/quick.matrix,matrix/default.matrix)
RUN ?=
SEED ?=

.PHONY: help deps source kernel kernels guest shell bench lava lava-smoke hw-bench hw-uninstall report compare debate reliability analysis \
	test test-full check clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{ printf "  %-12s %s\n", $$1, $$2 }'
	@echo "  variables: VARIANT=$(VARIANTS) FLAVOUR=release|debug|kunit|rt|kexec"
	@echo "             QUICK=1 MATRIX=file RUN=<run-id> SEED=n DEBATE=1 KSRC=/path/to/linux ACCEL=kvm|tcg"
	@echo "             LAVA_DEVICE=qemu|x86 LAVA_URL=<where upload/ is served> (make lava)"
	@echo "             DEVICE=/dev/nvmeXnY DRY_RUN=1 FORCE_DESTROY=/dev/nvmeXnY (make hw-bench)"

deps: ## install the Debian packages (root) or print the apt-get line
	@scripts/deps.sh

source: deps ## unpack the pinned kernel into a git repo with a baseline commit
	@scripts/kernel-source.sh

kernel: deps ## build one variant: make kernel VARIANT=inline [FLAVOUR=debug]
	@scripts/kernel-build.sh $(VARIANT) $(FLAVOUR)

kernels: deps ## build every variant whose series has patches
	@set -e; . scripts/lib.sh; for v in $(VARIANTS); do \
		if variant_has_patches $$v; then scripts/kernel-build.sh $$v $(FLAVOUR); \
		else echo "skipping $$v: patches-$$v has no patches yet"; fi; done

guest: deps ## build the guest initramfs (reproducible)
	@scripts/guest-image.sh

shell: kernel guest ## boot VARIANT to a shell on the serial console
	@scripts/guest-run.sh --shell --flavour $(FLAVOUR) $(VARIANT) build/shell

analysis: deps ## build the analysis tool
	@$(MAKE) -s -C analysis

# VARIANT on the command line narrows bench to that variant.
bench_variant = $(if $(filter command line,$(origin VARIANT)),$(VARIANT))

bench_cmd = scripts/bench.sh --matrix $(MATRIX) $(if $(bench_variant),--variant $(bench_variant)) \
	$(if $(RUN),--run $(RUN)) $(if $(SEED),--seed $(SEED))

# The image and the tool are prerequisites, not $(MAKE) calls in the
# recipe: make -n runs a recipe line that names $(MAKE).
bench: deps $(if $(DRY_RUN),,guest analysis) ## run the matrix (QUICK=1 for minutes; DRY_RUN=1 prints the plan) and print the answer
	@set -eo pipefail; PB_PROG=make; . scripts/lib.sh; \
	$(if $(bench_variant),check_variant $(bench_variant);) \
	bench=($(bench_cmd)); \
	"$${bench[@]}" --list >/dev/null; \
	if [ -n "$(DRY_RUN)" ]; then \
		"$${bench[@]}" --list; echo "kernels to build: $$("$${bench[@]}" --kernels | tr '\n' ' ')"; \
		echo "make bench DRY_RUN=1: nothing was built or run"; exit 0; fi; \
	for k in $$("$${bench[@]}" --kernels); do scripts/kernel-build.sh $$k; done; \
	mkdir -p build; "$${bench[@]}" | tee build/last-bench.out; \
	run=$$(sed -n 's/^run: //p' build/last-bench.out); \
	analysis/pollbench-report "$$run"; cat "$$run/answer.txt"

lava: deps ## the matrix as LAVA jobs, one per boot (built kernels): make lava MATRIX=file [RUN=<run-id>]
	@scripts/lava-jobs.sh --matrix $(MATRIX) $(if $(RUN),--run $(RUN)) $(if $(SEED),--seed $(SEED)) \
		$(if $(bench_variant),--variant $(bench_variant)) $(if $(LAVA_DEVICE),--device-type $(LAVA_DEVICE)) \
		$(if $(LAVA_URL),--base-url $(LAVA_URL))

lava-smoke: deps ## LAVA's dispatcher (lava-run; root, lava-dispatcher) runs one job of lava/smoke.matrix here, imported and reported
	@$(MAKE) -s guest analysis
	@for k in $$(scripts/bench.sh --matrix lava/smoke.matrix --kernels); do scripts/kernel-build.sh $$k; done
	@scripts/lava-smoke.sh

# A real machine (docs/hardware.md): DEVICE is a spare NVMe namespace.
hw-bench: ## run a matrix on this machine by kexec: make hw-bench DEVICE=/dev/nvmeXnY [MATRIX=file] [RUN=id] [DRY_RUN=1] [FORCE_DESTROY=dev]
	@test -n "$(DEVICE)" || { echo "make hw-bench: set DEVICE=/dev/nvmeXnY (a spare NVMe namespace; DRY_RUN=1 to see the plan)" >&2; exit 1; }
	@DRY_RUN=$(DRY_RUN) FORCE_DESTROY=$(FORCE_DESTROY) scripts/hw-bench.sh \
		$(if $(filter command line,$(origin MATRIX)),--matrix $(MATRIX)) $(if $(RUN),--run $(RUN)) \
		$(if $(SEED),--seed $(SEED)) $(DEVICE)

hw-uninstall: ## remove what make hw-bench installed (its kernels' modules, build/hw, the step unit)
	@scripts/hw-install.sh remove

report: analysis ## rebuild the report of a run from its raw data: make report RUN=results/<id> [DEBATE=1]
	@test -n "$(RUN)" || { echo "make report: set RUN=results/<run-id>" >&2; exit 1; }
	@analysis/pollbench-report $(RUN)
	@$(if $(DEBATE),scripts/debate-update.sh $(RUN))

# A and B are checked before the tool is built.
compare: ## two runs side by side, cell by cell (compare.md): make compare A=<run dir> B=<run dir> [OUT=build/compare/<A>-vs-<B>]
	@test -n "$(A)" && test -n "$(B)" || \
		{ echo "make compare: set A=<run dir> and B=<run dir> (OUT=dir, default build/compare/<A>-vs-<B>)" >&2; exit 1; }
	@$(MAKE) -s analysis
	@analysis/pollbench-report --compare \
		"$(or $(OUT),build/compare/$(notdir $(abspath $(A)))-vs-$(notdir $(abspath $(B))))" "$(A)" "$(B)"

debate: analysis ## regenerate docs/debate.md's generated parts from runs: make debate RUN="data/idle2 data/hybrid-1"
	@test -n "$(RUN)" || { echo "make debate: set RUN=<run dir>, several separated by spaces" >&2; exit 1; }
	@scripts/debate-update.sh $(RUN)

test: deps ## run every test, the long ones on a representative subset; ends with "N passed, N failed"
	@tests/run.sh

test-full: deps ## make test with the long tests on every variant and flavour they know
	@PB_TEST_FULL=1 tests/run.sh

reliability: deps ## the full reliability suite (docs/reliability.md): VARIANT=, FLAVOUR=, SOAK=seconds, RESUME=results/reliability-<id>
	@$(MAKE) -s guest
	@set -e; for f in $(if $(filter command line,$(origin FLAVOUR)),$(FLAVOUR),release debug rt); do \
		if [ "$(origin VARIANT)" = "command line" ]; then scripts/kernel-build.sh $(VARIANT) $$f; \
		else $(MAKE) -s kernels FLAVOUR=$$f; fi; done
	@scripts/reliability.sh $(if $(filter command line,$(origin VARIANT)),--variant $(VARIANT)) \
		$(if $(filter command line,$(origin FLAVOUR)),--flavour $(FLAVOUR)) $(if $(SOAK),--soak $(SOAK)) \
		$(if $(RESUME),--resume --out $(RESUME))

check: ## static checks only: shellcheck and the analysis unit tests
	@tests/run.sh --unit-only

clean: ## remove build products (keeps results/ and the ccache)
	rm -rf build
