build-clang/obj/grader/grader.o: grader/grader.c grader/batch.h \
  grader/report.h grader/check.h grader/sandbox.h common/kit_types.h \
  grader/spec.h common/kit_gen.h \
  labs/06-predecessor-search/harness/pbs_host.h grader/build.h \
  grader/counts.h common/kit_ncu.h common/kit_trace.h grader/import.h \
  common/kit_timer.h grader/shard.h

grader/batch.h:

grader/report.h:

grader/check.h:

grader/sandbox.h:

common/kit_types.h:

grader/spec.h:

common/kit_gen.h:

labs/06-predecessor-search/harness/pbs_host.h:

grader/build.h:

grader/counts.h:

common/kit_ncu.h:

common/kit_trace.h:

grader/import.h:

common/kit_timer.h:

grader/shard.h:
