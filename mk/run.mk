# mk/run.mk: booting the image under QEMU (make run, run-direct, debug),
# read by the Makefile at this point: the boot line, BOOTARGS as typed,
# what is captured, the status files and the report after a run.

# ---- running --------------------------------------------------------------
# board.mk may set QEMU_BIN, its own QEMU (rpi4: tools/fetch-qemu's, for
# raspi4b), and QEMU_DTB, the device tree its firmware would pass (rpi4:
# Debian's, tools/fetch-pi), handed over by make run, run-direct, debug
# and bench.
QEMU_DTB_FILE = $(if $(QEMU_DTB),$(firstword $(wildcard \
  $(RPI_KERNEL_DEB)/usr/lib/linux-image-*/broadcom/$(QEMU_DTB))))
QEMU_DTB_DEP := $(if $(QEMU_DTB),$(RPI_KERNEL_DEB)/.fetched) $(QEMU_BIN)
ifneq ($(QEMU_BIN),)
# Fetched by the first target that boots this board (tools/setup test too).
$(QEMU_BIN):
	$(Q)tools/fetch-qemu
endif
# RUN boots this app's image; $(call RUN_ON,DIR) the image in DIR (make
# coverage boots test/target's).
RUN_ON = tools/qemu-run --board $(BOARD) --image $(1)/Image --smp $(QEMU_SMP) \
  --mem $(QEMU_MEM) --cpu $(QEMU_CPU) --machine $(QEMU_MACHINE) \
  $(if $(QEMU_BIN),--qemu $(QEMU_BIN)) $(if $(QEMU_DTB),--dtb '$(or $(QEMU_DTB_FILE),$(QEMU_DTB))')
RUN = $(call RUN_ON,$(OUT))

# make run traces the app: TRACE= turns it off, TRACE_FILTER= picks the
# functions: by default the globs of the app's trace_filter file (a '#'
# to the end of a line is a comment), else @app, the app's own functions
# (the kernel's filter knows each function's folder; docs/tracing.md).
TRACE ?= function_graph
hash := \#
TRACE_FILTER ?= $(if $(wildcard $(APP)/trace_filter),$(shell sed 's/$(hash).*//' $(APP)/trace_filter),@app)
# A glob list is one boot-argument word (the kernel splits the line at
# spaces): TRACE_FILTER='pipeline_* !pipeline_poll' goes over as
# trace_filter=pipeline_*,!pipeline_poll, '!' excluding what it matches
# (commas may stand between the globs too, as in every list variable).
TRACE_FILTER_WORD = $(subst $(space),$(comma),$(call list_words,$(TRACE_FILTER)))
TRACE_ARGS := $(if $(TRACE),trace=$(TRACE) $(if $(TRACE_FILTER_WORD),trace_filter=$(TRACE_FILTER_WORD)))
# BOOTARGS and EXEC reach the target as typed (docs/running.md,
# "Quoting"): read with $(value ...), so make expands no '$' in them
# ($retval stays $retval), and given to the shell single-quoted
# (shell_quote), so the shell expands nothing either; the U-Boot scripts
# quote them for U-Boot's shell (tools/uboot-quote). The boot line of
# every run target is make's words, then BOOTARGS: panic=poweroff (a
# crash or panic ends the run with its status), make run's tracing
# (TRACE_ARGS) where the run is captured (run, run-uboot, the Pi's
# cmdline.txt), then BOOTARGS, so a word of BOOTARGS overrides make's.
shell_quote = '$(subst ','\'',$(1))'
boot_line = panic=poweroff$(if $(strip $(1)), $(strip $(1)))$(if $(value BOOTARGS), $(value BOOTARGS))
# A value no boot line carries (a line break, a control character:
# tools/uboot-quote names it) is refused before anything is built. (A
# newline is looked for here: make's $(shell) would not pass it on.)
define newline


endef
ifneq ($(value BOOTARGS),)
BOOTARGS_REFUSED := $(if $(findstring $(newline),$(value BOOTARGS)),the boot arguments hold a \
newline (0x0a): they are one line,$(patsubst uboot-quote:,,$(shell tools/uboot-quote \
$(call shell_quote,$(value BOOTARGS)) 2>&1 >/dev/null)))
ifneq ($(BOOTARGS_REFUSED),)
$(error BOOTARGS: $(strip $(BOOTARGS_REFUSED)); nothing was built or run)
endif
endif
# The trace settings in BOOTARGS: its kernel words (before a lone --)
# named trace or trace_*. The target sends what they start as binary
# frames, so make run captures whenever there is one (TRACE= too), and
# run-direct, which does not capture, refuses them. EXEC= is the
# capture's (--exec): given, make run captures too.
kernel_words = $(if $(filter --,$(firstword $(1))),,$(if $(1),$(firstword $(1)) \
  $(call kernel_words,$(wordlist 2,$(words $(1)),$(1)))))
BOOTARGS_TRACE = $(filter trace trace=% trace_% "trace=% "trace_%,$(call kernel_words,$(value BOOTARGS)))
CAPTURE = $(or $(TRACE),$(BOOTARGS_TRACE),$(value EXEC))
# run-direct and debug capture nothing, so they cannot send EXEC's
# commands: refused before anything is built, never dropped in silence.
ifneq ($(value EXEC),)
ifneq ($(filter run-direct debug,$(MAKECMDGOALS)),)
$(error EXEC= goes to the shell through make run's capture (and run-uboot's); \
$(filter run-direct debug,$(MAKECMDGOALS)) captures nothing: make BOOTARGS=shell EXEC=... run)
endif
endif
# ICOUNT=1: QEMU's clock counts instructions (-icount), so durations are
# the same on every run; without it they are host time, which moves with
# the host's load (docs/running.md). shift=4: 16 ns an instruction, one
# tick of virt's 62.5 MHz counter, so a duration does not move by a tick
# with where the boot (U-Boot's disk reads take host time) left the phase.
# An -icount of the user's own in QEMU_FLAGS beside ICOUNT=1 is refused:
# QEMU would silently take one of the two (the same flags, as a make that
# calls make passes them on, are let through once).
ICOUNT ?=
ICOUNT_FLAGS := -icount shift=4,sleep=off
ifneq ($(filter-out 0 1,$(ICOUNT)),)
$(error ICOUNT='$(ICOUNT)': 1 for QEMU's instruction-counting clock, 0 or empty for host time)
endif
ifeq ($(ICOUNT),1)
ifneq ($(filter -icount --icount -icount=% --icount=%,$(subst $(ICOUNT_FLAGS),,$(QEMU_FLAGS))),)
$(error ICOUNT=1 (QEMU's $(ICOUNT_FLAGS)) and QEMU_FLAGS='$(QEMU_FLAGS)' both set -icount, and QEMU \
would take one of them silently: give ICOUNT=1, or -icount in QEMU_FLAGS, not both)
endif
ifeq ($(findstring $(ICOUNT_FLAGS),$(QEMU_FLAGS)),)
override QEMU_FLAGS += $(ICOUNT_FLAGS)
endif
endif
BT := $(HOST)/baretrace

# The previous run's outputs go first (TRACE= must not leave its files
# behind; they went at make's start too, RUN_DIR above). Make cannot
# exit with main()'s status (a failed recipe makes it exit 2), so the
# recipe prints it and tools/qemu-run keeps how the run ended in
# $(RUN_DIR)/status ("exit N", or "WORD CODE" for a crash, panic, hang,
# watchdog reset, interrupt, refusal or failed capture). TIMEOUT=S asks
# the target to end the run as a hang after S seconds (the capture's
# --timeout). A Ctrl-C is the capture's: it asks the target to end the
# run; without a capture, SIGINT stops QEMU and qemu-run says
# "interrupt". The recipe's shell notes SIGINT and goes on ('trap :',
# not "trap ''", which qemu-run would inherit as ignored and could not
# catch), so the report below is still written.
run: all host-tools $(QEMU_DTB_DEP)
	@mkdir -p $(RUN_DIR) && rm -f $(RUN_DIR)/trace.* $(RUN_DIR)/status
	@trap : INT; status=0; $(RUN) $(if $(filter uboot,$(BOARD_RUN)),--uboot $(UBOOT_BIN)) \
	  --bootargs $(call shell_quote,$(call boot_line,$(TRACE_ARGS))) --qemu-flags "$(QEMU_FLAGS)" \
	  $(if $(TIMEOUT),--timeout '$(TIMEOUT)') --status $(RUN_DIR)/status \
	  $(if $(CAPTURE),--capture $(RUN_DIR)/trace.bt $(if $(value EXEC),--exec $(call shell_quote,$(value EXEC)))) || status=$$?; \
	$(RUN_REPORT)

# After a captured boot (make run, make run-uboot): the report, stats and
# exports of $(RUN_DIR)/trace.bt, each written whatever became of the
# others; ends the recipe with the boot's status, said with its word.
# A trace of its 8-byte magic alone (docs/wire.md 3: a capture for EXEC=
# of a run that traced nothing) has nothing to report: said in one line.
define RUN_REPORT
	elf=$(OUT)/baretrace.elf; \
	if [ -f $(RUN_DIR)/trace.bt ] && [ $$(wc -c < $(RUN_DIR)/trace.bt) -le 8 ]; then \
	  echo; echo "trace:  none in $(RUN_DIR)/trace.bt (the target traced nothing)"; \
	elif [ -s $(RUN_DIR)/trace.bt ]; then \
	  $(BT) report $(RUN_DIR)/trace.bt --elf $$elf > $(RUN_DIR)/trace.txt; \
	  n=$$(wc -l < $(RUN_DIR)/trace.txt); \
	  if [ $$n -le 40 ]; then shown="$$n lines"; else shown="first 40 of $$n lines"; fi; \
	  echo; echo "---- trace ($$shown; all in $(RUN_DIR)/trace.txt) ----"; \
	  head -n 40 $(RUN_DIR)/trace.txt; \
	  [ $$n -le 40 ] || { echo "..."; tail -n 1 $(RUN_DIR)/trace.txt; }; \
	  echo; $(BT) stats $(RUN_DIR)/trace.bt --elf $$elf | head -n 15; \
	  $(BT) export --format=chrome-json -o $(RUN_DIR)/trace.json $(RUN_DIR)/trace.bt --elf $$elf; \
	  $(BT) export --format=folded -o $(RUN_DIR)/trace.folded $(RUN_DIR)/trace.bt --elf $$elf; \
	  echo; echo "trace:  $(RUN_DIR)/trace.bt"; echo "elf:    $$elf (APP=$(APP))"; \
	  echo "text:   $(RUN_DIR)/trace.txt"; \
	  echo "chrome: $(RUN_DIR)/trace.json (open in https://ui.perfetto.dev)"; \
	  echo "folded: $(RUN_DIR)/trace.folded (flamegraph.pl --countname=ns, or speedscope)"; \
	fi; [ -s $(RUN_DIR)/status ] || echo "unknown $$status" > $(RUN_DIR)/status; \
	read word code < $(RUN_DIR)/status; \
	if [ "$$word" = exit ]; then \
	  [ $$status = 0 ] || echo "make $@: exit status $$code (main()'s status, in $(RUN_DIR)/status$$( \
	    [ "$$code" = $$status ] || echo "; exit code $$status"))" >&2; \
	elif [ "$$word" = capture ]; then \
	  echo "make $@: the capture failed ($(RUN_DIR)/status: $$word $$code; its 'baretrace capture:' line above says why)" >&2; \
	  [ $$status != 0 ] || status=1; \
	else echo "make $@: $$word ($(RUN_DIR)/status: $$word $$code)" >&2; \
	  [ $$status != 0 ] || status=1; fi; \
	exit $$status
endef

# run-direct does not capture: a trace setting in BOOTARGS is refused
# with the command that would capture it, BOOTARGS in it as typed (a
# shell reads the line back to the same words; printf, not echo, which
# would take a backslash for an escape).
RUN_DIRECT_REFUSAL = make run-direct: no tracing here, and BOOTARGS holds trace settings \
($(BOOTARGS_TRACE)), whose binary frames would reach the terminal; run them captured: \
make$(if $(filter-out qemu-virt,$(BOARD)), BOARD=$(BOARD))$(if $(filter-out examples/demo,$(APP)), \
APP=$(APP)) TRACE= BOOTARGS=$(call shell_quote,$(value BOOTARGS)) run

run-direct: all $(QEMU_DTB_DEP)
	$(if $(BOOTARGS_TRACE),@printf '%s\n' $(call shell_quote,$(RUN_DIRECT_REFUSAL)) >&2; exit 2)
	$(RUN) --bootargs $(call shell_quote,$(call boot_line,)) --qemu-flags "$(QEMU_FLAGS)"

# Under gdb no panic=poweroff: a crash or panic waits for the debugger
# (panic=halt, the default), which is what a debug session wants.
debug: all $(QEMU_DTB_DEP)
	$(RUN) --debug $(OUT)/baretrace.elf --bootargs $(call shell_quote,$(value BOOTARGS)) --qemu-flags "$(QEMU_FLAGS)"

# make record (a target): the app once under -icount shift=0,sleep=off,
# booted with -kernel (tools/record says why), its run folder in
# RECORD_DIR for 'baretrace goto' (docs/replay.md). With QEMU_SMP=1 QEMU's
# rr log is kept too and EXEC= is allowed; with more CPUs EXEC= is
# refused (QEMU 7.2 records input only with one CPU). Boards QEMU runs
# with its own binary or a firmware device tree (rpi4) are refused.
RECORD_DIR ?= build/record
record: all host-tools
	$(if $(or $(QEMU_BIN),$(QEMU_DTB),$(filter-out virt,$(QEMU_MACHINE))),@echo "make record: BOARD=$(BOARD) \
	is not recorded (QEMU virt boards only: qemu-virt)" >&2; exit 2)
	$(if $(strip $(QEMU_FLAGS)),@echo "make record: QEMU_FLAGS is not used: the recorded QEMU \
	line is its own (-icount shift=0$(comma)sleep=off; docs/replay.md)" >&2; exit 2)
	@tools/record --dir $(RECORD_DIR) --image $(OUT)/Image --elf $(OUT)/baretrace.elf \
	  --smp $(QEMU_SMP) --mem $(QEMU_MEM) --cpu $(QEMU_CPU) --machine $(QEMU_MACHINE) \
	  --bootargs $(call shell_quote,$(call boot_line,$(TRACE_ARGS))) \
	  $(if $(value EXEC),--exec $(call shell_quote,$(value EXEC)))
