build-clang/obj/labs/08-worst-case/harness/worst_host.o: \
  labs/08-worst-case/harness/worst_host.c common/kit_types.h \
  labs/08-worst-case/harness/worst_host.h common/kit_bank.h \
  common/kit_trace.h

common/kit_types.h:

labs/08-worst-case/harness/worst_host.h:

common/kit_bank.h:

common/kit_trace.h:
