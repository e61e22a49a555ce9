#include "gtid_position.h"

#include <algorithm>

namespace feed {
namespace {

// A decimal number at `*p` up to `max`, without sign; with `canonical`, no
// leading zero. Advances `*p`.
bool TakeNumber(std::string_view s, size_t* p, uint64_t max, bool canonical, uint64_t* out) {
  const size_t start = *p;
  uint64_t v = 0;
  while (*p < s.size() && s[*p] >= '0' && s[*p] <= '9') {
    const uint64_t d = static_cast<uint64_t>(s[*p] - '0');
    if (v > (max - d) / 10) return false;  // v * 10 + d > max
    v = v * 10 + d;
    ++*p;
  }
  if (*p == start) return false;
  if (canonical && s[start] == '0' && *p - start > 1) return false;
  *out = v;
  return true;
}

// Items of "A<sep>B<sep>C" separated by `between`.
std::optional<std::vector<Gtid>> ParseItems(std::string_view s, char sep, char between, bool canonical) {
  std::vector<Gtid> out;
  size_t p = 0;
  auto skip_space = [&] {
    if (canonical) return;
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n')) ++p;
  };
  skip_space();
  if (p == s.size()) return canonical ? std::nullopt : std::optional(out);
  for (;;) {
    uint64_t d = 0, srv = 0, seq = 0;
    skip_space();
    if (!TakeNumber(s, &p, UINT32_MAX, canonical, &d) || p >= s.size() || s[p++] != sep ||
        !TakeNumber(s, &p, UINT32_MAX, canonical, &srv) || p >= s.size() || s[p++] != sep ||
        !TakeNumber(s, &p, UINT64_MAX, canonical, &seq)) {
      return std::nullopt;
    }
    if (out.size() == GtidPosition::kMaxDomains) return std::nullopt;
    out.push_back({static_cast<uint32_t>(d), static_cast<uint32_t>(srv), seq});
    skip_space();
    if (p == s.size()) break;
    if (s[p++] != between) return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<GtidPosition> GtidPosition::Parse(std::string_view text) {
  auto items = ParseItems(text, '-', ',', false);
  if (!items) return std::nullopt;
  std::sort(items->begin(), items->end(), [](const Gtid& a, const Gtid& b) { return a.domain < b.domain; });
  for (size_t i = 1; i < items->size(); ++i) {
    if ((*items)[i].domain == (*items)[i - 1].domain) return std::nullopt;
  }
  GtidPosition p;
  p.gtids_ = std::move(*items);
  return p;
}

std::optional<GtidPosition> GtidPosition::ParseTokenForm(std::string_view text) {
  auto items = ParseItems(text, '.', '_', true);
  if (!items) return std::nullopt;
  for (size_t i = 1; i < items->size(); ++i) {
    if ((*items)[i].domain <= (*items)[i - 1].domain) return std::nullopt;  // ascending, each once
  }
  GtidPosition p;
  p.gtids_ = std::move(*items);
  return p;
}

std::string GtidPosition::ToString() const {
  std::string s;
  for (const Gtid& g : gtids_) {
    if (!s.empty()) s += ',';
    s += std::to_string(g.domain) + '-' + std::to_string(g.server) + '-' + std::to_string(g.seq);
  }
  return s;
}

std::string GtidPosition::TokenForm() const {
  std::string s;
  for (const Gtid& g : gtids_) {
    if (!s.empty()) s += '_';
    s += std::to_string(g.domain) + '.' + std::to_string(g.server) + '.' + std::to_string(g.seq);
  }
  return s;
}

std::string StampPosition(int64_t moment, const GtidPosition& p) { return std::to_string(moment) + ' ' + p.ToString(); }

GtidPosition StampedPosition(std::string_view stamped, int64_t moment) {
  const std::string prefix = std::to_string(moment) + ' ';
  if (stamped.substr(0, prefix.size()) != prefix) return {};
  return GtidPosition::Parse(stamped.substr(prefix.size())).value_or(GtidPosition{});
}

}  // namespace feed
