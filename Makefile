# The kit's one Makefile: builds common/, every lab against solutions/ and against
# your labs/, the grader and the tests, out of tree in $(BUILD). `make help` lists
# the targets; V=1 shows the commands.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:

BUILD ?= build
SMS ?= 90
V ?= 0
# nvcc: in PATH, else in CUDA_HOME. The CPU build never needs it: only GPU builds (GPU=1, or a GPU here) do.
CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard $(CUDA_HOME)/bin/nvcc),nvcc)
NVCC_FOUND := $(if $(shell command -v '$(NVCC)' 2>/dev/null),1,0)
export CUDA_HOME
ifeq ($(origin CC),default)
CC := gcc
endif

comma := ,
# Machine code for each SM in SMS, plus PTX of the newest so later GPUs can JIT it.
GENCODE := $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm)) \
           -gencode arch=compute_$(lastword $(SMS)),code=compute_$(lastword $(SMS))
CFLAGS ?= -O2 -g
NVCCFLAGS ?= -O2 -g
# -Ilabs: the trusted C code (grader, tests, tools) includes a lab's host code by its path in labs/,
# for example "06-predecessor-search/harness/pbs_host.h".
KIT_CFLAGS := -std=c11 -Wall -Wextra -Werror=implicit-function-declaration $(WERROR) -Icommon -Igrader -Ilabs -MMD -MP
KIT_NVFLAGS := -std=c++17 $(GENCODE) -Icommon -Xcompiler -Wall,-Wextra$(if $(WERROR),$(comma)$(WERROR)) -MMD -MP
# The CPU build: the same .cu files through g++, kernels run by common/kit_cpu.cc. -Og: labs 7 and
# 9 compile in half of -O2's time, the emulated kernels run about as fast, and gdb shows what the
# code says; the emulator itself, whose speed the CPU benchmarks measure, is built with -O2 (below).
# CPU_DEBUG: -g for gdb; make test, which runs nothing under a debugger, builds without it (labs 7
# and 9 then compile in two thirds of the time).
CPU_DEBUG ?= -g
CXXFLAGS ?= -Og $(CPU_DEBUG)
KIT_CPUFLAGS := -x c++ -std=c++17 -DKIT_CPU -Wall -Wextra $(WERROR) -Icommon -MMD -MP

# GPU=1 builds the GPU binaries (everything nvcc makes). By default they are built only where a GPU
# is (nvidia-smi -L works): elsewhere the CPU build, kernels on the emulation, stands in. GPU=0: never.
# make check runs its GPU build only when asked: GPU=1 on the command line or in the environment.
GPU_ASKED := $(if $(filter command line environment,$(origin GPU)),$(GPU),0)
ifeq ($(origin GPU),undefined)
GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo 1 || echo 0)
endif
export GPU
# $(call gpu,FILES): FILES where the GPU binaries are built, nothing elsewhere.
gpu = $(if $(filter 1,$(GPU)),$(1))

# The student's kit (make dist-student) has no solutions/: what is built against them is left out.
SOLUTIONS := $(if $(wildcard solutions/*/*.cuh),1,0)
# $(call sol,FILES): FILES where there are solutions, nothing in the student's kit.
sol = $(if $(filter 1,$(SOLUTIONS)),$(1))

# The instructors' targets need solutions/: in the student's kit they stop at once, saying so.
INSTRUCTOR_TARGETS := skeletons figures numbers bench docs-instructor dist-student dist-gradescope
ifeq ($(SOLUTIONS),0)
ifneq ($(filter $(INSTRUCTOR_TARGETS),$(MAKECMDGOALS)),)
$(error make $(filter $(INSTRUCTOR_TARGETS),$(MAKECMDGOALS)): an instructors' target, and this student kit has no solutions/)
endif
endif

# Builds run JOBS at once (default: one per core). The goals themselves run one after another, so
# that `make clean all` works; each builds through a sub-make, which gets the parallel jobs.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
ifeq ($(MAKELEVEL),0)
.NOTPARALLEL:
MAKEFLAGS += -j$(JOBS)
endif

# make test builds with -Werror: the kit's own code compiles without a warning.
WERROR ?=

ifeq ($(V),1)
Q :=
say := @true
else
Q := @
say := @printf '  %-8s %s\n'
endif
# The sub-make that each goal builds through; -s keeps "is up to date" lines out unless V=1.
SUBMAKE = $(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s)

# ---- what there is -------------------------------------------------------------
LABS := $(sort $(patsubst labs/%/grading.spec,%,$(wildcard labs/*/grading.spec)))
SOLUTION_FILES := $(sort $(wildcard solutions/*/*.cuh))
LIBKIT := $(BUILD)/libkit.a
# The host objects alone: what the C programs (grader, tools, tests) link, so they need no nvcc.
LIBKIT_HOST := $(BUILD)/libkithost.a
LIBKIT_CPU := $(BUILD)/libkitcpu.a
LIBKITTEST := $(BUILD)/libkittest.a
# The instructor-only library (grader/ref/: the reference answers). No lab runner links it; the student
# kit leaves grader/ref/ out, and its grader links grader/answers_absent.c instead of grader/answers.c.
REF_SRCS := $(wildcard grader/ref/*.c)
LIBKITREF := $(if $(REF_SRCS),$(BUILD)/libkitref.a)
ANSWERS_OBJ := $(BUILD)/obj/grader/$(if $(REF_SRCS),answers,answers_absent).o
GRADER := $(BUILD)/grader/grader
SKELGEN := $(BUILD)/grader/skelgen
# The lab-file checker (grader/labcheck.c) reads a lab file's syntax tree with libclang: LLVM 14,
# Debian bookworm's libclang-dev (make deps installs it).
LABCHECK := $(BUILD)/grader/labcheck
LLVM_DIR ?= /usr/lib/llvm-14
LIBCLANG := -L$(LLVM_DIR)/lib -lclang -Wl,-rpath,$(LLVM_DIR)/lib

# The host library: common/'s C files, and the labs' host code in C (labs/NN-*/harness/*.c: lab 6's
# query sets, lab 8's warp assembly), which the labs' runners, the grader and the tools link.
LAB_HOST_SRCS := $(wildcard labs/*/harness/*.c)
HOST_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out common/kit_test.c,$(wildcard common/*.c)) $(LAB_HOST_SRCS))
LIBKIT_OBJS := $(HOST_OBJS) $(patsubst %.cu,$(BUILD)/obj/%.o,$(wildcard common/*.cu))
LIBKIT_CPU_OBJS := $(HOST_OBJS) $(patsubst %,$(BUILD)/cpu/obj/%.o,$(basename $(wildcard common/*.cu common/*.cc)))
GRADER_LIB_OBJS := $(ANSWERS_OBJ) $(BUILD)/obj/grader/spec.o $(BUILD)/obj/grader/draw.o $(BUILD)/obj/grader/sandbox.o $(BUILD)/obj/grader/check.o $(BUILD)/obj/grader/report.o $(BUILD)/obj/grader/batch.o \
                   $(BUILD)/obj/grader/build.o $(BUILD)/obj/grader/vet.o $(BUILD)/obj/grader/shard.o $(BUILD)/obj/grader/skel.o \
                   $(BUILD)/obj/grader/counts.o $(BUILD)/obj/grader/import.o $(BUILD)/obj/grader/complog.o

# Each lab's driver and tests, built against the solutions (sol) and against your file (student),
# by nvcc (GPU binaries: only where $(GPU) is 1) and through the CPU emulation (-cpu).
VARIANTS := $(call sol,sol) student
LAB_DRIVERS := $(call gpu,$(foreach v,$(VARIANTS),$(foreach l,$(LABS),$(BUILD)/labs/$(v)/$(l)/driver)))
CPU_DRIVERS := $(foreach v,$(VARIANTS),$(foreach l,$(LABS),$(BUILD)/labs/$(v)-cpu/$(l)/driver))
SOL_TESTS := $(call sol,$(call gpu,$(foreach l,$(LABS),$(BUILD)/labs/sol/$(l)/test)))
SOL_CPU_TESTS := $(call sol,$(foreach l,$(LABS),$(BUILD)/labs/sol-cpu/$(l)/test))
STUDENT_TESTS := $(call gpu,$(foreach l,$(LABS),$(BUILD)/labs/student/$(l)/test))
STUDENT_CPU_TESTS := $(foreach l,$(LABS),$(BUILD)/labs/student-cpu/$(l)/test)
BANKVIZ := $(BUILD)/tools/bankviz
# The figure drawer behind bankviz (common/tools/kit_viz.c): only bankviz and test_viz link it, no library does.
VIZ_OBJ := $(BUILD)/obj/common/tools/kit_viz.o
# benchplot draws handout 9's plots from sort_bench's logs in results/, with kit_viz's line plot and
# the log reader beside it (common/tools/kit_sortlog.c), which only benchplot and test_viz link.
BENCHPLOT := $(BUILD)/tools/benchplot
SORTLOG_OBJ := $(BUILD)/obj/common/tools/kit_sortlog.o
WORST_CASE := $(call sol,$(BUILD)/tools/worst_case)
BANKCHECK := $(call gpu,$(BUILD)/tools/bankcheck) $(BUILD)/cpu/tools/bankcheck
# The kit's own tests. The student's kit runs those that need no answer: the self-test grades
# solutions/, and test_common and test_worst check the reference answers (grader/ref/), which that kit leaves out.
KIT_TESTS := $(call sol,$(BUILD)/tests/test_common) $(BUILD)/tests/test_labcheck $(call gpu,$(BUILD)/tests/test_cuda) \
             $(BUILD)/tests/test_bank \
             $(BUILD)/tests/test_viz $(BUILD)/tests/test_ncu $(call sol,$(BUILD)/tests/test_worst) \
             $(BUILD)/tests/test_skel $(BUILD)/tests/test_grader $(BUILD)/tests/test_draw $(BUILD)/tests/test_sandbox \
             $(call sol,$(BUILD)/tests/test_selftest) $(BUILD)/tests/test_shard $(BUILD)/tests/test_import \
             $(BUILD)/tests/test_complog
CPU_TESTS := $(BUILD)/cpu/tests/test_cuda $(BUILD)/cpu/tests/test_cpu $(BUILD)/cpu/tests/test_cpu_ucontext $(SOL_CPU_TESTS)

# LAB=1, LAB=01 or LAB=01-sequential-merge picks one lab folder, LABDIR. LAB_IDS writes each lab of
# LAB the way the folders begin (1 -> 01).
LAB_IDS = $(foreach l,$(LAB),$(if $(filter 1 2 3 4 5 6 7 8 9,$(l)),0)$(l))
LABDIR = $(patsubst labs/%/grading.spec,%,$(wildcard $(foreach l,$(LAB_IDS),labs/$(l)*/grading.spec)))

.PHONY: grade-course
.PHONY: all help test grade check run skeletons figures numbers bench-plots docs handbook docs-instructor bench deps clean \
        dist-student dist-gradescope screenshots
all:
	+@$(SUBMAKE) $(call gpu,$(LIBKIT)) $(LIBKIT_CPU) $(GRADER) $(LABCHECK) $(SKELGEN) $(BANKVIZ) $(BENCHPLOT) $(WORST_CASE) \
	  $(BANKCHECK) $(LAB_DRIVERS) $(CPU_DRIVERS)

help:
	@echo "Targets:"
	@echo "  make check LAB=NN    run that lab's public tests (the grader's, by name) on your labs/NN-* file;"
	@echo "                       TEST=NAME reruns one (CPU build; GPU=1: the GPU build too)"
	@echo "  make run LAB=NN ARGS=\"--m 5 --n 4 --print\"   run that lab's driver on your file"
ifeq ($(SOLUTIONS),1)
	@echo "  make grade           grade solutions/ (must score 100%); SUBMISSION=dir grades a submission,"
	@echo "                       LAB=NN restricts it to one lab"
	@echo "  make grade-course SUBMISSIONS=dir [SLURM=1]   grade a course folder (one subfolder per student) in SHARDS"
	@echo "                       shards: local workers, or a Slurm job array (PARTITION, ACCOUNT, TIME, PARALLEL, MODE,"
	@echo "                       LAB=\"01 02\", OUT, RERUN=K for one shard again); see handouts/instructor-guide.md"
else
	@echo "  make grade           grade your labs/ with the course's grader (public tests); LAB=NN: one lab"
endif
	@echo "  make                 build the library, the grader and every lab's driver"
	@echo "  make test            the kit's own tests (CUnit), with a closing pass/fail line"
	@echo "  make docs            the handbook (Doxygen): handouts, study paths, API reference, in $(BUILD)/docs/html/"
	@echo "                       (make handbook is the same)"
ifeq ($(SOLUTIONS),1)
	@echo "  make docs-instructor the same with the model answers, in $(BUILD)/docs-instructor/html/"
	@echo "  make skeletons       regenerate labs/*/ skeletons from solutions/ (answer regions stripped)"
	@echo "  make figures         redraw handouts/figures/ with bankviz"
	@echo "  make numbers         rewrite the handouts' generated tables (mk/numbers.sh; make test checks every mark)"
	@echo "  make bench           the benchmarks (simulator, CPU emulation and grader speed; GPU ones where a GPU is)"
	@echo "  make dist-student    build/dist/gpu-merge-kit-student.tar.gz: the kit without solutions/ and hidden tests"
	@echo "  make dist-gradescope build/dist/gpu-merge-kit-gradescope.zip: a Gradescope autograder (setup.sh, run_autograder)"
endif
	@echo "  make bench-plots     redraw handout 9's benchmark plots (handouts/figures/009-bench-*) from results/"
	@echo "  make screenshots     pictures of the handbook at 1280 px (Chromium) into handouts/screenshots/;"
	@echo "                       fails on a figure or navigation title the page cuts"
	@echo "  make deps            check for (and, as root, install) nvcc, CUnit, libclang and Doxygen"
	@echo "  make clean           remove $(BUILD)/"
	@echo "Variables: GPU=$(GPU) (1: build the GPU binaries; default 1 only where nvidia-smi finds a GPU),"
	@echo "  JOBS=$(JOBS) (parallel build jobs), SMS=\"$(SMS)\" (GPU architectures), NVCC=$(NVCC), BUILD=$(BUILD),"
	@echo "  V=1 (show commands)"

deps:
	@bash mk/deps.sh

# ---- compiling -----------------------------------------------------------------
$(BUILD)/obj/%.o: %.c
	$(say) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(KIT_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.cu
	$(say) NVCC $<
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(KIT_NVFLAGS) $(NVCCFLAGS) -MF $(@:.o=.d) -c $< -o $@

$(BUILD)/cpu/obj/%.o: %.cu
	$(say) CXX "$< (CPU build)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(KIT_CPUFLAGS) $(CXXFLAGS) -c $< -o $@

$(BUILD)/cpu/obj/common/kit_cpu.o $(BUILD)/cpu/obj/common/kit_cpu_ucontext.o: CXXFLAGS += -O2
# The emulator's portable thread switch (glibc ucontext), which x86-64 replaces with its own:
# test_cpu_ucontext runs test_cpu on it, so that the path other machines take is tested here too.
$(BUILD)/cpu/obj/common/kit_cpu_ucontext.o: common/kit_cpu.cc
	$(say) CXX "$< (CPU build, ucontext)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(KIT_CPUFLAGS) $(CXXFLAGS) -DKIT_CPU_UCONTEXT -c $< -o $@
$(BUILD)/cpu/obj/%.o: %.cc
	$(say) CXX "$< (CPU build)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(KIT_CPUFLAGS) $(CXXFLAGS) -c $< -o $@

# A lab's harness is built twice: against the reference solution (solutions/NN-*)
# and against your file (labs/NN-*). $(1) is the folder whose copy it includes. Its include path
# holds that lab and the labs its grading.spec `uses`, nothing else (as in the grader's build).
lab_uses = $(sort $(foreach u,$(shell sed -n 's/^uses //p' labs/$(1)/grading.spec),$(patsubst %/,%,$(dir $(u)))))
lab_includes = -I$(1)/$(2) $(addprefix -I$(1)/,$(call lab_uses,$(2)))
define compile_lab
$(say) NVCC "$< (with $(1)/$*)"
@mkdir -p $(@D)
$(Q)$(NVCC) $(KIT_NVFLAGS) $(NVCCFLAGS) $(call lab_includes,$(1),$*) -MF $(@:.o=.d) -c $< -o $@
endef
$(BUILD)/labs/sol/%/driver.o: labs/%/harness/driver.cu
	$(call compile_lab,solutions)
$(BUILD)/labs/sol/%/test_lab.o: labs/%/harness/test_lab.cu
	$(call compile_lab,solutions)
$(BUILD)/labs/student/%/driver.o: labs/%/harness/driver.cu
	$(call compile_lab,labs)
$(BUILD)/labs/student/%/test_lab.o: labs/%/harness/test_lab.cu
	$(call compile_lab,labs)

# ...and, for machines without a GPU, through the CPU emulation.
# A lab's CPU programs are built with the checked memory's instrumentation, as the grader builds its
# runners (KIT_CPU_CHECKED_FLAGS, grader/build.h: its one home), so that make run and the tests report
# an access past an array's end with the array, the index, the thread and the block.
KIT_CPU_CHECKED := $(shell sed -n 's/^\#define KIT_CPU_CHECKED_FLAGS "\(.*\)"/\1/p' grader/build.h)
define compile_lab_cpu
$(say) CXX "$< (with $(1)/$*, CPU build)"
@mkdir -p $(@D)
$(Q)$(CXX) $(KIT_CPUFLAGS) $(CXXFLAGS) $(KIT_CPU_CHECKED) $(call lab_includes,$(1),$*) -c $< -o $@
endef
$(BUILD)/labs/sol-cpu/%/driver.o: labs/%/harness/driver.cu
	$(call compile_lab_cpu,solutions)
$(BUILD)/labs/sol-cpu/%/test_lab.o: labs/%/harness/test_lab.cu
	$(call compile_lab_cpu,solutions)
$(BUILD)/labs/student-cpu/%/driver.o: labs/%/harness/driver.cu
	$(call compile_lab_cpu,labs)
$(BUILD)/labs/student-cpu/%/test_lab.o: labs/%/harness/test_lab.cu
	$(call compile_lab_cpu,labs)

# ---- linking -------------------------------------------------------------------
# $(call link_with,LINKER,EXTRA): links the prerequisites into $@.
define link_with
$(say) LINK $@
@mkdir -p $(@D)
$(Q)$(1) $^ $(2) -o $@
endef
link_cpu = $(call link_with,$(CXX),$(1))
link_c = $(call link_with,$(CC),$(1))
link_gpu = $(call link_with,$(NVCC) $(GENCODE),$(1))

$(LIBKIT): $(LIBKIT_OBJS)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIBKIT_HOST): $(HOST_OBJS)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIBKIT_CPU): $(LIBKIT_CPU_OBJS)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libkitref.a: $(patsubst %.c,$(BUILD)/obj/%.o,$(REF_SRCS))
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

# Only the trusted side and the instructor's programs see grader/ref/: the grader, the kit's own C
# tests, the tools and the benchmarks. Lab code is compiled without it on its include path.
$(BUILD)/obj/grader/%.o $(BUILD)/obj/common/tests/%.o $(BUILD)/obj/common/tools/%.o: KIT_CFLAGS += -Igrader/ref
# The CPU build of the kit's own tests runs lab 3's merge harness (test_cpu.cu).
$(BUILD)/cpu/obj/common/tests/%.o: KIT_CPUFLAGS += -Ilabs

$(LIBKITTEST): $(BUILD)/obj/common/kit_test.o
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

# CPU-build programs link with g++ and the emulation library (more specific patterns win over the ones below).
$(BUILD)/labs/sol-cpu/%/driver: $(BUILD)/labs/sol-cpu/%/driver.o $(LIBKIT_CPU)
	$(call link_cpu)
$(BUILD)/labs/student-cpu/%/driver: $(BUILD)/labs/student-cpu/%/driver.o $(LIBKIT_CPU)
	$(call link_cpu)
$(BUILD)/labs/sol-cpu/%/test: $(BUILD)/labs/sol-cpu/%/test_lab.o $(LIBKITTEST) $(LIBKIT_CPU)
	$(call link_cpu,-lcunit)
$(BUILD)/labs/student-cpu/%/test: $(BUILD)/labs/student-cpu/%/test_lab.o $(LIBKITTEST) $(LIBKIT_CPU)
	$(call link_cpu,-lcunit)
$(BUILD)/cpu/tests/%: $(BUILD)/cpu/obj/common/tests/%.o $(LIBKITTEST) $(LIBKIT_CPU)
	$(call link_cpu,-lcunit)
$(BUILD)/cpu/tests/test_cpu_ucontext: $(BUILD)/cpu/obj/common/tests/test_cpu.o $(BUILD)/cpu/obj/common/kit_cpu_ucontext.o \
                                      $(LIBKITTEST) $(LIBKIT_CPU)
	$(call link_cpu,-lcunit)
$(BUILD)/cpu/tools/bankcheck: $(BUILD)/cpu/obj/common/tools/bankcheck.o $(LIBKIT_CPU)
	$(call link_cpu)

# GPU programs link with nvcc and the library with the .cu objects.
$(BUILD)/tools/bankcheck: $(BUILD)/obj/common/tools/bankcheck.o $(LIBKIT)
	$(call link_gpu)
$(BUILD)/labs/%/driver: $(BUILD)/labs/%/driver.o $(LIBKIT)
	$(call link_gpu)
$(BUILD)/labs/%/test: $(BUILD)/labs/%/test_lab.o $(LIBKITTEST) $(LIBKIT)
	$(call link_gpu,-lcunit)
$(BUILD)/tests/test_cuda: $(BUILD)/obj/common/tests/test_cuda.o $(LIBKITTEST) $(LIBKIT)
	$(call link_gpu,-lcunit)

# The C programs link the host library only, so they build without nvcc (the grader on Gradescope).
$(GRADER): $(BUILD)/obj/grader/grader.o $(GRADER_LIB_OBJS) $(LIBKITREF) $(LIBKIT_HOST)
	$(call link_c)
$(SKELGEN): $(BUILD)/obj/grader/skelgen.o $(BUILD)/obj/grader/skel.o
	$(call link_c)
$(BUILD)/obj/grader/labcheck.o $(BUILD)/obj/grader/labcheck_main.o $(BUILD)/obj/grader/tests/test_labcheck.o: \
  KIT_CFLAGS += -I$(LLVM_DIR)/include
$(LABCHECK): $(BUILD)/obj/grader/labcheck_main.o $(BUILD)/obj/grader/labcheck.o
	$(call link_c,$(LIBCLANG))
$(BUILD)/tests/test_labcheck: $(BUILD)/obj/grader/tests/test_labcheck.o $(BUILD)/obj/grader/labcheck.o $(LIBKITTEST)
	$(call link_c,-lcunit $(LIBCLANG))
$(BANKVIZ): $(BUILD)/obj/common/tools/bankviz.o $(VIZ_OBJ) $(LIBKIT_HOST)
	$(call link_c,-lm)
$(BENCHPLOT): $(BUILD)/obj/common/tools/benchplot.o $(SORTLOG_OBJ) $(VIZ_OBJ) $(LIBKIT_HOST)
	$(call link_c,-lm)
# Lab 8's generator: the worst-case input of the merge sort, and the per-warp table (labs/08-worst-case/harness/worst_host.h).
$(BUILD)/tools/worst_case: $(BUILD)/obj/common/tools/worst_case.o $(LIBKITREF) $(LIBKIT_HOST)
	$(call link_c)
$(BUILD)/tests/test_common $(BUILD)/tests/test_worst $(BUILD)/tests/test_bank \
$(BUILD)/tests/test_ncu: $(BUILD)/tests/%: $(BUILD)/obj/common/tests/%.o $(LIBKITTEST) $(LIBKITREF) $(LIBKIT_HOST)
	$(call link_c,-lcunit)
$(BUILD)/tests/test_viz: $(BUILD)/obj/common/tests/test_viz.o $(SORTLOG_OBJ) $(VIZ_OBJ) $(LIBKITTEST) $(LIBKIT_HOST)
	$(call link_c,-lcunit -lm)
$(BUILD)/tests/test_skel: $(BUILD)/obj/grader/tests/test_skel.o $(BUILD)/obj/grader/skel.o $(LIBKITTEST)
	$(call link_c,-lcunit)
$(BUILD)/tests/test_grader $(BUILD)/tests/test_draw $(BUILD)/tests/test_shard $(BUILD)/tests/test_import $(BUILD)/tests/test_complog: \
$(BUILD)/tests/%: $(BUILD)/obj/grader/tests/%.o $(GRADER_LIB_OBJS) $(LIBKITTEST) $(LIBKITREF) $(LIBKIT_HOST)
	$(call link_c,-lcunit)
# The sandbox's containment: memory limit, a uid per grader, namespaces, seccomp (some suites need root).
$(BUILD)/tests/test_sandbox: $(BUILD)/obj/grader/tests/test_sandbox.o $(BUILD)/obj/grader/sandbox.o $(LIBKITTEST) \
                             $(LIBKIT_HOST)
	$(call link_c,-lcunit)
$(BUILD)/tests/test_selftest: $(BUILD)/obj/grader/tests/test_selftest.o $(LIBKITTEST) $(LIBKIT_HOST)
	$(call link_c,-lcunit)

# ---- the jobs ------------------------------------------------------------------
# The golden counts: ncu's shared-memory counts of every launch of the public specs of labs 3-9 on an
# H100, with the simulator's: the public rows of results/2026-11-28-h100-h200-merge-exchange/golden.tsv
# (results/README.md); make test recounts the simulator's (mk/lab-counts.sh).
LAB_COUNTS_GOLDEN := common/tests/golden/lab-counts.tsv
# make test builds with -Werror in two stages: first the grader and the kit's tests, whose programs
# (the longest first) then run TEST_JOBS at once while the lab programs build beside them; the lab
# tests start when that build is done. A graded runner's limit in CPU mode is its CPU time, so
# tests that share the cores do not time each other's runners out. The grader's self-test runs in
# three parts (test_selftest.c's main). In the student's kit (no solutions/) the lab builds are the CPU build's
# tests alone. The self-test also grades one submission in GPU mode, a compile error that nvcc
# must report, and the grader wants libkit.a for that: its one nvcc object takes seconds. Without
# nvcc (and without GPU=1) it is left out, and the self-test skips that case, saying why.
# The numbers the handouts quote: every mark names the command that gives it (mk/numbers.sh). make
# numbers rewrites the generated tables from the tools; make test checks every mark. The tools it runs:
# the solutions' CPU drivers, worst_case, bankviz, the CPU bankcheck and lab 6's conflicts benchmark.
NUMBERS_TOOLS := $(WORST_CASE) $(BANKVIZ) $(BUILD)/cpu/tools/bankcheck $(BUILD)/cpu/bench/pbs_conflicts
TEST_FIRST_BUILDS := $(LIBKIT_CPU) $(call sol,$(if $(filter 1,$(NVCC_FOUND) $(GPU)),$(LIBKIT))) $(KIT_TESTS) $(GRADER) $(LABCHECK) $(SKELGEN) $(BANKVIZ) $(BENCHPLOT)
TEST_LAB_BUILDS := $(CPU_TESTS) $(SOL_TESTS) \
                   $(call sol,$(STUDENT_TESTS) $(STUDENT_CPU_TESTS) $(LAB_DRIVERS) $(CPU_DRIVERS) $(NUMBERS_TOOLS))
# The longest first (the student kit's check, then the self-test's parts), so that two cores end together.
TEST_FIRST := $(call sol,"bash mk/check-dist.sh $(BUILD) $(GRADER)" "$(BUILD)/tests/test_selftest rest" \
              "$(BUILD)/tests/test_selftest fixtures 0/2" "$(BUILD)/tests/test_selftest fixtures 1/2" \
              "bash mk/test-slurm.sh $(BUILD) $(GRADER)" "bash mk/lab-counts.sh test $(GRADER) $(LAB_COUNTS_GOLDEN)") $(filter-out %/test_selftest,$(KIT_TESTS)) \
              "bash mk/check-docs.sh $(BUILD)" "bash mk/check-make.sh" "bash mk/check-upload.sh $(GRADER)"
TEST_LAB := $(CPU_TESTS) $(SOL_TESTS) \
            $(call sol,"bash mk/check-skeletons.sh $(SKELGEN) $(BUILD)" "bash mk/check-drivers.sh $(BUILD)" \
            "bash mk/numbers.sh check $(BUILD)")
# Test programs run TEST_JOBS at once (one per core), after the build.
TEST_JOBS ?= $(JOBS)
# A build that run-tests.sh starts: a make with job slots of its own (this one's are closed to it),
# and this one's flags and command-line variables (BUILD=..., GPU=1, ...).
TEST_MAKE = MAKEFLAGS='$(filter-out -j% --jobserver-auth=% --jobserver-fds=%,$(MAKEFLAGS))' $(MAKE) -j$(JOBS) \
            --no-print-directory

.PHONY: test-first-builds test-lab-builds
test-first-builds:
	+@$(SUBMAKE) WERROR=-Werror CPU_DEBUG= $(TEST_FIRST_BUILDS)
test-lab-builds:
	+@$(SUBMAKE) WERROR=-Werror CPU_DEBUG= $(TEST_LAB_BUILDS)

test:
	@bash mk/deps.sh
	@echo "== make test: builds with -Werror, $(JOBS) jobs; tests $(TEST_JOBS) at once, logs in $(BUILD)/test-logs"
	@$(if $(call gpu,1),,echo "== no GPU here: the GPU binaries are left out (GPU=1 builds them)")
	@KIT_GRADER=$(GRADER) KIT_NVCC="$(NVCC)" KIT_NVCC_FLAGS="$(GENCODE)" KIT_BUILD=$(BUILD) JOBS=$(TEST_JOBS) \
	  bash mk/run-tests.sh $(BUILD)/test-logs \
	  --build "the grader and the kit's tests" "$(TEST_MAKE) test-first-builds" $(TEST_FIRST) \
	  --build "the lab programs" "$(TEST_MAKE) test-lab-builds" $(TEST_LAB)

# make grade grades SUBMISSION; by default the solutions, which must score 100%, or in the
# student's kit (no solutions/) the student's own labs/.
GRADE_WHAT = $(if $(SUBMISSION),--submission "$(SUBMISSION)",$(if $(call sol,1),--expect 100,--submission labs))
grade:
	@bash mk/deps.sh
	+@$(SUBMAKE) $(GRADER) $(LABCHECK) $(call gpu,$(LIBKIT)) $(LIBKIT_CPU)
	$(Q)$(GRADER) --kit . --cxx "$(CXX)" --nvcc "$(NVCC)" --nvcc-flags "$(GENCODE)" --build-jobs $(JOBS) $(GRADE_WHAT) \
	  $(foreach l,$(LAB_IDS),--lab "$(l)")

# A course at once, in shards: local workers, or with SLURM=1 a Slurm job array and a gather job (mk/grade-course.sh).
grade-course:
	+@$(SUBMAKE) $(GRADER) $(LABCHECK) $(LIBKIT_CPU) $(if $(filter gpu,$(MODE)),$(LIBKIT),$(call gpu,$(LIBKIT)))
	$(Q)bash mk/grade-course.sh --grader $(GRADER) $(if $(filter 1 yes,$(SLURM)),--slurm) $(if $(SHARDS),--shards $(SHARDS)) \
	  $(if $(PARALLEL),--parallel $(PARALLEL)) $(if $(PARTITION),--partition "$(PARTITION)") \
	  $(if $(ACCOUNT),--account "$(ACCOUNT)") $(if $(TIME),--time "$(TIME)") $(if $(MODE),--mode $(MODE)) \
	  $(if $(OUT),--out "$(OUT)") $(if $(RERUN),--rerun $(RERUN)) $(foreach l,$(LAB_IDS),--lab $(l)) "$(SUBMISSIONS)"

# The student's loop: your labs/NN-* file, that lab's public tests of grading.spec, run by the
# grader as make grade runs them; TEST=NAME reruns one. The GPU build too with GPU=1 (mk/check.sh).
# Once they pass (and without TEST), the lab's CUnit program, rebuilt by make from your file so that
# it never runs stale code, runs its suites (mk/check-suites.sh).
check:
	@if [ -z "$(LAB)" ] || [ $(words $(LABDIR)) != 1 ]; then \
	  echo "make check: say which lab, e.g. make check LAB=01 (labs: $(LABS))" >&2; exit 2; fi
	@KIT_NEED_NVCC=$(GPU_ASKED) bash mk/deps.sh check
	+@$(SUBMAKE) $(GRADER) $(LABCHECK) $(LIBKIT_CPU) $(if $(filter 1,$(GPU_ASKED)),$(LIBKIT))
	$(Q)KIT_CHECK_GPU=$(GPU_ASKED) KIT_CXX="$(CXX)" KIT_NVCC="$(NVCC)" KIT_NVCC_FLAGS="$(GENCODE)" bash mk/check.sh $(GRADER) $(BUILD) $(LABDIR) $(TEST)
	$(if $(TEST),,+@$(SUBMAKE) $(BUILD)/labs/student-cpu/$(LABDIR)/test)
	$(if $(TEST),,$(Q)bash mk/check-suites.sh $(BUILD)/labs/student-cpu/$(LABDIR)/test $(LABDIR))

run:
	@if [ -z "$(LAB)" ] || [ $(words $(LABDIR)) != 1 ]; then \
	  echo "make run: say which lab, e.g. make run LAB=01 ARGS=\"--print\" (labs: $(LABS))" >&2; exit 2; fi
	+@$(SUBMAKE) $(call gpu,$(BUILD)/labs/student/$(LABDIR)/driver) $(BUILD)/labs/student-cpu/$(LABDIR)/driver
	$(Q)if [ $(GPU) = 1 ] && nvidia-smi -L >/dev/null 2>&1; then bash mk/run-gpu.sh $(BUILD)/labs/student/$(LABDIR)/driver $(ARGS); \
	  else echo "(no GPU here: running the CPU build, kernels on the kit's CPU emulation)"; \
	  $(BUILD)/labs/student-cpu/$(LABDIR)/driver $(ARGS); fi

skeletons: $(SKELGEN)
	$(Q)for f in $(SOLUTION_FILES); do \
	  out=labs/$${f#solutions/}; $(SKELGEN) $$f $$out && echo "  SKEL     $$out" || exit 1; done

# Benchmarks check performance targets; they are not tests and never run in make test.
$(BUILD)/bench/bank_sim: $(BUILD)/obj/bench/bank_sim.o $(LIBKIT_HOST)
	$(call link_c)
SOL_INCLUDES := $(addprefix -Isolutions/,$(LABS)) $(patsubst %,-Ilabs/%/harness,$(LABS)) -Igrader/ref -Ilabs
# A benchmark bench/NAME.cu builds for the GPU as build/bench/NAME and for the CPU emulation as
# build/cpu/bench/NAME, both with the reference solutions.
$(BUILD)/obj/bench/%.o: bench/%.cu
	$(say) NVCC "$< (with the solutions)"
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(KIT_NVFLAGS) $(NVCCFLAGS) --extended-lambda $(SOL_INCLUDES) -MF $(@:.o=.d) -c $< -o $@
$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(LIBKITREF) $(LIBKIT)
	$(call link_gpu)
$(BUILD)/cpu/obj/bench/%.o: bench/%.cu
	$(say) CXX "$< (CPU build, with the solutions)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(KIT_CPUFLAGS) $(CXXFLAGS) $(SOL_INCLUDES) -c $< -o $@
$(BUILD)/cpu/bench/%: $(BUILD)/cpu/obj/bench/%.o $(LIBKITREF) $(LIBKIT_CPU)
	$(call link_cpu)

GPU_BENCHES := $(BUILD)/bench/merge_bench $(BUILD)/bench/pbs_bench $(BUILD)/bench/sort_bench
bench: $(BUILD)/bench/bank_sim $(BUILD)/cpu/bench/cpu_merge $(call gpu,$(GPU_BENCHES)) $(GRADER) $(LIBKIT_CPU)
	$(Q)$(BUILD)/bench/bank_sim
	$(Q)$(BUILD)/cpu/bench/cpu_merge
	$(Q)bash mk/bench-grader.sh $(GRADER)
ifeq ($(GPU),1)
	$(Q)$(BUILD)/bench/merge_bench
	$(Q)$(BUILD)/bench/pbs_bench
	$(Q)$(BUILD)/bench/sort_bench
	$(Q)bash mk/sort-conflicts.sh $(BUILD)/bench/sort_bench 22 random worst
else
	@echo "bench: no GPU found, so the GPU benchmarks were not built (GPU=1 builds them)"
endif

# Every figure of the handouts, drawn by bankviz from data (mk/figures.sh lists them).
figures: $(BANKVIZ) $(WORST_CASE) $(BUILD)/labs/sol-cpu/06-predecessor-search/driver $(BUILD)/labs/sol-cpu/07-cf-gather/driver \
         $(BUILD)/labs/sol-cpu/09-merge-sort/driver
	$(Q)KIT_PBS_DRIVER=$(BUILD)/labs/sol-cpu/06-predecessor-search/driver KIT_WORST_CASE=$(WORST_CASE) \
	  KIT_CF_DRIVER=$(BUILD)/labs/sol-cpu/07-cf-gather/driver KIT_SORT_DRIVER=$(BUILD)/labs/sol-cpu/09-merge-sort/driver \
	  bash mk/figures.sh $(BANKVIZ) handouts/figures

# make numbers rewrites the handouts' generated tables from the tools (mk/numbers.sh; NUMBERS_TOOLS above).
numbers: $(NUMBERS_TOOLS) $(CPU_DRIVERS)
	$(Q)bash mk/numbers.sh update $(BUILD)

# Handout 9's plots of the sort benchmark, drawn by benchplot from the raw logs in results/
# (mk/bench-plots.sh lists them; test_viz checks that the committed ones are what it draws).
bench-plots: $(BENCHPLOT)
	$(Q)bash mk/bench-plots.sh $(BENCHPLOT) handouts/figures

# The handbook. Both builds fail on any Doxygen warning; only the instructor's holds the model answers.
docs handbook:
	$(Q)bash mk/docs.sh student $(BUILD)/docs

docs-instructor:
	$(Q)bash mk/docs.sh instructor $(BUILD)/docs-instructor

# Pictures of the student site at 1280 px (headless Chromium) into handouts/screenshots/, failing on a
# figure or navigation title that the page cuts. Not in make test: it needs Chromium (mk/screenshots.sh).
screenshots:
	$(Q)bash mk/screenshots.sh $(BUILD) handouts/screenshots

# What instructors publish: the student tarball, and the autograder zip for Gradescope.
dist-student:
	$(Q)bash mk/dist-student.sh $(BUILD)/dist

dist-gradescope:
	$(Q)bash mk/dist-gradescope.sh $(BUILD)/dist

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
