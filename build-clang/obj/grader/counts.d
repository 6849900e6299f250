build-clang/obj/grader/counts.o: grader/counts.c grader/counts.h \
  common/kit_ncu.h common/kit_trace.h common/kit_bank.h

grader/counts.h:

common/kit_ncu.h:

common/kit_trace.h:

common/kit_bank.h:
