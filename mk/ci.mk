# mk/ci.mk: make ci, a CI run whose figures are exact (docs/ci.md), read
# by the Makefile after mk/run.mk.
#
# make ci builds APP and boots it as make run does, under QEMU's
# instruction-counting clock (ICOUNT=1: -icount shift=4,sleep=off; on
# qemu-virt's, raspi3b's and raspi4b's 62.5 MHz counter one tick is one
# instruction), so the same build gives the same bytes every run. Its
# outputs go to CI_DIR (what was there goes first):
#   trace.bt, trace.txt, trace.json, trace.folded, status   make run's
#   stats.txt        baretrace stats
#   hist.txt         baretrace hist, when the run kept histograms (trace_hist=)
#   diff.txt         stats --diff CI_BASELINE trace.bt --fail-above CI_FAIL_ABOVE
#   diff-hist.txt    the same with --hist, when both have histograms
#   console.log      what the run printed (make run's output)
#   junit-ktap.xml   the run's KTAP results as JUnit (baretrace ktap), when
#                    it printed KTAP (an app running ktest)
#   junit-perf.xml   the gate's verdict per function as JUnit (stats --diff
#                    --junit), with CI_BASELINE
#   verdict          "pass 0", "run N" (the run failed: its status),
#                    "ktap 3" (a KTAP test failed) or "gate 3"
# The last line make prints says the verdict; make exits 0 on a pass and
# 2 (GNU make's failure) otherwise, the status in the line and in verdict.
CI_DIR := $(BUILD)/ci
CI_BASELINE ?=
CI_FAIL_ABOVE ?= 0

# Bad values are refused before anything is built or booted.
ifneq ($(filter ci,$(MAKECMDGOALS)),)
ifeq ($(ICOUNT),0)
$(error make ci always runs under QEMU's -icount (its figures are instruction counts); \
ICOUNT=0 is for make run)
endif
ifneq ($(CI_BASELINE),)
ifeq ($(wildcard $(CI_BASELINE)),)
$(error CI_BASELINE=$(CI_BASELINE): no such file (a build/ci/trace.bt kept from an earlier make ci); \
nothing was built or run)
endif
ifneq ($(filter $(abspath $(CI_DIR))/%,$(abspath $(CI_BASELINE))),)
$(error CI_BASELINE=$(CI_BASELINE) is inside $(CI_DIR), which make ci empties first: keep the \
baseline elsewhere (cp $(CI_DIR)/trace.bt ci-baseline.bt); nothing was built or run)
endif
ifneq ($(shell [ -f '$(subst ','\'',$(CI_BASELINE))' ] && head -c 7 '$(subst ','\'',$(CI_BASELINE))' \
  | tr -d '\0' | grep -qx BTRACE && echo ok),ok)
$(error CI_BASELINE=$(CI_BASELINE) is not a baretrace trace file (a build/ci/trace.bt kept from \
an earlier make ci); nothing was built or run)
endif
endif
ifneq ($(shell printf '%s' '$(subst ','\'',$(CI_FAIL_ABOVE))' | grep -Eqx '[0-9]+(\.[0-9]+)?' && echo ok),ok)
$(error CI_FAIL_ABOVE='$(CI_FAIL_ABOVE)': a percentage, 0 or more (e.g. 0, 2.5); nothing was built or run)
endif
endif

.PHONY: ci
ci: ci-run
	$(if $(filter-out pass,$(firstword $(CI_VERDICT))),$(error $(CI_LAST)))
	@printf '%s\n' $(call shell_quote,$(CI_LAST))
CI_VERDICT = $(shell cat $(CI_DIR)/verdict 2>/dev/null)
CI_LAST = $(or $(shell cat $(CI_DIR)/last-line 2>/dev/null),make ci: no verdict in $(CI_DIR))

# The run, its texts and the gate; never fails itself (ci's recipe says
# the verdict, as make's last line). Not .PHONY, being no goal of its
# own (no file has its name: it always runs).
ci-run:
	@rm -rf $(CI_DIR) && mkdir -p $(CI_DIR)
	@$(MAKE) --no-print-directory ICOUNT=1 RUN_DIR=$(CI_DIR) run 2>&1 \
	  | tee $(CI_DIR)/console.log || true
	@$(CI_REPORT)

# After the run: stats and histograms as text; the gate against
# CI_BASELINE; the verdict. The figures name no path of the host (the
# same build gives the same bytes, test/ci_exact.py).
define CI_REPORT
	bt=$(BT); d=$(CI_DIR); elf=$(OUT)/baretrace.elf; gate=0; over=""; \
	[ -s $$d/status ] || echo "unknown 1" > $$d/status; read word code < $$d/status; \
	if [ "$$word" = exit ]; then run=$$(( ((code % 256) + 256) % 256 )); \
	  [ $$run -ne 0 ] || [ "$$code" = 0 ] || run=1; else run=$${code:-1}; fi; \
	if [ -s $$d/trace.bt ] && [ $$(wc -c < $$d/trace.bt) -gt 8 ]; then \
	  $$bt stats $$d/trace.bt --elf $$elf > $$d/stats.txt; \
	  $$bt hist $$d/trace.bt --elf $$elf > $$d/hist.txt 2>/dev/null || rm -f $$d/hist.txt; \
	  if [ -n $(call shell_quote,$(CI_BASELINE)) ]; then \
	    $$bt stats --diff $(call shell_quote,$(CI_BASELINE)) $$d/trace.bt --fail-above $(CI_FAIL_ABOVE) \
	      --junit $$d/junit-perf.xml > $$d/diff.txt 2> $$d/diff.err; rc=$$?; cat $$d/diff.err >&2; \
	    [ $$rc = 0 ] || gate=$$rc; \
	    if [ -f $$d/hist.txt ]; then \
	      $$bt stats --diff $(call shell_quote,$(CI_BASELINE)) $$d/trace.bt --hist --fail-above $(CI_FAIL_ABOVE) \
	        > $$d/diff-hist.txt 2>> $$d/diff.err; rc=$$?; \
	      if [ $$rc = 1 ]; then rm -f $$d/diff-hist.txt; \
	      elif [ $$rc != 0 ]; then gate=$$rc; fi; \
	    fi; \
	    over=$$(sed -n -e 's/^baretrace: stats --diff: \([^ ]*\) grew more than [0-9.]*%: \(.*\)$$/\1 \2/p' \
	      -e 's/^baretrace: stats --diff --hist: \(.*\) grew past .*$$/\1 (histogram)/p' \
	      $$d/diff.err | head -n 3 | paste -sd ';' - | sed 's/;/; /g'); \
	  fi; \
	elif [ -n $(call shell_quote,$(CI_BASELINE)) ]; then gate=1; over="the run left no trace to compare"; fi; \
	ktap=0; if grep -aq '^KTAP version' $$d/console.log; then \
	  $$bt ktap $$d/console.log --junit $$d/junit-ktap.xml > $$d/ktap.txt 2>&1; ktap=$$?; \
	  tail -n 2 $$d/ktap.txt; fi; \
	junit=$$(cd $$d && ls junit-ktap.xml junit-perf.xml 2>/dev/null | sed "s|^|$$d/|" | paste -sd ' ' -); \
	base='$(if $(CI_BASELINE),against $(CI_BASELINE) at --fail-above $(CI_FAIL_ABOVE) %,no CI_BASELINE: no gate)'; \
	if [ $$ktap != 0 ] && [ "$$word" = exit ]; then echo "ktap $$ktap" > $$d/verdict; \
	  msg="make ci: FAIL: KTAP: $$(grep -a -m1 '^# failed: ' $$d/ktap.txt || echo "baretrace ktap said $$ktap") (exit status $$ktap; $$d/ktap.txt)"; \
	elif [ $$run != 0 ]; then echo "run $$run" > $$d/verdict; \
	  msg="make ci: FAIL: the run ended with $$word $$code (exit status $$run; $$d/status)"; \
	elif [ $$gate = 3 ]; then echo "gate 3" > $$d/verdict; \
	  msg="make ci: FAIL: the performance gate $$base: $$over (exit status 3; $$d/diff.txt)"; \
	elif [ $$gate != 0 ]; then echo "gate $$gate" > $$d/verdict; \
	  msg="make ci: FAIL: the performance gate could not compare $$base (exit status $$gate; $$d/diff.err)"; \
	else echo "pass 0" > $$d/verdict; \
	  msg="make ci: PASS: exit status 0, $$base; exact figures in $$d/"; fi; \
	[ -z "$$junit" ] || msg="$$msg; JUnit: $$junit"; \
	printf '%s\n' "$$msg" > $$d/last-line
endef
