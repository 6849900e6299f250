build-clang/labs/sol-cpu/04-tiled-merge/test_lab.o: \
  labs/04-tiled-merge/harness/test_lab.cu \
  labs/04-tiled-merge/harness/../../03-basic-merge/harness/merge_test.cuh \
  labs/04-tiled-merge/harness/../../03-basic-merge/harness/merge_run.cuh \
  common/kit.h common/kit_cli.h common/kit_gen.h common/kit_types.h \
  common/kit_driver.h common/kit_proto.h common/kit_lab.h \
  common/kit_stub.h common/kit_device.h common/kit_cpu.h \
  common/kit_trace.h common/kit_mem.h common/kit_request.h \
  common/kit_check.h common/kit_timer.h common/kit_bank.h \
  common/kit_cuda.h common/kit_test_gpu.h common/kit_test.h \
  labs/04-tiled-merge/harness/lab04.cuh \
  solutions/04-tiled-merge/merge_tiled.cuh \
  solutions/02-co-rank/co_rank.cuh \
  solutions/01-sequential-merge/merge_sequential.cuh

labs/04-tiled-merge/harness/../../03-basic-merge/harness/merge_test.cuh:

labs/04-tiled-merge/harness/../../03-basic-merge/harness/merge_run.cuh:

common/kit.h:

common/kit_cli.h:

common/kit_gen.h:

common/kit_types.h:

common/kit_driver.h:

common/kit_proto.h:

common/kit_lab.h:

common/kit_stub.h:

common/kit_device.h:

common/kit_cpu.h:

common/kit_trace.h:

common/kit_mem.h:

common/kit_request.h:

common/kit_check.h:

common/kit_timer.h:

common/kit_bank.h:

common/kit_cuda.h:

common/kit_test_gpu.h:

common/kit_test.h:

labs/04-tiled-merge/harness/lab04.cuh:

solutions/04-tiled-merge/merge_tiled.cuh:

solutions/02-co-rank/co_rank.cuh:

solutions/01-sequential-merge/merge_sequential.cuh:
