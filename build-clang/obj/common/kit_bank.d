build-clang/obj/common/kit_bank.o: common/kit_bank.c common/kit_bank.h \
  common/kit_trace.h

common/kit_bank.h:

common/kit_trace.h:
