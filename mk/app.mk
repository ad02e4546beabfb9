# mk/app.mk: the application's sources and flags, read by the Makefile.
#
# An application is a folder (APP=dir). It may describe itself in
# dir/app.mk, a makefile fragment that sets any of these (all optional;
# README "Your own application"):
#
#   app-srcs      sources: .c, .S, .cpp (.cc, .cxx), paths relative to the
#                 app folder or absolute; globs allowed (lib/*.c).
#                 Default: every source in the folder and its subfolders.
#   app-incdirs   include folders, relative to the app folder or absolute
#   app-defines   preprocessor defines: FOO=1 BAR
#   app-cflags    flags for C, C++ and assembly (-Werror, -Wno-...)
#   app-cxxflags  flags for C++ only (-std=gnu++20, ...)
#   app-notrace   sources built without a patchable entry (same paths)
#   app-ignore    files in the folder neither built nor named (same paths)
#   app-libs      libraries to link, searched with libc (-lNAME, or a path)
#
# The fragment is read from the repository root: $(APP_DIR) is the app
# folder, $(BUILD) the build folder, $(KERNEL_INCLUDES) the kernel's own
# include folders as absolute paths (only the kernel's test apps need
# them). App code is
# built with -Wall -Wextra and without the kernel's -Werror; its include
# path is include/, the app folder and app-incdirs.
#
# Every file under the app folder that is not built, not a header and
# not one of the app's own files (app.mk, trace_filter) is named in the
# build output with the reason, never skipped in silence.

APP_DIR := $(patsubst %/,%,$(APP))
APP_SRC_EXTS := c S cpp cc cxx
APP_CXX_EXTS := cpp cc cxx
APP_KNOWN    := %.h %.hpp %.hh %.hxx %.inc $(APP_DIR)/app.mk $(APP_DIR)/trace_filter

KERNEL_INCLUDES := $(abspath $(KERNEL_INCDIRS))
app-srcs :=
app-incdirs :=
app-defines :=
app-cflags :=
app-cxxflags :=
app-notrace :=
app-ignore :=
app-libs :=
APP_MK := $(wildcard $(APP_DIR)/app.mk)
ifneq ($(APP_MK),)
include $(APP_MK)
endif

# A path as the fragment wrote it, made relative to the repository root
# (or left absolute); $(call app_glob,WORDS) expands globs, in order.
app_path = $(if $(filter /%,$(1)),$(1),$(APP_DIR)/$(1))
app_glob = $(foreach w,$(1),$(sort $(wildcard $(call app_path,$(w)))))

APP_FILES := $(shell find $(APP_DIR)/ -type f ! -path '*/.*' 2>/dev/null | sed 's|//*|/|g' | sort)
APP_FOUND := $(filter $(addprefix %.,$(APP_SRC_EXTS)),$(APP_FILES))

APP_IGNORED := $(call app_glob,$(app-ignore))
ifeq ($(strip $(app-srcs)),)
APP_SRCS := $(filter-out $(APP_IGNORED),$(APP_FOUND))
else
# Every entry must name at least one file: a typo is an error, not an
# app that links without it.
APP_MISSING := $(strip $(foreach w,$(app-srcs),$(if $(wildcard $(call app_path,$(w))),,$(w))))
ifneq ($(APP_MISSING),)
$(error $(APP_MK): app-srcs names no file for: $(APP_MISSING))
endif
APP_SRCS := $(call app_glob,$(app-srcs))
endif
APP_BAD := $(filter-out $(addprefix %.,$(APP_SRC_EXTS)),$(APP_SRCS))
ifneq ($(APP_BAD),)
$(error $(or $(APP_MK),$(APP_DIR)): cannot build $(APP_BAD): sources are $(addprefix .,$(APP_SRC_EXTS)))
endif
ifeq ($(APP_SRCS),)
$(error APP '$(APP)' is not a directory with sources ($(addprefix .,$(APP_SRC_EXTS)), in it or its subfolders, or listed in its app.mk); examples: $(sort $(patsubst %/,%,$(dir $(wildcard examples/*/*.c examples/*/*.cpp)))) test/target)
endif

APP_NOTRACE := $(call app_glob,$(app-notrace))
APP_CXX_SRCS := $(filter $(addprefix %.,$(APP_CXX_EXTS)),$(APP_SRCS))

# What is in the folder and not built: sources left out by app-srcs, and
# files of an extension the build does not take.
APP_UNUSED  := $(filter-out $(APP_SRCS) $(APP_KNOWN) $(APP_IGNORED),$(APP_FILES))
APP_SKIP_SRC   := $(filter $(APP_FOUND),$(APP_UNUSED))
APP_SKIP_OTHER := $(filter-out $(APP_FOUND),$(APP_UNUSED))
APP_SP := $(subst x, ,x)
ifdef NEED_TOOLS
$(foreach f,$(APP_SKIP_SRC),$(info $(APP_SP)$(APP_SP)SKIP    $(f) (not in $(APP_MK)'s app-srcs)))
$(foreach f,$(APP_SKIP_OTHER),$(info $(APP_SP)$(APP_SP)SKIP    $(f) (not a source: the build takes $(addprefix .,$(APP_SRC_EXTS)))))
endif

# Flags. Objects go under $(OBJ)/app/ by path; an absolute path keeps its
# folders under $(OBJ)/app/abs/.
APP_INCDIRS := $(foreach d,$(app-incdirs),$(call app_path,$(d)))
APP_LIBS    := $(app-libs)
APP_FLAGS   := $(addprefix -I,$(APP_INCDIRS)) $(addprefix -D,$(app-defines)) $(app-cflags)
app_obj = $(patsubst /%,$(OBJ)/app/abs/%.o,$(filter /%,$(1))) \
  $(patsubst %,$(OBJ)/app/%.o,$(filter-out /%,$(1)))
APP_OBJS := $(call app_obj,$(APP_SRCS))
