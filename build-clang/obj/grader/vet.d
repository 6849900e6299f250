build-clang/obj/grader/vet.o: grader/vet.c common/kit_types.h \
  grader/vet.h

common/kit_types.h:

grader/vet.h:
