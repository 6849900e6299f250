build-clang/obj/grader/sandbox.o: grader/sandbox.c common/kit_jail.h \
  common/kit_timer.h grader/sandbox.h common/kit_types.h

common/kit_jail.h:

common/kit_timer.h:

grader/sandbox.h:

common/kit_types.h:
