// The rows of one keyset range, read chunk by chunk: the engine's row
// source. A ChunkReader runs one query per chunk (the database, or rows
// held in memory for unit tests); KeysetRows walks the range with it,
// checks that every row comes strictly after the one before and within the
// range, and ends at the range's end, at the source's end, or after
// `max_rows` rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "database.h"
#include "keyset.h"

namespace feed {

class RowChildren;  // children.h

class ChunkReader {
 public:
  virtual ~ChunkReader() = default;
  // At most `limit` rows strictly after `after` and not after `until`, in
  // keyset order.
  virtual Rows Read(const Position& after, const Position& until, size_t limit) = 0;
  // The child rows of the row at `pos`, just read (children.h); nullptr
  // for a reader of rows without children.
  virtual const RowChildren* ChildrenOf(const Position& /*pos*/) { return nullptr; }
};

// Rows held in memory: the unit tests' database. Each row is a list of
// column values (nullopt is NULL) in the order of `columns`; the rows may
// come in any order and are served sorted by the keyset.
class MemoryChunks : public ChunkReader {
 public:
  using Row = std::vector<std::optional<std::string>>;
  MemoryChunks(std::vector<Column> columns, std::vector<Row> rows, Keyset& keyset);
  Rows Read(const Position& after, const Position& until, size_t limit) override;
  size_t reads() const { return reads_; }
  std::vector<Row>& rows() { return rows_; }  // tests change the "table" between reads

 private:
  std::vector<Column> columns_;
  std::vector<Row> rows_;
  Keyset& keyset_;
  size_t reads_ = 0;
};

class KeysetRows {
 public:
  // The rows after `after` up to `until` (inclusive; nullopt: no end),
  // `fetch_rows` per chunk, `max_rows` at most.
  KeysetRows(ChunkReader& reader, const Keyset& keyset, Position after, std::optional<Position> until,
             size_t fetch_rows, size_t max_rows = SIZE_MAX);

  // Advances to the next row; false at the end. Throws FeedError(kInternal)
  // when the query returns a row out of keyset order, what the reader
  // throws otherwise.
  bool Next();
  // The current row and its position. REQUIRES: Next() returned true.
  const Rows& row() const { return rows_; }
  // The current row's child rows, or nullptr (a feed without child queries).
  const RowChildren* children() const { return children_; }
  const Position& position() const { return pos_; }
  const Keyset& keyset() const { return keyset_; }
  // Rows returned so far, and queries run.
  size_t taken() const { return taken_; }
  size_t chunks() const { return chunks_; }

 private:
  ChunkReader& reader_;
  const Keyset& keyset_;
  Position after_;  // the last row returned, or the range's start
  Position until_;
  bool bounded_;
  size_t fetch_rows_, max_rows_;
  Rows rows_;
  Position pos_;
  const RowChildren* children_ = nullptr;
  size_t in_chunk_ = 0, chunk_limit_ = 0;
  size_t taken_ = 0, chunks_ = 0;
  bool started_ = false, done_ = false;
};

}  // namespace feed
