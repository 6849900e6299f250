build-clang/obj/common/kit_driver.o: common/kit_driver.c \
  common/kit_driver.h common/kit_cli.h common/kit_gen.h \
  common/kit_types.h common/kit_proto.h common/kit_jail.h \
  common/kit_mem.h common/kit_lab.h common/kit_stub.h common/kit_check.h

common/kit_driver.h:

common/kit_cli.h:

common/kit_gen.h:

common/kit_types.h:

common/kit_proto.h:

common/kit_jail.h:

common/kit_mem.h:

common/kit_lab.h:

common/kit_stub.h:

common/kit_check.h:
