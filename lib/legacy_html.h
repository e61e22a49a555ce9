// Legacy board text to plain text. Users typed HTML into the board for
// years: tags (<b>, <br>, <br />, <script>alert(1)</script>), entities
// (&quot; &amp; &#8470; &#x1F600; &#128512;), stray control characters and
// padding whitespace. Plain-text feed fields get that decoded and stripped
// exactly once, so that escaping for XML afterwards happens exactly once too
// (no &amp;quot; in a feed).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace feed {

// Converts legacy HTML (UTF-8; invalid bytes are dropped) to plain UTF-8
// text:
//  - elements whose content is not text are removed with their content:
//    script, style, noscript, iframe, object and template (case-insensitive,
//    up to the matching close tag or the end of the input);
//  - HTML comments <!-- ... --> are removed;
//  - <br>, <p>, </p>, <div>, </div>, <li>, <tr> and heading tags become a
//    line break; every other tag is removed (a tag is '<' followed by a
//    letter, '/', '!' or '?' up to the next '>'; a '<' not starting a tag, as
//    in "a < b", is kept as text);
//  - character references are decoded once: the HTML named entities a board
//    meets (at least the 252 of HTML 4: &quot; &amp; &lt; &gt; &nbsp; &laquo;
//    &raquo; &mdash; &ndash; &hellip; &copy; &euro; &trade; ... and &apos;),
//    decimal &#NNN; and hex &#xHHH; (a reference to an invalid or XML-illegal
//    code point is dropped; an unknown or unterminated one is kept as typed);
//    &nbsp; becomes a plain space;
//  - control characters other than TAB and LF are dropped (CR LF and lone CR
//    become LF);
//  - runs of spaces and tabs collapse to one space, runs of blank lines to a
//    single line break, and the result is trimmed.
std::string LegacyHtmlToText(std::string_view html);
// The same, appended to `out`.
void AppendLegacyHtmlToText(std::string& out, std::string_view html);

// The same on windows-1251 text (a cp1251 connection's bytes), giving
// windows-1251 text: byte for byte LegacyHtmlToText of the text read as
// UTF-8, written back in windows-1251, with no trip through UTF-8. nullopt
// when a character reference in it stands for a character the code page
// does not have (&#128512;, &alpha;): the caller then takes the UTF-8 way,
// where the encoder writes such characters as references.
std::optional<std::string> LegacyHtmlToTextCp1251(std::string_view cp1251);
// The same, appended to `out`; false, with `out` as it was, instead of
// nullopt.
bool AppendLegacyHtmlToTextCp1251(std::string& out, std::string_view cp1251);

}  // namespace feed
