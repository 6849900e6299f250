#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image:
# it installs a C and C++ toolchain, libclang (the lab-file checker) and python3
# (which run_autograder uses to add its notes to results.json), builds the
# grader and the kit's CPU emulation library (Gradescope has no GPU), makes the
# course secret the hidden tests are drawn from when the zip has none, and makes
# the reference solutions, the hidden tests and the secret readable by root
# only. Submissions are compiled and run by the grader's sandbox under a user id
# of its own (from 2100000000 up, one per grader process; see the instructor
# guide's threat model), never as root, and each compile and run sees only the
# files assembled for it, so they cannot include or read those files.
set -eu
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q build-essential libclang-dev python3 # libclang: the lab-file checker (grader/labcheck.c)
make build/grader/grader build/grader/labcheck build/libkitcpu.a
# The course secret the hidden tests are drawn from: the one make dist-gradescope SECRET=FILE packed,
# or one made now, once for this image (every regrade in it draws the same tests).
[ -f grader/course.secret ] || build/grader/grader --make-secret grader/course.secret
chmod -R go-rwx solutions grader/hidden grader/course.secret
chmod o+x "$PWD" "$(dirname "$PWD")" # where no view can be built, the sandbox's user must pass through to the kit's headers and library
