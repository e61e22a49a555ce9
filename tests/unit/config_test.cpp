#include "config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "error.h"
#include "temp_folder.h"

namespace feed {
namespace {

const char kGood[] =
    "; comment\n"
    "[database]\nsocket = /tmp/s.sock\nuser = feed\npassword = \"p w\"\nname = sample\n"
    "[site]\ntime_zone = Europe/Kiev\nurl = http://doska.example\n"
    "[feed   yads]\ntemplate = ../templates/yads.xml\nquery = /abs/q.sql\nencoding = windows-1251\n"
    "since = param date\ncontinue = param continue\npage_size = 500\nkeyset = added, id\n"
    "secret = 0123456789abcdef\n";

std::string ErrorOf(const std::string& text, const ConfigEnvironment& env = {}) {
  try {
    ParseConfig(text, "f.ini", "/etc/feed", env);
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    return e.what();
  }
  return "(accepted)";
}

TEST(Config, ReadsEverySection) {
  Config c = ParseConfig(kGood, "f.ini", "/etc/feed");
  EXPECT_EQ(c.database.socket, "/tmp/s.sock");
  EXPECT_EQ(c.database.password, "p w");
  EXPECT_EQ(c.time_zone, "Europe/Kiev");
  EXPECT_EQ(c.site.at("url"), "http://doska.example");
  ASSERT_EQ(c.feeds.size(), 1u);
  const FeedConfig& f = c.feeds[0];
  EXPECT_EQ(f.name, "yads");
  EXPECT_EQ(f.path, "/yads");
  EXPECT_EQ(f.template_file, "/etc/feed/../templates/yads.xml");
  EXPECT_EQ(f.query_file, "/abs/q.sql");
  EXPECT_EQ(f.encoding, Charset::kWindows1251);
  EXPECT_EQ(f.since, SinceSource::kParam);
  EXPECT_EQ(f.since_param, "date");
  EXPECT_EQ(f.continue_param, "continue");
  EXPECT_EQ(f.page_size, 500);
  EXPECT_EQ(f.keyset, (std::vector<std::string>{"added", "id"}));
}

TEST(Config, EnvironmentOverridesTheDatabaseSection) {
  ConfigEnvironment env{{{"FEED_DB_SOCKET", "/run/other.sock"}, {"FEED_DB_NAME", "other"}, {"FEED_DB_PORT", "3307"}}};
  Config c = ParseConfig(kGood, "f.ini", "/etc/feed", env);
  EXPECT_EQ(c.database.socket, "/run/other.sock");
  EXPECT_EQ(c.database.name, "other");
  EXPECT_EQ(c.database.port, 3307);
  env.vars["FEED_DB_PORT"] = "70000";
  EXPECT_NE(ErrorOf(kGood, env).find("FEED_DB_PORT"), std::string::npos);
  // Parsing reads nothing but its input: the process's variables are not it.
  setenv("FEED_DB_NAME", "from-the-process", 1);
  EXPECT_EQ(ParseConfig(kGood, "f.ini", "/etc/feed").database.name, "sample");
  unsetenv("FEED_DB_NAME");
}

TEST(Config, EachMistakeNamesFileAndLine) {
  struct Case {
    std::string text;
    const char* expect;
  } cases[] = {
      {"name = x\n", "f.ini:1: key before any [section]"},
      {"[database]\nname = a\nname = b\n", "f.ini:3: key 'name' repeats"},
      {"[database]\n[database]\n", "f.ini:2: section [database] appears twice"},
      {"[database]\njust text\n", "f.ini:2: expected 'key = value'"},
      {"[database]\nport = 0x10\n", "f.ini:2: port must be a whole number"},
      {"[database]\ncolour = red\n", "f.ini:2: unknown key 'colour'"},
      {"[sitee]\n", "f.ini:1: unknown section [sitee]"},
      {"[site]\ntime_zone = Mars/Olympus\n", "f.ini:2: unknown time zone"},
      {"[site]\ntime_zone = ../../etc/passwd\n", "f.ini:2: unknown time zone"},
      {"[site]\ntitle = t\nurl = doska.example\n", "f.ini:3: [site] url is not an absolute http:// or https:// URL"},
      {"[site]\nurl = ftp://doska.example\n", "f.ini:2: [site] url is not an absolute"},
      {"[database]\nname=x\n[feed a b]\n", "f.ini:3: a feed name is"},
      {"[database]\nname=x\n[feed y]\nquery = q\nkeyset = id\n", "f.ini:3: [feed y] needs template"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nencoding = koi9-r\n",
       "f.ini:7: encoding: iconv does not know the character set 'koi9-r'"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nencoding = Shift_JIS\n",
       "f.ini:7: encoding: 'Shift_JIS' writes a character in more than one byte"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nencoding = EBCDIC-US\n",
       "f.ini:7: encoding: 'EBCDIC-US' does not write ASCII as ASCII"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\ncontinue = param c\npage_size = 10\n",
       "has continue but no secret"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\npage_size = 10\n",
       "has page_size but no continue"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = a b c d\n", "f.ini:6: keyset names 1 to 3"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\npath = /../x\n", "f.ini:7: path must"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nsince = cookie x\n",
       "f.ini:7: since must be"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nsecret = short\n",
       "f.ini:7: secret must be at least"},
      {"[database]\nname=x\n", "no [feed NAME] section"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\n[feed z]\npath = /y\ntemplate = t\nquery = "
       "q\nkeyset = id\n",
       "f.ini:7: two feeds have path /y"},
  };
  for (const Case& c : cases) {
    std::string msg = ErrorOf(c.text);
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.text << "\n  gave: " << msg;
  }
}

TEST(Config, RobotSinceAndTemplateValues) {
  Config c = ParseConfig(
      "[database]\nname = x\n[feed jooble]\ntemplate = t\nquery = q\nkeyset = updated id\n"
      "since = robot JoobleBot\nvalue.hide_contacts = 1\nencoding = UTF-8\n",
      "f.ini", "/etc");
  ASSERT_EQ(c.feeds.size(), 1u);
  EXPECT_EQ(c.feeds[0].since, SinceSource::kRobot);
  EXPECT_EQ(c.feeds[0].robot, "JoobleBot");
  EXPECT_EQ(c.feeds[0].values.at("hide_contacts"), "1");
  EXPECT_EQ(c.feeds[0].encoding, Charset::kUtf8);
  EXPECT_FALSE(c.feeds[0].stream);
  EXPECT_EQ(c.feeds[0].db_charset, "");
  Config s = ParseConfig(
      "[database]\nname = x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nread = stream\ndb_charset = cp1251\n",
      "f.ini", "/etc");
  EXPECT_TRUE(s.feeds[0].stream);
  EXPECT_EQ(s.feeds[0].db_charset, "cp1251");
  EXPECT_NE(ErrorOf("[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nread = fast\n")
                .find("f.ini:7: read must be"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\ndb_charset = koi8r\n")
                .find("f.ini:7: db_charset"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nvalue.a b = 1\n")
                .find("f.ini:7: unknown key"),
            std::string::npos);
}

TEST(Config, ServerTimeoutsAndOverlap) {
  const std::string feed = "[feed j]\ntemplate = t\nquery = q\nkeyset = id\nsince = robot JoobleBot\n";
  Config d = ParseConfig("[database]\nname = x\n" + feed, "f.ini", "/etc/feed");
  EXPECT_EQ(d.server.hand_off, HandOff::kNone);
  EXPECT_EQ(d.server.spool_dir, "");
  EXPECT_EQ(d.server.spool_memory, 256 << 10);
  EXPECT_EQ(d.database.connect_timeout, 3);
  EXPECT_EQ(d.database.read_timeout, 10);
  EXPECT_EQ(d.database.write_timeout, 10);
  EXPECT_EQ(d.feeds[0].overlap_visits, 1);
  Config c = ParseConfig(
      "[database]\nname = x\nconnect_timeout = 2\nread_timeout = 7\nwrite_timeout = 9\n"
      "[server]\nhand_off = x-sendfile\nspool_dir = ../spool\nspool_memory = 1024\n" +
          feed + "overlap_visits = 0\n",
      "f.ini", "/etc/feed");
  EXPECT_EQ(c.server.hand_off, HandOff::kXSendfile);
  EXPECT_EQ(c.server.spool_dir, "/etc/feed/../spool");
  EXPECT_EQ(c.server.spool_memory, 1024);
  EXPECT_EQ(c.database.connect_timeout, 2);
  EXPECT_EQ(c.database.read_timeout, 7);
  EXPECT_EQ(c.database.write_timeout, 9);
  EXPECT_EQ(c.feeds[0].overlap_visits, 0);
  EXPECT_NE(ErrorOf("[database]\nname = x\n[server]\nhand_off = sendfile\n" + feed).find("f.ini:4: hand_off must be"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[database]\nname = x\n[server]\nhand_off = x-sendfile\n" + feed).find("f.ini:3: hand_off = x-sendfile needs spool_dir"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[database]\nname = x\nread_timeout = 0\n" + feed).find("f.ini:3: read_timeout"), std::string::npos);
  EXPECT_NE(ErrorOf("[database]\nname = x\n" + feed + "overlap_visits = 2\n").find("f.ini:8: overlap_visits"),
            std::string::npos);
}

// mod_fcgid answers 500 to a request silent for FcgidIOTimeout, 40 s by
// default, which a shared host's owner cannot raise in .htaccess: the
// program's 503 for a database that stopped answering must come well
// before. The worst wait, stated here apart from the code: a statement
// tried twice, each time connect + the longer of read and write, plus at
// most 5 s waiting for another process's lock.
TEST(Config, TheDefaultsWorstRequestWaitIsWellUnderModFcgidsTimeout) {
  const DatabaseConfig d;
  const int worst = 2 * (d.connect_timeout + std::max(d.read_timeout, d.write_timeout)) + 5;
  EXPECT_LE(worst, 40 - 5) << "at least 5 s to spare under FcgidIOTimeout";
  // Each lock wait of a request fits in one read (GET_LOCK holds it).
  EXPECT_LT(5, d.read_timeout);
  const std::string feed = "[feed j]\npath = /j\ntemplate = t\nquery = q\nkeyset = id\n";
  Config c = ParseConfig("[database]\nname = x\n" + feed, "f.ini", "/etc/feed");
  EXPECT_EQ(RequestWaitBound(c), worst);
  EXPECT_EQ(RequestLockWait(c.database), 5);
  // Shorter read timeouts shorten the lock wait, never below 1 s.
  DatabaseConfig short_reads;
  short_reads.read_timeout = 4;
  EXPECT_EQ(RequestLockWait(short_reads), 2);
  short_reads.read_timeout = 1;
  EXPECT_EQ(RequestLockWait(short_reads), 1);
  // A replica adds its own timeouts.
  Config r = ParseConfig("[database]\nname = x\nconnect_timeout = 2\nread_timeout = 8\nwrite_timeout = 6\n"
                         "[database replica r1]\nhost = 10.0.0.2\nread_timeout = 7\n" + feed,
                         "f.ini", "/etc/feed");
  EXPECT_EQ(RequestWaitBound(r), 2 * (2 + 8) + 5 + 2 * (2 + 7));
}

// Cron starts the program in the owner's home with a relative path or
// not: the config's relative paths resolve against its own folder, made
// absolute (spool files are named to the web server by absolute path).
TEST(Config, RelativePathsResolveAgainstTheConfigsFolderMadeAbsolute) {
  testing::TempFolder dir("config-relative-");
  const std::string file = dir.path() + "/feed.ini";
  {
    std::ofstream out(file);
    out << "[database]\nname = x\n[server]\nspool_dir = spool\n"
           "[feed y]\npath = /y\ntemplate = templates/y.xml\nquery = ../sql/y.sql\nkeyset = id\n";
  }
  const std::string relative = std::filesystem::relative(file).string();
  ASSERT_NE(relative.front(), '/');
  for (const std::string& name : {file, relative}) {
    Config c = LoadConfig(name);
    EXPECT_EQ(c.server.spool_dir, dir.path() + "/spool") << name;
    ASSERT_EQ(c.feeds.size(), 1u);
    EXPECT_EQ(c.feeds[0].template_file, dir.path() + "/templates/y.xml") << name;
    EXPECT_EQ(c.feeds[0].query_file, dir.path() + "/../sql/y.sql") << name;
  }
}

// ---- The continue token secret ----------------------------------------------------

TEST(Config, SecretRules) {
  const char* good[] = {
      "0123456789abcdef",  // 16 characters, 16 different
      "integration-test-secret",
      "q3J8+/Zt0aBv9LmW2xYc1RkEo5HfT7sN",  // head -c 24 /dev/urandom | base64
      "0f3a9c47e1b2d8560f3a9c47e1b2d856",  // hex digits
      "correct horse battery staple",
  };
  for (const char* s : good) EXPECT_EQ(SecretUnfit(s), "") << s;
  struct Case {
    std::string secret;
    const char* want;
  } bad[] = {
      {"", "must be at least 16 characters"},
      {"0123456789abcde", "must be at least 16 characters"},
      {"sample-board-secret-change-me", "is a placeholder ('change-me')"},
      {"legacy-board-secret-change-me", "is a placeholder ('change-me')"},
      {"CHANGE-ME-to-something-long", "is a placeholder ('change-me')"},
      {"please-ChangeMe-0123456789", "is a placeholder ('changeme')"},
      {"change_me_0123456789abcdef", "is a placeholder ('change_me')"},
      {std::string(32, 'a'), "at least 8 different characters"},
      {std::string(16, ' '), "at least 8 different characters"},
      {" \t \t \t \t \t \t \t \t", "at least 8 different characters"},
      {"abababababababababab", "at least 8 different characters"},
      {"abcdefgabcdefgabcdefg", "at least 8 different characters"},  // 7 different
  };
  for (const Case& c : bad) {
    EXPECT_NE(SecretUnfit(c.secret).find(c.want), std::string::npos)
        << "'" << c.secret << "' gave " << SecretUnfit(c.secret);
  }
}

// The file's secret is refused at its line; only whitespace (quoted, since
// values are trimmed) too.
TEST(Config, WeakSecretsAreRefusedAtTheirLine) {
  const std::string head =
      "[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\ncontinue = param c\npage_size = 10\n";
  EXPECT_NE(ErrorOf(head + "secret = sample-board-secret-change-me\n").find("f.ini:9: secret is a placeholder"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "secret = xxxxxxxxxxxxxxxxxxxxxxxx\n").find("f.ini:9: secret must hold at least 8"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "secret = \"                    \"\n").find("f.ini:9: secret must hold at least 8"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "secret = \"\"\n").find("f.ini:9: secret must be at least 16"), std::string::npos);
  EXPECT_NE(ErrorOf(head).find("f.ini:3: [feed y] has continue but no secret ([server] secret"), std::string::npos);
  EXPECT_EQ(ErrorOf(head + "secret = 0123456789abcdef\n"), "(accepted)");
}

// [server] secret: an owner who can set no environment variable keeps the
// secret in the file, for every feed that names none; the same rules.
TEST(Config, ServerSecretKeysEveryFeedWithoutOneOfItsOwn) {
  const std::string feeds =
      "[feed y]\ntemplate = t\nquery = q\nkeyset = id\ncontinue = param c\npage_size = 10\n"
      "[feed z]\ntemplate = t\nquery = q\nkeyset = id\ncontinue = param c\npage_size = 10\n"
      "secret = zs9Q2mW7vX4bN8cK1pL6\n";
  // Before or after the feeds in the file.
  for (const bool first : {true, false}) {
    const std::string server = "[server]\nsecret = Hq7Lm2Xc9Vb4Nz8Kw3Rt\n";
    const std::string text = "[database]\nname=x\n" + (first ? server + feeds : feeds + server);
    Config c = ParseConfig(text, "f.ini", "/etc");
    EXPECT_EQ(c.feeds[0].secret, "Hq7Lm2Xc9Vb4Nz8Kw3Rt");
    EXPECT_EQ(c.feeds[1].secret, "zs9Q2mW7vX4bN8cK1pL6");  // its own wins
    const ConfigEnvironment env{{{"FEED_SECRET", "q3J8+/Zt0aBv9LmW2xYc1RkEo5HfT7sN"}}};
    EXPECT_EQ(ParseConfig(text, "f.ini", "/etc", env).feeds[0].secret, "q3J8+/Zt0aBv9LmW2xYc1RkEo5HfT7sN");
  }
  EXPECT_NE(ErrorOf("[database]\nname=x\n[server]\nsecret = change-me-to-a-long-random-string\n" + feeds)
                .find("f.ini:4: secret is a placeholder ('change-me')"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[database]\nname=x\n[server]\nsecret = abcabcabcabcabcabc\n" + feeds)
                .find("f.ini:4: secret must hold at least 8 different"),
            std::string::npos);
  // The secret itself never appears in a message.
  EXPECT_EQ(ErrorOf("[database]\nname=x\n[server]\nsecret = abcabcabcabcabcabc\n" + feeds).find("abcabc"),
            std::string::npos);
}

TEST(Config, FeedSecretFromTheEnvironment) {
  const std::string text =
      "[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\ncontinue = param c\npage_size = 10\n"
      "[feed z]\ntemplate = t\nquery = q\nkeyset = id\n";
  const ConfigEnvironment env{{{"FEED_SECRET", "q3J8+/Zt0aBv9LmW2xYc1RkEo5HfT7sN"}}};
  Config c = ParseConfig(text, "f.ini", "/etc", env);
  EXPECT_EQ(c.feeds[0].secret, "q3J8+/Zt0aBv9LmW2xYc1RkEo5HfT7sN");
  // It keys every feed, over the file's own secret.
  Config over = ParseConfig(text + "secret = 0123456789abcdef\n", "f.ini", "/etc", env);
  EXPECT_EQ(over.feeds[1].secret, "q3J8+/Zt0aBv9LmW2xYc1RkEo5HfT7sN");
  // The same rules, reported with the file the program was loading.
  EXPECT_NE(ErrorOf(text, {{{"FEED_SECRET", "my-secret-change-me-later"}}})
                .find("f.ini: FEED_SECRET is a placeholder ('change-me')"),
            std::string::npos);
  EXPECT_NE(ErrorOf(text, {{{"FEED_SECRET", "                "}}})
                .find("f.ini: FEED_SECRET must hold at least 8 different"),
            std::string::npos);
  EXPECT_NE(ErrorOf(text, {{{"FEED_SECRET", ""}}}).find("f.ini: FEED_SECRET must be at least 16 characters"),
            std::string::npos);
  EXPECT_NE(ErrorOf(text).find("has continue but no secret"), std::string::npos);
}

TEST(Config, ChildQueriesAndTheirCaps) {
  const std::string head = "[database]\nname = x\n[feed d]\ntemplate = t.xml\nquery = q.sql\nkeyset = id\n";
  Config c = ParseConfig(head + "child.comments.max = 5\nchild.comments = c.sql\nchild.tags = /abs/t.sql\n", "f.ini",
                         "/etc/feed");
  ASSERT_EQ(c.feeds[0].children.size(), 2u);
  EXPECT_EQ(c.feeds[0].children[0].name, "comments");
  EXPECT_EQ(c.feeds[0].children[0].query_file, "/etc/feed/c.sql");
  EXPECT_EQ(c.feeds[0].children[0].max_per_parent, 5);
  EXPECT_EQ(c.feeds[0].children[1].name, "tags");
  EXPECT_EQ(c.feeds[0].children[1].query_file, "/abs/t.sql");
  EXPECT_EQ(c.feeds[0].children[1].max_per_parent, 20) << "the default cap";
  EXPECT_NE(ErrorOf(head + "child.comments.max = 5\n").find("f.ini:7: child.comments.max without child.comments"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "child.comments = c.sql\nchild.comments.max = 0\n").find("f.ini:8: child.comments.max must"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "child.a b = c.sql\n").find("f.ini:7: a child query is child.NAME"), std::string::npos);
  EXPECT_NE(ErrorOf(head + "child.c = \n").find("f.ini:7: child.c names the child query's SQL file"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[database]\nname = x\n[feed d]\ntemplate = t.xml\nquery = q.sql\nkeyset = added id\n"
                    "child.c = c.sql\n")
                .find("f.ini:3: [feed d] has child queries: its keyset is one integer field"),
            std::string::npos);
}

TEST(Config, MaxRunSeconds) {
  const std::string text = "[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\n";
  EXPECT_EQ(ParseConfig(text, "f.ini", "/etc").feeds[0].max_run_seconds, 7 * 86400);
  EXPECT_EQ(ParseConfig(text + "max_run_seconds = 86400\n", "f.ini", "/etc").feeds[0].max_run_seconds, 86400);
  EXPECT_NE(ErrorOf(text + "max_run_seconds = 60\n")
                .find("f.ini:7: max_run_seconds must be a whole number from 3600 "
                      "to 2678400"),
            std::string::npos);
}

TEST(Config, MsnLifecycleKeys) {
  const std::string text = "[database]\nname=x\n[feed msn]\ntemplate = t\nquery = q\nkeyset = id\nlifecycle = msn\n";
  FeedConfig f = ParseConfig(text, "f.ini", "/etc").feeds[0];
  EXPECT_EQ(f.lifecycle, Lifecycle::kMsn);
  EXPECT_EQ(f.max_items, 1000) << "the cap's default";
  EXPECT_EQ(f.window_days, 7);
  EXPECT_EQ(f.retention_days, 7);
  EXPECT_EQ(f.guid_prefix, "msn-");
  f = ParseConfig(text + "window_days = 3\nretention_days = 14\nguid_prefix = ad-\nmax_items = 200\n", "f.ini", "/etc")
          .feeds[0];
  EXPECT_EQ(f.window_days, 3);
  EXPECT_EQ(f.retention_days, 14);
  EXPECT_EQ(f.guid_prefix, "ad-");
  EXPECT_EQ(f.max_items, 200);
  struct Case {
    std::string text;
    const char* expect;
  } cases[] = {
      {text + "window_days = 0\n", "f.ini:8: window_days must be a whole number from 1 to 366"},
      {text + "retention_days = x\n", "f.ini:8: retention_days must be"},
      {text + "guid_prefix = ad {id}\n", "f.ini:8: guid_prefix is at most 32"},
      {"[database]\nname=x\n[feed msn]\ntemplate = t\nquery = q\nkeyset = added id\nlifecycle = msn\n",
       "f.ini:3: [feed msn] lifecycle = msn needs keyset = ID"},
      {text + "order = desc\n", "needs keyset = ID"},
      {text + "since = param date\n", "no since, continue or page_size"},
      {text + "state_query = s.sql\n", "no state_query"},
      {text + "format = text\n", "is an XML feed"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nwindow_days = 3\n",
       "f.ini:3: [feed y] window_days, retention_days and guid_prefix need lifecycle = msn"},
      {text + "lifecycle = forever\n", "key 'lifecycle' repeats"},
      {"[database]\nname=x\n[feed y]\ntemplate = t\nquery = q\nkeyset = id\nlifecycle = forever\n",
       "f.ini:7: lifecycle must be none or msn"},
  };
  for (const Case& c : cases) {
    std::string msg = ErrorOf(c.text);
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.text << "\n  gave: " << msg;
  }
}

TEST(Config, MissingFileIsAConfigError) {
  try {
    LoadConfig("/nonexistent/feed.ini");
    FAIL();
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/feed.ini"), std::string::npos);
  }
}

// Replicas (issue #13): in the file's order, each key it lacks taken from
// [database] but where to connect; replica_* only in [database].
TEST(Config, ReplicasTakeWhatTheyLackFromTheDatabaseSection) {
  const std::string feed = "[feed y]\ntemplate = t\nquery = q\nkeyset = id\n";
  Config none = ParseConfig("[database]\nname = x\n" + feed, "f.ini", "/etc/feed");
  EXPECT_TRUE(none.replicas.empty());
  EXPECT_EQ(none.database.replica_wait, 5);
  EXPECT_EQ(none.database.replica_check, 5);

  const std::string text =
      "[database replica west]\nsocket = /run/west.sock\nread_timeout = 7\n"
      "[database]\nhost = primary.lan\nport = 3307\nuser = feed\npassword = pw\nname = board\ncharset = cp1251\n"
      "replica_wait = 2\nreplica_check = 3\n"
      "[database replica east-2]\nhost = east.lan\nuser = reader\n" + feed;
  Config c = ParseConfig(text, "f.ini", "/etc/feed");
  EXPECT_EQ(c.database.replica_wait, 2);
  EXPECT_EQ(c.database.replica_check, 3);
  ASSERT_EQ(c.replicas.size(), 2u);
  const DatabaseConfig& west = c.replicas[0].database;
  EXPECT_EQ(c.replicas[0].name, "west");
  EXPECT_EQ(west.socket, "/run/west.sock");
  EXPECT_EQ(west.host, "");
  EXPECT_EQ(west.port, 3306);  // the primary's port is not the replica's
  EXPECT_EQ(west.user, "feed");
  EXPECT_EQ(west.password, "pw");
  EXPECT_EQ(west.name, "board");
  EXPECT_EQ(west.charset, "cp1251");
  EXPECT_EQ(west.read_timeout, 7);
  EXPECT_EQ(west.connect_timeout, 3);  // the default, as the primary's
  const DatabaseConfig& east = c.replicas[1].database;
  EXPECT_EQ(c.replicas[1].name, "east-2");
  EXPECT_EQ(east.host, "east.lan");
  EXPECT_EQ(east.socket, "");
  EXPECT_EQ(east.user, "reader");
  EXPECT_EQ(east.password, "pw");

  // The environment: FEED_DB_* reach what a replica takes from [database];
  // FEED_DB_REPLICA_<NAME>_* its own keys.
  ConfigEnvironment env{{{"FEED_DB_NAME", "other"},
                         {"FEED_DB_REPLICA_EAST_2_HOST", "10.0.0.9"},
                         {"FEED_DB_REPLICA_EAST_2_PORT", "3310"},
                         {"FEED_DB_REPLICA_WEST_SOCKET", "/run/w2.sock"}}};
  Config e = ParseConfig(text, "f.ini", "/etc/feed", env);
  EXPECT_EQ(e.replicas[0].database.socket, "/run/w2.sock");
  EXPECT_EQ(e.replicas[0].database.name, "other");
  EXPECT_EQ(e.replicas[1].database.host, "10.0.0.9");
  EXPECT_EQ(e.replicas[1].database.port, 3310);
  EXPECT_EQ(e.database.host, "primary.lan");
  env.vars["FEED_DB_REPLICA_EAST_2_PORT"] = "0";
  EXPECT_NE(ErrorOf(text, env).find("FEED_DB_REPLICA_EAST_2_PORT"), std::string::npos);
}

TEST(Config, BadReplicaSectionsAreRefusedWithTheirLine) {
  const std::string feed = "[feed y]\ntemplate = t\nquery = q\nkeyset = id\n";
  struct Case {
    std::string text, expect;
  } cases[] = {
      {"[database]\nname = x\n[database replica r1]\nuser = u\n" + feed, "f.ini:3: [database replica r1] needs host or socket"},
      {"[database]\nname = x\n[database replica r1]\nhost = h\nreplica_wait = 3\n" + feed,
       "f.ini:5: replica_wait belongs in [database]"},
      {"[database]\nname = x\n[database replica r/1]\nhost = h\n" + feed, "f.ini:3: a replica name is"},
      {"[database]\nname = x\n[database replica r1]\nhost = h\ncolour = red\n" + feed,
       "f.ini:5: unknown key 'colour' in [database replica r1]"},
      {"[database]\nname = x\n[database replica r1]\nhost = h\n[database replica r1]\nhost = g\n" + feed,
       "f.ini:5: section [database replica r1] appears twice"},
      {"[database]\nname = x\nreplica_wait = 61\n" + feed, "f.ini:3: replica_wait must be"},
      {"[database]\nname = x\nreplica_check = 0\n" + feed, "f.ini:3: replica_check must be"},
      {"[database]\nname = x\nreplica_wait = 9\n[database replica r1]\nhost = h\nread_timeout = 9\n" + feed,
       "f.ini:4: [database replica r1] read_timeout (9) must be longer than [database] replica_wait (9)"},
      {"[database]\nname = x\nread_timeout = 3\n[database replica r1]\nhost = h\n" + feed,
       "f.ini:4: [database replica r1] read_timeout (3) must be longer than [database] replica_wait (5)"},
  };
  for (const Case& c : cases) {
    std::string msg = ErrorOf(c.text);
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.text << "\n  gave: " << msg;
  }
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// [database] ssl_mode, ssl_ca, ssl_cert, ssl_key and plugin_dir: valid
// values load (paths from the config's folder), every mistake is refused
// at its line.
TEST(Config, DatabaseTlsAndPluginKeys) {
  testing::TempFolder dir("config-tls-");
  for (const char* f : {"ca.pem", "client.pem", "client-key.pem"}) std::ofstream(dir.path() + "/" + f) << "x";
  std::filesystem::create_directories(dir.path() + "/plugins");
  const std::string feed = "[feed y]\ntemplate = t\nquery = q\nkeyset = id\n";
  auto load = [&](const std::string& keys) {
    return ParseConfig("[database]\nname = x\n" + keys + feed, "f.ini", dir.path());
  };
  EXPECT_EQ(load("").database.ssl_mode, SslMode::kDisabled);
  EXPECT_EQ(load("").database.plugin_dir, "");
  const struct {
    const char* value;
    SslMode mode;
  } modes[] = {{"disabled", SslMode::kDisabled},
               {"preferred", SslMode::kPreferred},
               {"required", SslMode::kRequired},
               {"verify_identity", SslMode::kVerifyIdentity}};
  for (const auto& m : modes) {
    EXPECT_EQ(load(std::string("ssl_mode = ") + m.value + "\n").database.ssl_mode, m.mode) << m.value;
  }
  const Config v = load("ssl_mode = verify_ca\nssl_ca = ca.pem\nssl_cert = client.pem\nssl_key = " + dir.path() +
                        "/client-key.pem\nplugin_dir = plugins\n");
  EXPECT_EQ(v.database.ssl_mode, SslMode::kVerifyCa);
  EXPECT_EQ(v.database.ssl_ca, dir.path() + "/ca.pem");
  EXPECT_EQ(v.database.ssl_cert, dir.path() + "/client.pem");
  EXPECT_EQ(v.database.ssl_key, dir.path() + "/client-key.pem");
  EXPECT_EQ(v.database.plugin_dir, dir.path() + "/plugins");
  EXPECT_EQ(load("ssl_mode = verify_identity\nssl_ca = ca.pem\n").database.ssl_ca, dir.path() + "/ca.pem");

  auto error = [&](const std::string& keys) {
    try {
      load(keys);
    } catch (const FeedError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kConfig);
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const struct {
    std::string keys;
    std::string expect;
  } bad[] = {
      {"ssl_mode = VERIFY_CA\n",
       "f.ini:3: ssl_mode must be disabled, preferred, required, verify_ca or verify_identity, not 'VERIFY_CA'"},
      {"ssl_mode = on\n", "f.ini:3: ssl_mode must be disabled, preferred"},
      {"ssl_mode = verify_ca\n", "f.ini:1: [database] ssl_mode = verify_ca needs ssl_ca = FILE"},
      {"ssl_mode = required\nssl_ca = ca.pem\n",
       "f.ini:1: [database] ssl_ca is for ssl_mode = verify_ca or verify_identity (ssl_mode is required)"},
      {"ssl_ca = ca.pem\n", "(ssl_mode is disabled)"},
      {"ssl_mode = verify_ca\nssl_ca = missing.pem\n", "f.ini:4: ssl_ca: cannot read " + dir.path() + "/missing.pem"},
      {"ssl_mode = verify_ca\nssl_ca =\n", "f.ini:4: ssl_ca is empty"},
      {"ssl_mode = required\nssl_cert = client.pem\n", "f.ini:1: [database] ssl_cert and ssl_key go together"},
      {"ssl_cert = client.pem\nssl_key = client-key.pem\n", "ssl_cert and ssl_key need ssl_mode other than disabled"},
      {"plugin_dir = nowhere\n", "f.ini:3: plugin_dir: no folder " + dir.path() + "/nowhere"},
      {"plugin_dir = ca.pem\n", "f.ini:3: plugin_dir: no folder"},
  };
  for (const auto& b : bad) {
    const std::string msg = error(b.keys);
    EXPECT_NE(msg.find(b.expect), std::string::npos) << b.keys << "\n  gave: " << msg;
  }
  // A replica takes them from [database] and may set its own.
  const Config r = ParseConfig("[database]\nname = x\nssl_mode = required\n[database replica r1]\nhost = h\n"
                               "[database replica r2]\nhost = g\nssl_mode = verify_ca\nssl_ca = ca.pem\n" + feed,
                               "f.ini", dir.path());
  ASSERT_EQ(r.replicas.size(), 2u);
  EXPECT_EQ(r.replicas[0].database.ssl_mode, SslMode::kRequired);
  EXPECT_EQ(r.replicas[1].database.ssl_mode, SslMode::kVerifyCa);
  EXPECT_EQ(r.replicas[1].database.ssl_ca, dir.path() + "/ca.pem");
}

}  // namespace
}  // namespace feed
