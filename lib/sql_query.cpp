#include "sql_query.h"

#include <algorithm>

#include "ascii.h"
#include "config.h"
#include "error.h"

namespace feed {
namespace {

bool IsNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9'); }

}  // namespace

std::string SqlQuery::Where(std::string_view server_message) const {
  const size_t at = server_message.rfind("at line ");
  if (at != std::string_view::npos) {
    int n = 0;
    size_t i = at + 8;
    while (i < server_message.size() && i < at + 15 && server_message[i] >= '0' && server_message[i] <= '9') {
      n = n * 10 + (server_message[i++] - '0');
    }
    if (i > at + 8 && n > 0) return file + ":" + std::to_string(first_line + n - 1) + ": ";
  }
  // A message that names a word of the statement: "Illegal mix of
  // collations (...) and (...) for operation 'like'", "Table 'board.ads'
  // doesn't exist", "Unknown column 'l.titel' in 'field list'".
  for (std::string_view lead : {"for operation '", "Table '", "Unknown column '"}) {
    const size_t at = server_message.find(lead);
    if (at == std::string_view::npos) continue;
    const size_t from = at + lead.size(), to = server_message.find('\'', from);
    if (to == std::string_view::npos) continue;
    std::string_view word = server_message.substr(from, to - from);
    if (const size_t dot = word.rfind('.'); dot != std::string_view::npos) word.remove_prefix(dot + 1);
    const int line = LineOfWord(word);
    if (line > 0) return file + ":" + std::to_string(line) + ": ";
  }
  return file + ": ";
}

int SqlQuery::LineOfWord(std::string_view word, std::string_view after) const {
  if (word.empty() || !std::all_of(word.begin(), word.end(), IsNameChar)) return 0;
  int line = 1;
  std::string_view previous;  // the word before, with nothing but spaces and quotes between
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (c == '\'' || c == '"') {  // a literal (comments are already gone from text)
      previous = {};
      for (++i; i < text.size(); ++i) {
        if (text[i] == '\n') ++line;
        if (text[i] == '\\') {
          if (i + 1 < text.size() && text[i + 1] == '\n') ++line;
          ++i;
        } else if (text[i] == c) {
          break;
        }
      }
      ++i;
      continue;
    }
    if (IsNameChar(c)) {
      size_t j = i;
      while (j < text.size() && IsNameChar(text[j])) ++j;
      const std::string_view here = std::string_view(text).substr(i, j - i);
      if (EqualsNoCase(here, word) && (after.empty() || EqualsNoCase(previous, after))) return line;
      previous = here;
      i = j;
      continue;
    }
    if (!IsAsciiSpace(c) && c != '`') previous = {};
    ++i;
  }
  return 0;
}

int SqlQuery::LineOf(std::string_view name) const {
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i] == name) {
      return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offsets[i]), '\n'));
    }
  }
  return first_line;
}

bool SqlQuery::Uses(std::string_view name) const {
  return std::find(params.begin(), params.end(), name) != params.end();
}

SqlQuery ParseSqlQuery(std::string_view sql, const std::string& file) {
  SqlQuery q;
  q.file = file;
  q.text.reserve(sql.size());
  int line = 1;
  auto fail = [&](const std::string& what) { return ConfigError(file + ":" + std::to_string(line) + ": " + what); };
  size_t i = 0, n = sql.size();
  bool ended = false;  // saw the terminating ';'
  while (i < n) {
    char c = sql[i];
    if (c == '\n') ++line;
    if (ended) {
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        ++i;
        continue;
      }
      if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
        while (i < n && sql[i] != '\n') ++i;
        continue;
      }
      throw fail("one statement per file: text after ';'");
    }
    if (c == '\'' || c == '"' || c == '`') {
      // A literal or quoted identifier; doubled quotes and (for strings)
      // backslash escapes stay inside.
      size_t start_line = line;
      q.text += c;
      ++i;
      bool closed = false;
      while (i < n) {
        char d = sql[i];
        if (d == '\n') ++line;
        q.text += d;
        ++i;
        if (d == '\\' && c != '`' && i < n) {
          if (sql[i] == '\n') ++line;
          q.text += sql[i++];
          continue;
        }
        if (d == c) {
          if (i < n && sql[i] == c) {
            q.text += sql[i++];
            continue;
          }
          closed = true;
          break;
        }
      }
      if (!closed) {
        line = static_cast<int>(start_line);
        throw fail(std::string("unterminated ") + (c == '`' ? "quoted identifier" : "string literal"));
      }
      continue;
    }
    if (c == '-' && i + 1 < n && sql[i + 1] == '-' &&
        (i + 2 >= n || sql[i + 2] == ' ' || sql[i + 2] == '\t' || sql[i + 2] == '\n' || sql[i + 2] == '\r')) {
      while (i < n && sql[i] != '\n') ++i;  // comment dropped; the newline stays
      continue;
    }
    if (c == '#') {
      while (i < n && sql[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      int start_line = line;
      size_t end = sql.find("*/", i + 2);
      if (end == std::string_view::npos) {
        line = start_line;
        throw fail("unterminated /* comment");
      }
      const auto breaks = std::count(sql.begin() + i, sql.begin() + end, '\n');
      line += static_cast<int>(breaks);
      // Its line breaks stay, so that a line the server names is the file's.
      q.text += breaks ? std::string(static_cast<size_t>(breaks), '\n') : std::string(" ");
      i = end + 2;
      continue;
    }
    if (c == '?') throw fail("use named parameters (:name), not '?'");
    if (c == ':' && i + 1 < n && sql[i + 1] == ':') {
      q.text += "::";
      i += 2;
      continue;
    }
    if (c == ':' && i + 1 < n && IsNameStart(sql[i + 1])) {
      size_t j = i + 1;
      while (j < n && IsNameChar(sql[j])) ++j;
      q.params.emplace_back(sql.substr(i + 1, j - i - 1));
      q.offsets.push_back(q.text.size());
      q.text += '?';
      i = j;
      continue;
    }
    if (c == ';') {
      ended = true;
      ++i;
      continue;
    }
    q.text += c;
    ++i;
  }
  const size_t first = q.text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw fail("no SQL statement");
  q.first_line = 1 + static_cast<int>(std::count(q.text.begin(), q.text.begin() + static_cast<std::ptrdiff_t>(first), '\n'));
  return q;
}

SqlQuery LoadSqlQuery(const std::string& file) { return ParseSqlQuery(ReadSiteFile(file), file); }

}  // namespace feed
