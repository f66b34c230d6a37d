export REL_VARIANT=inline REL_FLAVOUR=release REL_MODE=quick REL_SOAK_S=30 REL_CASE_LIMIT=900
sh /share/rel/bin/run-cases.sh privilege
