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

# Flags. Every function gets a patchable entry (4 NOPs, 2 before the
# symbol) unless its file is listed in NOTRACE; kernel code never touches
# FP/SIMD registers (the core tracers' callbacks run without saving them;
# test/run.py checks), application code may; code that runs with the MMU
# off is strict-align.
CFLAGS_COMMON := -O2 -g -ffreestanding -fno-common \
  -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
  -fno-stack-protector -fpie \
  -march=armv8-a -mno-outline-atomics -falign-functions=8 \
  -ffunction-sections -fdata-sections -MD -MP \
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

.PHONY: all clean help run run-direct debug test test-under-load fresh-check bench bench-baseline bench-host bench-anchor docs coverage coverage-html soak setup newlib host-tools install
all: $(OUT)/Image $(OUT)/baretrace.lst

$(NEWLIB_DONE):
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
		  tools/mktables_objs.c tools/mktables_objs.h kernel/report/tables.h | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -o $@ tools/mktables.c tools/mktables_map.c tools/mktables_objs.c -lelf

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
# (no file has their names: they always run).
run $(if $(filter rpi,$(BOARD_FLOW)),run-uboot): check-run-names
run-direct: check-direct-names
check-run-names: all $(HOST)/check-names
	$(call CHECK_NAMES,$(TRACE))
check-direct-names: all $(HOST)/check-names
	$(call CHECK_NAMES,)
CHECK_NAMES = $(call check_names_say,$(shell $(HOST)/check-names $(OUT)/baretrace.elf \
  --what 'make $(firstword $(filter run run-uboot run-direct,$(MAKECMDGOALS)) $@)' \
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
# folder. Kernel objects are shared by every app; this one is the app's.
$(OUT)/app_name.S: $(FLAGS_DEPS)
	@mkdir -p $(dir $@)
	$(Q)printf '\t.section .rodata\n\t.globl bt_app_name\nbt_app_name:\n\t.asciz "%s"\n' \
	  '$(subst ",,$(subst \,,$(subst ',,$(notdir $(patsubst %/,%,$(APP))))))' > $@

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

BARETRACE_SRCS := $(sort $(wildcard tools/baretrace/*.c tools/baretrace/*/*.c)) $(wildcard wire/*.c)
BARETRACE_HDRS := $(wildcard tools/baretrace/*.h tools/baretrace/*/*.h) $(wildcard wire/*.h) kernel/report/tables.h \
  kernel/report/outcome.h

# `baretrace --version` names the commit it was built from, when there is one.
BT_GIT := $(shell git describe --always --dirty 2>/dev/null)
BT_GIT_FLAG := $(if $(BT_GIT),-DBT_GIT_DESCRIBE='"$(BT_GIT)"')

# libstdc++.a: its C++ demangler only (model/demangle.c), linked in (60 KB;
# the shared library would add 1.3 MB to every run's memory).
$(HOST)/baretrace: $(BARETRACE_SRCS) $(BARETRACE_HDRS) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -Ikernel/report $(BT_GIT_FLAG) -o $@ $(BARETRACE_SRCS) -lelf -ldw -l:libstdc++.a

# Synthetic traces in the wire format for make bench-host and the host
# stage's memory checks.
$(HOST)/gentrace: tools/gentrace.c $(wildcard wire/*.c wire/*.h) | setup-check
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -O2 -g -Wall -Wextra -Werror -o $@ tools/gentrace.c $(wildcard wire/*.c)

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
# trace_filter=pipeline_*,!pipeline_poll, '!' excluding what it matches.
comma := ,
space := $(subst x, ,x)
TRACE_FILTER_WORD = $(subst $(space),$(comma),$(strip $(TRACE_FILTER)))
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

# ---- tests ----------------------------------------------------------------
# make test uses every fetched file (tools/setup test fetches them; the
# other targets fetch only what they use: docs/running.md).
test: setup-check
	$(Q)tools/setup test
	$(Q)python3 test/run.py --board $(BOARD) $(if $(TEST_STAGES),--only $(TEST_STAGES))

# The suite with LOAD (default 2) busy host processes beside it, as on a
# shared CI machine: no verdict may depend on the host's speed.
LOAD ?= 2
test-under-load: setup-check
	$(Q)tools/setup test
	$(Q)tools/under-load $(LOAD) python3 test/run.py --board $(BOARD) $(if $(TEST_STAGES),--only $(TEST_STAGES))

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
	$(Q)tools/farm/run-labgrid $(FARM)

farm-lava: setup-check
	$(Q)tools/setup farm
	$(Q)tools/farm/run-lava $(FARM)

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
	$(Q)tools/bench-host $(HOST)/baretrace $(HOST)/gentrace $(BUILD)/bench $(BENCH_HOST_EVENTS)

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

# Every .PHONY target and every variable set with ?= is listed here
# (test/readme_examples.py checks it).
help:
	@echo "Targets:"
	@echo "  make [all]        build build/<board>/Image (all: the default target)"
	@echo "  make run          boot the app on QEMU (through U-Boot on qemu-virt), trace it,"
	@echo "                    write build/run/trace.{bt,txt,json,folded}; fails when main()"
	@echo "                    returns non-zero, or on a crash, panic, hang or Ctrl-C, and says"
	@echo "                    how the run ended (also in build/run/status: exit N, or WORD CODE;"
	@echo "                    removed when make starts, so a run that did not happen has none)"
	@echo "  make run-direct   boot with -kernel, no U-Boot, no tracing (trace settings in"
	@echo "                    BOOTARGS are refused: make TRACE= BOOTARGS='...' run captures them)"
	@echo "  make debug        QEMU halted with a gdb stub, gdb-multiarch attached"
	@echo "  make test         every test; the last line is 'N passed, N failed'"
	@echo "  make test-under-load  make test with LOAD busy host processes beside it"
	@echo "  make fresh-check  make run and make test on a pristine Debian 12 root (root; slow)"
	@echo "  make soak         every control operation while all CPUs trace"
	@echo "  make bench        instruction counts under -icount (build/bench/*.json;"
	@echo "                    BOARD=rpi4 on raspi4b: build/bench/rpi4/*.json)"
	@echo "  make bench-baseline  make bench, then its figures into test/bench/baseline.json,"
	@echo "                    which make test holds (a figure >0.5 % worse or better fails);"
	@echo "                    commit it with the change that moved them"
	@echo "  make bench-anchor the same tracer costs on Debian's arm64 Linux (build/bench/anchor.json)"
	@echo "  make bench-host   the host tool on generated 1M/10M-event traces (build/bench/host.json)"
	@echo "  make docs         write the bench figures README.md and docs/*.md quote into their"
	@echo "                    <!-- fig --> spans (tools/docs-figures; make test checks them)"
	@echo "  make coverage     the KTAP suites booted under trace=coverage: build/coverage/"
	@echo "                    ktest.bt, coverage.info (lcov) and index.html (genhtml)"
	@echo "  make coverage-html TRACES='A.bt ...' [ELFS=...]  the same report from your own"
	@echo "                    trace=coverage runs, merged"
	@echo "  make host-tools   build/host/baretrace, its man pages (build/host/man) and build/host/mktables"
	@echo "  make install      the host tool into PREFIX/bin, its man pages into PREFIX/share/man/man1"
	@echo "  make newlib       build newlib into build/newlib (once; the build does it when needed)"
	@echo "  make setup        install what is missing (tools/setup, apt-get)"
	@echo "  make clean        remove build/<board> and build/host (keeps build/newlib)"
	@echo "  make BOARD=rpi4 run-uboot   the Pi card's U-Boot flow on QEMU raspi4b (rpi3: raspi3b),"
	@echo "                    traced as make run"
	@echo "  make sdcard       Raspberry Pi boot partition: BOARD=rpi4 sdcard FIRMWARE_DIR=dir (docs/boards.md)"
	@echo "  make farm-labgrid labgrid's pytest tests on QEMU (FARM=scenarios; docs/farms.md)"
	@echo "  make farm-lava    LAVA jobs by lava-run on QEMU (FARM=scenarios)"
	@echo "  make help         this list"
	@echo "  make print-VAR    print a variable (internal: rpi-bootargs remakes cmdline.txt,"
	@echo "                    setup-check runs tools/setup when a tool is missing)"
	@echo "Variables:"
	@printf '  %-22s %s\n' "BOARD=$(BOARD)" "one of: $(BOARDS)"
	@printf '  %-22s %s\n' "APP=$(APP)" "the application directory (test/target: the KTAP suites)"
	@printf '  %-22s %s\n' "APP_CFLAGS='...'" "flags added to the app's C, C++ and assembly (after its app.mk's)"
	@printf '  %-22s %s\n' "APP_CXXFLAGS='...'" "flags added to the app's C++ (docs/applications.md lists the rest)"
	@printf '  %-22s %s\n' "BOOTARGS='...'" "kernel parameters, then --, then main()'s argv"
	@printf '  %-22s %s\n' "TRACE=$(TRACE)" "make run's tracer: function, function_graph, profile, or empty"
	@printf '  %-22s %s\n' "" "for none (trace settings in BOOTARGS are still captured)"
	@printf '  %-22s %s\n' "TRACE_FILTER='a* !b'" "make run's functions (globs, !GLOB excludes, @app the app's own; default: APP/trace_filter, else @app)"
	@printf '  %-22s %s\n' "EXEC='CMD; CMD'" "make run: commands for the console shell (baretrace capture --exec;"
	@printf '  %-22s %s\n' "" "captured even with TRACE=; the shell needs BOOTARGS=shell)"
	@printf '  %-22s %s\n' "TIMEOUT=S" "make run: after S seconds end the run as a hang (status 124, every output written)"
	@printf '  %-22s %s\n' "QEMU_FLAGS='...'" "extra QEMU options, in every mode"
	@printf '  %-22s %s\n' "ICOUNT=1" "QEMU's clock counts instructions (-icount shift=4,sleep=off):"
	@printf '  %-22s %s\n' "" "the same durations on every run (run, run-direct, run-uboot, debug)"
	@printf '  %-22s %s\n' "V=1" "show the compiler command lines"
	@printf '  %-22s %s\n' "CROSS_COMPILE=prefix" "the cross compiler (default: aarch64-none-elf- if on PATH,"
	@printf '  %-22s %s\n' "" "else aarch64-linux-gnu- with build/newlib)"
	@printf '  %-22s %s\n' "HOSTCC=gcc" "the host compiler of build/host"
	@printf '  %-22s %s\n' "PREFIX=$(PREFIX)" "make install: where (bin/, share/man/man1/)"
	@printf '  %-22s %s\n' "DESTDIR=dir" "make install: a staging root put before PREFIX (packaging)"
	@printf '  %-22s %s\n' "LOAD_ADDR=0x40200000" "make debug: where QEMU loads the image; GDB_PORT=1234 its port"
	@printf '  %-22s %s\n' "SOAK_S=120" "make soak: seconds"
	@printf '  %-22s %s\n' "LOAD=2" "make test-under-load: busy host processes"
	@printf '  %-22s %s\n' "BENCH_HOST_EVENTS='N M'" "make bench-host: the traces' sizes in events (default 1000000 10000000)"
	@printf '  %-22s %s\n' "COVERAGE_SUITES='a b'" "make coverage: only these KTAP suites (name prefixes; default all)"
	@printf '  %-22s %s\n' "TEST_STAGES=a,b" "make test: only these stages of test/run.py"
	@printf '  %-22s %s\n' "UBOOT_BIN=file" "the U-Boot binary (board default)"
	@printf '  %-22s %s\n' "FIRMWARE_DIR=dir" "make sdcard: the Pi firmware files"
	@printf '  %-22s %s\n' "SDCARD_FLOW=direct" "make sdcard: direct (firmware boots the Image) or uboot"
	@printf '  %-22s %s\n' "FARM='a b'" "make farm-*: scenarios of tools/farm/scenarios.py (default: the good ones)"

# ---- Raspberry Pi flows ------------------------------------------------------
# Boards whose board.mk includes board/rpi-common/rpi.mk (BOARD_FLOW := rpi)
# also get, next to the Image, what the Pi firmware boots:
#   kernel8.img   the Image under the name the firmware loads (BOARD_IMAGE_NAME)
#   config.txt    the firmware's settings (BOARD_CONFIG_TXT)
#   cmdline.txt   the boot line of make run (boot_line): panic=poweroff,
#                 make run's tracing (TRACE_ARGS; TRACE= for none), then
#                 BOOTARGS as typed; the firmware hands it over in
#                 /chosen/bootargs, so a card records a trace out of the
#                 box and ends a crash as make run does.
#   boot.scr      the U-Boot flow's script (board/rpi-common/boot.cmd),
#                 setting bootargs to cmdline.txt's line, quoted for
#                 U-Boot's shell (tools/uboot-quote)
# 'make sdcard FIRMWARE_DIR=dir [SDCARD_FLOW=uboot]' adds the firmware
# files (RPI_FIRMWARE) and writes sdcard/ and sdcard.img (tools/mksdcard).
ifeq ($(BOARD_FLOW),rpi)
RPI_BOOT_FILES := $(OUT)/$(BOARD_IMAGE_NAME) $(OUT)/config.txt $(OUT)/cmdline.txt \
  $(OUT)/boot.scr
RPI_CMDLINE = $(call boot_line,$(TRACE_ARGS))
SDCARD_FLOW ?= direct
FIRMWARE_DIR ?=
.PHONY: sdcard run-uboot rpi-bootargs
all: $(RPI_BOOT_FILES)

$(OUT)/$(BOARD_IMAGE_NAME): $(OUT)/Image
	$(Q)cp $< $@

$(OUT)/config.txt: $(BOARD_CONFIG_TXT)
	$(Q)cp $< $@

# Rewritten only when BOOTARGS changes, so boot.scr is remade only then.
$(OUT)/cmdline.txt: rpi-bootargs
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' $(call shell_quote,$(RPI_CMDLINE)) > $@.new
	$(Q)if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# The template's @BOOTARGS@ becomes cmdline.txt's line as one U-Boot word.
$(OUT)/boot.cmd: board/rpi-common/boot.cmd $(OUT)/cmdline.txt
	$(Q)word=$$(tools/uboot-quote "$$(cat $(OUT)/cmdline.txt)") && \
	  sed "s|@BOOTARGS@|$$(printf '%s' "$$word" | sed 's/[\\|&]/\\&/g')|" $< > $@

$(OUT)/boot.scr: $(OUT)/boot.cmd
	@$(if $(Q),echo "  MKIMAGE $@")
	$(Q)mkimage -A arm64 -O linux -T script -C none -n baretrace -d $< $@ >/dev/null

sdcard: all $(if $(filter uboot,$(SDCARD_FLOW)),$(UBOOT_BIN))
	$(Q)tools/mksdcard --out $(OUT)/sdcard.img --flow '$(SDCARD_FLOW)' \
	  --firmware-dir '$(FIRMWARE_DIR)' --firmware '$(RPI_FIRMWARE)' \
	  --uboot '$(UBOOT_BIN)' $(RPI_BOOT_FILES)

# Debian's U-Boot and kernel device trees, fetched once (tools/fetch-pi).
$(RPI_UBOOT_DEB) $(RPI_KERNEL_DEB)/.fetched:
	$(Q)tools/fetch-pi

# 'make run-uboot' (boards with RPI_QEMU_DTB): the U-Boot flow on QEMU.
# The card is 'make sdcard SDCARD_FLOW=uboot' less the firmware, which
# QEMU stands in for: it loads U-Boot and Debian's device tree for the
# board; U-Boot runs boot.scr from the card, so the boot arguments are the
# card's (cmdline.txt: make run's boot line, boot_line).
# The trace is captured and reported as by make run.
run-uboot: all host-tools $(UBOOT_BIN) $(RPI_KERNEL_DEB)/.fetched $(QEMU_BIN)
	$(Q)[ -n "$(RPI_QEMU_DTB)" ] || { echo "make run-uboot: BOARD=$(BOARD) names no \
	  device tree for QEMU (RPI_QEMU_DTB)" >&2; exit 1; }
	$(Q)tools/mksdcard --out $(OUT)/run-uboot/sdcard.img --flow uboot --no-firmware \
	  --uboot '$(UBOOT_BIN)' $(RPI_BOOT_FILES)
	@mkdir -p $(RUN_DIR) && rm -f $(RUN_DIR)/trace.* $(RUN_DIR)/status
	@dtb=$$(ls $(RPI_KERNEL_DEB)/usr/lib/linux-image-*/broadcom/$(RPI_QEMU_DTB) | head -n 1); \
	trap : INT; status=0; $(RUN) --uboot '$(UBOOT_BIN)' --sd $(OUT)/run-uboot/sdcard.img \
	  --qemu-flags "-dtb $$dtb $(QEMU_FLAGS)" --status $(RUN_DIR)/status \
	  $(if $(TIMEOUT),--timeout '$(TIMEOUT)') \
	  $(if $(CAPTURE),--capture $(RUN_DIR)/trace.bt $(if $(value EXEC),--exec $(call shell_quote,$(value EXEC)))) || status=$$?; \
	echo "(U-Boot's mini UART output: $(OUT)/run-uboot/miniuart.log)"; \
	$(RUN_REPORT)
else
sdcard run-uboot:
	@echo "make $@: for the Raspberry Pi boards (BOARD=rpi4 or rpi3), not $(BOARD)" >&2; exit 1
endif

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
