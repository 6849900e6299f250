#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image:
# it installs a C and C++ toolchain, builds the grader and the kit's CPU
# emulation library (Gradescope has no GPU), makes the course secret the hidden
# tests are drawn from when the zip has none, and makes the reference solutions,
# the hidden tests and the secret readable by root only, so the user that
# compiles and runs submissions (nobody) cannot include or read them.
set -eu
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q build-essential libclang-dev # libclang: the lab-file checker (grader/labcheck.c)
make build/grader/grader build/grader/labcheck build/libkitcpu.a
# The course secret the hidden tests are drawn from: the one make dist-gradescope SECRET=FILE packed,
# or one made now, once for this image (every regrade in it draws the same tests).
[ -f grader/course.secret ] || build/grader/grader --make-secret grader/course.secret
chmod -R go-rwx solutions grader/hidden grader/course.secret
chmod o+x "$PWD" "$(dirname "$PWD")" # nobody must pass through to the kit's headers and library
