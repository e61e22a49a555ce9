// Where the engine asks what time it is. Injected, so that tests can run
// the engine's logic (run starts, robot visits, part plans) at a moment they
// choose instead of sleeping.
#pragma once

#include "datetime.h"

namespace feed {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual UnixTime Now() const = 0;
};

// The system's clock.
class SystemClock : public Clock {
 public:
  UnixTime Now() const override { return feed::Now(); }
};

// A clock that shows what the test set.
class FixedClock : public Clock {
 public:
  explicit FixedClock(UnixTime t) : t_(t) {}
  UnixTime Now() const override { return t_; }
  void Set(UnixTime t) { t_ = t; }
  void Advance(int64_t seconds) { t_ += seconds; }

 private:
  UnixTime t_;
};

}  // namespace feed
