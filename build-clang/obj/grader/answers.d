build-clang/obj/grader/answers.o: grader/answers.c grader/answers.h \
  labs/06-predecessor-search/harness/pbs_host.h common/kit_types.h \
  grader/ref/kit_ref.h common/kit_check.h \
  labs/08-worst-case/harness/worst_host.h common/kit_bank.h \
  common/kit_trace.h

grader/answers.h:

labs/06-predecessor-search/harness/pbs_host.h:

common/kit_types.h:

grader/ref/kit_ref.h:

common/kit_check.h:

labs/08-worst-case/harness/worst_host.h:

common/kit_bank.h:

common/kit_trace.h:
