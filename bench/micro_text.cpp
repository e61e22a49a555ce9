// Micro-benchmark of the per-field text work of a feed: LegacyHtmlToText,
// AppendXml and AssignCp1251AsUtf8. Not part of the Makefile build; compile
// by hand (one line):
//
//   g++ -std=c++20 -O2 -Ilib bench/micro_text.cpp lib/xml_text.cpp lib/legacy_html.cpp
//       -o /tmp/micro && /tmp/micro /tmp/corpus.tsv [repetitions] [/tmp/corpus1251.tsv]
//
// The corpus is the output of
//   mariadb ... -N -B -e "SELECT title, text, author FROM ads LIMIT 200000"
// (tab-separated, with mariadb's backslash escapes for newline, tab, NUL and
// backslash, which are undone here). Each row's fields go through
// LegacyHtmlToText, then the plain text through AppendXml in the contexts and
// charsets below. MB/s is of input bytes (raw fields for LegacyHtmlToText and
// the pipeline, plain text for AppendXml); ns/row is per row of three fields.
//
// AssignCp1251AsUtf8 is timed on the same query read over a windows-1251
// connection, which is what it receives in production (skipped, with a note,
// when that file is missing):
//   mariadb --no-defaults --socket=.../dbrun/mysqld.sock -uboard -pboard
//       --default-character-set=cp1251 board -N -B
//       -e "SELECT title, text, author FROM ads LIMIT 200000" > /tmp/corpus1251.tsv
// Each column converts into its own reused string, as Rows::Next does.
//
// Differential mode: with -DMICRO_DIFF the program also links a previous
// implementation compiled into namespace feed_old, checks that both give
// byte-identical output on the whole corpus (exit status 1 if not), and
// times both:
//
//   mkdir -p /tmp/old && cp lib/xml_text.* lib/legacy_html.* /tmp/old/   (before editing)
//   g++ -std=c++20 -O2 -Dfeed=feed_old -c /tmp/old/xml_text.cpp -o /tmp/old/xml_text.o
//   g++ -std=c++20 -O2 -Dfeed=feed_old -c /tmp/old/legacy_html.cpp -o /tmp/old/legacy_html.o
//   g++ -std=c++20 -O2 -DMICRO_DIFF -I/tmp -Ilib bench/micro_text.cpp lib/xml_text.cpp
//       lib/legacy_html.cpp /tmp/old/xml_text.o /tmp/old/legacy_html.o -o /tmp/micro_diff
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "legacy_html.h"
#include "xml_text.h"

#ifdef MICRO_DIFF
#define feed feed_old
#include <old/legacy_html.h>
#include <old/xml_text.h>
#undef feed
#endif

namespace {

struct Row {
  std::string field[3];  // title, text, author
};

std::string Unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      switch (c) {
        case 'n':
          out.push_back('\n');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case '0':
          out.push_back('\0');
          break;
        case '\\':
          out.push_back('\\');
          break;
        default:
          out.push_back('\\');
          out.push_back(c);
          break;
      }
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::vector<Row> Load(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(1);
  }
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Row> rows;
  size_t pos = 0;
  while (pos < all.size()) {
    size_t eol = all.find('\n', pos);
    if (eol == std::string::npos) eol = all.size();
    std::string_view line(all.data() + pos, eol - pos);
    Row r;
    for (int f = 0; f < 3; ++f) {
      size_t tab = line.find('\t');
      std::string_view v = line.substr(0, tab);
      if (v != "NULL") r.field[f] = Unescape(v);
      line = tab == std::string_view::npos ? std::string_view() : line.substr(tab + 1);
    }
    rows.push_back(std::move(r));
    pos = eol + 1;
  }
  return rows;
}

size_t g_sink = 0;  // keeps the optimiser from dropping the work

template <typename Fn>
double BestSeconds(int reps, Fn&& fn) {
  double best = 1e99;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

void Report(const char* name, double seconds, size_t bytes, size_t rows) {
  std::printf("%-34s %9.1f MB/s %9.1f ns/row %8.1f ms\n", name, bytes / seconds / 1e6, seconds * 1e9 / rows,
              seconds * 1e3);
}

// Namespace-generic benchmarks, so the old implementation can be timed too.
#define DEFINE_BENCH(NS)                                                                                    \
  void Bench_##NS(const char* tag, const std::vector<Row>& rows, const std::vector<Row>& plain, int reps) { \
    size_t in_bytes = 0, plain_bytes = 0;                                                                   \
    for (size_t i = 0; i < rows.size(); ++i) {                                                              \
      for (int f = 0; f < 3; ++f) {                                                                         \
        in_bytes += rows[i].field[f].size();                                                                \
        plain_bytes += plain[i].field[f].size();                                                            \
      }                                                                                                     \
    }                                                                                                       \
    std::string name;                                                                                       \
    double t0 = BestSeconds(reps, [&] {                                                                     \
      std::string out;                                                                                      \
      for (const Row& r : plain) {                                                                          \
        out.clear();                                                                                        \
        for (const std::string& f : r.field) out.append(f);                                                 \
        g_sink += out.size();                                                                               \
      }                                                                                                     \
    });                                                                                                     \
    Report((name = std::string(tag) + "(floor: append plain text)").c_str(), t0, plain_bytes, rows.size()); \
    double t = BestSeconds(reps, [&] {                                                                      \
      for (const Row& r : rows)                                                                             \
        for (const std::string& f : r.field) g_sink += NS::LegacyHtmlToText(f).size();                      \
    });                                                                                                     \
    Report((name = std::string(tag) + "LegacyHtmlToText").c_str(), t, in_bytes, rows.size());               \
    struct Case {                                                                                           \
      const char* name;                                                                                     \
      NS::XmlContext ctx;                                                                                   \
      NS::Charset cs;                                                                                       \
    };                                                                                                      \
    const Case cases[] = {                                                                                  \
        {"AppendXml text cp1251", NS::XmlContext::kText, NS::Charset::kWindows1251},                        \
        {"AppendXml text utf8", NS::XmlContext::kText, NS::Charset::kUtf8},                                 \
        {"AppendXml cdata cp1251", NS::XmlContext::kCData, NS::Charset::kWindows1251},                      \
        {"AppendXml attr cp1251", NS::XmlContext::kAttribute, NS::Charset::kWindows1251},                   \
    };                                                                                                      \
    for (const Case& c : cases) {                                                                           \
      std::string out;                                                                                      \
      double t2 = BestSeconds(reps, [&] {                                                                   \
        for (const Row& r : plain) {                                                                        \
          out.clear();                                                                                      \
          for (const std::string& f : r.field) NS::AppendXml(out, f, c.ctx, c.cs);                          \
          g_sink += out.size();                                                                             \
        }                                                                                                   \
      });                                                                                                   \
      Report((name = std::string(tag) + c.name).c_str(), t2, plain_bytes, rows.size());                     \
    }                                                                                                       \
    double t3 = BestSeconds(reps, [&] {                                                                     \
      std::string out;                                                                                      \
      for (const Row& r : rows) {                                                                           \
        out.clear();                                                                                        \
        for (const std::string& f : r.field) {                                                              \
          NS::AppendXml(out, NS::LegacyHtmlToText(f), NS::XmlContext::kText, NS::Charset::kWindows1251);    \
        }                                                                                                   \
        g_sink += out.size();                                                                               \
      }                                                                                                     \
    });                                                                                                     \
    Report((name = std::string(tag) + "pipeline (html->text cp1251)").c_str(), t3, in_bytes, rows.size());  \
  }

// AssignCp1251AsUtf8 over a windows-1251 corpus; MB/s of cp1251 input bytes.
#define DEFINE_CP1251_BENCH(NS)                                                                            \
  void BenchCp1251_##NS(const char* tag, const std::vector<Row>& rows, int reps) {                         \
    size_t in_bytes = 0;                                                                                   \
    for (const Row& r : rows)                                                                              \
      for (const std::string& f : r.field) in_bytes += f.size();                                           \
    std::string name;                                                                                      \
    std::string out[3];                                                                                    \
    double t0 = BestSeconds(reps, [&] {                                                                    \
      for (const Row& r : rows) {                                                                          \
        for (int f = 0; f < 3; ++f) {                                                                      \
          out[f].assign(r.field[f]);                                                                       \
          g_sink += out[f].size();                                                                         \
        }                                                                                                  \
      }                                                                                                    \
    });                                                                                                    \
    Report((name = std::string(tag) + "(floor: assign cp1251 bytes)").c_str(), t0, in_bytes, rows.size()); \
    double t = BestSeconds(reps, [&] {                                                                     \
      for (const Row& r : rows) {                                                                          \
        for (int f = 0; f < 3; ++f) {                                                                      \
          NS::AssignCp1251AsUtf8(out[f], r.field[f]);                                                      \
          g_sink += out[f].size();                                                                         \
        }                                                                                                  \
      }                                                                                                    \
    });                                                                                                    \
    Report((name = std::string(tag) + "AssignCp1251AsUtf8").c_str(), t, in_bytes, rows.size());            \
  }

DEFINE_BENCH(feed)
DEFINE_CP1251_BENCH(feed)
#ifdef MICRO_DIFF
DEFINE_BENCH(feed_old)
DEFINE_CP1251_BENCH(feed_old)

int g_mismatches = 0;

void Mismatch(const char* what, size_t row, int field) {
  if (++g_mismatches <= 20) {
    std::fprintf(stderr, "MISMATCH %s row %zu field %d\n", what, row, field);
  }
}

// Byte-identical outputs of old and new on every field, in every context and
// charset, on the raw field and on its plain text.
void Differential(const std::vector<Row>& rows) {
  using feed::Charset;
  using feed::XmlContext;
  const XmlContext ctxs[] = {XmlContext::kText, XmlContext::kAttribute, XmlContext::kCData};
  const Charset css[] = {Charset::kUtf8, Charset::kWindows1251};
  size_t checks = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    for (int f = 0; f < 3; ++f) {
      const std::string& in = rows[i].field[f];
      const std::string a = feed::LegacyHtmlToText(in);
      std::string b = feed_old::LegacyHtmlToText(in);
      ++checks;
      if (a != b) Mismatch("LegacyHtmlToText", i, f);
      for (const std::string* s : {&in, &a}) {
        for (int x = 0; x < 3; ++x) {
          for (int y = 0; y < 2; ++y) {
            std::string o1 = "]", o2 = "]";
            feed::AppendXml(o1, *s, ctxs[x], css[y]);
            feed_old::AppendXml(o2, *s, static_cast<feed_old::XmlContext>(ctxs[x]),
                                static_cast<feed_old::Charset>(css[y]));
            ++checks;
            if (o1 != o2) Mismatch("AppendXml", i, f * 100 + x * 10 + y);
          }
        }
        for (int y = 0; y < 2; ++y) {
          std::string o1, o2;
          feed::AppendEncoded(o1, *s, css[y]);
          feed_old::AppendEncoded(o2, *s, static_cast<feed_old::Charset>(css[y]));
          ++checks;
          if (o1 != o2) Mismatch("AppendEncoded", i, f);
        }
        ++checks;
        if (feed::CleanUtf8(*s) != feed_old::CleanUtf8(*s)) Mismatch("CleanUtf8", i, f);
      }
    }
  }
  std::printf("differential: %zu comparisons, %d mismatches\n", checks, g_mismatches);
}

// AssignCp1251AsUtf8 of old and new on every field of both corpora (the UTF-8
// one as arbitrary bytes), into reused and into fresh strings.
void DifferentialCp1251(const std::vector<Row>& cp1251_rows, const std::vector<Row>& rows) {
  size_t checks = 0;
  std::string reused[3];
  for (const std::vector<Row>* set : {&cp1251_rows, &rows}) {
    for (size_t i = 0; i < set->size(); ++i) {
      for (int f = 0; f < 3; ++f) {
        const std::string& in = (*set)[i].field[f];
        std::string fresh, old;
        feed::AssignCp1251AsUtf8(fresh, in);
        feed::AssignCp1251AsUtf8(reused[f], in);
        feed_old::AssignCp1251AsUtf8(old, in);
        checks += 2;
        if (fresh != old) Mismatch("AssignCp1251AsUtf8", i, f);
        if (reused[f] != old) Mismatch("AssignCp1251AsUtf8 (reused)", i, f);
      }
    }
  }
  std::printf("differential cp1251: %zu comparisons, %d mismatches\n", checks, g_mismatches);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "/tmp/corpus.tsv";
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<Row> rows = Load(path);
  std::vector<Row> plain(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    for (int f = 0; f < 3; ++f) plain[i].field[f] = feed::LegacyHtmlToText(rows[i].field[f]);
  }
  std::printf("%zu rows from %s, best of %d\n", rows.size(), path, reps);
  const char* cp1251_path = argc > 3 ? argv[3] : "/tmp/corpus1251.tsv";
  std::vector<Row> cp1251_rows;
  if (std::ifstream(cp1251_path, std::ios::binary)) {
    cp1251_rows = Load(cp1251_path);
    std::printf("%zu rows from %s\n", cp1251_rows.size(), cp1251_path);
  } else {
    std::printf("no %s: AssignCp1251AsUtf8 not timed\n", cp1251_path);
  }
#ifdef MICRO_DIFF
  Differential(rows);
  DifferentialCp1251(cp1251_rows, rows);
  Bench_feed_old("old ", rows, plain, reps);
  if (!cp1251_rows.empty()) BenchCp1251_feed_old("old ", cp1251_rows, reps);
#endif
  Bench_feed("", rows, plain, reps);
  if (!cp1251_rows.empty()) BenchCp1251_feed("", cp1251_rows, reps);
  std::printf("(sink %zu)\n", g_sink);
#ifdef MICRO_DIFF
  return g_mismatches == 0 ? 0 : 1;
#else
  return 0;
#endif
}
