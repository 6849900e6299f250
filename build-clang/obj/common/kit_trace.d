build-clang/obj/common/kit_trace.o: common/kit_trace.c common/kit_trace.h \
  common/kit_types.h

common/kit_trace.h:

common/kit_types.h:
