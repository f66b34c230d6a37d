export REL_VARIANT=common REL_FLAVOUR=rt REL_MODE=quick REL_SOAK_S=600
sh /share/rel/bin/run-cases.sh split-bio-fifo
