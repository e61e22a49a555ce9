#include "http_client.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <sstream>

#include "test_env.h"

namespace feed::testing {

HttpReply Http(const std::string& method, const std::string& target, const std::vector<std::string>& headers) {
  std::string url = Env("FEED_TEST_URL");  // http://127.0.0.1:PORT/cgi-bin/feed.fcgi
  size_t host_at = url.find("//") + 2;
  size_t path_at = url.find('/', host_at);
  std::string hostport = url.substr(host_at, path_at - host_at);
  int port = std::stoi(hostport.substr(hostport.find(':') + 1));
  std::string path = url.substr(path_at) + target;

  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  HttpReply r;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    ADD_FAILURE() << "cannot connect to " << url;
    return r;
  }
  std::string req = method + " " + path + " HTTP/1.0\r\nHost: " + hostport + "\r\n";
  for (const std::string& h : headers) req += h + "\r\n";
  req += "\r\n";
  for (size_t sent = 0; sent < req.size();) {
    ssize_t n = send(fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  std::string raw;
  char buf[65536];
  ssize_t n;
  while ((n = recv(fd, buf, sizeof buf, 0)) > 0) raw.append(buf, static_cast<size_t>(n));
  close(fd);
  size_t end = raw.find("\r\n\r\n");
  if (end == std::string::npos) {
    ADD_FAILURE() << "no HTTP head in: " << raw.substr(0, 200);
    return r;
  }
  std::istringstream head(raw.substr(0, end));
  std::string line;
  std::getline(head, line);
  r.status = std::stoi(line.substr(9, 3));
  while (std::getline(head, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[name] = line.substr(colon + 2);
  }
  r.body = raw.substr(end + 4);
  return r;
}

}  // namespace feed::testing
