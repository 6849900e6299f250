build-clang/obj/common/kit_gen.o: common/kit_gen.c common/kit_check.h \
  common/kit_types.h common/kit_gen.h common/kit_mem.h

common/kit_check.h:

common/kit_types.h:

common/kit_gen.h:

common/kit_mem.h:
