// What a feed must show for the legacy board's text, as the integration
// tests know it without asking the code under test: a table of dirty text
// (tags, entities, control characters, padding, ]]>, emoji) with the plain
// text written out by hand from the rules in lib/legacy_html.h, and text
// that is plain already (shown unchanged). The tests insert the table's
// rows themselves; the generator's own dirty rows, whose combinations are
// random, are held to what plain text must never contain.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feed::testing {

struct DirtyText {
  std::string raw;    // as typed on the board
  std::string plain;  // what a `plain` field shows
};

inline const std::vector<DirtyText>& DirtyTexts() {
  static const std::vector<DirtyText> texts = {
      {"<b>Срочно!</b> Продам велосипед.<br>Торг уместен.", "Срочно! Продам велосипед.\nТорг уместен."},
      {"Продам диван.<br />Цвет - венге.<script>alert(1)</script>", "Продам диван.\nЦвет - венге."},
      {"Ноутбук &quot;как новый&quot; &amp; сумка &#8470;2 &#128512;", "Ноутбук \"как новый\" & сумка №2 😀"},
      {"\tСдам\x01 гараж\x08\x0b  \x1f", "Сдам гараж"},
      {"  Куплю\r\nшины R15\r\n\r\n\r\nзимние \r\n", "Куплю\nшины R15\nзимние"},
      {"Текст ]]> и ещё ]]]]> 中文 😀👍 𠮷野家", "Текст ]]> и ещё ]]]]> 中文 😀👍 𠮷野家"},
      {"a < b && c > d; 5<6", "a < b && c > d; 5<6"},
      {"&laquo;Квартал&raquo; &mdash; &nbsp;агентство &unknown; &#x1F600;", "«Квартал» — агентство &unknown; 😀"},
      {"<p><b>Обов'язки:</b></p><ul><li>робота з клієнтами</li><li>ведення документації</li></ul>\n"
       "<p><b>Умови:</b></p><ul><li>графік 5/2</li></ul>",
       "Обов'язки:\nробота з клієнтами\nведення документації\nУмови:\nграфік 5/2"},
      {"&amp;quot; — не кавычка", "&quot; — не кавычка"},
      {"<SCRIPT type=\"text/javascript\">var a = '<b>';</SCRIPT>Видно <STYLE>p{}</style>всё", "Видно всё"},
      {"Комната<!-- скрытый комментарий --> в общежитии", "Комната в общежитии"},
      {"&#0;&#xD800;&#65535;ok &#1;x", "ok x"},
      {"Тел.: 050-123-45-67,&nbsp;Олег\r\nE-mail: oleg@ukr.net", "Тел.: 050-123-45-67, Олег\nE-mail: oleg@ukr.net"},
  };
  return texts;
}

// True when `s` is plain text already, which a `plain` field shows as it
// is: no '<' or '&', no control character but single line breaks, no
// padding at either end or around a line break, no run of spaces.
inline bool IsPlainAlready(std::string_view s) {
  if (s.empty()) return true;
  if (s.find_first_of("<&\t\r") != std::string_view::npos) return false;
  for (unsigned char c : s) {
    if ((c < 0x20 && c != '\n') || c == 0x7f) return false;
  }
  if (s.front() == ' ' || s.front() == '\n' || s.back() == ' ' || s.back() == '\n') return false;
  for (std::string_view bad : {"  ", "\n\n", " \n", "\n "}) {
    if (s.find(bad) != std::string_view::npos) return false;
  }
  return true;
}

// The plain text a field must show for `raw`, when the tests know it: from
// the table, or `raw` itself when it is plain already. nullopt for dirty
// text the table does not hold (see WhyNotPlain).
inline std::optional<std::string> KnownPlain(const std::string& raw) {
  for (const DirtyText& d : DirtyTexts()) {
    if (d.raw == raw) return d.plain;
  }
  if (IsPlainAlready(raw)) return raw;
  return std::nullopt;
}

// What plain text must never hold, whatever the input: a tag, a character
// reference the board's generator types (&quot; &amp; &#N;), a control
// character but a line break, padding, a run of spaces or blank lines.
// Returns "" when `shown` holds none of these, else what it found.
inline std::string WhyNotPlain(std::string_view shown) {
  for (size_t i = 0; i < shown.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(shown[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return "a control character";
    if (c == '<' && i + 1 < shown.size()) {
      const char n = shown[i + 1];
      if ((n >= 'a' && n <= 'z') || (n >= 'A' && n <= 'Z') || n == '/' || n == '!' || n == '?') return "a tag";
    }
  }
  for (std::string_view ref : {"&quot;", "&amp;", "&#"}) {
    if (shown.find(ref) != std::string_view::npos) return "the reference " + std::string(ref);
  }
  if (!shown.empty() && (shown.front() == ' ' || shown.front() == '\n' || shown.back() == ' ' || shown.back() == '\n'))
    return "padding";
  for (std::string_view bad : {"  ", "\n\n"}) {
    if (shown.find(bad) != std::string_view::npos) return "a run of spaces or blank lines";
  }
  return "";
}

}  // namespace feed::testing
