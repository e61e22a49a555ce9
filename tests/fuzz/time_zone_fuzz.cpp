// The TZif reader takes whatever file sits under the zoneinfo directory (and
// the zone archive reader whatever index and data the archive holds): it
// must load it or refuse it, never crash or read outside it. A zone that
// loads must stay total and consistent: offsets in range, every wall time it
// shows maps back to the earliest instant showing it, far instants read as
// UTC. Random bytes rarely get past the header, so the input also steers a
// structured path: a well-formed file built from the bytes (types,
// transitions, leap seconds, a footer from a list of real ones), then
// damaged as the remaining bytes say.
#include <stdlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "datetime.h"
#include "time_zone.h"

namespace {

using feed::FromNaiveSeconds;
using feed::LocalTime;
using feed::NaiveSeconds;
using feed::TimeZone;
using feed::UnixTime;

void Check(bool ok) {
  if (!ok) std::abort();
}

// The directory the input is written into: made on first use, removed at
// exit (a crashing run leaves it behind).
class ZoneDir {
 public:
  ZoneDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "time_zone_fuzz.XXXXXX").string();
    Check(mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~ZoneDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ZoneDir(const ZoneDir&) = delete;
  ZoneDir& operator=(const ZoneDir&) = delete;
  std::optional<TimeZone> Load(const std::string& bytes) const {
    {
      // A new file, not a truncated one: truncating a file that holds data
      // makes ext4 flush it to disk, a thousand times slower.
      std::error_code ec;
      std::filesystem::remove(path_ + "/zone", ec);
      std::ofstream out(path_ + "/zone", std::ios::binary);
      out << bytes;
      Check(out.good());
    }
    return TimeZone::Load("zone", path_);
  }
  // The bytes after a zone archive's first line (time_zone.h): its index
  // and data, asked for the zone named "zone".
  std::optional<TimeZone> LoadArchive(const std::string& bytes) const {
    {
      std::error_code ec;
      std::filesystem::remove(path_ + "/archive", ec);
      std::ofstream out(path_ + "/archive", std::ios::binary);
      out << feed::kZoneArchiveMagic << '\n' << bytes;
      Check(out.good());
    }
    return TimeZone::Load("zone", path_ + "/archive");
  }

 private:
  std::string path_;
};

const ZoneDir& Dir() {
  static const ZoneDir dir;
  return dir;
}

using feed::fuzz::Bytes;

constexpr int64_t kFar = int64_t{1} << 55;  // beyond it zones read as UTC (time_zone.h)

void CheckZone(const TimeZone& z, const std::vector<UnixTime>& instants) {
  const TimeZone copy = z;
  for (const UnixTime t : instants) {
    const int offset = z.OffsetAt(t);
    const LocalTime local = z.FromUnix(t);
    Check(offset >= -89999 && offset <= 93599);
    Check(copy.OffsetAt(t) == offset && copy.FromUnix(t) == local);
    if (t > kFar || t < -kFar) {
      Check(offset == 0 && local == FromNaiveSeconds(t));
      continue;
    }
    // `local` is shown at t, so it is in no gap: ToUnix finds the earliest
    // instant showing it, no later than t.
    const UnixTime u = z.ToUnix(local);
    Check(u <= t && z.FromUnix(u) == local && z.ToUnix(z.FromUnix(u)) == u);
    // Nearby wall times, gaps included: total, and stable once shown.
    for (const int64_t step : {-86400, -1800, 1, 1800, 86400}) {
      const UnixTime v = z.ToUnix(FromNaiveSeconds(NaiveSeconds(local) + step));
      Check(z.ToUnix(z.FromUnix(v)) <= v);
    }
  }
  (void)z.ToUnix({INT32_MAX, 12, 31, 23, 59, 59});
  (void)z.ToUnix({INT32_MIN, 1, 1, 0, 0, 0});
  (void)z.ToUnix({2026, 13, 45, 99, 99, 99});
}

std::vector<UnixTime> FixedInstants() {
  return {INT64_MIN,  -kFar - 1,  -kFar,      -(int64_t{1} << 40), -2208988800, -1,         0,
          1000000000, 1774746000, 1792890000, 2147483647,          2147483648,  3794173200, int64_t{1} << 40,
          kFar,       kFar + 1,   INT64_MAX};
}

// ---- The structured path ------------------------------------------------------

std::string Be(int64_t v, int bytes) {
  std::string s;
  for (int i = bytes - 1; i >= 0; --i) s += static_cast<char>(static_cast<uint64_t>(v) >> (8 * i));
  return s;
}

std::string Header(char version, size_t leaps, size_t times, size_t types) {
  return "TZif" + std::string(1, version) + std::string(15, '\0') + Be(0, 4) + Be(0, 4) + Be(leaps, 4) + Be(times, 4) +
         Be(types, 4) + Be(1, 4);
}

const char* const kFooters[] = {
    "",
    "UTC0",
    "EET-2EEST,M3.5.0/3,M10.5.0/4",
    "EST5EDT,M3.2.0,M11.1.0",
    "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
    "<-02>2<-01>,M3.5.0/-1,M10.5.0/0",
    "IST-2IDT,M3.4.4/26,M10.5.0",
    "EET-2EEST,M3.4.4/50,M10.4.4/50",
    "IST-1GMT0,M10.5.0,M3.5.0/1",
    "EST5EDT,0/0,J365/25",
    "AAA0BBB,J60/0,304/-167",
    "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45",
    "XXX-24:59:59YYY24:59:59,J1/167:59:59,J365/-167:59:59",
};

void Structured(const uint8_t* data, size_t size) {
  Bytes b(data, size);
  static constexpr char kVersions[] = {'\0', '2', '3', '4'};
  const char version = kVersions[b.Take(1) % 4];
  const int width = version == '\0' ? 4 : 8;
  std::vector<int64_t> offsets(1 + b.Take(1) % 4);
  for (int64_t& o : offsets) o = static_cast<int64_t>(b.Take(2) % 400) * 450 - 89550;  // within (-25 h, 26 h)
  // Ascending times that fit the width: from 1901 or 1900 on, up to 194 days apart.
  std::vector<UnixTime> times(b.Take(1) % 12);
  UnixTime t =
      (width == 4 ? INT32_MIN : -2208988800) + static_cast<int64_t>(b.Take(4) % (width == 4 ? 1u << 31 : 6000000000u));
  for (UnixTime& x : times) x = t += 1 + static_cast<int64_t>(b.Take(3));
  // Leap seconds at least 28 days apart, each correcting by one second.
  std::vector<UnixTime> leaps(b.Take(1) % 4);
  UnixTime leap = static_cast<int64_t>(b.Take(4) % (1u << 30));
  for (UnixTime& x : leaps) x = leap += 2419199 + static_cast<int64_t>(b.Take(3));

  std::string block;
  for (const UnixTime x : times) block += Be(x, width);
  for (size_t i = 0; i < times.size(); ++i) block += static_cast<char>(b.Take(1) % offsets.size());
  for (const int64_t o : offsets) block += Be(o, 4) + static_cast<char>(b.Take(1) % 2) + '\0';
  block += '\0';  // the abbreviations: one empty string
  int64_t correction = 0;
  for (const UnixTime x : leaps) block += Be(x, width) + Be(correction += b.Take(1) % 2 ? 1 : -1, 4);
  const std::string data_header = Header(version, leaps.size(), times.size(), offsets.size());
  std::string file;
  if (version == '\0') {
    file = data_header + block;
  } else {  // a stub version 1 block, as "slim" files have
    file = Header(version, 0, 0, 1) + Be(0, 4) + std::string(3, '\0') + data_header + block + "\n" +
           kFooters[b.Take(1) % std::size(kFooters)] + "\n";
  }
  std::vector<UnixTime> instants = FixedInstants();
  for (const UnixTime x : times) instants.insert(instants.end(), {x - 1, x, x + 1});
  for (const UnixTime x : leaps) instants.insert(instants.end(), {x - 1, x, x + 1});
  for (int i = 0; i < 4; ++i) instants.push_back(static_cast<int64_t>(b.Take(8) % 16000000000) - 4000000000);
  // Half the time the file stays well formed and must load.
  const bool damage = b.Take(1) % 2;
  while (damage && !b.Empty() && !file.empty()) {
    const size_t pos = b.Take(2) % file.size();
    const uint64_t op = b.Take(1);
    const char c = static_cast<char>(b.Take(1));
    if (op % 3 == 0) {
      file[pos] = c;
    } else if (op % 3 == 1) {
      file.insert(pos, 1, c);
    } else {
      file.erase(pos, 1);
    }
  }
  const std::optional<TimeZone> z = Dir().Load(file);
  if (!damage) Check(z.has_value());
  if (z) CheckZone(*z, instants);
}

// Instants for a file taken as it came: the fixed ones and a few more from
// a hash of the input, 1843..2477.
std::vector<UnixTime> InstantsFor(const uint8_t* data, size_t size) {
  std::vector<UnixTime> instants = FixedInstants();
  uint64_t h = 1469598103934665603u;  // FNV-1a, then xorshift
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211u;
  for (int i = 0; i < 8; ++i) {
    h ^= h << 13;
    h ^= h >> 7;
    h ^= h << 17;
    instants.push_back(static_cast<int64_t>(h % 20000000000) - 4000000000);
  }
  return instants;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::optional<TimeZone> z = Dir().Load(std::string(reinterpret_cast<const char*>(data), size));
  if (z) CheckZone(*z, InstantsFor(data, size));
  const std::optional<TimeZone> a = Dir().LoadArchive(std::string(reinterpret_cast<const char*>(data), size));
  if (a) CheckZone(*a, InstantsFor(data, size));
  Structured(data, size);
  return 0;
}
