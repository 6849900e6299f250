build-clang/obj/common/kit_lab.o: common/kit_lab.c common/kit_lab.h \
  common/kit_stub.h common/kit_types.h

common/kit_lab.h:

common/kit_stub.h:

common/kit_types.h:
