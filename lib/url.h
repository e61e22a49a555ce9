// URLs for the sitemap feeds (FEEDS.md "Sitemaps"; sitemaps.org; RFC 3986
// and RFC 3987 section 3.1): a `loc` is an absolute URL, characters outside
// ASCII are percent-encoded as UTF-8, and it is at most 2,048 characters
// once encoded. Text comes straight from the database: possibly invalid
// UTF-8, with the spaces and control characters legacy data holds.
//
// An internationalised host is not converted to punycode: a non-ASCII host
// is percent-encoded like the rest, which RFC 3986's reg-name allows.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace feed {

// Appends `text` (UTF-8 from the database, possibly invalid) to `out` as an
// RFC 3986 URI reference. In order:
//  - leading and trailing whitespace (space, tab, CR, LF) is trimmed;
//  - invalid UTF-8 bytes (as DecodeUtf8 in xml_text.h judges them: stray
//    continuations, overlong forms, surrogates, past U+10FFFF, truncated)
//    and control characters (U+0000-U+001F, U+007F DEL, and the C1 range
//    U+0080-U+009F) are dropped, as every feed drops them;
//  - of the characters that remain, unreserved (A-Z a-z 0-9 - . _ ~),
//    gen-delims (: / ? # [ ] @) and sub-delims (! $ & ' ( ) * + , ; =) are
//    kept as they are;
//  - '%' followed by two hex digits is kept (already encoded; the hex is
//    upper-cased), any other '%' becomes %25;
//  - every other byte of a character (space, " < > \ ^ ` { | }, and all of
//    U+00A0 and above) becomes %XX, upper-case hex, of its UTF-8 bytes.
// So U+0001 then " x" keeps its space (as %20: trimming comes first), and
// "%4", U+0001, "1" gives "%41" (a dropped character was never there). The
// result is printable ASCII without space, and encoding it again gives it
// back unchanged. XML escaping of '&' is not done here (the document's
// encoder does it once).
void AppendUriEncoded(std::string& out, std::string_view text);

// The length AppendUriEncoded would append, without building it.
size_t UriEncodedLength(std::string_view text);

// `text` as one name or value of a query string: every byte but the
// unreserved ones (letters, digits, '-', '_', '.', '~') as %XX, upper-case
// hex, '%' itself included. `render`'s NAME=VALUE arguments are joined
// with '&' this way, so that a value holding '&', '=' or '+' stays whole.
std::string QueryComponentEncoded(std::string_view text);

// True when `text`, once encoded, is an absolute http:// or https:// URL
// (scheme case-insensitive) with a non-empty host and at most `max_chars`
// characters (2048 for sitemaps: the sitemaps.org schema's maxLength).
// The authority (between "//" and the first / ? # or the end) is
// [userinfo@]host[:port]: the host is a bracketed IP literal ("[::1]") or a
// name without brackets, and the port, when there is one, is digits.
bool IsAbsoluteHttpUrl(std::string_view text, size_t max_chars = 2048);

}  // namespace feed
