export REL_VARIANT=hybrid REL_FLAVOUR=debug REL_MODE=quick REL_SOAK_S=30
sh /share/rel/bin/run-cases.sh integrity signals contention cpu-hotplug controller-reset bad-input privilege sync-poll-waiter-never-sleeps-unwoken flush-on-poll-queue
