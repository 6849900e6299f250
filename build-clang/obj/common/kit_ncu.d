build-clang/obj/common/kit_ncu.o: common/kit_ncu.c common/kit_ncu.h

common/kit_ncu.h:
