build-clang/obj/common/kit_proto.o: common/kit_proto.c common/kit_mem.h \
  common/kit_proto.h common/kit_types.h

common/kit_mem.h:

common/kit_proto.h:

common/kit_types.h:
