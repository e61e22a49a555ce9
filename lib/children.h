// Rows with children: a feed's child queries (config: child.NAME = FILE)
// give each row of the feed repeated elements from other tables (a
// document's comments). Child rows are read per chunk of parents, never
// per parent: when the row source reads a chunk of parent rows, each child
// query runs once for the chunk's key range and its rows, ordered by their
// parent, are merged with the parents while they are rendered. Memory is
// one chunk of parents and the current parent's children, whatever the
// table holds; each parent carries at most `max_per_parent` rows of a
// child (the query picks which, and may use :max_per_parent to do so in
// SQL). Feed::Reader streams child rows on a second connection.
//
// A child query's contract:
//   - it returns a column `parent`: the parent's keyset value (the feed's
//     keyset is one integer field, such as the primary key);
//   - it orders its rows by `parent` (then as the items are to appear);
//   - it binds :after_FIELD and :until_FIELD (FIELD the parent's keyset
//     field) to the chunk's range (exclusive, inclusive), and may use
//     :max_per_parent, :now and :site_KEY.
// Rows for parents the chunk does not hold (a hidden document's comments)
// are skipped; rows out of order are an error (kInternal), as for parents.
#pragma once

#include <cstddef>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "database.h"
#include "keyset.h"
#include "row_source.h"

namespace feed {

// What a template sees of the current row's children: child query `child`
// (Template::Children() order) has Count(child) rows for it.
class RowChildren {
 public:
  virtual ~RowChildren() = default;
  virtual size_t Count(size_t child) const = 0;
  // Column `column` of child row `i` (< Count(child)); empty for NULL.
  virtual std::string_view Get(size_t child, size_t i, size_t column) const = 0;
};

// Reads one child query's rows for a chunk's range of parent keys.
class ChildReader {
 public:
  virtual ~ChildReader() = default;
  // The child rows of the parents in (after, until], ordered by parent.
  virtual Rows Read(int64_t after, int64_t until) = 0;
};

// A child query's rows held in memory: the unit tests' database. Rows may
// come in any order; each Read returns those whose `parent` column lies in
// the range, ordered by parent (stable: in the given order within one).
class MemoryChildren : public ChildReader {
 public:
  MemoryChildren(std::vector<Column> columns, std::vector<MemoryChunks::Row> rows);
  Rows Read(int64_t after, int64_t until) override;
  const std::vector<Column>& columns() const { return columns_; }
  size_t reads() const { return reads_; }

 private:
  std::vector<Column> columns_;
  std::vector<MemoryChunks::Row> rows_;
  size_t parent_ = 0;
  size_t reads_ = 0;
};

// One child query as a family reads it.
struct ChildSource {
  std::string name;              // as feed:each names it
  std::vector<Column> columns;   // its result columns (with `parent`)
  ChildReader* reader;           // not owned
  size_t max_per_parent = 20;    // rows kept per parent, the first in the query's order
};

// A ChunkReader for rows with children: reads a chunk of parents through
// `parents` (held, so that the chunk's last key is known), then asks each
// child query once for the chunk's range. Walking ascending, child rows are
// taken from that result as the parents come (a streamed result keeps
// arriving while the chunk is rendered): only the current parent's rows
// are held. Walking descending, a chunk's child rows are held whole and
// looked up. The parents' keyset must be one integer field.
//
// With `read_ahead`, a full chunk of parents, once held, has the next one
// read on a thread of its own (after its last key, to the same end), so
// that the server's work on the next chunk overlaps the rendering of this
// one; the next Read takes it if it asks for that chunk (or waits for it
// and reads anew). `parents` is then used by that thread between Reads:
// it must not share a connection with anything else the caller does.
class FamilyChunks : public ChunkReader, public RowChildren {
 public:
  // `children` in the order of the template's Children().
  FamilyChunks(ChunkReader& parents, const Keyset& keyset, std::vector<ChildSource> children,
               bool read_ahead = false);
  ~FamilyChunks() override;

  Rows Read(const Position& after, const Position& until, size_t limit) override;

  // Makes the children of the parent at `pos` current (the row KeysetRows
  // just returned). Parents come in keyset order, so this only moves on.
  const RowChildren* ChildrenOf(const Position& pos) override;

  size_t Count(size_t child) const override;
  std::string_view Get(size_t child, size_t i, size_t column) const override;

  // Queries run so far: parent chunks (read ahead or not) and child reads.
  size_t parent_queries() const { return parent_queries_; }
  // Chunks of parents a Read found already read ahead.
  size_t read_ahead() const { return taken_ahead_; }
  size_t child_queries() const { return child_queries_; }
  // The most child rows held at once, for the tests.
  size_t peak_child_rows() const { return peak_child_rows_; }

 private:
  struct Held {
    Rows source;                          // the chunk's child rows, read as parents come
    bool pending = false;                 // `source` has a current row not yet taken
    bool exhausted = false;               // `source` has no more rows
    int64_t pending_key = 0;
    int64_t last_key = INT64_MIN;         // order check
    std::vector<int64_t> parent;          // rows held: per row
    std::vector<std::string> cells;       // row-major, `width` a row
    size_t width = 0;
    size_t parent_column = 0;
    size_t begin = 0, end = 0;            // the current parent's rows
  };
  // A chunk of parents, held.
  struct Parents {
    std::vector<MemoryChunks::Row> rows;
    size_t width = 0;
    Position last;  // the last row's keyset (`after` when none)
  };
  Parents ReadParents(const Position& after, const Position& until, size_t limit);
  // The chunk being read ahead, and what it was asked for.
  struct Ahead {
    Position after, until;
    size_t limit;
    std::future<Parents> parents;
  };
  // Reads the next row of `h.source` into pending; false at its end.
  bool Advance(size_t child);
  void Keep(size_t child, size_t* run);  // the pending row, held (within the cap)

  ChunkReader& parents_;
  const Keyset& keyset_;
  std::vector<ChildSource> children_;
  std::vector<Held> held_;
  bool descending_;
  bool read_ahead_;
  std::optional<Ahead> ahead_;
  size_t parent_queries_ = 0, child_queries_ = 0, peak_child_rows_ = 0, taken_ahead_ = 0;
};

}  // namespace feed
