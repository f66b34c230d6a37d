export REL_VARIANT=common REL_FLAVOUR=release REL_MODE=quick REL_SOAK_S=30
sh /share/rel/bin/run-cases.sh bad-input
