build-clang/obj/grader/check.o: grader/check.c grader/check.h \
  grader/sandbox.h common/kit_types.h grader/spec.h common/kit_gen.h \
  labs/06-predecessor-search/harness/pbs_host.h common/kit_bank.h \
  common/kit_trace.h common/kit_mem.h grader/counts.h common/kit_ncu.h \
  common/kit_proto.h common/kit_request.h grader/answers.h \
  common/kit_check.h labs/08-worst-case/harness/worst_host.h

grader/check.h:

grader/sandbox.h:

common/kit_types.h:

grader/spec.h:

common/kit_gen.h:

labs/06-predecessor-search/harness/pbs_host.h:

common/kit_bank.h:

common/kit_trace.h:

common/kit_mem.h:

grader/counts.h:

common/kit_ncu.h:

common/kit_proto.h:

common/kit_request.h:

grader/answers.h:

common/kit_check.h:

labs/08-worst-case/harness/worst_host.h:
