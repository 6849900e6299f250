build-clang/obj/grader/build.o: grader/build.c grader/build.h \
  grader/check.h grader/sandbox.h common/kit_types.h grader/spec.h \
  common/kit_gen.h labs/06-predecessor-search/harness/pbs_host.h \
  grader/skel.h grader/vet.h

grader/build.h:

grader/check.h:

grader/sandbox.h:

common/kit_types.h:

grader/spec.h:

common/kit_gen.h:

labs/06-predecessor-search/harness/pbs_host.h:

grader/skel.h:

grader/vet.h:
