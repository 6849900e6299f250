build-clang/obj/grader/skel.o: grader/skel.c grader/skel.h

grader/skel.h:
