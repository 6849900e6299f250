build-clang/labs/sol-cpu/01-sequential-merge/test_lab.o: \
  labs/01-sequential-merge/harness/test_lab.cu common/kit_cuda.h \
  common/kit_cpu.h common/kit_trace.h common/kit_test_gpu.h \
  common/kit_test.h labs/01-sequential-merge/harness/lab01.cuh \
  common/kit.h common/kit_cli.h common/kit_gen.h common/kit_types.h \
  common/kit_driver.h common/kit_proto.h common/kit_lab.h \
  common/kit_stub.h common/kit_device.h common/kit_mem.h \
  common/kit_request.h common/kit_check.h common/kit_timer.h \
  solutions/01-sequential-merge/merge_sequential.cuh

common/kit_cuda.h:

common/kit_cpu.h:

common/kit_trace.h:

common/kit_test_gpu.h:

common/kit_test.h:

labs/01-sequential-merge/harness/lab01.cuh:

common/kit.h:

common/kit_cli.h:

common/kit_gen.h:

common/kit_types.h:

common/kit_driver.h:

common/kit_proto.h:

common/kit_lab.h:

common/kit_stub.h:

common/kit_device.h:

common/kit_mem.h:

common/kit_request.h:

common/kit_check.h:

common/kit_timer.h:

solutions/01-sequential-merge/merge_sequential.cuh:
