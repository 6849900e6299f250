build-clang/cpu/obj/common/tests/test_cuda.o: common/tests/test_cuda.cu \
  common/kit_cuda.h common/kit_cpu.h common/kit_trace.h \
  common/kit_device.h common/kit_stub.h common/kit_types.h \
  common/kit_runner_pairs.h common/kit_test.h

common/kit_cuda.h:

common/kit_cpu.h:

common/kit_trace.h:

common/kit_device.h:

common/kit_stub.h:

common/kit_types.h:

common/kit_runner_pairs.h:

common/kit_test.h:
