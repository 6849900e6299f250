build-clang/obj/grader/complog.o: grader/complog.c grader/complog.h \
  grader/report.h grader/check.h grader/sandbox.h common/kit_types.h \
  grader/spec.h common/kit_gen.h \
  labs/06-predecessor-search/harness/pbs_host.h

grader/complog.h:

grader/report.h:

grader/check.h:

grader/sandbox.h:

common/kit_types.h:

grader/spec.h:

common/kit_gen.h:

labs/06-predecessor-search/harness/pbs_host.h:
