export REL_VARIANT=inline REL_FLAVOUR=release REL_MODE=full REL_SOAK_S=600 REL_CASE_LIMIT=900
sh /share/rel/bin/run-cases.sh isolated-cpu
