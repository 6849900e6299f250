build-clang/obj/grader/ref/ref_pbs.o: grader/ref/ref_pbs.c \
  grader/ref/kit_ref.h common/kit_check.h common/kit_types.h \
  labs/06-predecessor-search/harness/pbs_host.h \
  labs/08-worst-case/harness/worst_host.h common/kit_bank.h \
  common/kit_trace.h

grader/ref/kit_ref.h:

common/kit_check.h:

common/kit_types.h:

labs/06-predecessor-search/harness/pbs_host.h:

labs/08-worst-case/harness/worst_host.h:

common/kit_bank.h:

common/kit_trace.h:
