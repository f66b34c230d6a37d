export REL_VARIANT=baseline REL_FLAVOUR=release REL_MODE=quick REL_SOAK_S=30
sh /share/rel/bin/run-cases.sh integrity signals bad-input privilege
