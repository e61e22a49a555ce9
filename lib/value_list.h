// Repeated values kept in one column ("规范化, 教育,讲义", "a;b;;c"): the
// pieces a template's feed:split element repeats over.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace feed {

// The separators feed:split uses when the template names none: the ASCII
// comma, the full-width comma and semicolon and the ideographic
// enumeration comma (，；、). Not the ASCII semicolon: legacy text holds
// entities ("&amp;") that the plain filter decodes later.
inline constexpr std::string_view kDefaultListSeparators = ",\xEF\xBC\x8C\xEF\xBC\x9B\xE3\x80\x81";

// True when `seps` is a usable separator set: 1 to 16 characters of valid
// UTF-8, none of them a space or control character (pieces are trimmed of
// those anyway).
bool IsListSeparatorSet(std::string_view seps);

// Splits `value` at every character of `seps` (UTF-8 code points; bytes of
// `value` that are not valid UTF-8 are kept as they are, never taken for a
// separator), trims each piece of ASCII white space, U+00A0 and U+3000
// (the ideographic space), and drops the empty ones. The pieces view
// `value`, in its order.
std::vector<std::string_view> SplitList(std::string_view value, std::string_view seps);

}  // namespace feed
