# likelyprof - top-level Makefile
#
#   make                 runtime (lib/liblikelyprof.a, .so) and ./likelyprof
#   make demo            build examples/ with `likelyprof cc`, run, report
#   make check           every test tier, plus the sanitizer builds
#   make bench           overhead and scaling benchmarks (bench/RESULTS.md)
#   make check-real      build real Debian packages with likelyprof (network)
#   make install PREFIX=/usr/local DESTDIR=   (the command, runtime, header,
#                        docs, man pages, bash and zsh completion)
#   make lib32           the runtime for -m32 programs, in lib/32 (needs
#                        gcc-multilib); make install installs it too
#
# One Makefile for the whole tree: one dependency graph keeps `make -j`
# right, and every source list is a wildcard, so adding a file needs no
# edit here.  Local overrides go in config.mak (ignored by git).

-include config.mak

PREFIX      ?= /usr/local
DESTDIR     ?=
prefix      ?= $(PREFIX)
bindir      ?= $(prefix)/bin
libdir      ?= $(prefix)/lib
includedir  ?= $(prefix)/include
datadir     ?= $(prefix)/share
docdir      ?= $(datadir)/doc/likelyprof
mandir      ?= $(datadir)/man
datarootdir ?= $(datadir)
bashcompdir ?= $(datarootdir)/bash-completion/completions
zshcompdir  ?= $(datarootdir)/zsh/site-functions
pkgconfigdir ?= $(libdir)/pkgconfig

CC          ?= cc
CFLAGS      ?= -O2 -g
WERROR      ?= 0
# Objects and the outputs of a variant build (sanitizers) go under OUT.
OUT         ?= .
OBJ         ?= build/obj

WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	   -Wpointer-arith -Wformat=2
ifeq ($(WERROR),1)
WARN    += -Werror
endif
ALL_CFLAGS = -std=gnu99 $(WARN) $(CFLAGS) -Iinclude -Ilib/runtime \
	     -Ilib/profile -Itools \
	     -D_GNU_SOURCE -pthread
RT_CFLAGS  = $(ALL_CFLAGS) -fPIC -fvisibility=hidden

VERSION := $(shell sed -n 's/^\#define LP_VERSION_\(MAJOR\|MINOR\|RELEASE\)  *\([0-9]*\).*/\2/p' include/likelyprof.h | paste -sd.)

# The runtime (lib/runtime/): what instrumented programs link.  Its record
# writer, error names and mark serve the command too.
RT_SRC   = $(wildcard lib/runtime/*.c)
RT_SHARED_SRC = lib/runtime/format.c lib/runtime/error.c lib/runtime/mark.c
# The profile library (lib/profile/) serves the command only.
PROF_SRC = $(wildcard lib/profile/*.c)
TOOL_SRC = $(wildcard tools/*.c tools/as/*.c tools/cc/*.c tools/fix/*.c \
	tools/report/*.c \
	tools/judge/*.c)
TOOL_MAIN = tools/main.c

RT_OBJ   = $(RT_SRC:%.c=$(OBJ)/pic/%.o)
PROF_OBJ = $(PROF_SRC:%.c=$(OBJ)/%.o) $(RT_SHARED_SRC:%.c=$(OBJ)/%.o)
TOOL_OBJ = $(TOOL_SRC:%.c=$(OBJ)/%.o)
# The command's code without main(), for unit tests.
CORE_OBJ = $(PROF_OBJ) $(filter-out $(OBJ)/$(TOOL_MAIN:.c=.o),$(TOOL_OBJ))

LIB_A    = $(OUT)/lib/liblikelyprof.a
LIB_SO   = $(OUT)/lib/liblikelyprof.so
SONAME   = liblikelyprof.so.0
CMD      = $(OUT)/likelyprof
# Compiler-named entry points for CC= and CMAKE_C_COMPILER=, which take no
# subcommand: links to the command, which reads its own name.
CMD_LINKS = $(OUT)/likelyprof-cc $(OUT)/likelyprof-c++
# gcc's assembler, for likelyprof cc -B (tools/cmd-as.c)
AS_LINK  = $(OUT)/lib/likelyprof-as/as
# The runtime for -m32 programs (make lib32); `likelyprof cc -m32` links
# LIBDIR/32.
RT32_OBJ = $(RT_SRC:%.c=$(OBJ)/pic32/%.o)
LIB32_A  = $(OUT)/lib/32/liblikelyprof.a
LIB32_SO = $(OUT)/lib/32/liblikelyprof.so

.PHONY: all lib tools demo check test check-deps check-unit check-cli check-e2e \
	check-sanitize check-tsan check-real bench install uninstall clean \
	style-check fuzz lib32 check-lib32 likelyprof.pc man
.DEFAULT_GOAL := all

all: lib tools
lib: $(LIB_A) $(LIB_SO)
tools: $(CMD) $(CMD_LINKS) $(AS_LINK)
lib32: $(LIB32_A) $(LIB32_SO)

# Man pages are made from doc/, so the two never disagree.
MAN_PAGES = $(patsubst doc/%.md,build/man/%.1,$(wildcard doc/likelyprof*.md))
# Every name installed has a page: likelyprof-c++ is likelyprof-cc's.
MAN_ALIASES = likelyprof-c++
man: $(MAN_PAGES)
build/man/%.1: doc/%.md doc/md2man.awk include/likelyprof.h
	@mkdir -p $(dir $@)
	awk -v version=$(VERSION) -v date=$$(git log -1 --format=%cs 2>/dev/null || date +%F) \
		-f doc/md2man.awk $< > $@.tmp && mv $@.tmp $@

$(CMD_LINKS): $(CMD)
	ln -sf $(notdir $(CMD)) $@

$(AS_LINK): $(CMD)
	@mkdir -p $(dir $@)
	ln -sf ../../$(notdir $(CMD)) $@

$(OBJ)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -MMD -MP -c $< -o $@

$(OBJ)/pic32/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) -m32 $(RT_CFLAGS) -MMD -MP -c $< -o $@

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB_A): $(RT_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

$(LIB_SO): $(RT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -shared -Wl,-soname,$(SONAME) -o $@.0 $^ \
		$(LDFLAGS) -ldl
	ln -sf $(notdir $@).0 $@

$(LIB32_A): $(RT32_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

$(LIB32_SO): $(RT32_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -m32 $(RT_CFLAGS) -shared -Wl,-soname,$(SONAME) -o $@.0 $^ \
		$(LDFLAGS) -ldl
	ln -sf $(notdir $@).0 $@

# -lm: the confidence interval of branch samples (lib/profile/policy.c)
# takes a root
$(CMD): $(TOOL_OBJ) $(PROF_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) -lm

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

# --- tests -----------------------------------------------------------------
UNIT_SRC = $(wildcard tests/unit/u-*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(OBJ)/tests/%)

$(OBJ)/tests/u-%: tests/unit/u-%.c tests/unit/test.h $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(CORE_OBJ) $(LDFLAGS) -lm

# The runtime that programs built by the tests link; see check-sanitize.
TEST_LIB_DIR ?= $(abspath $(OUT)/lib)
TEST_ENV = LIKELYPROF="$(abspath $(CMD))" \
	   LIKELYPROF_INCLUDE_DIR="$(abspath include)" \
	   LIKELYPROF_LIB_DIR="$(TEST_LIB_DIR)" \
	   LP_TEST_CC="$(CC)" LP_TEST_CFLAGS="$(CFLAGS)" \
	   LP_TEST_TMP="$(abspath $(OBJ))/tmp"

check-unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do $(TEST_ENV) ./$$t; done

check-cli: all
	@$(TEST_ENV) tests/cli/run.sh

check-e2e: all
	@$(TEST_ENV) tests/e2e/run.sh

# The runtime's own tests, the C++ build and the tricky-uses suite are e2e
# scripts; sanitizer variants rebuild everything under build/<name>.
#
# Under the sanitizers, the command and the library are built with them and
# every tier runs again.  The CLI tests build programs without sanitizer
# flags, which cannot load a sanitized runtime, so they link the plain
# one; the e2e scripts build their programs sanitized (LP_SANITIZE) and
# link the sanitized runtime.
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_MAKE = $(MAKE) OUT=build/asan OBJ=build/asan/obj \
	CFLAGS="$(SAN_FLAGS) -fsanitize=address,undefined" \
	LDFLAGS="-fsanitize=address,undefined" LP_SANITIZE=address,undefined
check-sanitize: all
	$(SAN_MAKE) TEST_LIB_DIR=$(abspath lib) check-unit check-cli
	$(SAN_MAKE) check-e2e

check-tsan:
	$(MAKE) OUT=build/tsan OBJ=build/tsan/obj \
		CFLAGS="$(SAN_FLAGS) -fsanitize=thread" \
		LDFLAGS="-fsanitize=thread" all
	$(TEST_ENV) LIKELYPROF="$(abspath build/tsan/likelyprof)" \
		LIKELYPROF_LIB_DIR="$(abspath build/tsan/lib)" \
		LP_TEST_CFLAGS="$(SAN_FLAGS) -fsanitize=thread" \
		LP_SANITIZE=thread tests/e2e/runtime-threads.sh

# The -m32 runtime where the compiler can build 32-bit code, so the e2e
# test of -m32 has one to link.
check-lib32:
	@if [ -z "$(LP_SANITIZE)" ] && printf 'int main(void){return 0;}\n' | \
	    $(CC) -m32 -x c - -o /dev/null 2>/dev/null; then \
		$(MAKE) lib32; fi

check-e2e: check-lib32

# Data flows one way: no circle between the files of lib/ and tools/.
check-deps: all
	@tests/deps.sh $(OBJ)

check test: all check-deps check-unit check-cli check-e2e check-sanitize \
	check-tsan
	@echo "all tests passed"

check-real: all
	@$(TEST_ENV) tests/real/run.sh

demo: all
	@$(MAKE) -s -C examples LIKELYPROF="$(abspath $(CMD))" demo

bench: all
	@$(TEST_ENV) bench/run.sh

# libFuzzer harnesses (clang), FUZZ_SECONDS each; see tests/fuzz/README.md
FUZZ_SECONDS ?= 60
fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh

style-check:
	@tests/style-check.sh

# --- install ---------------------------------------------------------------
# Phony: made again each time, so an install with another PREFIX never
# ships the paths of an earlier one.
likelyprof.pc: lib/likelyprof.pc.in include/likelyprof.h
	sed -e 's|@PREFIX@|$(prefix)|' -e 's|@LIBDIR@|$(libdir)|' \
	    -e 's|@INCLUDEDIR@|$(includedir)|' -e 's|@VERSION@|$(VERSION)|' \
	    $< > $@

install: all likelyprof.pc man
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(libdir) \
		$(DESTDIR)$(includedir) $(DESTDIR)$(pkgconfigdir) \
		$(DESTDIR)$(docdir) $(DESTDIR)$(mandir)/man1 \
		$(DESTDIR)$(bashcompdir) $(DESTDIR)$(zshcompdir)
	install -m 755 $(CMD) $(DESTDIR)$(bindir)/likelyprof
	ln -sf likelyprof $(DESTDIR)$(bindir)/likelyprof-cc
	ln -sf likelyprof $(DESTDIR)$(bindir)/likelyprof-c++
	install -d $(DESTDIR)$(libdir)/likelyprof-as
	ln -sf $$(realpath -m --relative-to=$(libdir)/likelyprof-as \
		$(bindir)/likelyprof) $(DESTDIR)$(libdir)/likelyprof-as/as
	install -m 644 include/likelyprof.h $(DESTDIR)$(includedir)/
	install -m 644 $(LIB_A) $(DESTDIR)$(libdir)/
	install -m 755 $(LIB_SO).0 $(DESTDIR)$(libdir)/
	ln -sf $(SONAME) $(DESTDIR)$(libdir)/liblikelyprof.so
	if [ -f $(LIB32_SO).0 ]; then \
		install -d $(DESTDIR)$(libdir)/32 && \
		install -m 644 $(LIB32_A) $(DESTDIR)$(libdir)/32/ && \
		install -m 755 $(LIB32_SO).0 $(DESTDIR)$(libdir)/32/ && \
		ln -sf $(SONAME) $(DESTDIR)$(libdir)/32/liblikelyprof.so; fi
	install -m 644 likelyprof.pc $(DESTDIR)$(pkgconfigdir)/
	install -m 644 README.md doc/*.md $(DESTDIR)$(docdir)/
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(mandir)/man1/
	for n in $(MAN_ALIASES); do \
		echo '.so man1/likelyprof-cc.1' > \
			$(DESTDIR)$(mandir)/man1/$$n.1; done
	install -m 644 completion/likelyprof.bash \
		$(DESTDIR)$(bashcompdir)/likelyprof
	install -m 644 completion/_likelyprof $(DESTDIR)$(zshcompdir)/_likelyprof

uninstall:
	rm -f $(DESTDIR)$(libdir)/likelyprof-as/as
	-rmdir $(DESTDIR)$(libdir)/likelyprof-as
	rm -f $(DESTDIR)$(bindir)/likelyprof \
	      $(DESTDIR)$(bindir)/likelyprof-cc \
	      $(DESTDIR)$(bindir)/likelyprof-c++ \
	      $(DESTDIR)$(libdir)/32/liblikelyprof.a \
	      $(DESTDIR)$(libdir)/32/$(SONAME) \
	      $(DESTDIR)$(libdir)/32/liblikelyprof.so \
	      $(DESTDIR)$(includedir)/likelyprof.h \
	      $(DESTDIR)$(libdir)/liblikelyprof.a \
	      $(DESTDIR)$(libdir)/$(SONAME) \
	      $(DESTDIR)$(libdir)/liblikelyprof.so \
	      $(DESTDIR)$(pkgconfigdir)/likelyprof.pc \
	      $(DESTDIR)$(bashcompdir)/likelyprof \
	      $(DESTDIR)$(zshcompdir)/_likelyprof
	rm -rf $(DESTDIR)$(docdir)
	rm -f $(addprefix $(DESTDIR)$(mandir)/man1/,$(notdir $(MAN_PAGES)) \
	      $(addsuffix .1,$(MAN_ALIASES)))

clean:
	rm -rf build likelyprof likelyprof-cc likelyprof-c++ lib/32 \
	       lib/likelyprof-as \
	       lib/liblikelyprof.a lib/liblikelyprof.so \
	       lib/liblikelyprof.so.0 likelyprof.pc
	-$(MAKE) -s -C examples clean
