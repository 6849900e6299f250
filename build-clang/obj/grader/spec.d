build-clang/obj/grader/spec.o: grader/spec.c grader/spec.h \
  common/kit_gen.h common/kit_types.h \
  labs/06-predecessor-search/harness/pbs_host.h

grader/spec.h:

common/kit_gen.h:

common/kit_types.h:

labs/06-predecessor-search/harness/pbs_host.h:
