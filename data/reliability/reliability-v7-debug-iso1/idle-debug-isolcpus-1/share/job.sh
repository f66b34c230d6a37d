export REL_VARIANT=idle REL_FLAVOUR=debug REL_MODE=quick REL_SOAK_S=30
sh /share/rel/bin/run-cases.sh isolated-cpu
