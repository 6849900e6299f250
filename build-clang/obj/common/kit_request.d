build-clang/obj/common/kit_request.o: common/kit_request.c \
  common/kit_request.h common/kit_proto.h common/kit_types.h

common/kit_request.h:

common/kit_proto.h:

common/kit_types.h:
