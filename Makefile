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
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc),nvcc)
ifeq ($(origin CC),default)
CC := gcc
endif

# Machine code for each SM in SMS, plus PTX of the newest so later GPUs can JIT it.
GENCODE := $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm)) \
           -gencode arch=compute_$(lastword $(SMS)),code=compute_$(lastword $(SMS))
CFLAGS ?= -O2 -g
NVCCFLAGS ?= -O2 -g
KIT_CFLAGS := -std=c11 -Wall -Wextra -Werror=implicit-function-declaration -Icommon -Igrader -MMD -MP
KIT_NVFLAGS := -std=c++17 $(GENCODE) -Icommon -Xcompiler -Wall,-Wextra -MMD -MP
# The CPU build: the same .cu files through g++, kernels run by common/kit_cpu.cc.
CXXFLAGS ?= -O2 -g
KIT_CPUFLAGS := -x c++ -std=c++17 -DKIT_CPU -Wall -Wextra -Icommon -MMD -MP

ifeq ($(V),1)
Q :=
say := @true
else
Q := @
say := @printf '  %-8s %s\n'
endif

# ---- what there is -------------------------------------------------------------
LABS := $(sort $(patsubst labs/%/grading.spec,%,$(wildcard labs/*/grading.spec)))
SOLUTION_FILES := $(sort $(wildcard solutions/*/*.cuh))
LIBKIT := $(BUILD)/libkit.a
LIBKIT_CPU := $(BUILD)/libkitcpu.a
LIBKITTEST := $(BUILD)/libkittest.a
# The instructor-only library (grader/ref/: the reference answers). No lab runner links it; the student
# kit leaves grader/ref/ out, and its grader links grader/answers_absent.c instead of grader/answers.c.
REF_SRCS := $(wildcard grader/ref/*.c)
LIBKITREF := $(if $(REF_SRCS),$(BUILD)/libkitref.a)
ANSWERS_OBJ := $(BUILD)/obj/grader/$(if $(REF_SRCS),answers,answers_absent).o
GRADER := $(BUILD)/grader/grader
SKELGEN := $(BUILD)/grader/skelgen

HOST_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out common/kit_test.c,$(wildcard common/*.c)))
LIBKIT_OBJS := $(HOST_OBJS) $(patsubst %.cu,$(BUILD)/obj/%.o,$(wildcard common/*.cu))
LIBKIT_CPU_OBJS := $(HOST_OBJS) $(patsubst %,$(BUILD)/cpu/obj/%.o,$(basename $(wildcard common/*.cu common/*.cc)))
GRADER_LIB_OBJS := $(ANSWERS_OBJ) $(BUILD)/obj/grader/spec.o $(BUILD)/obj/grader/sandbox.o $(BUILD)/obj/grader/check.o $(BUILD)/obj/grader/report.o $(BUILD)/obj/grader/batch.o \
                   $(BUILD)/obj/grader/build.o $(BUILD)/obj/grader/vet.o $(BUILD)/obj/grader/shard.o $(BUILD)/obj/grader/skel.o \
                   $(BUILD)/obj/grader/counts.o

LAB_DRIVERS := $(foreach v,sol student,$(foreach l,$(LABS),$(BUILD)/labs/$(v)/$(l)/driver))
SOL_TESTS := $(foreach l,$(LABS),$(BUILD)/labs/sol/$(l)/test)
SOL_CPU_TESTS := $(foreach l,$(LABS),$(BUILD)/labs/sol-cpu/$(l)/test)
STUDENT_TESTS := $(foreach l,$(LABS),$(BUILD)/labs/student/$(l)/test)
STUDENT_CPU_TESTS := $(foreach l,$(LABS),$(BUILD)/labs/student-cpu/$(l)/test)
CPU_DRIVERS := $(foreach v,sol-cpu student-cpu,$(foreach l,$(LABS),$(BUILD)/labs/$(v)/$(l)/driver))
BANKVIZ := $(BUILD)/tools/bankviz
WORST_CASE := $(BUILD)/tools/worst_case
BANKCHECK := $(BUILD)/tools/bankcheck $(BUILD)/cpu/tools/bankcheck
KIT_TESTS := $(BUILD)/tests/test_common $(BUILD)/tests/test_cuda $(BUILD)/tests/test_bank $(BUILD)/tests/test_viz \
             $(BUILD)/tests/test_ncu $(BUILD)/tests/test_worst \
             $(BUILD)/tests/test_skel $(BUILD)/tests/test_grader $(BUILD)/tests/test_sandbox $(BUILD)/tests/test_selftest \
             $(BUILD)/tests/test_shard
CPU_TESTS := $(BUILD)/cpu/tests/test_cuda $(BUILD)/cpu/tests/test_cpu $(SOL_CPU_TESTS)

# LAB=01 or LAB=01-sequential-merge picks one lab folder.
LABDIR = $(patsubst labs/%/grading.spec,%,$(wildcard labs/$(LAB)*/grading.spec))

.PHONY: grade-course
.PHONY: all help test grade check run skeletons figures docs docs-instructor bench deps clean dist-student dist-gradescope
all: $(LIBKIT) $(GRADER) $(SKELGEN) $(BANKVIZ) $(WORST_CASE) $(BANKCHECK) $(LAB_DRIVERS)

help:
	@echo "Targets:"
	@echo "  make                 build the library, the grader and every lab's driver"
	@echo "  make test            the kit's own tests (CUnit), with a closing pass/fail line"
	@echo "  make grade           grade solutions/ (must score 100%); SUBMISSION=dir grades a submission,"
	@echo "                       LAB=NN restricts it to one lab"
	@echo "  make grade-course SUBMISSIONS=dir [SLURM=1]   grade a course folder (one subfolder per student) in SHARDS"
	@echo "                       shards: local workers, or a Slurm job array (PARTITION, ACCOUNT, TIME, PARALLEL, MODE,"
	@echo "                       LAB=\"01 02\", OUT, RERUN=K for one shard again); see handouts/instructor-guide.md"
	@echo "  make check LAB=NN    run that lab's public tests (the grader's, by name) on your labs/NN-* file;"
	@echo "                       TEST=NAME reruns one (CPU build always, GPU build too where a GPU is)"
	@echo "  make run LAB=NN ARGS=\"--m 5 --n 4 --print\"   run that lab's driver on your file"
	@echo "  make skeletons       regenerate labs/*/ skeletons from solutions/ (answer regions stripped)"
	@echo "  make figures         redraw handouts/figures/ with bankviz"
	@echo "  make docs            the handbook (Doxygen): handouts, study paths, API reference, in $(BUILD)/docs/html/"
	@echo "  make docs-instructor the same with the model answers, in $(BUILD)/docs-instructor/html/"
	@echo "  make bench           the benchmarks (simulator, CPU emulation and grader speed; GPU ones where a GPU is)"
	@echo "  make dist-student    build/dist/gpu-merge-kit-student.tar.gz: the kit without solutions/ and hidden tests"
	@echo "  make dist-gradescope build/dist/gpu-merge-kit-gradescope.zip: a Gradescope autograder (setup.sh, run_autograder)"
	@echo "  make deps            check for (and, as root, install) nvcc, CUnit and Doxygen"
	@echo "  make clean           remove $(BUILD)/"
	@echo "Variables: SMS=\"$(SMS)\" (GPU architectures), NVCC=$(NVCC), BUILD=$(BUILD), V=1 (show commands)"

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

$(BUILD)/cpu/obj/%.o: %.cc
	$(say) CXX "$< (CPU build)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(KIT_CPUFLAGS) $(CXXFLAGS) -c $< -o $@

# A lab's harness is built twice: against the reference solution (solutions/NN-*)
# and against your file (labs/NN-*). $(1) is the folder whose copy it includes.
define compile_lab
$(say) NVCC "$< (with $(1)/$*)"
@mkdir -p $(@D)
$(Q)$(NVCC) $(KIT_NVFLAGS) $(NVCCFLAGS) -I$(1)/$* $(addprefix -I$(1)/,$(LABS)) -MF $(@:.o=.d) -c $< -o $@
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
define compile_lab_cpu
$(say) CXX "$< (with $(1)/$*, CPU build)"
@mkdir -p $(@D)
$(Q)$(CXX) $(KIT_CPUFLAGS) $(CXXFLAGS) -I$(1)/$* $(addprefix -I$(1)/,$(LABS)) -c $< -o $@
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
define link_cpu
$(say) LINK $@
@mkdir -p $(@D)
$(Q)$(CXX) $^ $(1) -o $@
endef

$(LIBKIT): $(LIBKIT_OBJS)
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
$(BUILD)/cpu/tools/bankcheck: $(BUILD)/cpu/obj/common/tools/bankcheck.o $(LIBKIT_CPU)
	$(call link_cpu)
$(BUILD)/tools/bankcheck: $(BUILD)/obj/common/tools/bankcheck.o $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(GENCODE) $^ -o $@

$(BUILD)/labs/%/driver: $(BUILD)/labs/%/driver.o $(LIBKIT)
	$(say) LINK $@
	$(Q)$(NVCC) $(GENCODE) $^ -o $@

$(BUILD)/labs/%/test: $(BUILD)/labs/%/test_lab.o $(LIBKITTEST) $(LIBKIT)
	$(say) LINK $@
	$(Q)$(NVCC) $(GENCODE) $^ -lcunit -o $@

# The grader is plain C: it links the kit's host objects only, so it builds without nvcc (Gradescope).
$(GRADER): $(BUILD)/obj/grader/grader.o $(GRADER_LIB_OBJS) $(LIBKITREF) $(HOST_OBJS)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -o $@

$(SKELGEN): $(BUILD)/obj/grader/skelgen.o $(BUILD)/obj/grader/skel.o
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -o $@

$(BUILD)/tests/test_common: $(BUILD)/obj/common/tests/test_common.o $(LIBKITTEST) $(LIBKITREF) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

$(BANKVIZ): $(BUILD)/obj/common/tools/bankviz.o $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -o $@

# Lab 8's generator: the worst-case input of the merge sort, and the per-warp table (common/kit_worst.h).
$(WORST_CASE): $(BUILD)/obj/common/tools/worst_case.o $(LIBKITREF) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -o $@

$(BUILD)/tests/test_worst: $(BUILD)/obj/common/tests/test_worst.o $(LIBKITTEST) $(LIBKITREF) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

$(BUILD)/tests/test_bank: $(BUILD)/obj/common/tests/test_bank.o $(LIBKITTEST) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

$(BUILD)/tests/test_ncu: $(BUILD)/obj/common/tests/test_ncu.o $(LIBKITTEST) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

$(BUILD)/tests/test_viz: $(BUILD)/obj/common/tests/test_viz.o $(LIBKITTEST) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

$(BUILD)/tests/test_cuda: $(BUILD)/obj/common/tests/test_cuda.o $(LIBKITTEST) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(GENCODE) $^ -lcunit -o $@

$(BUILD)/tests/test_skel: $(BUILD)/obj/grader/tests/test_skel.o $(BUILD)/obj/grader/skel.o $(LIBKITTEST)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

$(BUILD)/tests/test_grader: $(BUILD)/obj/grader/tests/test_grader.o $(GRADER_LIB_OBJS) $(LIBKITTEST) $(LIBKITREF) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

# The sandbox's containment: memory limit, a uid per grader, namespaces, seccomp (some suites need root).
$(BUILD)/tests/test_sandbox: $(BUILD)/obj/grader/tests/test_sandbox.o $(BUILD)/obj/grader/sandbox.o $(LIBKITTEST) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

$(BUILD)/tests/test_shard: $(BUILD)/obj/grader/tests/test_shard.o $(GRADER_LIB_OBJS) $(LIBKITTEST) $(LIBKITREF) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

$(BUILD)/tests/test_selftest: $(BUILD)/obj/grader/tests/test_selftest.o $(LIBKITTEST) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -lcunit -o $@

# ---- the jobs ------------------------------------------------------------------
# The golden counts: ncu's shared-memory counts of every launch of the specs of labs 3-9 on an H100,
# with the simulator's (results/README.md); make test recounts the simulator's (mk/lab-counts.sh).
LAB_COUNTS_GOLDEN := results/2026-11-25-h100-lab-counts.tsv
test:
	@bash mk/deps.sh
	@$(MAKE) --no-print-directory $(LIBKIT_CPU) $(KIT_TESTS) $(CPU_TESTS) $(SOL_TESTS) $(STUDENT_TESTS) $(STUDENT_CPU_TESTS) $(GRADER) $(SKELGEN) $(BANKVIZ) $(LAB_DRIVERS) $(CPU_DRIVERS)
	@KIT_GRADER=$(GRADER) KIT_NVCC="$(NVCC)" KIT_NVCC_FLAGS="$(GENCODE)" KIT_BUILD=$(BUILD) \
	  bash mk/run-tests.sh $(BUILD)/test-logs $(KIT_TESTS) $(CPU_TESTS) $(SOL_TESTS) \
	  "bash mk/check-skeletons.sh $(SKELGEN) $(BUILD)" "bash mk/check-drivers.sh $(BUILD)" \
	  "bash mk/check-docs.sh $(BUILD)" \
	  "bash mk/check-dist.sh $(BUILD) $(GRADER)" \
	  "bash mk/test-slurm.sh $(BUILD) $(GRADER)" \
	  "bash mk/lab-counts.sh test $(GRADER) $(LAB_COUNTS_GOLDEN)"

grade:
	@bash mk/deps.sh
	@$(MAKE) --no-print-directory $(GRADER) $(LIBKIT) $(LIBKIT_CPU)
	$(Q)$(GRADER) --kit . --nvcc "$(NVCC)" --nvcc-flags "$(GENCODE)" \
	  $(if $(SUBMISSION),--submission "$(SUBMISSION)",--expect 100) $(if $(LAB),--lab "$(LAB)")

# A course at once, in shards: local workers, or with SLURM=1 a Slurm job array and a gather job (mk/grade-course.sh).
grade-course:
	@$(MAKE) --no-print-directory $(GRADER) $(LIBKIT_CPU) $(if $(filter cpu,$(MODE)),,$(LIBKIT))
	$(Q)bash mk/grade-course.sh --grader $(GRADER) $(if $(filter 1 yes,$(SLURM)),--slurm) $(if $(SHARDS),--shards $(SHARDS)) \
	  $(if $(PARALLEL),--parallel $(PARALLEL)) $(if $(PARTITION),--partition "$(PARTITION)") \
	  $(if $(ACCOUNT),--account "$(ACCOUNT)") $(if $(TIME),--time "$(TIME)") $(if $(MODE),--mode $(MODE)) \
	  $(if $(OUT),--out "$(OUT)") $(if $(RERUN),--rerun $(RERUN)) $(foreach l,$(LAB),--lab $(l)) "$(SUBMISSIONS)"

# The student's loop: your labs/NN-* file, that lab's public tests (its grading.spec), through the
# grader as make grade runs them; TEST=NAME reruns one. The GPU build too where there is a GPU.
check:
	@if [ -z "$(LAB)" ] || [ $(words $(LABDIR)) != 1 ]; then \
	  echo "make check: say which lab, e.g. make check LAB=01 (labs: $(LABS))" >&2; exit 2; fi
	@bash mk/deps.sh
	@$(MAKE) -s --no-print-directory $(GRADER) $(LIBKIT_CPU) $(if $(shell nvidia-smi -L 2>/dev/null),$(LIBKIT))
	$(Q)KIT_NVCC="$(NVCC)" KIT_NVCC_FLAGS="$(GENCODE)" bash mk/check.sh $(GRADER) $(BUILD) $(LABDIR) $(TEST)

run:
	@if [ -z "$(LAB)" ] || [ $(words $(LABDIR)) != 1 ]; then \
	  echo "make run: say which lab, e.g. make run LAB=01 ARGS=\"--print\" (labs: $(LABS))" >&2; exit 2; fi
	@$(MAKE) --no-print-directory $(BUILD)/labs/student/$(LABDIR)/driver $(BUILD)/labs/student-cpu/$(LABDIR)/driver
	$(Q)if nvidia-smi -L >/dev/null 2>&1; then $(BUILD)/labs/student/$(LABDIR)/driver $(ARGS); \
	  else echo "(no GPU here: running the CPU build, kernels on the kit's CPU emulation)"; \
	  $(BUILD)/labs/student-cpu/$(LABDIR)/driver $(ARGS); fi

skeletons: $(SKELGEN)
	$(Q)for f in $(SOLUTION_FILES); do \
	  out=labs/$${f#solutions/}; $(SKELGEN) $$f $$out && echo "  SKEL     $$out" || exit 1; done

# Benchmarks check performance targets; they are not tests and never run in make test.
$(BUILD)/bench/bank_sim: $(BUILD)/obj/bench/bank_sim.o $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $^ -o $@
SOL_INCLUDES := $(addprefix -Isolutions/,$(LABS)) $(patsubst %,-Ilabs/%/harness,$(LABS)) -Igrader/ref
# A benchmark bench/NAME.cu builds for the GPU as build/bench/NAME and for the CPU emulation as
# build/cpu/bench/NAME, both with the reference solutions.
$(BUILD)/obj/bench/%.o: bench/%.cu
	$(say) NVCC "$< (with the solutions)"
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(KIT_NVFLAGS) $(NVCCFLAGS) --extended-lambda $(SOL_INCLUDES) -MF $(@:.o=.d) -c $< -o $@
$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(LIBKITREF) $(LIBKIT)
	$(say) LINK $@
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(GENCODE) $^ -o $@
$(BUILD)/cpu/obj/bench/%.o: bench/%.cu
	$(say) CXX "$< (CPU build, with the solutions)"
	@mkdir -p $(@D)
	$(Q)$(CXX) $(KIT_CPUFLAGS) $(CXXFLAGS) $(SOL_INCLUDES) -c $< -o $@
$(BUILD)/cpu/bench/%: $(BUILD)/cpu/obj/bench/%.o $(LIBKITREF) $(LIBKIT_CPU)
	$(call link_cpu)

bench: $(BUILD)/bench/bank_sim $(BUILD)/cpu/bench/cpu_merge $(BUILD)/bench/merge_bench $(BUILD)/bench/pbs_bench \
       $(BUILD)/bench/sort_bench $(GRADER) $(LIBKIT_CPU)
	$(Q)$(BUILD)/bench/bank_sim
	$(Q)$(BUILD)/cpu/bench/cpu_merge
	$(Q)bash mk/bench-grader.sh $(GRADER)
	$(Q)$(BUILD)/bench/merge_bench
	$(Q)$(BUILD)/bench/pbs_bench
	$(Q)$(BUILD)/bench/sort_bench
	$(Q)bash mk/sort-conflicts.sh $(BUILD)/bench/sort_bench 22 random worst

# Every figure of the handouts, drawn by bankviz from data (mk/figures.sh lists them).
figures: $(BANKVIZ) $(WORST_CASE) $(BUILD)/labs/sol-cpu/06-predecessor-search/driver $(BUILD)/labs/sol-cpu/07-cf-gather/driver \
         $(BUILD)/labs/sol-cpu/09-merge-sort/driver
	$(Q)KIT_PBS_DRIVER=$(BUILD)/labs/sol-cpu/06-predecessor-search/driver KIT_WORST_CASE=$(WORST_CASE) \
	  KIT_CF_DRIVER=$(BUILD)/labs/sol-cpu/07-cf-gather/driver KIT_SORT_DRIVER=$(BUILD)/labs/sol-cpu/09-merge-sort/driver \
	  bash mk/figures.sh $(BANKVIZ) handouts/figures

# The handbook. Both builds fail on any Doxygen warning; only the instructor's holds the model answers.
docs:
	$(Q)bash mk/docs.sh student $(BUILD)/docs

docs-instructor:
	$(Q)bash mk/docs.sh instructor $(BUILD)/docs-instructor

# What instructors publish: the student tarball, and the autograder zip for Gradescope.
dist-student:
	$(Q)bash mk/dist-student.sh $(BUILD)/dist

dist-gradescope:
	$(Q)bash mk/dist-gradescope.sh $(BUILD)/dist

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
