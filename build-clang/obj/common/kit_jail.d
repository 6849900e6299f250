build-clang/obj/common/kit_jail.o: common/kit_jail.c common/kit_jail.h

common/kit_jail.h:
