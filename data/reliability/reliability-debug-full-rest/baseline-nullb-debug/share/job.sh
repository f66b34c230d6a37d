export REL_VARIANT=baseline-nullb REL_FLAVOUR=debug REL_MODE=full REL_SOAK_S=600 REL_CASE_LIMIT=2700
sh /share/rel/bin/run-cases.sh integrity signals contention cpu-hotplug controller-reset bad-input privilege sync-poll-waiter-never-sleeps-unwoken flush-on-poll-queue
