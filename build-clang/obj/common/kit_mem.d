build-clang/obj/common/kit_mem.o: common/kit_mem.c common/kit_mem.h

common/kit_mem.h:
