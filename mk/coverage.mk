# mk/coverage.mk: function coverage reports (included by the Makefile,
# after RUN, BT and the board's QEMU settings).
#
# make coverage: the KTAP suites (APP=test/target, baretrace's own; or
# the application that APP= on the command line names: one whose main()
# runs ktest_run() when its first argument is "ktest", docs/coverage.md)
# booted once on this board's QEMU under trace=coverage and captured; the coverage frames of
# the capture become lcov data and genhtml's report (its folders relative
# to the tree, --prefix: genhtml's own guess depends on where the tree is;
# for a clone in /tmp/cc2 it took /tmp/cc2/test, so kernel/ was missing):
#   build/coverage/ktest.bt        the capture
#   build/coverage/coverage.info   lcov tracefile (baretrace coverage)
#   build/coverage/index.html      genhtml's report
# (build/coverage/BOARD/ for a board other than qemu-virt). The files are
# written whatever the suites said; the make then fails if a suite
# failed or the run did not end with exit 0. COVERAGE_SUITES picks the
# suites (ktest's name prefixes; empty: all of them).
COVERAGE_DIR := $(BUILD)/coverage$(if $(filter-out qemu-virt,$(BOARD)),/$(BOARD))
COVERAGE_SUITES ?=
ifeq ($(origin APP),command line)
COVERAGE_APP := $(APP)
KTEST_OUT = $(OUT)
else
COVERAGE_APP := test/target
KTEST_OUT := $(BUILD)/$(BOARD)/app-test-target
endif

coverage: host-tools $(QEMU_DTB_DEP)
	$(Q)$(MAKE) --no-print-directory BOARD=$(BOARD) APP=$(call shell_quote,$(COVERAGE_APP))
	@mkdir -p $(COVERAGE_DIR) && rm -f $(COVERAGE_DIR)/ktest.bt $(COVERAGE_DIR)/coverage.info \
	  $(COVERAGE_DIR)/index.html $(COVERAGE_DIR)/status
	@status=0; $(call RUN_ON,$(KTEST_OUT)) \
	  --bootargs "panic=poweroff trace=coverage -- ktest $(call list_words,$(COVERAGE_SUITES))" \
	  --qemu-flags "$(QEMU_FLAGS)" --status $(COVERAGE_DIR)/status \
	  --capture $(COVERAGE_DIR)/ktest.bt || status=$$?; echo; \
	$(BT) coverage $(COVERAGE_DIR)/ktest.bt --elf $(KTEST_OUT)/baretrace.elf \
	  -o $(COVERAGE_DIR)/coverage.info || exit $$?; \
	genhtml -q --title "baretrace KTAP suites ($(BOARD))" --prefix $(CURDIR) \
	  -o $(COVERAGE_DIR) $(COVERAGE_DIR)/coverage.info || exit $$?; \
	echo "trace:  $(COVERAGE_DIR)/ktest.bt"; echo "lcov:   $(COVERAGE_DIR)/coverage.info"; \
	echo "html:   $(COVERAGE_DIR)/index.html"; \
	[ $$status = 0 ] || echo "make coverage: the KTAP run ended $$(cat $(COVERAGE_DIR)/status 2>/dev/null || echo "with status $$status")" >&2; \
	exit $$status

# make coverage-html TRACES='A.bt ...': the same report from traces of
# your own runs with trace=coverage (several boots and boards merge).
# ELFS: their images (default this board's; one per board or build when
# they differ).
coverage-html: $(HOST)/baretrace
	$(Q)[ -n "$(call list_words,$(TRACES))" ] || { echo "make coverage-html: give TRACES='A.bt ...', traces of runs with trace=coverage" >&2; exit 2; }
	$(Q)mkdir -p $(COVERAGE_DIR)
	$(Q)$(BT) coverage $(call list_words,$(TRACES)) $(foreach e,$(or $(call list_words,$(ELFS)),$(OUT)/baretrace.elf),--elf $(e)) \
	  -o $(COVERAGE_DIR)/coverage.info
	$(Q)genhtml -q --title baretrace --prefix $(CURDIR) -o $(COVERAGE_DIR) \
	  $(COVERAGE_DIR)/coverage.info
	@echo "html:   $(COVERAGE_DIR)/index.html"
