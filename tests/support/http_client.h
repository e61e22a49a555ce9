// One HTTP/1.0 exchange with the web server of the end-to-end tests, for the
// tests that read an answer whole (hostile_test.cpp keeps its own client,
// which reads as slowly or as partly as a test wants).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace feed::testing {

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

// `method` of `target` under FEED_TEST_URL (http://127.0.0.1:PORT/cgi-bin/
// feed.fcgi), with `headers` ("Name: value"), read to the end. A failure to
// connect or a reply with no HTTP head is a test failure, and status 0.
HttpReply Http(const std::string& method, const std::string& target, const std::vector<std::string>& headers = {});

}  // namespace feed::testing
