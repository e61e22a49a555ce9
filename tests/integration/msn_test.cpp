// The MSN feed (lifecycle = msn) against the real database, read the way
// MSN reads it. The test plays MSN: it keeps an index by guid and applies
// seed 004's four rules to every item of every fetch. After each round of
// board changes it checks that the index publishes exactly what the board
// shows (active and within the period, by the test's own SQL), and that
// each change of the round caused exactly the event the seed asks for:
// a new ad one creation, an edit one update, a raise none, a hide, a hard
// delete or an ad running out of its period one take-down. Time moves
// through an injected clock, never by sleeping.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <algorithm>
#include <csignal>
#include <ctime>
#include <unistd.h>
#include <functional>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app.h"
#include "datetime.h"
#include "state.h"
#include "test_env.h"
#include "time_zone.h"

namespace feed {
namespace {

constexpr int64_t kDay = 86400;

// RFC 3339 in UTC, as MSN's examples write it: "2024-12-31T00:00:00Z".
std::optional<UnixTime> ParseRfc3339Utc(const std::string& s) {
  int y, mo, d, h, mi, se, n = 0;
  if (s.size() != 20 || std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &se, &n) != 6 ||
      n != 20 || s[4] != '-' || s[7] != '-' || s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  auto t = ParseSqlDateTime(s.substr(0, 10) + " " + s.substr(11, 8));
  if (!t) return std::nullopt;
  return NaiveSeconds(*t);
}

// RFC 822 with a four-digit year and a numeric zone.
std::optional<UnixTime> ParseRfc822(const std::string& s) {
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char day[4], mon[4], sign;
  int d, y, h, mi, se, zh, zm, n = 0;
  if (std::sscanf(s.c_str(), "%3s, %2d %3s %4d %2d:%2d:%2d %c%2d%2d%n", day, &d, mon, &y, &h, &mi, &se, &sign, &zh, &zm,
                  &n) != 10 ||
      static_cast<size_t>(n) != s.size() || (sign != '+' && sign != '-')) {
    return std::nullopt;
  }
  int m = 0;
  while (m < 12 && std::string(kMonths[m]) != mon) ++m;
  if (m == 12) return std::nullopt;
  return NaiveSeconds({y, m + 1, d, h, mi, se}) - (sign == '+' ? 1 : -1) * (zh * 3600 + zm * 60);
}

TEST(MsnDateParsers, ReadOnlyTheFormsTheyShould) {
  EXPECT_EQ(ParseRfc3339Utc("2026-11-01T10:00:00Z"), 1793527200);
  EXPECT_FALSE(ParseRfc3339Utc("2026-11-01T12:00:00+02:00"));
  EXPECT_FALSE(ParseRfc3339Utc("2026-11-01 10:00:00Z"));
  EXPECT_FALSE(ParseRfc3339Utc("2026-02-30T10:00:00Z"));
  EXPECT_EQ(ParseRfc822("Sun, 01 Nov 2026 12:00:00 +0200"), 1793527200);
}

std::string Text(const tinyxml2::XMLElement* e, const char* name) {
  const tinyxml2::XMLElement* c = e->FirstChildElement(name);
  return c && c->GetText() ? c->GetText() : "";
}

// One item of a fetch, as MSN reads it.
struct FeedItem {
  std::string guid, title, link, picture;
  UnixTime modified = 0;
  std::optional<UnixTime> expires;
};

// Parses an MSN feed and checks the RSS 2.0 rules and the seed's fields on
// the way (gtest failures name what broke).
std::vector<FeedItem> ParseFeed(const std::string& body) {
  std::vector<FeedItem> items;
  tinyxml2::XMLDocument doc;
  if (doc.Parse(body.data(), body.size()) != tinyxml2::XML_SUCCESS) {
    ADD_FAILURE() << "not well-formed XML";
    return items;
  }
  const tinyxml2::XMLElement* rss = doc.RootElement();
  EXPECT_STREQ(rss->Name(), "rss");
  EXPECT_STREQ(rss->Attribute("version"), "2.0");
  EXPECT_STREQ(rss->Attribute("xmlns:dcterms"), "http://purl.org/dc/terms/");
  EXPECT_STREQ(rss->Attribute("xmlns:mi"), "http://schemas.ingestion.microsoft.com/common/");
  EXPECT_STREQ(rss->Attribute("xmlns:media"), "http://search.yahoo.com/mrss/");
  const tinyxml2::XMLElement* channel = rss->FirstChildElement("channel");
  if (!channel) {
    ADD_FAILURE() << "no channel";
    return items;
  }
  // RSS 2.0: a channel's required elements, and a self link for validators.
  EXPECT_FALSE(Text(channel, "title").empty());
  EXPECT_EQ(Text(channel, "link").rfind("http://", 0), 0u);
  EXPECT_FALSE(Text(channel, "description").empty());
  const tinyxml2::XMLElement* self = channel->FirstChildElement("atom:link");
  EXPECT_TRUE(self && self->Attribute("rel", "self"));
  std::set<std::string> guids;
  for (auto* e = channel->FirstChildElement("item"); e; e = e->NextSiblingElement("item")) {
    FeedItem it;
    const tinyxml2::XMLElement* guid = e->FirstChildElement("guid");
    EXPECT_TRUE(guid && guid->Attribute("isPermaLink", "false"));
    it.guid = Text(e, "guid");
    EXPECT_TRUE(guids.insert(it.guid).second) << "guid twice in one feed: " << it.guid;
    it.title = Text(e, "title");
    it.link = Text(e, "link");
    EXPECT_FALSE(it.title.empty()) << it.guid;
    EXPECT_EQ(it.link.rfind("http://doska.example/ad/", 0), 0u) << it.guid;
    auto modified = ParseRfc3339Utc(Text(e, "dcterms:modified"));
    EXPECT_TRUE(modified) << it.guid << " dcterms:modified " << Text(e, "dcterms:modified");
    it.modified = modified.value_or(0);
    const std::string valid = Text(e, "dcterms:valid"), expiration = Text(e, "mi:expirationDate");
    EXPECT_EQ(valid, expiration) << it.guid << ": dcterms:valid and mi:expirationDate are one moment";
    if (!expiration.empty()) {
      it.expires = ParseRfc3339Utc(expiration);
      EXPECT_TRUE(it.expires) << it.guid << " mi:expirationDate " << expiration;
    }
    if (e->FirstChildElement("pubDate")) {
      EXPECT_TRUE(ParseRfc822(Text(e, "pubDate"))) << Text(e, "pubDate");
    }
    if (const tinyxml2::XMLElement* m = e->FirstChildElement("media:content")) {
      it.picture = m->Attribute("url") ? m->Attribute("url") : "";
      EXPECT_EQ(it.picture.rfind("http://doska.example/photo/", 0), 0u);
    }
    items.push_back(std::move(it));
  }
  // Newest first.
  for (size_t i = 1; i < items.size(); ++i) EXPECT_GE(items[i - 1].modified, items[i].modified);
  return items;
}

// MSN's ingestion, by the seed's table: no item with the id: created; the
// same id with a newer modified date: updated, or taken down when its
// expiration is in the past as well; the same modified date: skipped. MSN
// ingests what it fetched after it fetched it: `at` is a second after the
// fetch.
struct Msn {
  struct Entry {
    UnixTime modified = 0;
    bool published = false;
    std::string link, picture;
  };
  std::map<std::string, Entry> index;
  std::map<std::string, int> created, updated, taken_down;
  int skipped = 0;

  void Ingest(const std::vector<FeedItem>& items, UnixTime at) {
    for (const FeedItem& it : items) {
      const bool expired = it.expires && *it.expires < at;
      auto e = index.find(it.guid);
      if (e == index.end()) {
        index[it.guid] = {it.modified, !expired, it.link, it.picture};
        ++created[it.guid];
        continue;
      }
      if (it.modified <= e->second.modified) {
        ++skipped;
        continue;
      }
      e->second.modified = it.modified;
      e->second.published = !expired;
      ++(expired ? taken_down : updated)[it.guid];
      if (!expired) e->second.picture = it.picture;
    }
  }
  std::set<std::string> Published() const {
    std::set<std::string> s;
    for (const auto& [g, e] : index) {
      if (e.published) s.insert(g);
    }
    return s;
  }
  void ClearEvents() {
    created.clear();
    updated.clear();
    taken_down.clear();
    skipped = 0;
  }
};

std::map<std::string, int> Once(const std::vector<int64_t>& ids) {
  std::map<std::string, int> m;
  for (int64_t id : ids) m["ad-" + std::to_string(id)] = 1;
  return m;
}

class MsnIntegration : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::LoadSampleBoard(1000, 10);
    testing::Mariadb("TRUNCATE feed_item_state; TRUNCATE feed_item_sync; TRUNCATE feed_state_seen;");
  }
  static std::string Config(const std::string& extra = "", int max_items = 50000) {
    return testing::WriteConfig(
        "[feed msn]\npath = /msn\ntemplate = @ROOT@/templates/msn.xml\nquery = @ROOT@/sql/sample-msn.sql\n"
        "content_type = application/rss+xml\nlifecycle = msn\nkeyset = id\nfetch_rows = 100\nguid_prefix = ad-\n"
        "max_items = " +
        std::to_string(max_items) + "\nvalue.self = http://doska.example/feeds/msn\n" + extra);
  }
  // The site-time form of an instant, for the test's SQL.
  static std::string Site(UnixTime t) { return FormatSqlDateTime(testing::Kiev().FromUnix(t)); }
  // What the board shows at `t`, by the mapping's documented rule: active
  // and within added + period (30 days when days = 0).
  static std::vector<int64_t> ShownIds(UnixTime t) {
    std::vector<int64_t> ids;
    for (const auto& row : testing::Table("SELECT id FROM listing WHERE status = 'active' AND "
                                          "added + INTERVAL IF(days > 0, days, 30) DAY > '" +
                                          Site(t) + "' ORDER BY id")) {
      ids.push_back(std::stoll(row[0]));
    }
    return ids;
  }
  static std::set<std::string> Guids(const std::vector<int64_t>& ids) {
    std::set<std::string> s;
    for (int64_t id : ids) s.insert("ad-" + std::to_string(id));
    return s;
  }
  static std::string Join(const std::vector<int64_t>& ids) {
    std::string s;
    for (int64_t id : ids) s += (s.empty() ? "" : ",") + std::to_string(id);
    return s;
  }
  static Request Get() {
    Request r;
    r.path_info = "/msn";
    return r;
  }
  // One fetch by MSN at the clock's moment, ingested a second later.
  static std::vector<FeedItem> FetchInto(App& app, const FixedClock& clock, Msn* msn) {
    testing::Reply r = testing::Fetch(app, Get());
    EXPECT_EQ(r.status, 200) << r.body.substr(0, 300);
    EXPECT_EQ(r.headers["Content-Type"], "application/rss+xml; charset=UTF-8");
    std::vector<FeedItem> items = ParseFeed(r.body);
    msn->Ingest(items, clock.Now() + 1);
    return items;
  }

  // A sync cut short: 300 shown ads are edited, and /msn is fetched with
  // `cut` run once the sync has written its first batch (`after` runs once
  // that fetch returned: a restart). However it was cut, exactly that batch
  // stays written, and the next fetch finishes every edit once with
  // nothing created or taken down. Returns the cut fetch's reply.
  testing::Reply CutSyncAfterItsFirstBatch(const std::function<void()>& cut,
                                           const std::function<void()>& after = nullptr) {
    FixedClock clock(t0_);
    App app(LoadConfig(Config()), &clock);
    Msn msn;
    FetchInto(app, clock, &msn);
    msn.ClearEvents();
    const std::vector<int64_t> shown = ShownIds(clock.Now());
    EXPECT_GT(shown.size(), 300u);
    std::vector<int64_t> edited(shown.begin(), shown.begin() + std::min<size_t>(300, shown.size()));
    testing::Mariadb("UPDATE listing SET body = CONCAT(body, ' v2') WHERE id IN (" + Join(edited) + ")");
    clock.Advance(60);
    MsnFeed* feed = app.msn_feed("/msn");
    size_t batches = 0;
    feed->SetBatchHook([&](size_t) {
      if (++batches == 1) cut();
    });
    testing::Reply cut_reply = testing::Fetch(app, Get());
    if (after) after();
    feed->SetBatchHook(nullptr);
    // Part of the sync was written: consistent on its own.
    const std::string written = testing::Table("SELECT COUNT(*) FROM feed_item_state WHERE feed = 'msn' AND modified = " +
                                               std::to_string(clock.Now()))[0][0];
    EXPECT_EQ(written, std::to_string(ItemStateStore::kBatch)) << "nothing written after the cut";
    clock.Advance(60);
    FetchInto(app, clock, &msn);
    EXPECT_EQ(msn.updated, Once(edited)) << "the next fetch finishes the job: every edit once";
    EXPECT_TRUE(msn.created.empty() && msn.taken_down.empty());
    EXPECT_EQ(msn.Published(), Guids(ShownIds(clock.Now())));
    return cut_reply;
  }

  // Kiev, 2026-11-01 12:00: the sample board's ads were added in the 60
  // days before.
  const UnixTime t0_ = testing::Kiev().ToUnix({2026, 11, 1, 12, 0, 0});
};

TEST_F(MsnIntegration, MsnSeesEachChangeOfTheBoardExactlyOnce) {
  FixedClock clock(t0_);
  App app(LoadConfig(Config()), &clock);
  Msn msn;

  // The first fetch: every ad the board shows, created once.
  std::vector<int64_t> shown = ShownIds(clock.Now());
  ASSERT_GT(shown.size(), 100u);
  FetchInto(app, clock, &msn);
  EXPECT_EQ(msn.Published(), Guids(shown));
  EXPECT_EQ(msn.created.size(), shown.size());
  EXPECT_TRUE(msn.updated.empty() && msn.taken_down.empty());
  std::map<std::string, std::string> pictures;
  for (const auto& [g, e] : msn.index) pictures[g] = e.picture;
  msn.ClearEvents();

  // Round 1, an hour later: new ads, real edits, raises, hides, hard deletes.
  clock.Advance(3600);
  const std::string now = Site(clock.Now());
  std::vector<int64_t> edit_title = {shown[0], shown[1]}, edit_body = {shown[2]}, edit_photo = {shown[3]},
                       edit_city = {shown[4]}, raise = {shown[5], shown[6], shown[7], shown[8]},
                       hide = {shown[9], shown[10]}, remove = {shown[11], shown[12]};
  testing::Mariadb("UPDATE listing SET title = CONCAT(title, ' (new)'), updated = '" + now + "' WHERE id IN (" +
                   Join(edit_title) +
                   ");"
                   "UPDATE listing SET body = CONCAT(body, ' Edited.'), updated = '" +
                   now + "' WHERE id IN (" + Join(edit_body) +
                   ");"
                   "UPDATE listing SET photo = 'changed.jpg', updated = '" +
                   now + "' WHERE id IN (" + Join(edit_photo) +
                   ");"
                   "UPDATE listing SET region_id = IF(region_id = 1, 2, 1), updated = '" +
                   now + "' WHERE id IN (" + Join(edit_city) +
                   ");"
                   "UPDATE listing SET updated = '" +
                   now + "' WHERE id IN (" + Join(raise) +
                   ");"
                   "UPDATE listing SET status = 'hidden', updated = '" +
                   now + "' WHERE id IN (" + Join(hide) +
                   ");"
                   "DELETE FROM listing WHERE id IN (" +
                   Join(remove) +
                   ");"
                   "INSERT INTO listing (ref, title, body, region_id, added, days, updated) VALUES "
                   "('NEW1', 'Новое 1', 'Текст', 1, '" +
                   now + "', 30, '" + now +
                   "'), "
                   "('NEW2', 'Новое 2', '', 2, '" +
                   now + "', 0, '" + now + "');");
  std::vector<int64_t> added;
  for (const auto& row : testing::Table("SELECT id FROM listing WHERE ref LIKE 'NEW%' ORDER BY id")) {
    added.push_back(std::stoll(row[0]));
  }
  FetchInto(app, clock, &msn);
  EXPECT_EQ(msn.Published(), Guids(ShownIds(clock.Now())));
  EXPECT_EQ(msn.created, Once(added));
  std::vector<int64_t> edited = edit_title;
  for (const auto* v : {&edit_body, &edit_photo, &edit_city}) edited.insert(edited.end(), v->begin(), v->end());
  EXPECT_EQ(msn.updated, Once(edited)) << "each real edit is one update; a raise is none";
  // Gone: the hidden and deleted ads, and those whose period ended within
  // the hour.
  std::set<int64_t> gone_set(hide.begin(), hide.end());
  gone_set.insert(remove.begin(), remove.end());
  const std::vector<int64_t> still = ShownIds(clock.Now());
  for (int64_t id : shown) {
    if (!std::binary_search(still.begin(), still.end(), id)) gone_set.insert(id);
  }
  const std::vector<int64_t> gone(gone_set.begin(), gone_set.end());
  EXPECT_EQ(msn.taken_down, Once(gone)) << "each hide, hard delete and end of period is one take-down";
  for (const auto& [g, n] : msn.taken_down) {
    EXPECT_EQ(msn.index[g].modified, clock.Now()) << g << ": a take-down is dated when it was found";
  }
  // The picture's URL moves only with the picture.
  for (const auto& [g, e] : msn.index) {
    if (!e.published || !pictures.count(g)) continue;
    if (g == "ad-" + std::to_string(edit_photo[0])) {
      EXPECT_EQ(e.picture, "http://doska.example/photo/changed.jpg");
    } else {
      EXPECT_EQ(e.picture, pictures[g]) << g;
    }
  }
  msn.ClearEvents();

  // The same board fetched again: every item skipped.
  FetchInto(app, clock, &msn);
  EXPECT_TRUE(msn.created.empty() && msn.updated.empty() && msn.taken_down.empty());
  EXPECT_GT(msn.skipped, 0);
  msn.ClearEvents();

  // Round 2, two days later: ads run out of their period.
  const std::vector<int64_t> before = ShownIds(clock.Now());
  clock.Advance(2 * kDay);
  const std::vector<int64_t> after = ShownIds(clock.Now());
  std::vector<int64_t> ran_out;
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(ran_out));
  ASSERT_FALSE(ran_out.empty()) << "the board has ads that end within two days";
  std::vector<FeedItem> items = FetchInto(app, clock, &msn);
  EXPECT_EQ(msn.Published(), Guids(after));
  EXPECT_EQ(msn.taken_down, Once(ran_out)) << "each ad that ran out is one take-down";
  EXPECT_TRUE(msn.created.empty() && msn.updated.empty());
  // An ad that ran out expires at its end (added + period, site time).
  for (const FeedItem& it : items) {
    if (it.guid != "ad-" + std::to_string(ran_out[0])) continue;
    auto end = testing::Table("SELECT added + INTERVAL IF(days > 0, days, 30) DAY FROM listing WHERE id = " +
                              std::to_string(ran_out[0]));
    EXPECT_EQ(it.expires, std::stoll(testing::KievDate(end[0][0], "%s")));
  }
  msn.ClearEvents();

  // Round 3: the hidden ads are shown again, a deleted one is posted again
  // under its id: created again (the same guid, a newer modified date, an
  // expiration to come).
  clock.Advance(600);
  const std::string later = Site(clock.Now());
  testing::Mariadb("UPDATE listing SET status = 'active', added = '" + later + "', updated = '" + later +
                   "' WHERE id IN (" + Join(hide) +
                   ");"
                   "INSERT INTO listing (id, ref, title, body, added, days, updated) VALUES (" +
                   std::to_string(remove[0]) + ", 'BACK1', 'Снова', '', '" + later + "', 30, '" + later + "');");
  std::vector<int64_t> back = hide;
  back.push_back(remove[0]);
  FetchInto(app, clock, &msn);
  EXPECT_EQ(msn.Published(), Guids(ShownIds(clock.Now())));
  EXPECT_EQ(msn.updated, Once(back));
  EXPECT_TRUE(msn.created.empty() && msn.taken_down.empty());
  // Guids never changed: every guid MSN ever saw is ad-ID of a board id.
  for (const auto& [g, e] : msn.index) EXPECT_EQ(g.rfind("ad-", 0), 0u);
}

TEST_F(MsnIntegration, ATakeDownLeavesTheFeedAndTheStateAfterRetention) {
  FixedClock clock(t0_);
  App app(LoadConfig(Config("retention_days = 3\n")), &clock);
  Msn msn;
  FetchInto(app, clock, &msn);
  const std::vector<int64_t> shown = ShownIds(clock.Now());
  testing::Mariadb("DELETE FROM listing WHERE id = " + std::to_string(shown[0]));
  clock.Advance(60);
  FetchInto(app, clock, &msn);
  const std::string guid = "ad-" + std::to_string(shown[0]);
  EXPECT_EQ(msn.taken_down[guid], 1);
  auto listed = [&](const std::vector<FeedItem>& items) {
    for (const FeedItem& it : items) {
      if (it.guid == guid) return true;
    }
    return false;
  };
  auto gone_records = [] {
    return testing::Table("SELECT COUNT(*) FROM feed_item_state WHERE feed = 'msn' AND gone = 1")[0][0];
  };
  clock.Advance(3 * kDay - 120);
  EXPECT_TRUE(listed(FetchInto(app, clock, &msn))) << "still within retention";
  EXPECT_NE(gone_records(), "0");
  clock.Advance(120);
  EXPECT_FALSE(listed(FetchInto(app, clock, &msn))) << "past retention";
  // Items taken down meanwhile (ads that ran out) are younger; the deleted
  // ad's record is gone.
  EXPECT_EQ(testing::Table("SELECT COUNT(*) FROM feed_item_state WHERE feed = 'msn' AND item_id = " +
                           std::to_string(shown[0]))[0][0],
            "0");
  EXPECT_EQ(msn.taken_down[guid], 1) << "taken down once";
  // And an item modified longer ago than window_days is no longer listed,
  // while its record stays (it is still shown).
  clock.Advance(8 * kDay);
  const std::vector<FeedItem> late = FetchInto(app, clock, &msn);
  for (const FeedItem& it : late) EXPECT_GE(it.modified, clock.Now() - 7 * kDay) << it.guid;
  EXPECT_EQ(msn.Published(), Guids(ShownIds(clock.Now())));
}

TEST_F(MsnIntegration, OnlyListedItemsGetTakeDowns) {
  FixedClock clock(t0_);
  App app(LoadConfig(Config()), &clock);
  // The first sync by cron, before any fetch: nothing was listed, so an ad
  // deleted now leaves without a take-down.
  SyncReport r = app.SyncItems("/msn");
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.counts.created, ShownIds(clock.Now()).size());
  const std::vector<int64_t> shown = ShownIds(clock.Now());
  testing::Mariadb("DELETE FROM listing WHERE id = " + std::to_string(shown[0]));
  clock.Advance(60);
  r = app.SyncItems("/msn");
  EXPECT_EQ(r.counts.dropped, 1u);
  EXPECT_EQ(r.counts.taken_down, 0u);
  Msn msn;
  FetchInto(app, clock, &msn);
  EXPECT_EQ(msn.Published(), Guids(ShownIds(clock.Now())));
  EXPECT_TRUE(msn.taken_down.empty());
}

TEST_F(MsnIntegration, ACappedFeedListsTheNewestChangesFirst) {
  FixedClock clock(t0_);
  App app(LoadConfig(Config("", 20)), &clock);
  Msn msn;
  std::vector<FeedItem> first = FetchInto(app, clock, &msn);
  EXPECT_EQ(first.size(), 20u);
  const std::vector<int64_t> shown = ShownIds(clock.Now());
  // First seen at one moment: the highest ids first.
  EXPECT_EQ(first[0].guid, "ad-" + std::to_string(shown.back()));
  clock.Advance(60);
  testing::Mariadb("UPDATE listing SET title = 'Изменено' WHERE id = " + std::to_string(shown[0]));
  std::vector<FeedItem> second = FetchInto(app, clock, &msn);
  ASSERT_FALSE(second.empty());
  EXPECT_EQ(second[0].guid, "ad-" + std::to_string(shown[0]));
  EXPECT_EQ(second[0].modified, clock.Now());
  EXPECT_EQ(msn.created["ad-" + std::to_string(shown[0])], 1);
}

TEST_F(MsnIntegration, TwoFetchesAtOnceNeverDoubleAChange) {
  FixedClock first(t0_), second(t0_ + 1);
  // settle_seconds = 0: the second fetch syncs again after the first, so a
  // sync that did not wait for the other would record each edit twice.
  const std::string conf = Config("settle_seconds = 0\n");
  App a(LoadConfig(conf), &first), b(LoadConfig(conf), &second);
  Msn msn;
  FetchInto(a, first, &msn);
  msn.ClearEvents();
  const std::vector<int64_t> shown = ShownIds(t0_);
  std::vector<int64_t> edited(shown.begin(), shown.begin() + 40);
  testing::Mariadb("UPDATE listing SET title = CONCAT(title, ' *') WHERE id IN (" + Join(edited) + ")");
  first.Advance(60);
  second.Advance(60);
  // b asks while a's sync holds the feed's lock (a's first batch written,
  // b seen waiting for the lock): b must wait, then find nothing new. The
  // order is fixed so that the fake MSN's reading does not depend on which
  // thread won: served modified dates are never after the server's own
  // clock, and b's clock is a second ahead of a's.
  testing::Reply ra, rb;
  std::thread tb;
  a.msn_feed("/msn")->SetBatchHook([&](size_t) {
    if (tb.joinable()) return;
    tb = std::thread([&] { rb = testing::Fetch(b, Get()); });
    EXPECT_TRUE(testing::PollUntil([] {
      return testing::Mariadb("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'User lock'") != "0\n";
    })) << "b never waited for a's lock";
  });
  ra = testing::Fetch(a, Get());
  a.msn_feed("/msn")->SetBatchHook(nullptr);
  ASSERT_TRUE(tb.joinable()) << "a's sync wrote no batch";
  tb.join();
  ASSERT_EQ(ra.status, 200);
  ASSERT_EQ(rb.status, 200);
  msn.Ingest(ParseFeed(ra.body), second.Now() + 1);
  msn.Ingest(ParseFeed(rb.body), second.Now() + 1);
  EXPECT_EQ(msn.updated, Once(edited));
  msn.ClearEvents();
  // And a third fetch later sees nothing new.
  first.Advance(60);
  FetchInto(a, first, &msn);
  EXPECT_TRUE(msn.created.empty() && msn.updated.empty() && msn.taken_down.empty());
}

TEST_F(MsnIntegration, TheDatabaseStoppedMidSyncLosesAndDoublesNothing) {
  testing::Reply cut = CutSyncAfterItsFirstBatch(testing::StopDatabase, testing::StartDatabase);
  EXPECT_EQ(cut.status, 503);
  EXPECT_EQ(cut.headers["Retry-After"], "60");
}

// The sync's lock lives on its connection: that connection killed mid-sync
// (the server stays up), the lock is gone with it and another process may
// sync at once. The sync must stop there, not reconnect and write on
// unguarded, or a concurrent fetch could record the same change twice.
TEST_F(MsnIntegration, TheSyncsConnectionLostMidSyncStopsItThere) {
  const std::string lock = "'feed.fcgi items msn'";
  bool lock_freed = false;
  testing::Reply cut = CutSyncAfterItsFirstBatch([&] {
    const std::string holder = testing::Table("SELECT IS_USED_LOCK(" + lock + ")")[0][0];
    ASSERT_NE(holder, "NULL") << "the sync holds its lock";
    testing::Mariadb("KILL CONNECTION " + holder);
    lock_freed = testing::PollUntil(
        [&] { return testing::Table("SELECT IS_FREE_LOCK(" + lock + ")")[0][0] == "1"; }, 10000);
  });
  EXPECT_TRUE(lock_freed) << "the killed connection took the lock with it";
  EXPECT_EQ(cut.status, 503) << cut.body.substr(0, 200);
}

// ---- `feed.fcgi sync` from cron (issue #21) ------------------------------------

// Cron starts a sync while the last one still works: the second finds the
// feed's run lock, says so in one line on stderr and exits 0 having done
// nothing; the first, held here after its first batch, completes.
TEST_F(MsnIntegration, ASyncThatFindsAnotherUnderWayDoesNothingAndExitsZero) {
  FixedClock clock(t0_);
  const std::string config = Config();
  App first(LoadConfig(config), &clock);
  const std::string err = config + ".err";
  int batches = 0, second_rc = -1;
  std::string holder, second_err;
  SyncReport r = first.SyncItems("/msn", [&](size_t) {
    if (++batches != 1) return;
    holder = testing::Table("SELECT IS_USED_LOCK('feed.fcgi sync msn')")[0][0];
    second_rc = testing::Shell("'" + testing::Env("FEED_TEST_BIN") + "' --config '" + config + "' sync /msn >'" + err +
                               ".out' 2>'" + err + "'");
    second_err = testing::Slurp(err);
  });
  ASSERT_GT(batches, 1) << "the sync was held with more to write";
  EXPECT_EQ(second_rc, 0);
  EXPECT_EQ(second_err,
            "feed.fcgi: sync /msn: another run is syncing feed msn (database connection " + holder + "), nothing done\n");
  EXPECT_EQ(testing::Slurp(err + ".out"), "");
  // The first run's sync, whole: every shown ad created once, recorded at
  // its moment (the second never wrote its own).
  const std::vector<int64_t> shown = ShownIds(t0_);
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.counts.created, shown.size());
  EXPECT_EQ(testing::Table("SELECT COUNT(*) FROM feed_item_state WHERE feed = 'msn'")[0][0],
            std::to_string(shown.size()));
  EXPECT_EQ(testing::Table("SELECT synced FROM feed_item_sync WHERE feed = 'msn'")[0][0], std::to_string(t0_));
  EXPECT_EQ(testing::Table("SELECT IS_FREE_LOCK('feed.fcgi sync msn')")[0][0], "1");
  unlink(err.c_str());
  unlink((err + ".out").c_str());
}

// A sync killed with SIGKILL: its run lock lived on its connection, which
// the server drops, so the next run is not blocked. That run comes from
// cron's environment: env -i, another working folder, absolute paths. The
// killed one is held waiting for the feed's lock, which this test holds.
TEST_F(MsnIntegration, ASyncKilledMidwayBlocksNoLaterRunFromCronsEnvironment) {
  const std::string config = Config();
  const std::string err = config + ".err", pid_file = config + ".pid";
  const std::string bin = "'" + testing::Env("FEED_TEST_BIN") + "' --config '" + config + "' sync /msn";
  App app(LoadConfig(config));
  auto items = std::make_unique<NamedLock>(app.database(), "feed.fcgi items msn", 0);
  ASSERT_TRUE(items->acquired());
  ASSERT_EQ(testing::Shell(bin + " >/dev/null 2>'" + err + "' & echo $! >'" + pid_file + "'"), 0);
  const std::string pid = testing::Slurp(pid_file).substr(0, testing::Slurp(pid_file).find('\n'));
  ASSERT_FALSE(pid.empty());
  std::string holder;
  ASSERT_TRUE(testing::PollUntil([&] {
    holder = testing::Table("SELECT IS_USED_LOCK('feed.fcgi sync msn')")[0][0];
    return holder != "NULL";
  })) << testing::Slurp(err);
  EXPECT_EQ(testing::Shell(bin + " >/dev/null 2>'" + err + ".2'"), 0);
  EXPECT_EQ(testing::Slurp(err + ".2"),
            "feed.fcgi: sync /msn: another run is syncing feed msn (database connection " + holder + "), nothing done\n");
  ASSERT_EQ(kill(std::stoi(pid), SIGKILL), 0);
  items.reset();
  // The server drops the killed process's connection, and its lock with it.
  EXPECT_TRUE(testing::PollUntil(
      [&] { return testing::Table("SELECT IS_FREE_LOCK('feed.fcgi sync msn')")[0][0] == "1"; }))
      << "the killed run's lock outlived it";
  const std::string cron = "cd / && env -i PATH=/usr/bin:/bin " + bin + " >'" + err + ".out' 2>'" + err + "'";
  EXPECT_EQ(testing::Shell(cron), 0) << testing::Slurp(err);
  EXPECT_EQ(testing::Slurp(err), "");
  const std::vector<int64_t> shown = ShownIds(std::time(nullptr));
  EXPECT_EQ(testing::Slurp(err + ".out").rfind("/msn: " + std::to_string(shown.size()) + " items shown, ", 0), 0u)
      << testing::Slurp(err + ".out");
  for (const std::string& f : {err, err + ".2", err + ".out", pid_file}) unlink(f.c_str());
}

TEST_F(MsnIntegration, ConditionalRequestsFollowTheItemState) {
  FixedClock clock(t0_);
  App app(LoadConfig(Config()), &clock);
  testing::Reply r = testing::Fetch(app, Get());
  ASSERT_EQ(r.status, 200);
  ASSERT_FALSE(r.headers["ETag"].empty());
  EXPECT_EQ(r.headers["ETag"].front(), '"') << "one state, the same bytes: a strong tag";
  EXPECT_EQ(ParseHttpDate(r.headers["Last-Modified"], clock.Now()), clock.Now());
  Request cond = Get();
  cond.if_none_match = r.headers["ETag"];
  clock.Advance(60);
  EXPECT_EQ(testing::Fetch(app, cond).status, 304);
  // A raise changes nothing MSN sees: still 304.
  const std::vector<int64_t> shown = ShownIds(clock.Now());
  testing::Mariadb("UPDATE listing SET updated = '" + Site(clock.Now()) + "' WHERE id = " + std::to_string(shown[0]));
  clock.Advance(60);
  EXPECT_EQ(testing::Fetch(app, cond).status, 304);
  Request since = Get();
  since.if_modified_since = r.headers["Last-Modified"];
  EXPECT_EQ(testing::Fetch(app, since).status, 304);
  // An edit does.
  testing::Mariadb("UPDATE listing SET title = 'Другое' WHERE id = " + std::to_string(shown[0]));
  clock.Advance(60);
  testing::Reply changed = testing::Fetch(app, cond);
  EXPECT_EQ(changed.status, 200);
  EXPECT_EQ(ParseHttpDate(changed.headers["Last-Modified"], clock.Now()), clock.Now());
  EXPECT_EQ(testing::Fetch(app, since).status, 200);
}

TEST_F(MsnIntegration, TheLegacyBoardsMappingServesItsAds) {
  auto config = testing::LegacyConfig();
  if (!config) GTEST_SKIP() << "no legacy board (../shared/board) loaded";
  // gen.py's default --now: the board's ads were added in the 90 days before.
  FixedClock clock(testing::Kiev().ToUnix({2026, 11, 1, 12, 0, 0}));
  // Bodies from memory: a spool file this process names to no web server
  // would stay behind for the next App's (spool names count per App).
  config->server.hand_off = HandOff::kNone;
  config->server.spool_memory = 64 << 20;
  App app(*config, &clock);
  testing::Reply r = testing::Fetch(app, Get());
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
  std::vector<FeedItem> items = ParseFeed(r.body);
  EXPECT_FALSE(items.empty());
  for (const FeedItem& it : items) {
    EXPECT_EQ(it.guid.rfind("ad-", 0), 0u);
    EXPECT_TRUE(it.expires && *it.expires > clock.Now()) << it.guid;
  }
}

}  // namespace
}  // namespace feed
