build-clang/obj/common/kit_test.o: common/kit_test.c common/kit_test.h

common/kit_test.h:
