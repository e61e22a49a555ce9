// What a feed kind's Serve throws for a request it refuses, checked to
// have sent nothing (the caller then answers 4xx/503 cleanly): the unit
// tests of document and msn_feed share it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "error.h"
#include "http.h"
#include "output.h"
#include "run_report.h"

namespace feed::testing {

// Calls serve(req, resp, report) and returns what it threw; a failure of
// the test when it served, or when it threw after starting the response.
template <typename Serve>
FeedError Refusal(const Request& req, Serve&& serve) {
  StringSink out;
  Response resp(out, true, false);
  FeedReport report;
  try {
    serve(req, resp, &report);
  } catch (const FeedError& e) {
    EXPECT_FALSE(resp.started());
    EXPECT_EQ(out.data, "");
    return e;
  }
  ADD_FAILURE() << "served " << req.path_info << "?" << req.query_string;
  return InternalError("served");
}

}  // namespace feed::testing
