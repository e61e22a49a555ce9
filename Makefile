# feed.fcgi: listing feeds (Yads, Jooble, sitemaps...) from a board's MySQL
# database, as a FastCGI program for Apache mod_fcgid.
#
#   make            build cgi-bin/feed.fcgi
#   make run        install what is missing, start a demo board and serve it
#   make stop       stop what `make run` started
#   make test       install what is missing, build, run every test
#   make fuzzers    build the libFuzzer targets (clang++-14, in build/fuzz)
#   make fuzz       build them and run each for FUZZ_SECONDS (default 8);
#                   see tests/fuzz/README.md
#   make bench      measure against the legacy PHP scripts (see bench/README.md)
#   make format     clang-format the sources (.clang-format)
#   make dist       the release for shared hosts (release/make-dist.sh)
#   make install    prefix=/usr/local DESTDIR= : $(prefix)/cgi-bin/feed.fcgi and
#                   $(prefix)/share/feed-fcgi/{conf,templates,sql} (the configs
#                   name templates and SQL relative to their own folder)

prefix     ?= /usr/local
bindir     ?= $(prefix)/cgi-bin
datadir    ?= $(prefix)/share/feed-fcgi
DESTDIR    ?=

CXX      ?= g++
CXXFLAGS ?= -O2 -g
BUILD    ?= build
SANITIZE ?=

ifneq ($(SANITIZE),)
BUILD    := build/sanitize
CXXFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# GCC 12 with -fsanitize=address warns "may be used uninitialized" inside
# libstdc++'s own std::function when <regex> builds its automaton (a known
# false positive; the plain build keeps the warning).
CXXFLAGS += -Wno-maybe-uninitialized
LDFLAGS  += -fsanitize=address,undefined
endif

override CXXFLAGS += -std=c++20 -Wall -Wextra -Werror -MMD -MP -Ilib -Itests/support -I/usr/include/libxml2
LDLIBS := -lfcgi -lmysqlcppconn -ltinyxml2 -lz -lxml2 -pthread

LIB_SRC   := $(wildcard lib/*.cpp)
LIB_OBJ   := $(LIB_SRC:%.cpp=$(BUILD)/%.o)
UNIT_SRC  := $(wildcard tests/unit/*.cpp)
UNIT_OBJ  := $(UNIT_SRC:%.cpp=$(BUILD)/%.o)
TEST_SUPPORT_SRC := tests/support/test_env.cpp tests/support/feed_rules.cpp
INTEG_SRC := $(wildcard tests/integration/*.cpp) $(TEST_SUPPORT_SRC)
INTEG_OBJ := $(INTEG_SRC:%.cpp=$(BUILD)/%.o)
E2E_SRC   := $(wildcard tests/e2e/*.cpp) $(TEST_SUPPORT_SRC) tests/support/http_client.cpp
E2E_OBJ   := $(E2E_SRC:%.cpp=$(BUILD)/%.o)
FUZZ_SRC  := $(wildcard tests/fuzz/*_fuzz.cpp)

# The fuzz targets: libFuzzer, so clang, always in build/fuzz whatever BUILD
# is. The library is compiled again with coverage instrumentation, so that
# libFuzzer's feedback comes from the parsers, not only from the target file.
FUZZ_CXX      ?= clang++-14
FUZZ_BUILD    := build/fuzz
FUZZ_CXXFLAGS := -std=c++20 -Wall -Wextra -Werror -MMD -MP -Ilib -Itests/support -I/usr/include/libxml2 -g -O1 \
                 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_LDFLAGS  := -fsanitize=fuzzer,address,undefined
FUZZ_LIB_OBJ  := $(LIB_SRC:%.cpp=$(FUZZ_BUILD)/obj/%.o)
FUZZ_BIN      := $(FUZZ_SRC:tests/fuzz/%.cpp=$(FUZZ_BUILD)/%)
FUZZ_SECONDS  ?= 8

BIN := cgi-bin/feed.fcgi

# The version the status page shows: git describe of the tree built. A
# stamp file changes only when it does, so that only lib/status.o rebuilds.
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)

.PHONY: FORCE all binaries fuzzers deps run stop test unit fuzz bench format install clean dist
all: $(BIN)

# Everything tests/run.sh runs, in $(BUILD) (build/sanitize with SANITIZE=1).
binaries: $(BUILD)/feed.fcgi $(BUILD)/unit_tests $(BUILD)/integration_tests $(BUILD)/e2e_tests build/quota_shim.so

# The disk tests' quota on a folder (EDQUOT), preloaded into feed.fcgi
# where no kernel quota can be had (tests/support/quota_shim.c). Always
# plain (no sanitizer: it comes before any runtime), in build/.
build/quota_shim.so: tests/support/quota_shim.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -Werror -shared -fPIC -o $@ $< -ldl

# The libFuzzer targets, build/fuzz/<name>_fuzz.
fuzzers: $(FUZZ_BIN)

$(BUILD)/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c -o $@ $<

# The sitemaps.org schemas are built into the program (check validates
# sitemaps with them wherever it runs): .incbin in lib/format_rules.cpp.
$(BUILD)/lib/format_rules.o $(FUZZ_BUILD)/obj/lib/format_rules.o: schemas/sitemap.xsd schemas/siteindex.xsd

$(BUILD)/version.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@

$(BUILD)/lib/status.o: $(BUILD)/version.stamp
$(BUILD)/lib/status.o: override CXXFLAGS += -DFEED_VERSION='"$(VERSION)"'

$(BUILD)/libfeed.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/feed.fcgi: $(BUILD)/cgi-bin/feed.o $(BUILD)/libfeed.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BIN): $(BUILD)/feed.fcgi
	cp $< $@.tmp && mv -f $@.tmp $@

$(BUILD)/unit_tests: $(UNIT_OBJ) $(BUILD)/libfeed.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lgtest -lgtest_main -pthread

$(BUILD)/integration_tests: $(INTEG_OBJ) $(BUILD)/libfeed.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lgtest -lgtest_main -pthread

$(BUILD)/e2e_tests: $(E2E_OBJ) $(BUILD)/libfeed.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lgtest -lgtest_main -pthread

$(FUZZ_BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/libfeed.a: $(FUZZ_LIB_OBJ)
	$(AR) rcs $@ $^

$(FUZZ_BUILD)/%_fuzz: $(FUZZ_BUILD)/obj/tests/fuzz/%_fuzz.o $(FUZZ_BUILD)/libfeed.a
	$(FUZZ_CXX) $(FUZZ_LDFLAGS) -o $@ $^ $(LDLIBS)

deps:
	@tools/deps.sh

unit: $(BUILD)/unit_tests
	$(BUILD)/unit_tests

# Each target for FUZZ_SECONDS; what it finds stays in build/fuzz/work/
# for the next run, crashes in build/fuzz/crashes/.
fuzz: $(FUZZ_BIN)
	@failed=; for f in $(FUZZ_BIN); do \
	    echo "== $$f"; FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $$f || failed="$$failed $${f##*/}"; \
	done; if [ -n "$$failed" ]; then echo "crashed:$$failed"; exit 1; fi

# Everything, against a private MariaDB and Apache the harness starts and
# stops itself; prints "N passed, N failed" last.
test: deps
	@tests/run.sh

run: deps all
	@tools/demo.sh start

stop:
	@tools/demo.sh stop

bench: deps
	@bench/run.sh

install: $(BIN)
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(datadir)/templates $(DESTDIR)$(datadir)/sql $(DESTDIR)$(datadir)/conf
	install -m 755 $(BIN) $(DESTDIR)$(bindir)/feed.fcgi
	install -m 644 templates/*.xml $(DESTDIR)$(datadir)/templates/
	install -m 644 sql/*.sql $(DESTDIR)$(datadir)/sql/
	install -m 644 conf/* $(DESTDIR)$(datadir)/conf/

format:
	clang-format -i lib/*.h lib/*.cpp cgi-bin/*.cpp tests/*/*.cpp bench/*.cpp

clean:
	rm -rf build $(BIN)

-include $(sort $(shell find $(BUILD) $(FUZZ_BUILD) -name '*.d' 2>/dev/null))

# The release for shared hosts: dist/feed-fcgi-VERSION-linux-x86_64.tar.gz,
# the program with its own loader and libraries (release/make-dist.sh).
dist: $(BUILD)/feed.fcgi
	@release/make-dist.sh $(BUILD)/feed.fcgi $(VERSION) dist
