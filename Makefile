# SPDX-License-Identifier: MIT
# Convenience targets around meson. 'make demo' and 'make test' set up a
# fresh Debian 12 machine themselves (see README.md).
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
# The library's thread tests (unit and kernel tests that call it from
# threads, or whose library starts threads), which make test-tsan runs
# under ThreadSanitizer. Not counting: its threads are a workload whose
# page faults it counts to the page, and TSan's runtime faults its own.
TSAN_TESTS ?= util perf-data record regions
FUZZ_BUILD ?= build-fuzz
LIB_ONLY_BUILD ?= build-lib-only
PMU_BUILD ?= build-arm64
# What make test-pmu runs in the emulated ARMv8 machine: every suite whose
# tests are programs (the CLI's are Python scripts of the host), for what
# only arm64 has: the PMU's exact counts (pmu, kernel's hw), the user-space
# read of its counters, frame records and the link register in unwinding,
# unsigned char in the parsers, arm64's build of every C test. But not the
# simulations (PMU_SKIP), whose thousands of seeded trials repeat the code
# that the stats, compare-paired and diff tests check with known values
# (2.5 of the stage's 11 test-minutes here).
PMU_SUITES ?= pmu kernel unit examples
PMU_SKIP ?= paired-sim stats-sim order
# Every test boots the emulated machine (10-35 s on a loaded 2-CPU host):
# the host-sized timeouts are stretched rather than each test's.
PMU_TIMEOUT_MULTIPLIER ?= 4
FUZZ_TIME ?= 60
# make test-valgrind runs under memcheck what it adds over make test and
# ASan+UBSan: reads of uninitialised memory, in the uninstrumented build.
# Every C test, fuzz replay and example of the 'valgrind' setup, but
# VALGRIND_SKIP: the simulations (their trials repeat the statistical tests
# that stats and compare-paired check once with known values) and
# stats-scipy (a Python script: memcheck would check the interpreter, and
# not follow it into the C tool it runs).
VALGRIND_SKIP ?= paired-sim stats-sim stats-scipy
# Of the CLI tests, a set that reaches each command's library paths once,
# hwprof under memcheck ('valgrindcli'): stat (its outputs, metrics,
# intervals and OpenMetrics, regions, targets, signals, A/B runs, error
# paths), record and report (live symbols, -g and dwarf chains, every
# export format, off-CPU, kernel symbols, debuginfod), the golden files
# (every writer of report, diff and compare on fixed inputs), list, doctor
# and serve. The other CLI tests repeat these paths with other cases; the
# C tests reach the library below them. VALGRIND_CLI=all runs every one.
VALGRIND_CLI ?= cli-stat cli-stat_metrics cli-openmetrics cli-regions cli-targets \
	cli-signals cli-ab cli-errors cli-record cli-report cli-leaf cli-demangle cli-offcpu \
	cli-kernel cli-debuginfod cli-golden cli-list cli-doctor cli-serve
WERROR ?= 0
MESON_OPTS ?=
TEST_OPTS ?=

ifeq ($(WERROR),1)
MESON_OPTS += -Dwerror=true
endif

HWPROF = $(BUILD)/cli/hwprof

.PHONY: all deps build demo test test-asan test-tsan test-valgrind test-pmu fuzz bench install clean help \
	abi-baseline golden-update check-lib-only

all: build

help:
	@echo "make demo       install what is missing, build, and run hwprof stat on a workload"
	@echo "make test       install what is missing, build, and run the whole test suite"
	@echo "make test-asan  the suite under AddressSanitizer and UndefinedBehaviorSanitizer"
	@echo "make test-tsan  the library's thread tests under ThreadSanitizer (TSAN_TESTS)"
	@echo "make test-valgrind  under valgrind's memcheck, the C tests, examples and the CLI"
	@echo "                tests that reach each command's paths (VALGRIND_CLI=all: every one)"
	@echo "make test-pmu   cross-build for arm64 and run the hardware-counter tests, and the"
	@echo "                C suites, on an emulated ARMv8 PMU (QEMU) that counts exactly"
	@echo "make fuzz       every libFuzzer target for FUZZ_TIME seconds (default 60)"
	@echo "make bench      the benchmarks of bench/ (results: BENCHMARKS.md)"
	@echo "make install    meson install (PREFIX via MESON_OPTS=--prefix=...)"
	@echo "make abi-baseline  record the library's ABI in tests/abi/libhwprof.abi, which"
	@echo "                the abi-layout test diffs against: commit it with an ABI change"
	@echo "make check-lib-only  build and install the library alone (-Dcli=false"
	@echo "                -Dtests=false -Dbench=false), and build a program against it"
	@echo "make golden-update  rewrite tests/golden/expected/ from what hwprof prints now, for"
	@echo "                an intended change of output: review the diff and commit it"

# The package installer (Debian's apt-get; elsewhere it says what to
# install and goes on). NO_DEPS=1 skips it, for machines set up another way.
ifeq ($(NO_DEPS),1)
DEPS = @true
else
DEPS = @tools/deps.sh
endif

deps:
	$(DEPS)

# Configure once; later runs apply MESON_OPTS to the existing build.
$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTS)

build: deps $(BUILD)/build.ninja
	@if [ -n "$(strip $(MESON_OPTS))" ]; then meson configure $(BUILD) $(MESON_OPTS); fi
	meson compile -C $(BUILD)

demo: build
	@echo
	@echo '$$ hwprof stat -e page-faults,context-switches,cpu-migrations,cache-misses,task-clock \'
	@echo '      -M "faults/migration=page-faults / cpu-migrations" -- examples/churn'
	@$(HWPROF) stat -e page-faults,context-switches,cpu-migrations,cache-misses,task-clock \
		-M "faults/migration=page-faults / cpu-migrations" -- $(BUILD)/examples/churn

# The CLI tests compare with perf; the ABI test diffs with abigail-tools;
# promtool (prometheus) checks the Prometheus output and scrapes hwprof
# serve, prometheus-node-exporter reads stat -I's textfile, python3-jsonschema
# the speedscope files and every JSON output against docs/schema/, go tool
# pprof (golang-go) the pprof files, and headless chromium the HTML flame
# graphs; python3-scipy checks the paired tests against scipy's ttest_rel
# and wilcoxon; man-db's man renders the man pages (suite docs); the bash
# completion is tested with bash-completion's helpers; python3-pytest runs
# the Python package's tests, python3-pytest-benchmark its plugin's; strace
# counts the system calls of a stat (cli-startup).
test: build
	$(DEPS) linux-perf abigail-tools prometheus python3-jsonschema golang-go chromium g++ \
		python3-scipy man-db bash-completion python3-pytest python3-pytest-benchmark \
		prometheus-node-exporter strace
	@meson test -C $(BUILD) --print-errorlogs $(TEST_OPTS) >$(BUILD)/test-output.txt 2>&1; \
	rc=$$?; grep -vE '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' \
		$(BUILD)/test-output.txt; \
	tools/test-summary.py $(BUILD)/meson-logs/testlog.json && exit $$rc

test-asan: deps
	@[ -f $(ASAN_BUILD)/build.ninja ] || meson setup $(ASAN_BUILD) \
		-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug $(MESON_OPTS)
	@if [ -n "$(strip $(MESON_OPTS))" ]; then meson configure $(ASAN_BUILD) $(MESON_OPTS); fi
	meson compile -C $(ASAN_BUILD)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		meson test -C $(ASAN_BUILD) --print-errorlogs $(TEST_OPTS) \
		>$(ASAN_BUILD)/test-output.txt 2>&1; rc=$$?; \
	grep -vE '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' \
		$(ASAN_BUILD)/test-output.txt; \
	tools/test-summary.py $(ASAN_BUILD)/meson-logs/testlog.json && exit $$rc

# gcc's -fsanitize=thread needs its runtime, libtsan2. Only the thread
# tests' programs are built (and the programs they run): a whole tree under
# TSan is minutes of compiling for tests that start no thread.
test-tsan: deps
	$(DEPS) libtsan2
	@[ -f $(TSAN_BUILD)/build.ninja ] || meson setup $(TSAN_BUILD) \
		-Db_sanitize=thread -Db_lundef=false -Dbuildtype=debug $(MESON_OPTS)
	@if [ -n "$(strip $(MESON_OPTS))" ]; then meson configure $(TSAN_BUILD) $(MESON_OPTS); fi
	meson compile -C $(TSAN_BUILD) $(addprefix test-,$(TSAN_TESTS)) workload inlines leafcalls
	@TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
		meson test -C $(TSAN_BUILD) --no-rebuild --print-errorlogs $(TEST_OPTS) \
		$(TSAN_TESTS) >$(TSAN_BUILD)/test-output.txt 2>&1; rc=$$?; \
	grep -vE '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' \
		$(TSAN_BUILD)/test-output.txt; \
	tools/test-summary.py $(TSAN_BUILD)/meson-logs/testlog.json && exit $$rc

# $(call listed,BUILD,OPTIONS,NAMES): the tests that meson test OPTIONS
# would run, by name, but NAMES.
listed = $$(meson test -C $(1) --list $(2) 2>/dev/null | \
	awk -v skip=" $(strip $(3)) " '/ \/ / && !index(skip, " " $$NF " ") { print $$NF }')

# Valgrind wraps the C tests and examples ('valgrind', but VALGRIND_SKIP)
# and every hwprof run of the CLI tests of VALGRIND_CLI ('valgrindcli'); the
# logs of the latter are checked too.
test-valgrind: build
	$(DEPS) valgrind
	@rm -f $(BUILD)/meson-logs/valgrind-hwprof-*.log
	@names=" $$(meson test -C $(BUILD) --list 2>/dev/null | awk '/ \/ / { printf "%s ", $$NF }')"; \
	for t in $(filter-out all,$(VALGRIND_CLI)); do case "$$names" in *" $$t "*) ;; \
	*) echo "VALGRIND_CLI names $$t, which is no test (meson test -C $(BUILD) --list)"; \
		exit 1;; esac; done
	@meson test -C $(BUILD) --setup valgrind --print-errorlogs $(TEST_OPTS) \
		$(call listed,$(BUILD),--setup valgrind,$(VALGRIND_SKIP)) \
		>$(BUILD)/test-valgrind.txt 2>&1; rc1=$$?; \
	meson test -C $(BUILD) --setup valgrindcli --print-errorlogs $(TEST_OPTS) \
		$(filter-out all,$(VALGRIND_CLI)) >>$(BUILD)/test-valgrind.txt 2>&1; rc2=$$?; \
	grep -vE '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' $(BUILD)/test-valgrind.txt; \
	if grep -l '== .*\(Invalid\|uninitialised\|definitely lost\)' \
		$(BUILD)/meson-logs/valgrind-hwprof-*.log 2>/dev/null; then \
		echo "valgrind found errors in hwprof (logs above)"; rc2=1; fi; \
	tools/test-summary.py $(BUILD)/meson-logs/testlog-valgrind.json \
		$(BUILD)/meson-logs/testlog-valgrindcli.json && [ $$rc1 = 0 ] && [ $$rc2 = 0 ]

# The emulated ARMv8 machine (tools/pmu/): Debian's arm64 kernel in QEMU
# with -icount, whose PMU counts instructions exactly. setup.sh installs
# QEMU, the cross compiler and the arm64 libraries, and unpacks the guest.
test-pmu: deps
	@tools/pmu/setup.sh $(PMU_BUILD)
	@[ -f $(PMU_BUILD)/build.ninja ] || meson setup $(PMU_BUILD) \
		--cross-file tools/pmu/aarch64-linux-gnu.ini \
		--cross-file $(PMU_BUILD)/guest/wrapper.ini $(MESON_OPTS)
	@if [ -n "$(strip $(MESON_OPTS))" ]; then meson configure $(PMU_BUILD) $(MESON_OPTS); fi
	meson compile -C $(PMU_BUILD)
	@meson test -C $(PMU_BUILD) --print-errorlogs \
		$(call listed,$(PMU_BUILD),$(addprefix --suite ,$(PMU_SUITES)),$(PMU_SKIP)) \
		--timeout-multiplier $(PMU_TIMEOUT_MULTIPLIER) $(TEST_OPTS) >$(PMU_BUILD)/test-output.txt 2>&1; rc=$$?; \
	grep -vE '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' \
		$(PMU_BUILD)/test-output.txt; \
	tools/test-summary.py $(PMU_BUILD)/meson-logs/testlog.json && exit $$rc

# libFuzzer needs clang. Crashes are kept in $(FUZZ_BUILD)/fuzz-work/artifacts.
fuzz: deps
	$(DEPS) clang libclang-rt-14-dev
	@[ -f $(FUZZ_BUILD)/build.ninja ] || CC=clang CXX=clang++ meson setup $(FUZZ_BUILD) \
		-Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
	meson compile -C $(FUZZ_BUILD) >/dev/null
	tools/fuzz.sh $(FUZZ_BUILD) $(FUZZ_TIME)

# The library alone, as a packager of libhwprof builds it: configured,
# built, installed into a temporary root and used through pkg-config.
check-lib-only: deps
	@[ -f $(LIB_ONLY_BUILD)/build.ninja ] || meson setup $(LIB_ONLY_BUILD) \
		-Dcli=false -Dtests=false -Dbench=false $(MESON_OPTS)
	@if [ -n "$(strip $(MESON_OPTS))" ]; then meson configure $(LIB_ONLY_BUILD) $(MESON_OPTS); fi
	meson compile -C $(LIB_ONLY_BUILD)
	tests/install.sh $(LIB_ONLY_BUILD) . --lib-only \
		$$(find $(LIB_ONLY_BUILD)/docs/man -name '*.[0-9]' 2>/dev/null)

bench: build
	meson compile -C $(BUILD) bench-all 2>/dev/null || true
	bench/run.sh $(BUILD)

abi-baseline: build
	$(DEPS) abigail-tools
	tests/abi/layout.sh $(BUILD)/lib/libhwprof.so.0 include/hwprof \
		tests/abi/libhwprof.abi --update

# The golden-output test (tests/cli/test_golden.py) writes the expected
# files instead of comparing with them; git diff shows what changed.
golden-update: build
	HWPROF_GOLDEN_UPDATE=1 meson test -C $(BUILD) --print-errorlogs cli-golden
	@git diff --stat -- tests/golden/expected; git status --short -- tests/golden/expected

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(PMU_BUILD) $(LIB_ONLY_BUILD)
