build-clang/cpu/obj/common/kit_cuda.o: common/kit_cuda.cu \
  common/kit_cuda.h common/kit_cpu.h common/kit_trace.h

common/kit_cuda.h:

common/kit_cpu.h:

common/kit_trace.h:
