export REL_VARIANT=iouring-hybrid REL_FLAVOUR=debug REL_MODE=full REL_SOAK_S=600 REL_CASE_LIMIT=2700
sh /share/rel/bin/run-cases.sh split-bio-fifo
