// The one pipeline every feed runs: rows of a keyset range (KeysetRows)
// through a template (and its encoder) into a sink, one document at a time.
// A live response, a static file and a part of a set are the same job with
// different sinks and limits; nothing here knows about HTTP.
//
// A document is a segment of the range's rows: it ends when the rows end or
// when the next row would break a limit. Limits count rows taken from the
// source (written or left out by a template rule) and bytes of the document
// as encoded, before any compression, head and tail included. The byte
// count is exact: a row is rendered, measured against what is left (less
// the tail), and only then written, so a document never passes its limit.
// The row that did not fit stays in the source and opens the next segment.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "keyset.h"
#include "output.h"
#include "row_source.h"
#include "template.h"

namespace feed {

struct Limits {
  size_t rows = 0;   // 0: no limit
  size_t bytes = 0;  // 0: no limit
};

// What one document held, for the log, the command line's summary, the
// caller's next step (a continue token, the next part) and the index.
struct RenderReport {
  size_t rows = 0;                         // rows written
  size_t skipped = 0;                      // rows left out by a rule
  std::vector<std::string> skipped_items;  // "item 7: id='…' breaks alnum", the first 1000
  size_t bytes = 0;                        // the document's size before compression
  bool more = false;                       // rows remain after this document
  bool has_last = false;                   // a row was taken...
  Position last;                           // ...and this was its position
  std::string newest;                      // greatest value of the lastmod column among rows written
  size_t dropped = 0;                      // items of repeated elements left out by their rules, in rows written
  std::vector<std::string> dropped_items;  // "item 7: comments.body='' breaks required", the first 1000
  size_t noted = 0;                        // feed:note rules broken by rows written all the same
  std::vector<std::string> noted_items;    // "item 7: ext='odt' breaks filetype", the first 1000

  // Adds a left-out row (keeps the first 1000 descriptions).
  void Skip(std::string what);
};

class DocumentRenderer {
 public:
  // `lastmod_column`: the result column whose greatest value is reported as
  // `newest` (-1: none). `unfit`, when set, says why a row's position cannot
  // end a document ("" when it can): such a row is left out and reported,
  // and `last` never holds its position (a continue token must carry it).
  DocumentRenderer(const Template& tmpl, KeysetRows& rows, Limits limits, int lastmod_column = -1,
                   std::function<std::string(const Position&)> unfit = nullptr);

  // Writes one document to `out`: the head, every row that fits, then
  // `before_tail(report, &doc)` to settle the tail's values (a continue
  // token), then the tail. Throws FeedError(kConfig) when the head and tail
  // alone pass the byte limit; what the source and sink throw otherwise.
  RenderReport Segment(Sink& out, DocumentValues doc,
                       const std::function<void(const RenderReport&, DocumentValues*)>& before_tail = nullptr);

  // True when no row is left for another segment.
  bool done() const { return done_; }

 private:
  bool Pull();  // makes a row current; false at the end

  const Template& tmpl_;
  KeysetRows& rows_;
  Limits limits_;
  int lastmod_column_;
  std::function<std::string(const Position&)> unfit_;
  bool have_row_ = false;  // the current row was read but not yet taken
  bool done_ = false;
};

}  // namespace feed
