export REL_VARIANT=common REL_FLAVOUR=rt REL_MODE=quick REL_SOAK_S=30
sh /share/rel/bin/run-cases.sh integrity signals bad-input privilege
