// A stand-in for libFuzzer's main, so that targets written to its convention
// build with g++ alone:
//
//   target [-runs=N] [-seed=S] [-max_len=N] [corpus file or directory...]
//
// Corpus files (directories are read recursively, in name order) run first,
// then N generated inputs: random bytes, random text, and stacked mutations
// of the corpus and of earlier inputs. There is no coverage feedback; the
// targets make up for it by building structured inputs from the bytes they
// get. The same seed gives the same inputs, on any machine (the generator
// and every draw are defined here, not by <random>).
//
// A crash (a signal, abort(), or a sanitizer report) writes the input to
// ./crash-<hash> first; give that file back as the only argument with
// -runs=0 to reproduce it. Unknown -flags are ignored with a warning, as
// libFuzzer does. The last line is "fuzz: N runs, M max len": N inputs
// executed in all, M the -max_len in force.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" __attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

namespace {

// ---- Crash capture ------------------------------------------------------------

// The input being run, for the crash handlers. Plain globals: the handlers
// only read them, and they are set before each run.
const uint8_t* g_current = nullptr;
size_t g_current_size = 0;

void WriteAll(int fd, const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t w = write(fd, c, n);
    if (w <= 0) return;
    c += w;
    n -= static_cast<size_t>(w);
  }
}

// Async-signal-safe: no allocation, no stdio.
void SaveCurrentInput() {
  static bool saved = false;
  if (saved || g_current == nullptr) return;
  saved = true;
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (size_t i = 0; i < g_current_size; ++i) h = (h ^ g_current[i]) * 1099511628211ULL;
  char name[] = "crash-0000000000000000";
  for (int i = 0; i < 16; ++i) name[6 + i] = "0123456789abcdef"[(h >> (60 - 4 * i)) & 0xf];
  const int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    WriteAll(fd, g_current, g_current_size);
    close(fd);
  }
  static const char kMsg[] = "\nfuzz: crashing input written to ";
  WriteAll(2, kMsg, sizeof kMsg - 1);
  WriteAll(2, name, sizeof name - 1);
  WriteAll(2, "\n", 1);
}

void OnDeath() { SaveCurrentInput(); }

void OnSignal(int sig) {
  SaveCurrentInput();
  signal(sig, SIG_DFL);
  raise(sig);
}

void InstallCrashHandlers() {
  // Sanitizers own SIGSEGV and friends and report far better than we could;
  // they call back before dying. abort() from a target's own check is ours.
  if (__sanitizer_set_death_callback != nullptr) {
    __sanitizer_set_death_callback(OnDeath);
  } else {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) signal(sig, OnSignal);
  }
  signal(SIGABRT, OnSignal);
}

// ---- Randomness -----------------------------------------------------------------

// SplitMix64: tiny, fast, and the same everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, n); 0 when n is 0.
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }
  bool OneIn(size_t n) { return Below(n) == 0; }

 private:
  uint64_t state_;
};

// ---- Options --------------------------------------------------------------------

struct Options {
  long long runs = 100000;  // negative: until killed
  uint64_t seed = 0;
  size_t max_len = 4096;
  std::vector<std::string> paths;
};

bool ParseNumber(std::string_view text, long long* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const std::string s(text);
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

bool ParseOptions(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.empty() || arg[0] != '-') {
      o->paths.emplace_back(arg);
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string_view name = arg.substr(1, eq == std::string_view::npos ? arg.npos : eq - 1);
    const std::string_view value = eq == std::string_view::npos ? "" : arg.substr(eq + 1);
    long long v = 0;
    if (name == "runs" || name == "seed" || name == "max_len") {
      if (!ParseNumber(value, &v) || (name != "runs" && v < 0)) {
        std::fprintf(stderr, "fuzz: bad value in %s\n", argv[i]);
        return false;
      }
      if (name == "runs") o->runs = v;
      if (name == "seed") o->seed = static_cast<uint64_t>(v);
      if (name == "max_len") o->max_len = static_cast<size_t>(v);
    } else {
      std::fprintf(stderr, "fuzz: ignoring unknown flag %s\n", argv[i]);
    }
  }
  return true;
}

// ---- Corpus ---------------------------------------------------------------------

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool LoadCorpus(const std::vector<std::string>& paths, std::vector<std::string>* out) {
  namespace fs = std::filesystem;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> files;
      for (const auto& e : fs::recursive_directory_iterator(path, ec)) {
        if (e.is_regular_file(ec)) files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) out->push_back(ReadFile(f));
    } else if (fs::is_regular_file(path, ec)) {
      out->push_back(ReadFile(path));
    } else {
      std::fprintf(stderr, "fuzz: no such corpus file or directory: %s\n", path.c_str());
      return false;
    }
  }
  return true;
}

// ---- Generation -----------------------------------------------------------------

// Bytes that break parsers of the formats this project reads and writes.
const std::vector<std::string>& Dictionary() {
  static const std::vector<std::string> kTokens = {
      "<",
      ">",
      "&",
      "&#",
      "&#x",
      ";",
      "\"",
      "'",
      "]]>",
      "<![CDATA[",
      "<?xml",
      "-->",
      "\xF0\x9F\x98\x80",
      "\xC0\x80",
      "\xED\xA0\x80",
      "\xEF\xBF\xBF",
      "\xE2\x80\xA8",
      "\xD0\x81",
      "\x98",
      "\xFF",
      std::string(1, '\0'),
      "\r\n",
      "\t",
      "%00",
      "%",
      "%2",
      "%FF",
      "+",
      "=",
      "&amp;",
      "&quot;",
      "&#8470;",
      "2026-",
      "-",
      ":",
      " ",
      "00",
      "01",
      "12",
      "23",
      "24",
      "29",
      "30",
      "31",
      "59",
      "60",
      "99",
      "02-29",
      "1970",
      "9999",
      "GMT",
      ", ",
      "Sun",
      "Sunday",
      "Nov",
      "1994",
      "0",
      "9",
      "z",
      "Z",
      "A",
  };
  return kTokens;
}

// Short inputs are where parsers decide things; long ones find the overruns.
size_t RandomLength(Rng& rng, size_t max_len) {
  if (rng.OneIn(4)) return rng.Below(max_len + 1);
  return rng.Below(std::min<size_t>(max_len, 64) + 1);
}

std::string RandomBytes(Rng& rng, size_t max_len) {
  std::string s(RandomLength(rng, max_len), '\0');
  for (char& c : s) c = static_cast<char>(rng.Next());
  return s;
}

std::string RandomText(Rng& rng, size_t max_len) {
  static constexpr std::string_view kExtra = "\t\n\r";
  std::string s(RandomLength(rng, max_len), ' ');
  for (char& c : s) {
    c = rng.OneIn(20) ? kExtra[rng.Below(kExtra.size())] : static_cast<char>(' ' + rng.Below(95));
  }
  return s;
}

void MutateOnce(Rng& rng, std::string& s, const std::vector<std::string>& pool) {
  const auto& dict = Dictionary();
  const size_t pos = rng.Below(s.size() + 1);  // an insertion point
  switch (rng.Below(12)) {
    case 0:  // flip a bit
      if (!s.empty()) s[pos % s.size()] ^= static_cast<char>(1u << rng.Below(8));
      break;
    case 1:  // set a byte
      if (!s.empty()) s[pos % s.size()] = static_cast<char>(rng.Next());
      break;
    case 2:  // insert a byte
      s.insert(pos, 1, static_cast<char>(rng.Next()));
      break;
    case 3:  // delete a few bytes
      if (!s.empty()) s.erase(pos % s.size(), 1 + rng.Below(4));
      break;
    case 4: {  // duplicate a chunk elsewhere
      if (s.empty()) break;
      const size_t from = rng.Below(s.size());
      const std::string chunk = s.substr(from, 1 + rng.Below(s.size() - from));
      s.insert(rng.Below(s.size() + 1), chunk);
      break;
    }
    case 5:  // insert a dictionary token
      s.insert(pos, dict[rng.Below(dict.size())]);
      break;
    case 6: {  // overwrite with a dictionary token
      const std::string& t = dict[rng.Below(dict.size())];
      s.replace(std::min(pos, s.size()), t.size(), t);
      break;
    }
    case 7: {  // splice with another input
      if (pool.empty()) break;
      const std::string& other = pool[rng.Below(pool.size())];
      const size_t cut = rng.Below(other.size() + 1);
      s = s.substr(0, pos) + other.substr(cut);
      break;
    }
    case 8:  // change a digit to another digit: dates stay dates, almost
      for (size_t i = 0, n = s.size(); i < n; ++i) {
        char& c = s[(pos + i) % n];
        if (c >= '0' && c <= '9') {
          c = static_cast<char>('0' + rng.Below(10));
          break;
        }
      }
      break;
    case 9:  // swap two bytes
      if (s.size() >= 2) std::swap(s[pos % s.size()], s[rng.Below(s.size())]);
      break;
    case 10:  // truncate
      s.resize(pos);
      break;
    case 11: {  // an interesting byte
      static constexpr char kBytes[] = {'\0', '\x7f', '\x80', '\xff', ' ', '-', ':', '0', '9'};
      if (!s.empty()) s[pos % s.size()] = kBytes[rng.Below(sizeof kBytes)];
      break;
    }
  }
}

std::string Generate(Rng& rng, const std::vector<std::string>& seeds, const std::vector<std::string>& recent,
                     size_t max_len) {
  const size_t mode = rng.Below(10);
  if (mode == 0 || (seeds.empty() && recent.empty())) return RandomBytes(rng, max_len);
  if (mode == 1) return RandomText(rng, max_len);
  const bool from_seed = !seeds.empty() && (recent.empty() || rng.OneIn(2));
  std::string s = from_seed ? seeds[rng.Below(seeds.size())] : recent[rng.Below(recent.size())];
  const std::vector<std::string>& splice_pool = seeds.empty() ? recent : seeds;
  for (size_t n = 1 + rng.Below(rng.OneIn(4) ? 16 : 4); n > 0; --n) {
    MutateOnce(rng, s, splice_pool);
  }
  if (s.size() > max_len) s.resize(max_len);
  return s;
}

// A fresh heap block of exactly the input's size for every run, so that
// AddressSanitizer sees a read one past the end.
void RunOne(const std::string& input) {
  const size_t n = input.size();
  uint8_t* copy = new uint8_t[n == 0 ? 1 : n];
  std::memcpy(copy, input.data(), n);
  g_current = copy;
  g_current_size = n;
  LLVMFuzzerTestOneInput(n == 0 ? nullptr : copy, n);
  g_current = nullptr;
  delete[] copy;
}

}  // namespace

int main(int argc, char** argv) {
  Options opts;
  if (!ParseOptions(argc, argv, &opts)) {
    std::fprintf(stderr, "usage: %s [-runs=N] [-seed=S] [-max_len=N] [corpus...]\n", argv[0]);
    return 1;
  }
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> seeds;
  if (!LoadCorpus(opts.paths, &seeds)) return 1;
  InstallCrashHandlers();

  uint64_t executed = 0;
  for (std::string& s : seeds) {
    if (s.size() > opts.max_len) s.resize(opts.max_len);
    RunOne(s);
    ++executed;
  }

  Rng rng(opts.seed);
  std::vector<std::string> recent;  // a ring of earlier inputs, to mutate further
  constexpr size_t kRecent = 1024;
  for (long long i = 0; opts.runs < 0 || i < opts.runs; ++i) {
    std::string input = Generate(rng, seeds, recent, opts.max_len);
    RunOne(input);
    ++executed;
    if (recent.size() < kRecent) {
      recent.push_back(std::move(input));
    } else if (rng.OneIn(4)) {
      recent[rng.Below(kRecent)] = std::move(input);
    }
  }
  std::printf("fuzz: %llu runs, %zu max len\n", static_cast<unsigned long long>(executed), opts.max_len);
  return 0;
}
