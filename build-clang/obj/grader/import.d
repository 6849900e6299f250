build-clang/obj/grader/import.o: grader/import.c grader/build.h \
  grader/check.h grader/sandbox.h common/kit_types.h grader/spec.h \
  common/kit_gen.h labs/06-predecessor-search/harness/pbs_host.h \
  grader/import.h grader/report.h

grader/build.h:

grader/check.h:

grader/sandbox.h:

common/kit_types.h:

grader/spec.h:

common/kit_gen.h:

labs/06-predecessor-search/harness/pbs_host.h:

grader/import.h:

grader/report.h:
