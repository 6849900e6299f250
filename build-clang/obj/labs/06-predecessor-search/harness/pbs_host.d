build-clang/obj/labs/06-predecessor-search/harness/pbs_host.o: \
  labs/06-predecessor-search/harness/pbs_host.c common/kit_gen.h \
  common/kit_types.h labs/06-predecessor-search/harness/pbs_host.h \
  common/kit_check.h

common/kit_gen.h:

common/kit_types.h:

labs/06-predecessor-search/harness/pbs_host.h:

common/kit_check.h:
