# mk/app.mk: the application's sources and flags, read by the Makefile.
#
# An application is a folder (APP=dir). It may describe itself in
# dir/app.mk, a makefile fragment that sets any of these (all optional;
# docs/applications.md, "Building an existing tree: app.mk"):
#
#   app-srcs      sources: .c, .S, .cpp (.cc, .cxx), paths relative to the
#                 app folder or absolute; globs allowed (lib/*.c; '**'
#                 reaches any depth: lib/**/*.c, docs/**).
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
#
# The user adds flags with APP_CFLAGS and APP_CXXFLAGS (the Makefile);
# the variables below, app.mk's, and the Makefile's own flag variables
# are the build's: given on the command line they would replace what it
# computes (APP_CFLAGS used to, include folders and all), so they are
# refused there. CFLAGS and its kin are not read at all: refused too,
# rather than ignored.
APP_NOT_USER_VARS := CFLAGS CXXFLAGS CPPFLAGS ASFLAGS LDFLAGS LDLIBS \
  CFLAGS_COMMON CFLAGS_BASE KERNEL_INCDIRS PATCHABLE KERNEL_ONLY \
  $(addprefix app-,srcs incdirs defines cflags cxxflags notrace ignore libs) \
  app_common_flags app_c_flags app_cxx_flags APP_DIR APP_MK APP_MK_FLAGS \
  APP_SRCS APP_OBJS APP_LIBS APP_INCDIRS APP_NOTRACE APP_IGNORED
APP_NOT_USER_BUILDS := CFLAGS CXXFLAGS CPPFLAGS ASFLAGS LDLIBS
app_comma := ,
app_not_user_why = $(if $(filter $(APP_NOT_USER_BUILDS),$(1)),this build does not read $(1),$(if \
  $(filter app-%,$(1)),$(1) is the app.mk's,$(1) is the build's own)$(app_comma) and a value \
  given here would replace it)
$(foreach v,$(APP_NOT_USER_VARS),$(if $(filter command line,$(origin $(v))),$(error \
  $(v)= on the command line: $(call app_not_user_why,$(v)); APP_CFLAGS='...' adds flags to \
  the application's C$(app_comma) C++ and assembly$(app_comma) APP_CXXFLAGS='...' to its C++ \
  (make help; docs/applications.md))))

# Paths. One with a '.' or '..' component is resolved as the file system
# does (realpath: '..' after a symlink climbs from the symlink's target),
# then named relative to the tree when inside it, else absolute; any
# other path is kept as written. No '..' ever reaches an object's path,
# so APP=../kernel's objects go under $(OBJ)/app/abs/..., not onto the
# kernel's in $(OBJ)/kernel/.
app_dotted = $(or $(findstring /./,/$(1)/),$(findstring /../,/$(1)/))
app_clean  = $(foreach p,$(1),$(if $(call app_dotted,$(p)),$(patsubst \
  $(CURDIR)/%,%,$(or $(realpath $(p)),$(abspath $(p)))),$(p)))

APP_DIR := $(call app_clean,$(patsubst %/,%,$(APP)))
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
# (or left absolute); $(call app_glob,WORDS) expands globs, in order,
# each word's files sorted, each path made clean (app_clean). A word with
# '**' is expanded by bash's globstar: '**' matches any depth of folders
# (docs/** every file under docs/, lib/**/*.c every .c under lib/);
# other words by make's wildcard, where '*' stays within one folder.
app_path = $(if $(filter /%,$(1)),$(1),$(APP_DIR)/$(1))
app_globstar = $(shell bash -O globstar -O nullglob -c \
  'for f in $(1); do [ -f "$$f" ] && printf "%s\n" "$$f"; done; true')
app_expand = $(if $(findstring **,$(1)),$(call app_globstar,$(1)),$(wildcard $(1)))
app_glob = $(foreach w,$(1),$(sort $(call app_clean,$(call app_expand,$(call app_path,$(w))))))

# Files under the folder, hidden ones aside (found from inside it, so a
# '.' in the folder's own path hides nothing).
APP_FILES := $(shell cd $(APP_DIR) 2>/dev/null && find . -type f ! -path '*/.*' | \
  sed 's|^\./|$(APP_DIR)/|' | sort)
APP_FOUND := $(filter $(addprefix %.,$(APP_SRC_EXTS)),$(APP_FILES))

APP_IGNORED := $(call app_glob,$(app-ignore))
ifeq ($(strip $(app-srcs)),)
APP_SRCS := $(filter-out $(APP_IGNORED),$(APP_FOUND))
else
# Every entry must name at least one file: a typo is an error, not an
# app that links without it.
APP_MISSING := $(strip $(foreach w,$(app-srcs),$(if $(call app_glob,$(w)),,$(w))))
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

# Flags (the Makefile adds them to its own). Objects go under $(OBJ)/app/
# by path (clean: no '..'); an absolute path keeps its folders under
# $(OBJ)/app/abs/.
APP_INCDIRS  := $(foreach d,$(app-incdirs),$(call app_clean,$(call app_path,$(d))))
APP_LIBS     := $(app-libs)
APP_MK_FLAGS := $(addprefix -I,$(APP_INCDIRS)) $(addprefix -D,$(app-defines)) $(app-cflags)
app_obj = $(patsubst /%,$(OBJ)/app/abs/%.o,$(filter /%,$(1))) \
  $(patsubst %,$(OBJ)/app/%.o,$(filter-out /%,$(1)))
APP_OBJS := $(call app_obj,$(APP_SRCS))
