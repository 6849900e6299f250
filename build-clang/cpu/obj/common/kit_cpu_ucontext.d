build-clang/cpu/obj/common/kit_cpu_ucontext.o: common/kit_cpu.cc \
  common/kit_cpu.h common/kit_trace.h common/kit_types.h

common/kit_cpu.h:

common/kit_trace.h:

common/kit_types.h:
