# baretrace: build, run and test.  'make help' lists the targets.
#
#   make [BOARD=qemu-virt] [APP=examples/demo]   build the image
#   make run | run-direct | debug                boot it under QEMU
#   make test                                    every test; last line "N passed, N failed"

BOARD ?= qemu-virt
APP ?= examples/demo
BOOTARGS ?=
QEMU_FLAGS ?=
V ?= 0

BOARDS := $(sort $(patsubst board/%/board.mk,%,$(wildcard board/*/board.mk)))
ifeq ($(filter $(BOARD),$(BOARDS)),)
$(error unknown BOARD '$(BOARD)'; valid boards: $(BOARDS))
endif
ifeq ($(wildcard $(APP)/*.c $(APP)/*.S),)
$(error APP '$(APP)' is not a directory with .c or .S files; examples: $(sort $(patsubst %/,%,$(dir $(wildcard examples/*/*.c)))) test/target)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

include board/$(BOARD)/board.mk

# Toolchain: the Arm GNU Toolchain (ships newlib) when on PATH, otherwise
# Debian's Linux cross compiler with newlib built into build/newlib.
CROSS_COMPILE ?= $(if $(shell command -v aarch64-none-elf-gcc 2>/dev/null),aarch64-none-elf-,aarch64-linux-gnu-)
CC      := $(CROSS_COMPILE)gcc
OBJCOPY := $(CROSS_COMPILE)objcopy
OBJDUMP := $(CROSS_COMPILE)objdump
HOSTCC  ?= gcc

BUILD   := build
OBJ     := $(BUILD)/$(BOARD)/obj
APPNAME := $(subst /,-,$(patsubst %/,%,$(APP)))
ifeq ($(APP),examples/demo)
OUT     := $(BUILD)/$(BOARD)
else
OUT     := $(BUILD)/$(BOARD)/app-$(APPNAME)
endif
HOST    := $(BUILD)/host

ifeq ($(CROSS_COMPILE),aarch64-none-elf-)
LIBC_CFLAGS :=
LIBC_LIBS   := -lc -lm -lgcc
NEWLIB_DONE :=
else
NEWLIB      := $(BUILD)/newlib
NEWLIB_DONE := $(NEWLIB)/.done
LIBC_CFLAGS := -nostdinc -isystem $(shell $(CC) -print-file-name=include 2>/dev/null) \
               -isystem $(NEWLIB)/aarch64-none-elf/include
LIBC_LIBS   := $(NEWLIB)/aarch64-none-elf/lib/libc.a $(NEWLIB)/aarch64-none-elf/lib/libm.a -lgcc
endif

# Flags. Every function gets a patchable entry (4 NOPs, 2 before the
# symbol) unless its file is listed in NOTRACE; kernel code never touches
# FP/SIMD registers (the core tracers' callbacks run without saving them;
# test/run.py checks), application code may; code that runs with the MMU
# off is strict-align.
CFLAGS_BASE := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -fno-common \
  -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
  -fno-stack-protector -fpie \
  -march=armv8-a -mno-outline-atomics -falign-functions=8 \
  -ffunction-sections -fdata-sections -MD -MP \
  $(BOARD_CFLAGS) $(LIBC_CFLAGS) -Iinclude -Ikernel -Itrace -Iwire -Iboard/$(BOARD) -Iboard \
  -include kernel/visibility.h
PATCHABLE   := -fpatchable-function-entry=4,2
KERNEL_ONLY := -mgeneral-regs-only

# Files on the path from exception entry, the console and early boot:
# never traced (the trace core joins this list when it lands).
NOTRACE := boot/% trace/% wire/% test/bench/instrumented.c kernel/text_alias.c kernel/entry.S kernel/exception.c kernel/crash.c kernel/esr.c \
  kernel/regdump.c kernel/hang.c kernel/lockup.c \
  kernel/console.c kernel/kfmt.c kernel/symbols.c kernel/string.c kernel/mmu.c \
  kernel/fdt.c kernel/fault.c kernel/fault_probe.S kernel/irq.c drivers/pl011.c \
  drivers/gicv2.c $(BOARD_NOTRACE)
STRICT_ALIGN := boot/% kernel/mmu.c kernel/fdt.c
# Built with -finstrument-functions (and no patch site) for comparison.
INSTRUMENT := test/bench/instrumented.c
NOBUILTIN := kernel/string.c

KERNEL_SRCS := $(wildcard boot/*.S boot/*.c kernel/*.S kernel/*.c trace/*/*.S trace/*/*.c wire/*.c) \
  $(foreach d,$(BOARD_DRIVERS),$(wildcard drivers/$(d).c drivers/$(d).S)) \
  $(BOARD_SRCS)
APP_SRCS := $(wildcard $(APP)/*.c $(APP)/*.S)

KERNEL_OBJS := $(patsubst %,$(OBJ)/%.o,$(KERNEL_SRCS))
APP_OBJS    := $(patsubst %,$(OBJ)/app/%.o,$(APP_SRCS))

# The trace core's leaf functions (callbacks) skip the frame record:
# nothing unwinds through them, and they run on every traced call.
flags_for = $(CFLAGS_BASE) $(if $(filter $(NOTRACE),$(1)),,$(PATCHABLE)) \
  $(if $(filter trace/% wire/%,$(1)),-momit-leaf-frame-pointer -foptimize-sibling-calls) \
  $(if $(filter $(STRICT_ALIGN),$(1)),-mstrict-align) \
  $(if $(filter $(INSTRUMENT),$(1)),-finstrument-functions) \
  $(if $(filter $(NOBUILTIN),$(1)),-fno-builtin -fno-tree-loop-distribute-patterns)

.PHONY: all clean help run run-direct debug test test-host test-target test-boot bench bench-anchor soak setup newlib host-tools
all: $(OUT)/Image $(OUT)/baretrace.lst

$(NEWLIB_DONE):
	$(Q)tools/build-newlib $(NEWLIB) $(CROSS_COMPILE)

# Objects are rebuilt when the flags may have changed.
FLAGS_DEPS := Makefile board/$(BOARD)/board.mk

$(OBJ)/%.c.o: %.c $(NEWLIB_DONE) $(FLAGS_DEPS) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(call flags_for,$<) $(KERNEL_ONLY) -c $< -o $@

$(OBJ)/%.S.o: %.S $(FLAGS_DEPS) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(CFLAGS_BASE) -D__ASSEMBLER__ -c $< -o $@

$(OBJ)/app/%.c.o: %.c $(NEWLIB_DONE) $(FLAGS_DEPS) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (app)")
	$(Q)$(CC) $(call flags_for,$<) -c $< -o $@

$(OBJ)/app/%.S.o: %.S $(FLAGS_DEPS) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS      $< (app)")
	$(Q)$(CC) $(CFLAGS_BASE) -D__ASSEMBLER__ -c $< -o $@

$(OBJ)/baretrace.ld: linker/baretrace.ld.S kernel/config.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -E -P -x c -D__ASSEMBLER__ -Ikernel -Iboard/$(BOARD) $< -o $@

$(HOST)/mktables: tools/mktables.c kernel/tables.h | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -o $@ $< -lelf

# Two links: the first with empty tables, from which mktables writes the
# symbol table; the second with it. No function may move in between.
LDFLAGS := -nostdlib -static-pie -Wl,--no-dynamic-linker -Wl,--gc-sections \
  -Wl,-z,max-page-size=4096 -Wl,-z,norelro -Wl,--hash-style=sysv -Wl,--build-id=none
link = $(CC) $(LDFLAGS) -T $(OBJ)/baretrace.ld -Wl,-Map=$(2).map -o $(2) \
  $(KERNEL_OBJS) $(APP_OBJS) $(1) -Wl,--start-group $(LIBC_LIBS) -Wl,--end-group

$(OUT)/tables.empty.S: $(HOST)/mktables
	@mkdir -p $(dir $@)
	$(Q)$(HOST)/mktables --empty -o $@

$(OUT)/%.o: $(OUT)/%.S
	$(Q)$(CC) $(CFLAGS_BASE) -D__ASSEMBLER__ -c $< -o $@

$(OUT)/baretrace.1.elf: $(KERNEL_OBJS) $(APP_OBJS) $(OUT)/tables.empty.o $(OBJ)/baretrace.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(call link,$(OUT)/tables.empty.o,$@)

NOTRACE_OBJS := $(patsubst %,$(OBJ)/%.o,$(filter $(NOTRACE),$(KERNEL_SRCS)))

$(OUT)/tables.S: $(OUT)/baretrace.1.elf $(HOST)/mktables
	@$(if $(Q),echo "  TABLES  $@")
	$(Q)$(HOST)/mktables --notrace $(NOTRACE_OBJS)
	$(Q)$(HOST)/mktables -o $@ $<

$(OUT)/baretrace.elf: $(OUT)/baretrace.1.elf $(OUT)/tables.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(call link,$(OUT)/tables.o,$@)
	$(Q)$(HOST)/mktables --same-text $(OUT)/baretrace.1.elf $@
	$(Q)cp $@.map $(OUT)/baretrace.map

$(OUT)/Image: $(OUT)/baretrace.elf
	@$(if $(Q),echo "  IMAGE   $@")
	$(Q)$(OBJCOPY) -O binary $< $@

# The listing is also where the build proves the trace path (trampolines,
# tracers, exporter, down to the UART) calls no function with a patch site.
$(OUT)/baretrace.lst: $(OUT)/baretrace.elf tools/check-trace-path
	$(Q)$(OBJDUMP) -d $< > $@.tmp
	$(Q)tools/check-trace-path $@.tmp $(OUT)/tables.S
	$(Q)mv $@.tmp $@

setup-check:
	@command -v $(CC) >/dev/null && command -v qemu-system-aarch64 >/dev/null \
	  && [ -f /usr/include/libelf.h ] || tools/setup

setup:
	tools/setup

newlib: $(NEWLIB_DONE)

BARETRACE_SRCS := $(sort $(wildcard tools/baretrace/*.c tools/baretrace/*/*.c)) $(wildcard wire/*.c)
BARETRACE_HDRS := $(wildcard tools/baretrace/*.h tools/baretrace/*/*.h) $(wildcard wire/*.h) kernel/tables.h

$(HOST)/baretrace: $(BARETRACE_SRCS) $(BARETRACE_HDRS) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -Ikernel -o $@ $(BARETRACE_SRCS) -lelf

host-tools: $(HOST)/mktables $(HOST)/baretrace

# ---- running --------------------------------------------------------------
RUN := tools/qemu-run --board $(BOARD) --image $(OUT)/Image --smp $(QEMU_SMP) \
  --mem $(QEMU_MEM) --cpu $(QEMU_CPU) --machine $(QEMU_MACHINE)

# make run traces the app: TRACE= turns it off, TRACE_FILTER= picks the
# functions (default: the app's trace_filter file, else everything).
TRACE ?= function_graph
TRACE_FILTER ?= $(shell cat $(APP)/trace_filter 2>/dev/null)
TRACE_ARGS := $(if $(TRACE),trace=$(TRACE) $(if $(TRACE_FILTER),trace_filter=$(TRACE_FILTER)))
RUN_DIR := $(BUILD)/run
BT := $(HOST)/baretrace

run: all host-tools
	@rm -f $(RUN_DIR)/trace.bt
	@status=0; $(RUN) $(if $(filter uboot,$(BOARD_RUN)),--uboot $(UBOOT_BIN)) \
	  --bootargs "panic=poweroff $(TRACE_ARGS) $(BOOTARGS)" --qemu-flags "$(QEMU_FLAGS)" \
	  $(if $(TRACE),--capture $(RUN_DIR)/trace.bt $(if $(EXEC),--exec "$(EXEC)")) || status=$$?; \
	if [ -s $(RUN_DIR)/trace.bt ]; then \
	  $(BT) report $(RUN_DIR)/trace.bt --elf $(OUT)/baretrace.elf > $(RUN_DIR)/trace.txt && \
	  echo && echo "---- trace (first 40 of $$(wc -l < $(RUN_DIR)/trace.txt) lines; all in $(RUN_DIR)/trace.txt) ----" && \
	  head -n 40 $(RUN_DIR)/trace.txt && echo "..." && tail -n 1 $(RUN_DIR)/trace.txt && \
	  echo && $(BT) stats $(RUN_DIR)/trace.bt --elf $(OUT)/baretrace.elf | head -n 15 && \
	  $(BT) export --format=chrome-json -o $(RUN_DIR)/trace.json $(RUN_DIR)/trace.bt --elf $(OUT)/baretrace.elf && \
	  $(BT) export --format=folded -o $(RUN_DIR)/trace.folded $(RUN_DIR)/trace.bt --elf $(OUT)/baretrace.elf && \
	  echo && echo "trace:  $(RUN_DIR)/trace.bt" && echo "text:   $(RUN_DIR)/trace.txt" && \
	  echo "chrome: $(RUN_DIR)/trace.json (open in https://ui.perfetto.dev)" && \
	  echo "folded: $(RUN_DIR)/trace.folded (flamegraph.pl or speedscope)"; \
	fi; exit $$status

run-direct: all
	$(RUN) --bootargs "panic=poweroff $(BOOTARGS)" --qemu-flags "$(QEMU_FLAGS)"

debug: all
	$(RUN) --debug $(OUT)/baretrace.elf --bootargs "$(BOOTARGS)" --qemu-flags "$(QEMU_FLAGS)"

# ---- tests ----------------------------------------------------------------
test: setup-check
	$(Q)tools/setup
	$(Q)python3 test/run.py --board $(BOARD) $(if $(TEST_STAGES),--only $(TEST_STAGES))

# Board farms on QEMU (README, "Running on a board farm"): labgrid's
# pytest plugin and LAVA's lava-run; FARM= picks scenarios
# (tools/farm/scenarios.py; default: the ones that must pass).
.PHONY: farm-labgrid farm-lava
farm-labgrid: setup-check
	$(Q)tools/setup
	$(Q)tools/farm/run-labgrid $(FARM)

farm-lava: setup-check
	$(Q)tools/setup
	$(Q)tools/farm/run-lava $(FARM)

# Every control operation while every CPU writes, SOAK_S seconds (default
# 120), under multi-threaded TCG, captured; make test runs 30 s of it.
soak: setup-check
	$(Q)tools/setup
	$(Q)SOAK_S=$(or $(SOAK_S),120) python3 test/end_of_run.py

# ---- benchmarks -------------------------------------------------------------
bench:
	$(Q)$(MAKE) --no-print-directory BOARD=$(BOARD) APP=test/bench
	$(Q)$(MAKE) --no-print-directory BOARD=$(BOARD)
	$(Q)tools/bench $(BUILD)/$(BOARD)/app-test-bench/Image $(BUILD)/$(BOARD)/Image $(BUILD)/bench

# The same tracer costs on Debian's arm64 Linux kernel, side by side
# (build/bench/anchor.json); downloads the kernel package once.
bench-anchor:
	$(Q)tools/bench-anchor

clean:
	rm -rf $(BUILD)/$(BOARD) $(HOST)

help:
	@echo "make [BOARD=$(BOARDS)] [APP=dir]  build build/<board>/Image"
	@echo "make run          boot the app on QEMU through U-Boot (BOOTARGS=, QEMU_FLAGS=,"
	@echo "                 EXEC='CMD; CMD' for the shell: baretrace capture --exec)"
	@echo "make run-direct   boot with -kernel, no U-Boot"
	@echo "make debug        QEMU halted with a gdb stub, gdb-multiarch attached"
	@echo "make test         every test; the last line is 'N passed, N failed'"
	@echo "make soak         every control operation while all CPUs trace, SOAK_S=120 seconds"
	@echo "make bench        instruction counts under -icount (build/bench/*.json)"
	@echo "make bench-anchor the same tracer costs on Debian's arm64 Linux (build/bench/anchor.json)"
	@echo "make BOARD=rpi4 sdcard FIRMWARE_DIR=dir   Raspberry Pi boot partition (README)"

# ---- Raspberry Pi flows ------------------------------------------------------
# Boards whose board.mk includes board/rpi-common/rpi.mk (BOARD_FLOW := rpi)
# also get, next to the Image, what the Pi firmware boots:
#   kernel8.img   the Image under the name the firmware loads (BOARD_IMAGE_NAME)
#   config.txt    the firmware's settings (BOARD_CONFIG_TXT)
#   cmdline.txt   BOOTARGS; the firmware hands it over in /chosen/bootargs.
#                 Without BOOTARGS=, make run's tracing (TRACE_ARGS), so a
#                 card records a trace out of the box; BOOTARGS= (even
#                 empty) replaces it.
#   boot.scr      the U-Boot flow's script (board/rpi-common/boot.cmd)
# 'make sdcard FIRMWARE_DIR=dir [SDCARD_FLOW=uboot]' adds the firmware
# files (RPI_FIRMWARE) and writes sdcard/ and sdcard.img (tools/mksdcard).
ifeq ($(BOARD_FLOW),rpi)
RPI_BOOT_FILES := $(OUT)/$(BOARD_IMAGE_NAME) $(OUT)/config.txt $(OUT)/cmdline.txt \
  $(OUT)/boot.scr
RPI_CMDLINE = $(if $(filter undefined file,$(origin BOOTARGS)),$(TRACE_ARGS),$(BOOTARGS))
RPI_BOOTARGS = $(subst ','\'',$(RPI_CMDLINE))
SDCARD_FLOW ?= direct
FIRMWARE_DIR ?=
.PHONY: sdcard rpi-bootargs
all: $(RPI_BOOT_FILES)

$(OUT)/$(BOARD_IMAGE_NAME): $(OUT)/Image
	$(Q)cp $< $@

$(OUT)/config.txt: $(BOARD_CONFIG_TXT)
	$(Q)cp $< $@

# Rewritten only when BOOTARGS changes, so boot.scr is remade only then.
$(OUT)/cmdline.txt: rpi-bootargs
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' '$(RPI_BOOTARGS)' > $@.new
	$(Q)if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

$(OUT)/boot.cmd: board/rpi-common/boot.cmd $(OUT)/cmdline.txt
	$(Q)case '$(RPI_BOOTARGS)' in *'"'*|*'$$'*|*';'*) \
	  echo "make: BOOTARGS may not hold '\"', '\$$' or ';' (they would change boot.scr)" >&2; \
	  exit 1 ;; esac
	$(Q)sed "s|@BOOTARGS@|$$(sed 's/[\\|&]/\\&/g' $(OUT)/cmdline.txt)|" $< > $@

$(OUT)/boot.scr: $(OUT)/boot.cmd
	@$(if $(Q),echo "  MKIMAGE $@")
	$(Q)mkimage -A arm64 -O linux -T script -C none -n baretrace -d $< $@ >/dev/null

sdcard: all
	$(Q)tools/mksdcard --out $(OUT)/sdcard.img --flow '$(SDCARD_FLOW)' \
	  --firmware-dir '$(FIRMWARE_DIR)' --firmware '$(RPI_FIRMWARE)' \
	  --uboot '$(UBOOT_BIN)' $(RPI_BOOT_FILES)
else
sdcard:
	@echo "make sdcard: for the Raspberry Pi boards (BOARD=rpi4 or rpi3), not $(BOARD)" >&2; exit 1
endif

# A board without a QEMU model (QEMU 7.2 has no Pi 4) builds but does not
# run: RUN says so, and the arguments the recipes append go to 'false'.
ifeq ($(QEMU_MACHINE),)
RUN = echo "make: BOARD=$(BOARD) has no QEMU model; put build/$(BOARD) on its SD card \
(README), or run the same Pi code with BOARD=rpi3" >&2; false
endif

# 'make print-VAR' prints a variable (used by test/run.py).
print-%:
	@echo '$($*)'

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
