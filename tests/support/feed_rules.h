// The rules of every format the program writes, restated for the tests as
// checks of a finished document (the bytes a robot gets), independently of
// the program's own checker (lib/format_rules.h): a rule both got wrong
// would otherwise pass unseen. Parsing is libxml2's, strict (no recovery),
// so that what the robots' parsers refuse is refused here too; sitemaps are
// validated against the project's copies of the sitemaps.org schemas
// (FEED_TEST_ROOT/schemas).
//
// What each kind checks, beyond every XML document's common rules (the
// declaration first, naming the encoding the bytes are in; well-formed;
// only XML 1.0 characters):
//   kYads      windows-1251; <yml_catalog date="YYYY-MM-DD HH:MM:SS"> holding
//              <ads> and at most one <continue> after it, of 1 to 32 letters
//              and digits; each <ad> with the format's fields only, in its
//              order, title/url/id present, id at most 32 letters and digits
//              and unique, tip 1 or 2, tel/email/icq/pic 0 or 1, date
//              YYYY-MM-DD, period digits, url without its scheme.
//   kJooble    windows-1251 or UTF-8; <jobs> (no attribute but
//              hide_contacts="1"); each <job> with id its only attribute,
//              unique; link an absolute URL, name and contacts not empty,
//              region present; expire/pubdate/updated DD.MM.YYYY.
//   kSitemap, kSitemapIndex   UTF-8; valid against sitemap.xsd /
//              siteindex.xsd; at most 50,000 entries and 52,428,800 bytes;
//              every loc absolute http(s), ASCII, under 2,048 characters.
//   kText      UTF-8, one absolute http(s) URL per line and nothing else, at
//              most 50,000 lines and 10,485,760 bytes.
//   kBaidu     UTF-8; <urlset> of at most 50,000 <url>, under 10,485,760
//              bytes; loc 1 to 256 characters of http(s); lastmod
//              YYYY-MM-DD or YYYY-MM-DDThh:mm:ss; changefreq and priority
//              in range; data/display with breadcrumb, name, filetype,
//              fileSize (3 characters or more) and a downloadUrl.
//   kRss       UTF-8; <rss version="2.0"><channel> with title, link,
//              description and atom:link rel="self"; each item a guid
//              (a URL unless isPermaLink="false"), unique; link absolute;
//              pubDate RFC 822.
//   kAtom      UTF-8; an Atom <feed> with id, title, updated (RFC 3339),
//              author and link rel="self"; each entry id (unique), title,
//              updated (RFC 3339) and a link.
//   kMsn       kRss's rules, plus the dcterms and mi namespaces declared;
//              each item a dcterms:modified (RFC 3339, UTC);
//              dcterms:valid and mi:expirationDate together or neither,
//              RFC 3339 UTC.
//   kIndeed    UTF-8; <source> (publisher, publisherurl, lastBuildDate
//              RFC 822, then jobs); each <job> with title, date (ISO 8601
//              or RFC 822), referencenumber (unique), url (absolute),
//              company, city, country and description, not empty, every
//              field's text in CDATA, no character written as an entity
//              reference.
//   kCareerjet UTF-8; <jobs> of <job> with id (unique), title, url
//              (absolute), location with city, and description, not empty;
//              no attribute on <job>.
#pragma once

#include <string>
#include <vector>

namespace feed::testing {

enum class FeedKind { kYads, kJooble, kSitemap, kSitemapIndex, kText, kBaidu, kRss, kAtom, kMsn, kIndeed, kCareerjet };

const char* FeedKindName(FeedKind kind);

// The rules `bytes` (a whole document as sent, not compressed) breaks, one
// line each ("ad 17: id 'x-1' is not letters and digits"); at most 20.
// Empty: the document keeps every rule of its kind.
std::vector<std::string> FeedFaults(FeedKind kind, const std::string& bytes);

// The entries a document lists, for following a set or a dump: the <loc>s
// of a sitemap index, or the <continue> token of a Yads page ("" when none).
std::vector<std::string> IndexLocs(const std::string& bytes);
std::string YadsContinue(const std::string& bytes);

}  // namespace feed::testing
