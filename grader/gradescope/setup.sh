#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image:
# it installs a C and C++ toolchain (and python3, which run_autograder uses to
# add its notes to results.json), builds the grader and the kit's CPU emulation
# library (Gradescope has no GPU), and makes the reference solutions and hidden
# tests readable by root only. Submissions are compiled and run by the grader's
# sandbox under a user id of its own (from 2100000000 up, one per grader
# process; see the instructor guide's threat model), never as root, so they
# cannot include or read those files.
set -eu
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q build-essential python3
make build/grader/grader build/libkitcpu.a
chmod -R go-rwx solutions grader/hidden
chmod o+x "$PWD" "$(dirname "$PWD")" # the sandbox's user must pass through to the kit's headers and library
