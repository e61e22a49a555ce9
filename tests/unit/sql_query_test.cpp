#include "sql_query.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "error.h"

namespace feed {
namespace {

TEST(SqlQuery, NamedParametersBecomeQuestionMarksInOrder) {
  SqlQuery q = ParseSqlQuery(
      "SELECT a, ':nope' AS s, \":nope\" AS d, `:nope` AS i, x::int -- :comment\n"
      "FROM t /* :block */ WHERE a >= :since AND (a > :after_a OR b > :after_b) # :hash\n"
      "AND c = 'it''s :x' AND e = 'back\\':y' LIMIT :limit;\n-- trailing comment\n",
      "q.sql");
  EXPECT_EQ(q.params, (std::vector<std::string>{"since", "after_a", "after_b", "limit"}));
  EXPECT_EQ(q.text.find(":since"), std::string::npos);
  EXPECT_NE(q.text.find("':nope'"), std::string::npos);
  EXPECT_NE(q.text.find("'it''s :x'"), std::string::npos);
  EXPECT_NE(q.text.find("x::int"), std::string::npos);
  EXPECT_EQ(std::count(q.text.begin(), q.text.end(), '?'), 4);
  EXPECT_TRUE(q.Uses("after_b"));
  EXPECT_FALSE(q.Uses("x"));
}

TEST(SqlQuery, RefusesWhatWouldBreakBinding) {
  struct Case {
    const char* sql;
    const char* expect;
  } cases[] = {
      {"SELECT 1 WHERE a = ?", "q.sql:1: use named parameters"},
      {"SELECT 1;\nSELECT 2", "q.sql:2: one statement per file"},
      {"SELECT\n'abc", "q.sql:2: unterminated string literal"},
      {"SELECT `abc", "unterminated quoted identifier"},
      {"SELECT 1 /* open", "unterminated /* comment"},
      {"  \n -- only a comment\n", "no SQL statement"},
      {"", "no SQL statement"},
  };
  for (const auto& c : cases) {
    try {
      ParseSqlQuery(c.sql, "q.sql");
      ADD_FAILURE() << "accepted: " << c.sql;
    } catch (const FeedError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kConfig);
      EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// The server counts a message's lines from the statement's first word; the
// file's line is that plus the lines before it (comments' included).
TEST(SqlQuery, LinesAreTheFilesOwn) {
  const SqlQuery q = ParseSqlQuery("-- a header\n-- of comments\n/* and a\n block */ SELECT id\n  FROM t\n WHERE x > :x\n", "f.sql");
  EXPECT_EQ(q.first_line, 4);
  EXPECT_EQ(q.LineOf("x"), 6);
  EXPECT_EQ(q.LineOf("y"), 4);
  EXPECT_EQ(q.Where("You have an error in your SQL syntax; ... near 'FORM t' at line 2"), "f.sql:5: ");
  EXPECT_EQ(q.Where("Illegal mix of collations"), "f.sql: ");
  EXPECT_EQ(ParseSqlQuery("SELECT 1", "g.sql").first_line, 1);
}

// A collation clash names the operation, not a line: the line is the
// first place its word stands in the file, outside comments and literals.
TEST(SqlQuery, AnOperationsLineIsWhereItsWordStands) {
  const SqlQuery q = ParseSqlQuery(
      "-- like the old feed: only LIKE-matched towns\n"
      "SELECT title AS title, 'likely' AS `like_not`, \"a\\\" LIKE\" AS t2\n"
      "  FROM ads /* LIKE */\n"
      " WHERE town Like '%Москва%'\n"
      "   AND title LIKE :t\n",
      "f.sql");
  EXPECT_EQ(q.LineOfWord("like"), 4);
  EXPECT_EQ(q.LineOfWord("LIKE"), 4);
  EXPECT_EQ(q.LineOfWord("title"), 2);
  EXPECT_EQ(q.LineOfWord("from"), 3);
  EXPECT_EQ(q.LineOfWord("tit"), 0);
  EXPECT_EQ(q.LineOfWord("concat"), 0);
  EXPECT_EQ(q.LineOfWord("="), 0);
  // A column's label: the word after AS.
  const SqlQuery labels = ParseSqlQuery("SELECT d.name,\n  d.ext AS name_ext,\n  CONCAT(d.name, '.', d.ext)\n    AS `ext`\n"
                                        "  FROM d WHERE d.ext <> 'as ext'\n",
                                        "g.sql");
  EXPECT_EQ(labels.LineOfWord("ext"), 2);
  EXPECT_EQ(labels.LineOfWord("ext", "as"), 4);
  EXPECT_EQ(labels.LineOfWord("name", "AS"), 0);
  EXPECT_EQ(q.Where("Illegal mix of collations (utf8mb4_general_ci,IMPLICIT) and (cp1251_general_ci,EXPLICIT) for "
                    "operation 'like'"),
            "f.sql:4: ");
  EXPECT_EQ(q.Where("Illegal mix of collations (a,IMPLICIT) and (b,IMPLICIT) for operation '='"), "f.sql: ");
  EXPECT_EQ(q.Where("Illegal mix of collations for operation 'concat'"), "f.sql: ");
  // A missing table or column is at the line where its name stands.
  EXPECT_EQ(q.Where("Table 'board.ads' doesn't exist"), "f.sql:3: ");
  EXPECT_EQ(q.Where("Unknown column 'town' in 'where clause'"), "f.sql:4: ");
  EXPECT_EQ(q.Where("Unknown column 'l.title' in 'field list'"), "f.sql:2: ");
  EXPECT_EQ(q.Where("Unknown column 'nowhere' in 'field list'"), "f.sql: ");
}

}  // namespace
}  // namespace feed

