build-clang/cpu/obj/common/tests/test_cpu.o: common/tests/test_cpu.cu \
  common/bank_micro.cuh common/kit_lab.h common/kit_stub.h \
  common/kit_types.h common/kit_device.h common/kit_cpu.h \
  common/kit_trace.h common/kit_bank.h common/kit_cuda.h \
  labs/03-basic-merge/harness/merge_run.cuh common/kit.h \
  common/kit_cli.h common/kit_gen.h common/kit_driver.h \
  common/kit_proto.h common/kit_mem.h common/kit_request.h \
  common/kit_check.h common/kit_timer.h common/kit_test.h

common/bank_micro.cuh:

common/kit_lab.h:

common/kit_stub.h:

common/kit_types.h:

common/kit_device.h:

common/kit_cpu.h:

common/kit_trace.h:

common/kit_bank.h:

common/kit_cuda.h:

labs/03-basic-merge/harness/merge_run.cuh:

common/kit.h:

common/kit_cli.h:

common/kit_gen.h:

common/kit_driver.h:

common/kit_proto.h:

common/kit_mem.h:

common/kit_request.h:

common/kit_check.h:

common/kit_timer.h:

common/kit_test.h:
