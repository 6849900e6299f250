build-clang/labs/sol-cpu/06-predecessor-search/test_lab.o: \
  labs/06-predecessor-search/harness/test_lab.cu common/kit_test.h \
  common/kit_test_gpu.h common/kit_cuda.h common/kit_cpu.h \
  common/kit_trace.h labs/06-predecessor-search/harness/lab06.cuh \
  common/kit.h common/kit_cli.h common/kit_gen.h common/kit_types.h \
  common/kit_driver.h common/kit_proto.h common/kit_lab.h \
  common/kit_stub.h common/kit_device.h common/kit_mem.h \
  common/kit_request.h common/kit_check.h common/kit_timer.h \
  common/kit_bank.h labs/06-predecessor-search/harness/pbs_host.h \
  labs/06-predecessor-search/harness/pbs_given.cuh \
  solutions/06-predecessor-search/pbs.cuh \
  labs/06-predecessor-search/harness/pbs_kernel.cuh

common/kit_test.h:

common/kit_test_gpu.h:

common/kit_cuda.h:

common/kit_cpu.h:

common/kit_trace.h:

labs/06-predecessor-search/harness/lab06.cuh:

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

common/kit_bank.h:

labs/06-predecessor-search/harness/pbs_host.h:

labs/06-predecessor-search/harness/pbs_given.cuh:

solutions/06-predecessor-search/pbs.cuh:

labs/06-predecessor-search/harness/pbs_kernel.cuh:
