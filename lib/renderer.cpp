#include "renderer.h"

#include "children.h"
#include "error.h"

namespace feed {
namespace {

constexpr size_t kFlushBytes = 64 * 1024;
constexpr size_t kMaxReportedItems = 1000;

std::string Describe(const RowRejection& why) {
  return (why.item.empty() ? "" : "item " + why.item + ": ") +
         (why.field.empty() ? "" : why.field + "='" + why.value + "' ") + "breaks " + why.rule;
}

}  // namespace

void RenderReport::Skip(std::string what) {
  ++skipped;
  if (skipped_items.size() < kMaxReportedItems) skipped_items.push_back(std::move(what));
}

DocumentRenderer::DocumentRenderer(const Template& tmpl, KeysetRows& rows, Limits limits, int lastmod_column,
                                   std::function<std::string(const Position&)> unfit)
    : tmpl_(tmpl), rows_(rows), limits_(limits), lastmod_column_(lastmod_column), unfit_(std::move(unfit)) {}

bool DocumentRenderer::Pull() {
  if (have_row_) return true;
  if (done_) return false;
  have_row_ = rows_.Next();
  done_ = !have_row_;
  return have_row_;
}

RenderReport DocumentRenderer::Segment(Sink& out, DocumentValues doc,
                                       const std::function<void(const RenderReport&, DocumentValues*)>& before_tail) {
  RenderReport report;
  std::string buf;
  buf.reserve(kFlushBytes + 64 * 1024);
  tmpl_.RenderHead(buf, doc);
  size_t tail_reserve = 0;
  if (limits_.bytes) {
    // The tail as it will be written when no row follows: a set's parts
    // carry no continuation, so this is its exact size.
    std::string tail;
    tmpl_.RenderTail(tail, doc);
    tail_reserve = tail.size();
    if (buf.size() + tail_reserve > limits_.bytes) {
      throw ConfigError(tmpl_.file() + ": max_bytes " + std::to_string(limits_.bytes) +
                        " cannot hold even the document's head and tail");
    }
  }
  size_t flushed = 0;
  size_t taken = 0;
  RowRejection why;
  std::vector<RowRejection> dropped;
  while (Pull()) {
    if (limits_.rows && taken >= limits_.rows) {
      report.more = true;
      break;
    }
    const Rows& row = rows_.row();
    const Position& pos = rows_.position();
    if (unfit_) {
      if (std::string reason = unfit_(pos); !reason.empty()) {
        have_row_ = false;
        ++taken;
        report.Skip("position " + Keyset::Format(pos) + ": " + reason);
        continue;
      }
    }
    const size_t mark = buf.size();
    dropped.clear();
    if (!tmpl_.RenderRow(buf, row, rows_.children(), &why, &dropped)) {
      have_row_ = false;
      ++taken;
      report.has_last = true;
      report.last = pos;
      // A row whose key is empty (NULL) is named by its keyset position.
      if (why.item.empty()) why.item = "at " + Keyset::Format(pos);
      report.Skip(Describe(why));
      continue;
    }
    if (limits_.bytes && flushed + buf.size() + tail_reserve > limits_.bytes) {
      const size_t size = buf.size() - mark;
      buf.resize(mark);
      if (report.rows > 0) {  // the row opens the next document instead
        report.more = true;
        break;
      }
      // Alone in its document and still too big: no document can hold it.
      have_row_ = false;
      ++taken;
      report.has_last = true;
      report.last = pos;
      report.Skip("item at " + Keyset::Format(pos) + ": the row alone is " + std::to_string(size) +
                  " bytes, more than the document's max_bytes");
      continue;
    }
    have_row_ = false;
    ++taken;
    ++report.rows;
    for (const RowRejection& d : dropped) {
      size_t& n = d.note ? report.noted : report.dropped;
      std::vector<std::string>& items = d.note ? report.noted_items : report.dropped_items;
      ++n;
      if (items.size() < kMaxReportedItems) items.push_back(Describe(d));
    }
    report.has_last = true;
    report.last = pos;
    if (lastmod_column_ >= 0) {
      std::string_view m = row.Get(static_cast<size_t>(lastmod_column_));
      if (m > report.newest) report.newest.assign(m);
    }
    if (buf.size() >= kFlushBytes) {
      out.Write(buf);
      flushed += buf.size();
      buf.clear();
    }
  }
  doc.empty = report.rows == 0;
  if (before_tail) before_tail(report, &doc);
  tmpl_.RenderTail(buf, doc);
  out.Write(buf);
  report.bytes = flushed + buf.size();
  return report;
}

}  // namespace feed
