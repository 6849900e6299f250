build-clang/obj/common/kit_timer.o: common/kit_timer.c common/kit_timer.h

common/kit_timer.h:
