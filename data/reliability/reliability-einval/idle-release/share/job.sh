export REL_VARIANT=idle REL_FLAVOUR=release REL_MODE=quick REL_SOAK_S=30
sh /share/rel/bin/run-cases.sh bad-input
