build-clang/obj/common/kit_check.o: common/kit_check.c common/kit_check.h \
  common/kit_types.h

common/kit_check.h:

common/kit_types.h:
