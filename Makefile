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

# make run and run-uboot keep how the run ended, and its trace, in
# RUN_DIR. An earlier run's go as soon as make starts with one of them
# as a goal, before any check or build: a run that does not happen (a
# compile error, a refusal, a Ctrl-C in the build) leaves no status or
# trace that looks like its own (docs/running.md). Not under -n or -q.
RUN_DIR := build/run
ifneq ($(filter run run-uboot,$(MAKECMDGOALS)),)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS)))$(findstring q,$(firstword -$(MAKEFLAGS))),)
$(shell rm -f $(RUN_DIR)/trace.bt $(RUN_DIR)/trace.txt $(RUN_DIR)/trace.json \
  $(RUN_DIR)/trace.folded $(RUN_DIR)/status)
endif
endif

BOARDS := $(sort $(patsubst board/%/board.mk,%,$(wildcard board/*/board.mk)))
ifeq ($(filter $(BOARD),$(BOARDS)),)
$(error unknown BOARD '$(BOARD)'; valid boards: $(BOARDS))
endif
ifeq ($(wildcard $(APP)/.),)
$(error APP '$(APP)' is not a directory; examples: $(sort $(patsubst %/,%,$(dir $(wildcard examples/*/*.c examples/*/*.cpp)))) test/target)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Every list variable (TEST_STAGES, FARM, COVERAGE_SUITES, TRACES, ELFS,
# BENCH_HOST_EVENTS, TRACE_FILTER) takes spaces, commas or both between
# its words: $(call list_words,$(VAR)) is its words, spaces between
# (docs/running.md, "List variables"; test/mk_lists.py holds them to it).
comma := ,
space := $(subst x, ,x)
list_words = $(strip $(subst $(comma),$(space),$(1)))

include board/$(BOARD)/board.mk

# Values read off installed tools come from $(TOOLS_MK), which make
# remakes first (running tools/setup, which installs what is missing) and
# then reads afresh: read at parse time, before setup, they would be empty
# on a new machine. Goals that build nothing do not need it.
TOOLS_FREE_GOALS := help clean setup fresh-check print-%
ifneq ($(filter-out $(TOOLS_FREE_GOALS),$(or $(MAKECMDGOALS),all)),)
NEED_TOOLS := 1
endif

# Toolchain: the Arm GNU Toolchain (ships newlib) when on PATH, otherwise
# Debian's Linux cross compiler with newlib built into build/newlib.
CROSS_COMPILE ?= $(if $(shell command -v aarch64-none-elf-gcc 2>/dev/null),aarch64-none-elf-,aarch64-linux-gnu-)
CC      := $(CROSS_COMPILE)gcc
CXX     := $(CROSS_COMPILE)g++
OBJCOPY := $(CROSS_COMPILE)objcopy
NM      := $(CROSS_COMPILE)nm
OBJDUMP := $(CROSS_COMPILE)objdump
HOSTCC  ?= gcc

BUILD   := build
OBJ     := $(BUILD)/$(BOARD)/obj
# The app's output folder, named after APP_DIR (mk/app.mk: APP, '.' and
# '..' resolved), so it is always a folder of $(BUILD)/$(BOARD)/.
APPNAME  = $(subst /,-,$(APP_DIR))
OUT      = $(BUILD)/$(BOARD)$(if $(filter examples/demo,$(APP_DIR)),,/app-$(APPNAME))
HOST    := $(BUILD)/host
TOOLS_MK := $(BUILD)/tools-$(CROSS_COMPILE)gcc.mk
ifdef NEED_TOOLS
include $(TOOLS_MK)
endif

# $(call THIRD_PARTY_DIR,PKG): the folder of Debian's source of PKG
# (build/third-party/PKG.dir names it), fetched by the first build of an
# app whose app.mk asks for it (tools/fetch-source; its progress on
# stderr); empty when it cannot be fetched, or for goals that build nothing.
THIRD_PARTY_DIR = $(or $(wildcard $(shell cat $(BUILD)/third-party/$(1).dir 2>/dev/null)), \
  $(if $(NEED_TOOLS),$(shell tools/fetch-source $(1) >&2 && cat $(BUILD)/third-party/$(1).dir)))
# make bench names it as a prerequisite.
$(BUILD)/third-party/%.dir:
	$(Q)tools/fetch-source $*

ifeq ($(CROSS_COMPILE),aarch64-none-elf-)
LIBC_CFLAGS :=
LIBC_CXXFLAGS :=
LIBC_LIBS   := -lc -lm -lgcc
NEWLIB_DONE :=
else
NEWLIB      := $(BUILD)/newlib
NEWLIB_DONE := $(NEWLIB)/.done
LIBC_CFLAGS := -nostdinc -isystem $(CC_INCLUDE) -isystem $(NEWLIB)/aarch64-none-elf/include
# C++: libstdc++'s headers (templates, <new>, <type_traits>; no library
# is linked) ahead of the C ones, and a <features.h> for their glibc
# configuration (mk/cxx/features.h says why).
LIBC_CXXFLAGS := -nostdinc $(addprefix -isystem ,$(CXX_INCLUDE)) -isystem mk/cxx $(LIBC_CFLAGS)
LIBC_LIBS   := $(NEWLIB)/aarch64-none-elf/lib/libc.a $(NEWLIB)/aarch64-none-elf/lib/libm.a -lgcc
endif

# __FILE__ (assert messages) names a source relative to the tree, so the
# image, its data layout and the instruction counts make bench holds
# are the same wherever the tree is checked out (newlib's:
# tools/build-newlib).
PATH_FREE := -fmacro-prefix-map=$(CURDIR)/=

# Flags. Every function gets a patchable entry (4 NOPs, 2 before the
# symbol) unless its file is listed in NOTRACE; kernel code never touches
# FP/SIMD registers (the core tracers' callbacks run without saving them;
# test/run.py checks), application code may; code that runs with the MMU
# off is strict-align.
CFLAGS_COMMON := -O2 -g -ffreestanding -fno-common \
  -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
  -fno-stack-protector -fpie \
  -march=armv8-a -mno-outline-atomics -falign-functions=8 \
  -ffunction-sections -fdata-sections -MD -MP $(PATH_FREE) \
  $(BOARD_CFLAGS) -include kernel/lib/visibility.h
# kernel/ is split into folders by job (kernel/LAYERS, lowest layer
# first); each is on the include path, so "x.h" finds a kernel header
# wherever it lives. kernel/ itself holds the top layer.
KERNEL_DIRS := $(patsubst %/,%,$(wildcard kernel/*/))
KERNEL_INCDIRS := include kernel trace wire board/$(BOARD) board $(KERNEL_DIRS)
CFLAGS_BASE := -std=gnu11 -Wall -Wextra -Werror $(CFLAGS_COMMON) $(LIBC_CFLAGS) \
  $(addprefix -I,$(KERNEL_INCDIRS))
PATCHABLE   := -fpatchable-function-entry=4,2
KERNEL_ONLY := -mgeneral-regs-only

# Files on the path from exception entry, the console and early boot:
# never traced (the trace core joins this list when it lands).
NOTRACE := boot/% trace/% wire/% test/bench/instrumented.c \
  kernel/lib/kfmt.c kernel/lib/string.c kernel/lib/nearest.c \
  kernel/cpu/entry.S kernel/cpu/exception.c kernel/cpu/esr.c kernel/cpu/fault.c \
  kernel/cpu/fault_probe.S kernel/cpu/irq.c kernel/cpu/mmu.c kernel/cpu/text_alias.c kernel/cpu/tls.c \
  kernel/console/console.c kernel/bootinfo/fdt.c \
  kernel/report/crash.c kernel/report/regdump.c kernel/report/hang.c kernel/report/lockup.c \
  kernel/report/symbols.c kernel/report/run_end.c kernel/shell/console_input.c \
  drivers/pl011.c drivers/gicv2.c $(BOARD_NOTRACE)
STRICT_ALIGN := boot/% kernel/cpu/mmu.c kernel/bootinfo/fdt.c
# Built with -finstrument-functions (and no patch site) for comparison.
INSTRUMENT := test/bench/instrumented.c
# Built as gcov instruments (counters on every arc), for comparison with
# coverage through the patch sites (make bench; linked with libgcov,
# test/bench/app.mk).
GCOV := test/bench/workload_gcov.c
# gcov names each object's .gcda file in the image; relative to the tree,
# under a fixed folder, so the image's size (make bench's gcov figures)
# does not depend on where the tree is checked out.
GCOV_PATHS := -fprofile-dir=/gcov -fprofile-prefix-path=$(CURDIR)
NOBUILTIN := kernel/lib/string.c

KERNEL_SRCS := $(wildcard boot/*.S boot/*.c kernel/*.S kernel/*.c kernel/*/*.S kernel/*/*.c trace/*/*.S trace/*/*.c wire/*.c) \
  $(foreach d,$(BOARD_DRIVERS),$(wildcard drivers/$(d).c drivers/$(d).S)) \
  $(BOARD_SRCS)
KERNEL_OBJS := $(patsubst %,$(OBJ)/%.o,$(KERNEL_SRCS))

# The application: APP_DIR, APP_SRCS, APP_OBJS and APP_MK_FLAGS, from
# APP/app.mk when it has one (mk/app.mk says what it may set).
include mk/app.mk
# Its flags: the kernel's code generation, its own warnings and include
# path, its app.mk's, then the user's: APP_CFLAGS for C, C++ and
# assembly, APP_CXXFLAGS for C++, which add and never replace.
# docs/applications.md lists them ("The flags an application is built
# with"; test/mk_apps.py holds the list to these lines).
APP_CFLAGS ?=
APP_CXXFLAGS ?=
app_common_flags := -Wall -Wextra $(CFLAGS_COMMON) -Iinclude -I$(APP_DIR) $(APP_MK_FLAGS) $(APP_CFLAGS)
# C++: the freestanding subset (no exceptions, RTTI or libstdc++);
# static constructors run before main() (kernel/libc/cxx_init.c),
# new and delete use the heap (kernel/libc/cxx_new.c).
app_cxx_flags := -std=gnu++17 -fno-exceptions -fno-rtti -fno-threadsafe-statics \
  -fno-use-cxa-atexit $(app_common_flags) $(LIBC_CXXFLAGS) $(app-cxxflags) $(APP_CXXFLAGS)
app_c_flags := -std=gnu11 $(app_common_flags) $(LIBC_CFLAGS)

# The trace core's leaf functions (callbacks) skip the frame record:
# nothing unwinds through them, and they run on every traced call.
flags_for = $(CFLAGS_BASE) $(call site_flags,$(1))
site_flags = $(if $(filter $(NOTRACE) $(APP_NOTRACE),$(1)),,$(PATCHABLE)) \
  $(if $(filter trace/% wire/%,$(1)),-momit-leaf-frame-pointer -foptimize-sibling-calls) \
  $(if $(filter $(STRICT_ALIGN),$(1)),-mstrict-align) \
  $(if $(filter $(INSTRUMENT),$(1)),-finstrument-functions) \
  $(if $(filter $(GCOV),$(1)),-fprofile-arcs -ftest-coverage $(GCOV_PATHS)) \
  $(if $(filter $(NOBUILTIN),$(1)),-fno-builtin -fno-tree-loop-distribute-patterns)

.PHONY: all clean help run run-direct debug record test test-under-load fresh-check bench bench-baseline bench-host bench-anchor docs coverage coverage-html soak setup newlib host-tools install
all: $(OUT)/Image $(OUT)/baretrace.lst

$(NEWLIB_DONE): tools/build-newlib
	$(Q)tools/build-newlib $(NEWLIB) $(CROSS_COMPILE)

# Objects are rebuilt when the flags may have changed: when the Makefile
# or the board's changed, and when the flags they are built with did.
# Each set of flags (the kernel's C and assembly; this app's C, C++ and
# assembly; the link, with its list of objects) is kept in a file of
# $(OBJ)/flags/ or $(OUT)/flags/ that is rewritten as make reads this
# file, and only when the set changed; its objects depend on it. So a
# variable an app.mk reads, changed on the command line (ITER=20), or
# APP_CFLAGS rebuilds the app, and only the app.
FLAGS_DEPS := Makefile board/$(BOARD)/board.mk
FLAGS_FILES := $(OBJ)/flags/kernel.c $(OBJ)/flags/kernel.S $(OUT)/flags/app.c \
  $(OUT)/flags/app.S $(OUT)/flags/app.cpp $(OUT)/flags/link
flags_kernel.c = $(CC) $(CFLAGS_BASE) $(KERNEL_ONLY) $(PATCHABLE)
flags_kernel.S = $(CC) $(CFLAGS_BASE)
flags_app.c    = $(CC) $(app_c_flags) $(PATCHABLE) notrace: $(APP_NOTRACE)
flags_app.S    = $(CC) $(app_c_flags)
flags_app.cpp  = $(CXX) $(app_cxx_flags) $(PATCHABLE) notrace: $(APP_NOTRACE)
flags_link     = $(CC) $(LDFLAGS) $(KERNEL_OBJS) $(APP_OBJS) $(APP_LIBS) $(LIBC_LIBS)
# $(call flags_keep,FILE): FILE holds flags_NAME (NAME: FILE's name).
define flags_keep
ifneq ($$(file <$(1)),$$(strip $$(flags_$(notdir $(1)))))
$$(shell mkdir -p $(dir $(1)))
$$(file >$(1),$$(strip $$(flags_$(notdir $(1)))))
endif
endef
ifdef NEED_TOOLS
$(foreach f,$(FLAGS_FILES),$(eval $(call flags_keep,$(f))))
endif
$(FLAGS_FILES):

$(OBJ)/%.c.o: %.c $(NEWLIB_DONE) $(FLAGS_DEPS) $(OBJ)/flags/kernel.c | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(call flags_for,$<) $(KERNEL_ONLY) -c $< -o $@

$(OBJ)/%.S.o: %.S $(FLAGS_DEPS) $(OBJ)/flags/kernel.S | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(CFLAGS_BASE) -D__ASSEMBLER__ -c $< -o $@

# Application objects, by the source's path under $(OBJ)/app/ (an
# absolute path's under $(OBJ)/app/abs/): the app's own flags, FP/SIMD
# allowed, its app.mk and its flags (FLAGS_FILES) dependencies.
APP_DEPS := $(FLAGS_DEPS) mk/app.mk $(APP_MK)
define app_rules
$(OBJ)/app/$(1)%.c.o: $(2)%.c $(NEWLIB_DONE) $(APP_DEPS) $(OUT)/flags/app.c | setup-check
	@mkdir -p $$(dir $$@)
	@$$(if $(Q),echo "  CC      $$< (app)")
	$(Q)$(CC) $$(app_c_flags) $$(call site_flags,$$<) -c $$< -o $$@

$(OBJ)/app/$(1)%.S.o: $(2)%.S $(APP_DEPS) $(OUT)/flags/app.S | setup-check
	@mkdir -p $$(dir $$@)
	@$$(if $(Q),echo "  AS      $$< (app)")
	$(Q)$(CC) $$(app_c_flags) -D__ASSEMBLER__ -c $$< -o $$@

$(foreach x,$(APP_CXX_EXTS),
$(OBJ)/app/$(1)%.$(x).o: $(2)%.$(x) $(NEWLIB_DONE) $(APP_DEPS) $(OUT)/flags/app.cpp | setup-check
	@mkdir -p $$(dir $$@)
	@$$(if $(Q),echo "  CXX     $$< (app)")
	$(Q)$(CXX) $$(app_cxx_flags) $$(call site_flags,$$<) -c $$< -o $$@
)
endef
$(eval $(call app_rules,,))
$(eval $(call app_rules,abs/,/))

$(OBJ)/baretrace.ld: linker/baretrace.ld.S kernel/lib/config.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -E -P -x c -D__ASSEMBLER__ -Ikernel $(addprefix -I,$(KERNEL_DIRS)) -Iboard/$(BOARD) $< -o $@

$(HOST)/mktables: tools/mktables.c tools/mktables_map.c tools/mktables_map.h \
		  tools/mktables_syms.c tools/mktables_syms.h \
		  tools/mktables_objs.c tools/mktables_objs.h kernel/report/tables.h | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -o $@ tools/mktables.c tools/mktables_map.c tools/mktables_objs.c tools/mktables_syms.c -lelf

# make's check of TRACE= and BOOTARGS's names before a boot (CHECK_NAMES):
# the kernel's own splitter and did-you-mean search, on the names read
# from the built image.
CHECK_NAMES_SRCS := tools/check-names.c kernel/bootinfo/bootargs_parse.c kernel/lib/nearest.c
$(HOST)/check-names: $(CHECK_NAMES_SRCS) kernel/bootinfo/bootargs.h kernel/lib/nearest.h | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -Ikernel/bootinfo -Ikernel/lib -o $@ $(CHECK_NAMES_SRCS) -lelf

# A run's names, checked before it boots: TRACE= (not for run-direct,
# which does not trace) and each kernel word of BOOTARGS, against what
# the built image knows (tools/check-names.c). A wrong one stops make
# with the refusal, each wrong name with the nearest known one, as the
# last line make prints: the check is a make function in a prerequisite's
# recipe, which make expands once the image is built and before the run
# target's recipe starts (a failing shell line would be followed by
# make's "*** Error" line). Prerequisites of their own rules here, so the
# run recipes stay as they are; not .PHONY, being no goal of their own
# (no file has their names: they always run). make sdcard checks the
# line it writes to cmdline.txt (make run's: TRACE= and BOOTARGS) before
# the card is made; make debug its BOOTARGS, as run-direct, before QEMU.
run $(if $(filter rpi,$(BOARD_FLOW)),run-uboot sdcard): check-run-names
run-direct debug: check-direct-names
check-run-names: all $(HOST)/check-names
	$(call CHECK_NAMES,$(TRACE))
check-direct-names: all $(HOST)/check-names
	$(call CHECK_NAMES,)
CHECK_NAMES = $(call check_names_say,$(shell $(HOST)/check-names $(OUT)/baretrace.elf \
  --what 'make $(firstword $(filter run run-uboot run-direct sdcard debug,$(MAKECMDGOALS)) $@)' \
  --trace '$(subst ','\'',$(1))' --bootargs '$(subst ','\'',$(value BOOTARGS))'))
check_names_say = $(if $(filter ok,$(1)),,$(error $(or $(1),make $@: $(HOST)/check-names said nothing)))

# Two links: the first with empty tables, from which mktables writes the
# symbol table; the second with it. No function may move in between.
LDFLAGS := -nostdlib -static-pie -Wl,--no-dynamic-linker -Wl,--gc-sections \
  -Wl,-z,max-page-size=4096 -Wl,-z,norelro -Wl,--hash-style=sysv -Wl,--build-id=none
link = $(CC) $(LDFLAGS) -T $(OBJ)/baretrace.ld -Wl,-Map=$(2).map -o $(2) \
  $(KERNEL_OBJS) $(APP_OBJS) $(1) -Wl,--start-group $(APP_LIBS) $(LIBC_LIBS) -Wl,--end-group

$(OUT)/tables.empty.S: $(HOST)/mktables
	@mkdir -p $(dir $@)
	$(Q)$(HOST)/mktables --empty -o $@

$(OUT)/%.o: $(OUT)/%.S $(OBJ)/flags/kernel.S
	$(Q)$(CC) $(CFLAGS_BASE) -D__ASSEMBLER__ -c $< -o $@

# The app's name for the trace's metadata (docs/wire.md 2.2): APP's last
# folder; and the board's, so the host can say an ELF is another board's.
# Kernel objects are shared by every app; this one is the app's.
$(OUT)/app_name.S: $(FLAGS_DEPS)
	@mkdir -p $(dir $@)
	$(Q)printf '\t.section .rodata\n\t.globl bt_app_name\nbt_app_name:\n\t.asciz "%s"\n\t.globl bt_board_name\nbt_board_name:\n\t.asciz "%s"\n' \
	  '$(subst ",,$(subst \,,$(subst ',,$(notdir $(patsubst %/,%,$(APP))))))' '$(BOARD)' > $@

# An application needs a main(): said before the link, whose own words
# for it are "hidden symbol 'main' isn't defined"; with app-libs, which
# may hold it, after a failed link.
app_has_main = $(NM) --defined-only $(APP_OBJS) 2>/dev/null | grep -Eq ' [TW] main$$'
APP_NO_MAIN = make: APP=$(APP) has no main(): an application needs one, int main(void) \
or int main(int argc, char **argv), which the kernel calls on CPU 0 once every CPU is up \
(docs/applications.md); its $(words $(APP_OBJS)) object(s) define none
app_no_main = { echo '$(subst ','\'',$(APP_NO_MAIN))' >&2; exit 1; }
$(OUT)/baretrace.1.elf: $(KERNEL_OBJS) $(APP_OBJS) $(OUT)/tables.empty.o $(OUT)/app_name.o \
		$(OBJ)/baretrace.ld $(OUT)/flags/link
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(if $(APP_LIBS),,$(app_has_main) || $(app_no_main))
	$(Q)$(call link,$(OUT)/tables.empty.o $(OUT)/app_name.o,$@)$(if $(APP_LIBS), \
	  || { $(app_has_main) || $(app_no_main); exit 1; })

NOTRACE_OBJS := $(patsubst %,$(OBJ)/%.o,$(filter $(NOTRACE),$(KERNEL_SRCS)))

$(OUT)/tables.S: $(OUT)/baretrace.1.elf $(HOST)/mktables
	@$(if $(Q),echo "  TABLES  $@")
	$(Q)$(HOST)/mktables --notrace $(NOTRACE_OBJS)
	$(Q)$(HOST)/mktables -o $@ --map $<.map $<

# The second link moves the data past the tables (tools/mktables_objs.c):
# the third takes the data objects' addresses from the second, and moves
# nothing.
$(OUT)/baretrace.2.elf: $(OUT)/baretrace.1.elf $(OUT)/tables.o $(OUT)/app_name.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(call link,$(OUT)/tables.o $(OUT)/app_name.o,$@)
	$(Q)$(HOST)/mktables --same-text $(OUT)/baretrace.1.elf $@

$(OUT)/tables.3.S: $(OUT)/baretrace.2.elf $(HOST)/mktables
	@$(if $(Q),echo "  TABLES  $@")
	$(Q)$(HOST)/mktables -o $@ --map $(OUT)/baretrace.1.elf.map $<

$(OUT)/baretrace.elf: $(OUT)/baretrace.2.elf $(OUT)/tables.3.o $(OUT)/app_name.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(call link,$(OUT)/tables.3.o $(OUT)/app_name.o,$@)
	$(Q)$(HOST)/mktables --same-text $(OUT)/baretrace.1.elf $@
	$(Q)$(HOST)/mktables --same-data $(OUT)/baretrace.2.elf $@
	$(Q)cp $@.map $(OUT)/baretrace.map

$(OUT)/Image: $(OUT)/baretrace.elf
	@$(if $(Q),echo "  IMAGE   $@")
	$(Q)$(OBJCOPY) -O binary $< $@

# The listing is also where the build proves the trace path (trampolines,
# tracers, exporter, down to the UART) calls no function with a patch site.
$(OUT)/baretrace.lst: $(OUT)/baretrace.elf tools/check-trace-path
	$(Q)$(OBJDUMP) -d $< > $@.tmp
	$(Q)tools/check-trace-path $@.tmp $(OUT)/tables.3.S $<
	$(Q)mv $@.tmp $@

# CC_INCLUDE: the cross compiler's own headers (stddef.h, stdint.h), used
# with -nostdinc beside newlib's; CXX_INCLUDE: libstdc++'s header folders. A compiler that does not know the folder
# prints the bare word back: then the build stops here, naming it.
$(TOOLS_MK): tools/setup
	$(Q)tools/setup
	@mkdir -p $(dir $@)
	$(Q)inc=$$($(CC) -print-file-name=include) && [ -d "$$inc" ] \
	  || { echo "make: $(CC) -print-file-name=include gave '$$inc', not a folder" >&2; exit 1; }; \
	  cxx=$$(echo | $(CXX) -x c++ -E -Wp,-v - 2>&1 >/dev/null | sed -n 's|^ \(/[^ ]*/c++/[^ ]*\)$$|\1|p' | tr '\n' ' '); \
	  [ -n "$$cxx" ] || { echo "make: $(CXX) names no C++ header folders (-Wp,-v)" >&2; exit 1; }; \
	  printf 'CC_INCLUDE := %s\nCXX_INCLUDE := %s\n' "$$inc" "$$cxx" > $@.$$$$ && mv $@.$$$$ $@

setup-check:
	@command -v $(CC) >/dev/null && command -v qemu-system-aarch64 >/dev/null \
	  && [ -f /usr/include/libelf.h ] && [ -f /usr/include/elfutils/libdw.h ] || tools/setup

setup:
	tools/setup

newlib: $(NEWLIB_DONE)

BARETRACE_SRCS := $(sort $(wildcard tools/baretrace/*.c tools/baretrace/*/*.c tools/baretrace/*/*/*.c)) $(wildcard wire/*.c) \
  kernel/lib/nearest.c
BARETRACE_HDRS := $(wildcard tools/baretrace/*.h tools/baretrace/*/*.h tools/baretrace/*/*/*.h) $(wildcard wire/*.h) kernel/report/tables.h \
  kernel/report/outcome.h kernel/lib/nearest.h

# `baretrace --version` names the commit it was built from, when there is one.
BT_GIT := $(shell git describe --always --dirty 2>/dev/null)
BT_GIT_FLAG := $(if $(BT_GIT),-DBT_GIT_DESCRIBE='"$(BT_GIT)"')

# libstdc++.a: its C++ demangler only (model/demangle.c), linked in (60 KB;
# the shared library would add 1.3 MB to every run's memory).
$(HOST)/baretrace: $(BARETRACE_SRCS) $(BARETRACE_HDRS) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -Ikernel/report -Ikernel/lib $(BT_GIT_FLAG) -o $@ $(BARETRACE_SRCS) -lelf -ldw -l:libstdc++.a

# Synthetic traces in the wire format for make bench-host and the host
# stage's memory checks.
GENTRACE_SRCS := $(sort $(wildcard tools/gentrace/*.c)) $(wildcard wire/*.c)
$(HOST)/gentrace: $(GENTRACE_SRCS) tools/gentrace/gentrace.h $(wildcard wire/*.h) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -o $@ $(GENTRACE_SRCS)

# The host tool's man pages, baretrace(1) and baretrace-COMMAND(1): made
# from its own --help by tools/mkman (help.c's texts are their one source).
MAN_DIR := $(HOST)/man
$(MAN_DIR)/baretrace.1: $(HOST)/baretrace tools/mkman
	@$(if $(Q),echo "  MKMAN   $(MAN_DIR)")
	$(Q)tools/mkman $(HOST)/baretrace $(MAN_DIR)

host-tools: $(HOST)/mktables $(HOST)/baretrace $(MAN_DIR)/baretrace.1 $(HOST)/check-names

# 'make install [PREFIX=/usr/local] [DESTDIR=]': the host tool and its man
# pages, where a package would put them.
PREFIX ?= /usr/local
DESTDIR ?=
install: $(HOST)/baretrace $(MAN_DIR)/baretrace.1
	install -d '$(DESTDIR)$(PREFIX)/bin' '$(DESTDIR)$(PREFIX)/share/man/man1'
	install -m 755 $(HOST)/baretrace '$(DESTDIR)$(PREFIX)/bin/baretrace'
	install -m 644 $(MAN_DIR)/*.1 '$(DESTDIR)$(PREFIX)/share/man/man1/'

include mk/run.mk
include mk/ci.mk

# ---- tests ----------------------------------------------------------------
# make test uses every fetched file (tools/setup test fetches them; the
# other targets fetch only what they use: docs/running.md).
# TEST_STAGES='host build' (or host,build) runs only those stages; a name
# test/run.py does not know stops make before anything runs.
TEST_ONLY = $(if $(call list_words,$(TEST_STAGES)),--only $(subst $(space),$(comma),$(call list_words,$(TEST_STAGES))))
ifneq ($(filter test test-under-load,$(MAKECMDGOALS)),)
ifneq ($(call list_words,$(TEST_STAGES)),)
TEST_STAGES_BAD := $(shell python3 test/run.py --only $(call shell_quote,$(TEST_STAGES)) --list 2>&1 >/dev/null)
$(if $(TEST_STAGES_BAD),$(error TEST_STAGES: $(strip $(patsubst run.py:,,$(TEST_STAGES_BAD)))))
endif
endif
test: setup-check
	$(Q)tools/setup test
	$(Q)python3 test/run.py --board $(BOARD) $(TEST_ONLY)

# The suite with LOAD (default 2) busy host processes beside it, as on a
# shared CI machine: no verdict may depend on the host's speed.
LOAD ?= 2
test-under-load: setup-check
	$(Q)tools/setup test
	$(Q)tools/under-load $(LOAD) python3 test/run.py --board $(BOARD) $(TEST_ONLY)

# The README's two commands on a pristine Debian 12 root with only make and
# git (tools/fresh-check; root, about 30 minutes). Run it whenever tools/,
# the Makefile or a board makefile changed.
fresh-check:
	$(Q)tools/setup fresh-check
	$(Q)tools/fresh-check

# Board farms on QEMU (docs/farms.md): labgrid's
# pytest plugin and LAVA's lava-run; FARM= picks scenarios
# (tools/farm/scenarios.py; default: the ones that must pass).
.PHONY: farm-labgrid farm-lava
farm-labgrid: setup-check
	$(Q)tools/setup farm
	$(Q)tools/farm/run-labgrid $(call list_words,$(FARM))

farm-lava: setup-check
	$(Q)tools/setup farm
	$(Q)tools/farm/run-lava $(call list_words,$(FARM))

# Every control operation while every CPU writes, SOAK_S seconds (default
# 120), under multi-threaded TCG, captured; make test runs 30 s of it.
soak: setup-check
	$(Q)tools/setup
	$(Q)SOAK_S=$(or $(SOAK_S),120) python3 test/end_of_run.py

# ---- benchmarks -------------------------------------------------------------
# Figures go to build/bench (qemu-virt) or build/bench/BOARD, each board on
# its own QEMU machine (qemu-run's options after the folder).
BENCH_DIR := $(BUILD)/bench$(if $(filter-out qemu-virt,$(BOARD)),/$(BOARD))
# The host tool on generated 1M- and 10M-event traces, beside trace-cmd
# and babeltrace2 reading its exports: build/bench/host.json (a few
# minutes; not part of make test). BENCH_HOST_EVENTS to choose the sizes.
BENCH_HOST_EVENTS ?= 1000000 10000000
bench-host: $(HOST)/baretrace $(HOST)/gentrace
	$(Q)tools/bench-host $(HOST)/baretrace $(HOST)/gentrace $(BUILD)/bench $(call list_words,$(BENCH_HOST_EVENTS))

include mk/coverage.mk

# make bench also boots mbed TLS's self-test (examples/mbedtls).
bench: $(QEMU_DTB_DEP) $(BUILD)/third-party/mbedtls.dir
	$(Q)$(MAKE) --no-print-directory BOARD=$(BOARD) APP=test/bench
	$(Q)$(MAKE) --no-print-directory BOARD=$(BOARD)
	$(Q)tools/bench $(BUILD)/$(BOARD)/app-test-bench/Image $(BUILD)/$(BOARD)/Image $(BENCH_DIR) \
	  --machine $(QEMU_MACHINE) --cpu $(QEMU_CPU) --smp $(QEMU_SMP) --mem $(QEMU_MEM) \
	  $(if $(QEMU_BIN),--qemu $(QEMU_BIN)) $(if $(QEMU_DTB),--dtb '$(QEMU_DTB_FILE)')

# make bench, then its figures become test/bench/baseline.json, which the
# boot stage holds every later run to (test/bench_baseline.py: more than
# 0.5 % worse or better, or a count moved, fails; docs/tests.md). Only
# qemu-virt's figures are held.
bench-baseline:
	$(if $(filter qemu-virt,$(BOARD)),,$(error make bench-baseline holds qemu-virt's figures (the boot stage's); not BOARD=$(BOARD)))
	$(Q)mkdir -p $(BENCH_DIR) && touch $(BENCH_DIR)/.baseline-start
	$(Q)$(MAKE) --no-print-directory BOARD=$(BOARD) bench
	$(Q)python3 test/bench_baseline.py update $(BENCH_DIR) --board $(BOARD) \
	  --written-after $(BENCH_DIR)/.baseline-start

# The same tracer costs on Debian's arm64 Linux kernel, side by side
# (build/bench/anchor.json); downloads the kernel package once.
bench-anchor:
	$(Q)tools/bench-anchor

# The figures README.md and docs/*.md quote from make bench and make
# bench-host, written into their marked spans (<!-- fig ... -->) from
# test/bench/baseline.json, or from a fresh make bench while the tree has
# no baseline, and docs/bench-host.json (refreshed from a newer
# build/bench/host.json); commit the result. The readme stage of make
# test checks them (tools/docs-figures check).
docs: $(if $(wildcard test/bench/baseline.json),,bench)
	$(Q)tools/docs-figures write

clean:
	rm -rf $(BUILD)/$(BOARD) $(HOST)

include mk/help.mk

include mk/rpi.mk

# A board without a QEMU model builds but does not run: RUN says so, and
# the arguments the recipes append go to 'false'.
ifeq ($(QEMU_MACHINE),)
RUN_ON = echo "make: BOARD=$(BOARD) has no QEMU model; put build/$(BOARD) on its SD card \
(docs/boards.md)" >&2; false
endif

# 'make print-VAR' prints a variable (used by test/run.py).
print-%:
	@printf '%s\n' $(call shell_quote,$($*))

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
