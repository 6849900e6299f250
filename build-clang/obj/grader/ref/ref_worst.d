build-clang/obj/grader/ref/ref_worst.o: grader/ref/ref_worst.c \
  common/kit_gen.h common/kit_types.h grader/ref/kit_ref.h \
  common/kit_check.h labs/06-predecessor-search/harness/pbs_host.h \
  labs/08-worst-case/harness/worst_host.h common/kit_bank.h \
  common/kit_trace.h

common/kit_gen.h:

common/kit_types.h:

grader/ref/kit_ref.h:

common/kit_check.h:

labs/06-predecessor-search/harness/pbs_host.h:

labs/08-worst-case/harness/worst_host.h:

common/kit_bank.h:

common/kit_trace.h:
