build-clang/obj/common/kit_cli.o: common/kit_cli.c common/kit_cli.h \
  common/kit_gen.h common/kit_types.h

common/kit_cli.h:

common/kit_gen.h:

common/kit_types.h:
