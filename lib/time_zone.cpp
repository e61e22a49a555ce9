// Reading a TZif file (RFC 8536) and answering from it. The transition table
// is used as it stands; from its last entry on, the footer's POSIX TZ rules
// are evaluated for the years around the instant asked about. Every query
// goes through Rules::At, which returns the whole stretch of time over which
// the offset and the leap-second correction are constant (a Period), so that
// ToUnix can walk the few periods that could show a given wall time instead
// of guessing offsets.
#include "time_zone.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>
#include <utility>
#include <vector>

namespace feed {
namespace {

constexpr int64_t kDay = 86400;
constexpr int64_t kMinTime = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxTime = std::numeric_limits<int64_t>::max();
// Beyond +-2^55 s (about a billion years) every zone reads as UTC, as
// SiteZone did where localtime_r fails. Within it, years fit in int and no
// sum below comes near overflow.
constexpr int64_t kFar = int64_t{1} << 55;
// tzfile(5): offsets lie in (-25 h, 26 h); required here, as is a bound on
// leap corrections, so that the wall time at instant u, u + Shift(), is
// within [u + kMinShift, u + kMaxShift]. That bounds the search in ToUnix.
constexpr int64_t kMinOffset = -89999, kMaxOffset = 93599, kMaxCorrection = 3600;
constexpr int64_t kMinShift = kMinOffset - kMaxCorrection, kMaxShift = kMaxOffset + kMaxCorrection;
constexpr uintmax_t kMaxFileSize = 1 << 20;  // real TZif files are a few KiB
constexpr size_t kHeaderSize = 44;

bool IsLeapYear(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
int64_t DaysFromCivil(int year, int month, int day) { return NaiveSeconds({year, month, day, 0, 0, 0}) / kDay; }

// A stretch [begin, end) of instants with one UTC offset and one leap
// correction; the wall time at instant u is u + Shift().
struct Period {
  UnixTime begin = kMinTime, end = kMaxTime;
  int offset = 0, correction = 0;
  int64_t Shift() const { return int64_t{offset} - correction; }
};

// ---- The POSIX TZ footer ------------------------------------------------------

// A change of the footer. Its day is Jn (1-365, February 29 never counted),
// n (0-365, counted) or Mm.w.d (weekday d, 0 = Sunday, of week w of month m;
// week 5 is the last); its time the local time of day, in seconds.
struct Rule {
  char form = 'M';  // 'J', 'n' or 'M'
  int n = 0, month = 0, week = 0, weekday = 0;
  int time = 7200;  // may be negative or past 24 h
};

struct Footer {
  int std_offset = 0;             // seconds east of UTC (the string counts west)
  std::optional<int> dst_offset;  // none: no DST, and start and end are unused
  Rule start, end;
};

bool IsLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A reader over [p, end) of the footer text. Callers give up at the first
// failure, so what a failed call consumed never matters.
class TzText {
 public:
  explicit TzText(std::string_view s) : p_(s.data()), end_(s.data() + s.size()) {}
  bool AtEnd() const { return p_ == end_; }
  bool Peek(char c) const { return p_ != end_ && *p_ == c; }
  bool Take(char c) {
    if (!Peek(c)) return false;
    ++p_;
    return true;
  }

  // 1 to `digits` ASCII digits, valued within [lo, hi].
  bool Number(int digits, int lo, int hi, int* out) {
    int v = 0, n = 0;
    for (; n < digits && p_ != end_ && IsDigit(*p_); ++n) v = v * 10 + (*p_++ - '0');
    *out = v;
    return n > 0 && v >= lo && v <= hi;
  }

  // An abbreviation: three or more letters, or <three or more letters,
  // digits, '+' or '-'>. Only its syntax matters here.
  bool Name() {
    const bool quoted = Take('<');
    const char* start = p_;
    while (p_ != end_ && (IsLetter(*p_) || (quoted && (IsDigit(*p_) || *p_ == '+' || *p_ == '-')))) ++p_;
    return p_ - start >= 3 && (!quoted || Take('>'));
  }

  // [+-]h[:mm[:ss]] in seconds, h at most `max_hours`.
  bool Duration(int max_hours, int* out) {
    const int sign = Take('-') ? -1 : 1;
    if (sign > 0) Take('+');
    int h = 0, m = 0, s = 0;
    if (!Number(max_hours > 99 ? 3 : 2, 0, max_hours, &h)) return false;
    if (Take(':') && !(Number(2, 0, 59, &m) && (!Take(':') || Number(2, 0, 59, &s)))) return false;
    *out = sign * (h * 3600 + m * 60 + s);
    return true;
  }

 private:
  const char* p_;
  const char* end_;
};

// "Mm.w.d", "Jn" or "n", then an optional "/time" whose hours may be signed
// and reach 167 (RFC 8536 3.3.1).
bool ParseRule(TzText& in, Rule* r) {
  bool ok;
  if (in.Take('M')) {
    r->form = 'M';
    ok = in.Number(2, 1, 12, &r->month) && in.Take('.') && in.Number(1, 1, 5, &r->week) && in.Take('.') &&
         in.Number(1, 0, 6, &r->weekday);
  } else {
    r->form = in.Take('J') ? 'J' : 'n';
    ok = r->form == 'J' ? in.Number(3, 1, 365, &r->n) : in.Number(3, 0, 365, &r->n);
  }
  return ok && (!in.Take('/') || in.Duration(167, &r->time));
}

// "std offset [dst [offset] ,start[/time],end[/time]]". A DST name without
// rules is refused: zic always writes them, and POSIX leaves the default to
// the implementation.
std::optional<Footer> ParseFooter(std::string_view s) {
  TzText in(s);
  Footer f;
  int west = 0;
  if (!in.Name() || !in.Duration(24, &west)) return std::nullopt;
  f.std_offset = -west;
  if (in.AtEnd()) return f;
  if (!in.Name()) return std::nullopt;
  west -= 3600;  // DST is an hour ahead unless the string says otherwise
  if (!in.Peek(',') && !in.Duration(24, &west)) return std::nullopt;
  f.dst_offset = -west;
  if (!(in.Take(',') && ParseRule(in, &f.start) && in.Take(',') && ParseRule(in, &f.end) && in.AtEnd())) {
    return std::nullopt;
  }
  return f;
}

// The day (counted from 1970-01-01) of rule `r` in `year`.
int64_t DayOf(const Rule& r, int year) {
  const int64_t jan1 = DaysFromCivil(year, 1, 1);
  if (r.form == 'J') return jan1 + r.n - 1 + (r.n >= 60 && IsLeapYear(year));
  if (r.form == 'n') return jan1 + r.n;
  const int64_t first = DaysFromCivil(year, r.month, 1);
  const int64_t next_month = r.month == 12 ? DaysFromCivil(year + 1, 1, 1) : DaysFromCivil(year, r.month + 1, 1);
  const int first_weekday = static_cast<int>(((first + 4) % 7 + 7) % 7);  // 1970-01-01 was a Thursday
  int64_t day = first + (r.weekday - first_weekday + 7) % 7 + 7 * (r.week - 1);
  while (day >= next_month) day -= 7;
  return day;
}

// The footer's period around `t` (not cut at the table's last transition).
// A year's changes fall within 8 days of it (times within 168 h, offsets
// within 26 h), so years y-2..y+2 hold the last change at or before t and
// the first after it. Each rule's time is read in the offset it ends.
Period FooterPeriod(const Footer& f, UnixTime t) {
  Period p;
  p.offset = f.std_offset;
  if (!f.dst_offset) return p;
  const int year = FromNaiveSeconds(t).year;
  for (int y = year - 2; y <= year + 2; ++y) {
    for (const bool to_dst : {true, false}) {
      const Rule& r = to_dst ? f.start : f.end;
      const UnixTime at = DayOf(r, y) * kDay + r.time - (to_dst ? f.std_offset : *f.dst_offset);
      if (at > t) {
        p.end = std::min(p.end, at);
      } else if (at >= p.begin) {  // on a tie the later change wins: "DST all year" ends as it restarts
        p.begin = at;
        p.offset = to_dst ? *f.dst_offset : f.std_offset;
      }
    }
  }
  return p;
}

// ---- The TZif file ----------------------------------------------------------

// Big-endian two's complement of `width` (4 or 8) bytes at p.
int64_t ReadInt(const char* p, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) v = v << 8 | static_cast<unsigned char>(p[i]);
  return width == 4 ? int64_t{static_cast<int32_t>(static_cast<uint32_t>(v))} : static_cast<int64_t>(v);
}

struct Header {
  char version = 0;
  uint32_t isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0;

  // The size of the data block that follows, with `width`-byte times.
  uint64_t BlockSize(int width) const {
    return uint64_t{timecnt} * (width + 1) + uint64_t{typecnt} * 6 + charcnt + uint64_t{leapcnt} * (width + 4) +
           isstdcnt + isutcnt;
  }
};

std::optional<Header> ParseHeader(std::string_view s) {
  if (s.size() < kHeaderSize || s.substr(0, 4) != "TZif") return std::nullopt;
  Header h;
  h.version = s[4];
  uint32_t* counts[] = {&h.isutcnt, &h.isstdcnt, &h.leapcnt, &h.timecnt, &h.typecnt, &h.charcnt};
  for (int i = 0; i < 6; ++i) *counts[i] = static_cast<uint32_t>(ReadInt(s.data() + 20 + 4 * i, 4));
  if ((h.version != '\0' && (h.version < '2' || h.version > '4')) || h.typecnt == 0 ||
      (h.isstdcnt != 0 && h.isstdcnt != h.typecnt) || (h.isutcnt != 0 && h.isutcnt != h.typecnt)) {
    return std::nullopt;
  }
  return h;
}

}  // namespace

struct TimeZone::Rules {
  std::vector<UnixTime> times;  // transitions, strictly ascending
  std::vector<int> offsets;     // offsets[i] is in force from times[i]
  int first_offset = 0;         // time type 0: before the first transition
  std::vector<UnixTime> leap_times;
  std::vector<int> corrections;  // corrections[i] applies from leap_times[i]
  std::optional<Footer> footer;  // from the last transition on (or always)
  // Wall times shown by exactly one instant, ascending: see EarliestOffset.
  struct WallStretch {
    int64_t begin, end;  // [begin, end) of naive seconds
    int offset;
  };
  std::vector<WallStretch> stretches;

  static std::optional<Rules> Parse(std::string_view file);
  void MakeStretches();
  bool ReadBlock(std::string_view block, const Header& h, int width);
  Period At(UnixTime t) const;
};

// REQUIRES: block.size() == h.BlockSize(width).
bool TimeZone::Rules::ReadBlock(std::string_view block, const Header& h, int width) {
  const char* type_of = block.data() + uint64_t{h.timecnt} * width;
  const char* types = type_of + h.timecnt;
  const char* leaps = types + uint64_t{h.typecnt} * 6 + h.charcnt;
  std::vector<int> type_offsets;
  for (uint32_t k = 0; k < h.typecnt; ++k) {
    const int64_t offset = ReadInt(types + 6 * k, 4);
    const auto isdst = static_cast<unsigned char>(types[6 * k + 4]);
    const auto desigidx = static_cast<unsigned char>(types[6 * k + 5]);
    if (offset < kMinOffset || offset > kMaxOffset || isdst > 1 || desigidx >= h.charcnt) return false;
    type_offsets.push_back(static_cast<int>(offset));
  }
  first_offset = type_offsets[0];
  for (uint32_t i = 0; i < h.timecnt; ++i) {
    const int64_t at = ReadInt(block.data() + uint64_t{i} * width, width);
    const auto type = static_cast<unsigned char>(type_of[i]);
    if (type >= h.typecnt || (i > 0 && at <= times.back())) return false;
    times.push_back(at);
    offsets.push_back(type_offsets[type]);
  }
  for (uint32_t i = 0; i < h.leapcnt; ++i) {
    const char* record = leaps + uint64_t{i} * (width + 4);
    const int64_t at = ReadInt(record, width), correction = ReadInt(record + width, 4);
    if ((i > 0 && at <= leap_times.back()) || correction < -kMaxCorrection || correction > kMaxCorrection) return false;
    leap_times.push_back(at);
    corrections.push_back(static_cast<int>(correction));
  }
  return true;
}

std::optional<TimeZone::Rules> TimeZone::Rules::Parse(std::string_view file) {
  const std::optional<Header> v1 = ParseHeader(file);
  if (!v1) return std::nullopt;
  std::string_view rest = file.substr(kHeaderSize);
  if (v1->BlockSize(4) > rest.size()) return std::nullopt;
  Rules r;
  if (v1->version == '\0') {  // version 1: 32-bit times, no footer
    if (rest.size() != v1->BlockSize(4) || !r.ReadBlock(rest, *v1, 4)) return std::nullopt;
  } else {  // version 2+: a second header, the 64-bit block, "\n" TZ string "\n", and no more
    rest.remove_prefix(v1->BlockSize(4));
    const std::optional<Header> v2 = ParseHeader(rest);
    if (!v2 || v2->version != v1->version) return std::nullopt;
    rest.remove_prefix(kHeaderSize);
    const uint64_t size = v2->BlockSize(8);
    if (size > rest.size() || !r.ReadBlock(rest.substr(0, size), *v2, 8)) return std::nullopt;
    rest.remove_prefix(size);
    if (rest.size() < 2 || rest.front() != '\n' || rest.back() != '\n') return std::nullopt;
    const std::string_view tz = rest.substr(1, rest.size() - 2);
    if (!tz.empty()) {
      r.footer = ParseFooter(tz);
      if (!r.footer) return std::nullopt;
    }
  }
  return r;
}

Period TimeZone::Rules::At(UnixTime t) const {
  if (t > kFar) return {kFar + 1, kMaxTime, 0, 0};
  if (t < -kFar) return {kMinTime, -kFar, 0, 0};
  Period p;
  const size_t i = std::upper_bound(times.begin(), times.end(), t) - times.begin();  // the first change after t
  if (i > 0) p.begin = times[i - 1];
  if (i < times.size()) p.end = times[i];
  if (i == times.size() && footer) {
    const Period f = FooterPeriod(*footer, t);
    p.begin = std::max(p.begin, f.begin);
    p.end = f.end;
    p.offset = f.offset;
  } else {
    p.offset = i > 0 ? offsets[i - 1] : first_offset;
  }
  const size_t j = std::upper_bound(leap_times.begin(), leap_times.end(), t) - leap_times.begin();
  if (j > 0) {
    p.begin = std::max(p.begin, leap_times[j - 1]);
    p.correction = corrections[j - 1];
  }
  if (j < leap_times.size()) p.end = std::min(p.end, leap_times[j]);
  p.begin = std::max(p.begin, -kFar);
  p.end = std::min(p.end, kFar + 1);
  return p;
}

// Each period p shows the wall times [p.begin, p.end) + p.Shift(); the
// part no earlier period shows is a stretch, in which p holds the earliest
// instant showing each wall time (ToUnix's answer). A fall-back overlap goes
// to the period before it; a spring-forward gap, shown by none, is in no
// stretch. Periods with a leap correction are left out whole (the "right/"
// zones), and wall times outside [kFrom + kMaxShift, kTo + kMinShift), which
// instants outside [kFrom, kTo) could show.
void TimeZone::Rules::MakeStretches() {
  constexpr int64_t kFrom = -2208988800;    // 1900-01-01 UTC
  constexpr int64_t kTo = 7258118400;       // 2200-01-01 UTC
  int64_t shown_until = kFrom + kMaxShift;  // earlier periods show no wall time from here on
  for (Period p = At(kFrom); p.begin < kTo; p = At(p.end)) {
    const int64_t begin = std::max(p.begin + p.Shift(), shown_until);
    const int64_t end = std::min(p.end + p.Shift(), kTo + kMinShift);
    if (p.correction == 0 && begin < end) stretches.push_back({begin, end, p.offset});
    shown_until = std::max(shown_until, p.end + p.Shift());
    if (p.end > kFar) break;
  }
}

std::optional<int> TimeZone::EarliestOffset(int64_t naive) const {
  const auto& s = rules_->stretches;
  auto it = std::upper_bound(s.begin(), s.end(), naive,
                             [](int64_t n, const Rules::WallStretch& w) { return n < w.begin; });
  if (it == s.begin()) return std::nullopt;
  --it;
  if (naive >= it->end) return std::nullopt;
  return it->offset;
}

TimeZone::TimeZone(std::string name, std::shared_ptr<const Rules> rules)
    : name_(std::move(name)), rules_(std::move(rules)) {}

namespace {

// The TZif bytes of `name` in a zone archive (see time_zone.h), or nullopt.
std::optional<std::string> FromArchive(const std::filesystem::path& archive, std::string_view name) {
  std::ifstream in(archive, std::ios::binary);
  std::string line;
  if (!std::getline(in, line) || line != kZoneArchiveMagic) return std::nullopt;
  std::optional<std::pair<uint64_t, uint64_t>> found;
  while (std::getline(in, line) && !line.empty()) {
    const size_t a = line.find(' '), b = line.find(' ', a == std::string::npos ? a : a + 1);
    if (a == std::string::npos || b == std::string::npos) return std::nullopt;
    if (found || std::string_view(line).substr(0, a) != name) continue;
    try {
      found.emplace(std::stoull(line.substr(a + 1, b - a - 1)), std::stoull(line.substr(b + 1)));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  if (!found || !in || found->second > kMaxFileSize) return std::nullopt;
  const std::streamoff data = in.tellg();
  std::string bytes(found->second, '\0');
  in.seekg(data + static_cast<std::streamoff>(found->first));
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) return std::nullopt;
  return bytes;
}

// The TZif bytes of `name` under the folder `dir`, or nullopt.
std::optional<std::string> FromFolder(const std::filesystem::path& dir, std::string_view name) {
  const std::filesystem::path path = dir / std::string(name);
  std::error_code ec;
  // Follows symbolic links (Europe/Kiev -> Kyiv), as stat does.
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxFileSize) return std::nullopt;
  std::string bytes(size, '\0');
  std::ifstream in(path, std::ios::binary);
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) return std::nullopt;
  return bytes;
}

}  // namespace

std::optional<TimeZone> TimeZone::Load(std::string_view iana_name, const std::string& zoneinfo) {
  if (iana_name.empty() || iana_name.front() == '/' || iana_name.find("..") != std::string_view::npos ||
      iana_name.find('\0') != std::string_view::npos || iana_name.find_first_of(" \n") != std::string_view::npos) {
    return std::nullopt;
  }
  std::error_code ec;
  const std::optional<std::string> bytes = std::filesystem::is_regular_file(zoneinfo, ec)
                                               ? FromArchive(zoneinfo, iana_name)
                                               : FromFolder(zoneinfo, iana_name);
  if (!bytes) return std::nullopt;
  std::optional<Rules> rules = Rules::Parse(*bytes);
  if (!rules) return std::nullopt;
  rules->MakeStretches();
  return TimeZone(std::string(iana_name), std::make_shared<const Rules>(std::move(*rules)));
}

std::string TimeZone::DefaultSource(const char* tzdir) {
  return tzdir && *tzdir ? tzdir : "/usr/share/zoneinfo";
}

TimeZone TimeZone::Utc() {
  Rules utc;
  utc.MakeStretches();
  return TimeZone("UTC", std::make_shared<const Rules>(std::move(utc)));
}

const std::string& TimeZone::name() const { return name_; }

int TimeZone::OffsetAt(UnixTime t) const { return rules_->At(t).offset; }

LocalTime TimeZone::FromUnix(UnixTime t) const { return FromNaiveSeconds(t + rules_->At(t).Shift()); }

// An instant u shows t when u + Shift(u) == naive, so every such u lies in
// [naive - kMaxShift, naive - kMinShift]: walk the periods there in order
// (usually the first holds the answer).
// The first u found inside its own period is the earliest (an overlap's
// first reading). If there is none, the wall clock jumped over t where one
// period gave way to the next: t is read with the offset from before that
// jump, which lands the later instant (SiteZone's rule, java.time's, and
// Python's fold=0).
UnixTime TimeZone::ToUnix(const LocalTime& t) const {
  const int64_t naive = NaiveSeconds(t);
  if (naive > kFar + 2 * kDay || naive < -kFar - 2 * kDay) return naive;  // UTC out there
  if (std::optional<int> offset = EarliestOffset(naive)) return naive - *offset;
  const Rules& r = *rules_;
  std::optional<UnixTime> after_gap;
  std::optional<int64_t> previous_shift;
  for (Period p = r.At(naive - kMaxShift);; p = r.At(p.end)) {
    const UnixTime u = naive - p.Shift();
    if (u >= p.begin && u < p.end) return u;
    if (previous_shift && naive - *previous_shift >= p.begin && u < p.begin) {
      after_gap = std::max(after_gap.value_or(kMinTime), naive - *previous_shift);
    }
    if (p.end > naive - kMinShift) break;
    previous_shift = p.Shift();
  }
  return after_gap ? *after_gap : naive - r.At(naive).Shift();  // the fallback is unreachable
}

}  // namespace feed
