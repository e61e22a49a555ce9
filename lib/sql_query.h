// A feed's SQL, as the site owner writes it: one SELECT with named
// parameters (:since, :now, :limit, :after_FIELD...) that the engine binds
// by name. Connector/C++ knows only '?', so the text is rewritten once at
// start: each :name outside string literals, quoted identifiers and comments
// becomes '?', and the order of the names is kept for binding. Request text
// never enters the SQL; values are always bound.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace feed {

struct SqlQuery {
  std::string file;                 // for messages
  std::string text;                 // with '?' placeholders
  std::vector<std::string> params;  // the name of each '?', in order
  std::vector<size_t> offsets;      // where each '?' stands in `text`
  std::string charset;              // connection charset to run it under; "" = the database's
  // The file's line of the statement's first word: the server counts the
  // lines of its messages ("at line 3") from there. `text` keeps every line
  // break of the file, comments' included.
  int first_line = 1;

  // "FILE:LINE: " for a server message that names a line of the statement
  // ("... near 'FORM ads' at line 3") or a word that stands in it: an
  // operation ("Illegal mix of collations ... for operation 'like'": the
  // line of the first LIKE), a table ("Table 'board.ads' doesn't exist")
  // or a column ("Unknown column 'l.titel' in 'field list'"); else
  // "FILE: ".
  std::string Where(std::string_view server_message) const;

  // The file's line where `word` (letters, digits and '_') first stands as
  // a whole word, in any case, outside string literals and comments (and,
  // with `after`, right after the word `after`: "AS title"); 0 when it
  // does not.
  int LineOfWord(std::string_view word, std::string_view after = {}) const;

  bool Uses(std::string_view name) const;
  // The file's line where :name first stands (first_line when it does not).
  int LineOf(std::string_view name) const;
};

// Rewrites `sql`. Names are [A-Za-z_][A-Za-z0-9_]*; "::" and ':' not followed
// by a name character are left alone; a literal '?' in the SQL outside
// literals and comments is refused (it would shift the binding). An
// unterminated literal, quoted identifier or comment, a trailing ';' followed
// by more text (two statements), or an empty statement throws
// FeedError(kConfig) naming `file` and the line.
SqlQuery ParseSqlQuery(std::string_view sql, const std::string& file);

// Reads and parses a file.
SqlQuery LoadSqlQuery(const std::string& file);

}  // namespace feed
