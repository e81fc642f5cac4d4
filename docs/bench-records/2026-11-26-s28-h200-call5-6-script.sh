#!/usr/bin/env bash
# Session 28 calls 5 and 6: engine_tests' [large] tests, and the select/unique/partition test past
# 2^32 with its output re-poisoned between the calls (the test's fix after call 4), under the
# Khronos validation layer. Call 5 ran both lines, but its sort_tests filter (the test's name,
# which holds a comma: Catch reads two names) matched no test; call 6 ran the first line alone
# with the tag filter below.
set -uo pipefail
bash tools/device/bench.sh tests sort_tests '[unique][large]'
bash tools/device/bench.sh tests engine_tests '[large]'
