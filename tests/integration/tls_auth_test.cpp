// Logging in the way a host's server wants (issue #21, point 5): TLS with
// [database] ssl_mode / ssl_ca against a MariaDB of the test's own (TCP on
// loopback, a CA and a server certificate made here with openssl, an
// account that REQUIRE SSL), refused with one line when TLS is not there;
// an ed25519 account, its client plugin found in libmariadb's folder, in
// [database] plugin_dir or in MARIADB_PLUGIN_DIR; the caching_sha2_password
// client plugin loads. The server is started with tests/harness/mariadb.sh
// (MARIADB_ARGS) in a folder of the suite's own and stopped at its end, so
// that the shared test server is left as it is.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>

#include "app.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::AdminSql;
using testing::Env;
using testing::Slurp;

constexpr char kClientPlugins[] = "/usr/lib/x86_64-linux-gnu/libmariadb3/plugin";

std::string dir_;  // the suite's folder: certs/, the server's harness folder db/
int port_ = 0;

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

std::string Socket() { return dir_ + "/db/run/mysqld.sock"; }
std::string Cert(const std::string& name) { return dir_ + "/certs/" + name; }

// The sample config's [feed yads], over TCP to the TLS server as `user`
// with `keys` added to [database].
std::string TcpConfig(const std::string& user, const std::string& password, const std::string& keys) {
  std::string text = Slurp(testing::WriteSampleConfig());
  const size_t from = text.find("socket = "), to = text.find("\n[site]");
  text.replace(from, to - from,
               "host = 127.0.0.1\nport = " + std::to_string(port_) + "\nuser = " + user + "\npassword = " + password +
                   "\nname = sample_test\nconnect_timeout = 5\n" + keys);
  const std::string path = dir_ + "/config-" + std::to_string(FreePort()) + ".ini";
  std::ofstream(path) << text;
  return path;
}

testing::Reply Yads(const std::string& config, std::string* log = nullptr) {
  App app(LoadConfig(config));
  app.SetLog([&](const std::string& line) {
    if (log) *log += line + "\n";
  });
  Request req;
  req.method = "GET";
  req.path_info = "/yads";
  return testing::Fetch(app, req);
}

// `feed.fcgi render /yads` in a process of its own (a client plugin, once
// loaded, stays loaded in its process), with `env` before it.
int Render(const std::string& config, const std::string& env, std::string* err) {
  const std::string out = dir_ + "/render.err";
  const int rc = testing::Shell(env + " '" + Env("FEED_TEST_BIN") + "' --config '" + config + "' render /yads -o '" +
                                dir_ + "/yads.xml' 2>'" + out + "'");
  *err = Slurp(out);
  return rc;
}

class TlsAuthIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = testing::TempDir("tls");
    port_ = FreePort();
    ASSERT_NE(port_, 0);
    // A CA, a server certificate it signs for 127.0.0.1, and a CA that
    // signed nothing here.
    const std::string c = dir_ + "/certs";
    ASSERT_EQ(testing::Shell(
                  "(set -e; chmod 755 '" + dir_ + "'; mkdir -p '" + c + "'; cd '" + c +
                  "'; openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=feed test CA' -keyout ca-key.pem "
                  "-out ca.pem; openssl req -newkey rsa:2048 -nodes -subj '/CN=127.0.0.1' -keyout server-key.pem "
                  "-out server.csr; printf 'subjectAltName=IP:127.0.0.1\\n' >san.cnf; openssl x509 -req -in "
                  "server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 -extfile san.cnf -out server.pem; "
                  "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=another CA' -keyout other-key.pem "
                  "-out other.pem; chmod 755 .; chmod 644 *.pem) >/dev/null 2>&1"),
              0);
    const std::string args = "--skip-networking=0 --bind-address=127.0.0.1 --port=" + std::to_string(port_) +
                             " --ssl-ca=" + Cert("ca.pem") + " --ssl-cert=" + Cert("server.pem") +
                             " --ssl-key=" + Cert("server-key.pem");
    ASSERT_EQ(testing::Shell("MARIADB_ARGS='" + args + "' '" + Env("FEED_TEST_ROOT") + "/tests/harness/mariadb.sh' start '" +
                             dir_ + "/db' >'" + dir_ + "/start.log' 2>&1"),
              0)
        << Slurp(dir_ + "/start.log");
    AdminSql(
        "CREATE DATABASE IF NOT EXISTS sample_test;"
        "CREATE USER 'tls'@'%' IDENTIFIED BY 'Tls-Pa55word' REQUIRE SSL;"
        "GRANT SELECT, INSERT, UPDATE, DELETE ON sample_test.* TO 'tls'@'%';"
        "INSTALL SONAME 'auth_ed25519';"
        "CREATE USER 'ed'@'%' IDENTIFIED VIA ed25519 USING PASSWORD('Ed-Pa55word');"
        "GRANT SELECT, INSERT, UPDATE, DELETE ON sample_test.* TO 'ed'@'%';",
        Socket());
    const std::string root = Env("FEED_TEST_ROOT");
    ASSERT_EQ(testing::Shell("{ cat '" + root + "/sql/sample-board.sql' '" + root + "/sql/state.sql'; python3 '" +
                             root + "/tools/gen_sample_board.py' --ads 200 --jobs 20 --seed 5; } | mariadb "
                             "--no-defaults --default-character-set=utf8mb4 --socket='" + Socket() + "' sample_test"),
              0);
  }
  static void TearDownTestSuite() {
    testing::Shell("'" + Env("FEED_TEST_ROOT") + "/tests/harness/mariadb.sh' stop '" + dir_ + "/db' >/dev/null 2>&1");
    testing::Shell("rm -rf '" + dir_ + "'");
  }
};

TEST_F(TlsAuthIntegration, VerifyCaAndVerifyIdentityConnectOverTls) {
  for (const char* mode : {"verify_ca", "verify_identity"}) {
    const std::string config = TcpConfig("tls", "Tls-Pa55word", std::string("ssl_mode = ") + mode +
                                                                     "\nssl_ca = " + Cert("ca.pem") + "\n");
    Database db(LoadConfig(config).database);
    const SqlQuery cipher = ParseSqlQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'", "(test)");
    Rows r = db.Run(cipher, {});
    ASSERT_TRUE(r.Next()) << mode;
    EXPECT_NE(r.Get(1), "") << mode << ": a TLS session has a cipher";
    testing::Reply reply = Yads(config);
    EXPECT_EQ(reply.status, 200) << mode << ": " << reply.body.substr(0, 300);
    EXPECT_NE(reply.body.find("<title>"), std::string::npos) << mode;
  }
  // required: TLS, the certificate not verified.
  EXPECT_EQ(Yads(TcpConfig("tls", "Tls-Pa55word", "ssl_mode = required\n")).status, 200);
}

// Each way of not having TLS: the robot gets the generic 503, the log one
// line that says why.
TEST_F(TlsAuthIntegration, WithoutTlsTheConnectionIsRefusedInOneLine) {
  const std::string generic = "the database is unavailable; try again later\n";
  std::string log;
  // No TLS asked for: the account REQUIRE SSL refuses it.
  testing::Reply plain = Yads(TcpConfig("tls", "Tls-Pa55word", ""), &log);
  EXPECT_EQ(plain.status, 503);
  EXPECT_EQ(plain.body, generic);
  EXPECT_NE(log.find("Access denied for user 'tls'"), std::string::npos) << log;
  // A certificate another CA signed.
  log.clear();
  testing::Reply other = Yads(TcpConfig("tls", "Tls-Pa55word", "ssl_mode = verify_ca\nssl_ca = " + Cert("other.pem") + "\n"),
                              &log);
  EXPECT_EQ(other.status, 503);
  EXPECT_EQ(other.body, generic);
  EXPECT_NE(log.find("cannot connect to the database: TLS/SSL error: "), std::string::npos) << log;
  // A server that offers no TLS (the shared test server, over its
  // socket): libmariadb would go on in plain text; the program does not.
  for (const char* mode : {"required", "verify_ca"}) {
    std::string text = Slurp(testing::WriteSampleConfig());
    text.replace(text.find("\n[site]"), 0,
                 std::string("\nssl_mode = ") + mode +
                     (std::string(mode) == "verify_ca" ? "\nssl_ca = " + Cert("ca.pem") : std::string()));
    const std::string config = dir_ + "/plain-" + mode + ".ini";
    std::ofstream(config) << text;
    log.clear();
    testing::Reply r = Yads(config, &log);
    EXPECT_EQ(r.status, 503) << mode;
    EXPECT_EQ(r.body, generic) << mode;
    EXPECT_NE(log.find(std::string("database unavailable: cannot connect to the database: the server does not offer "
                                   "TLS, and [database] ssl_mode = ") + mode + " requires it"),
              std::string::npos)
        << log;
  }
}

// An ed25519 account renders a feed; its client plugin comes from
// libmariadb's folder by default, from plugin_dir, or from
// MARIADB_PLUGIN_DIR (the release bundle's way), and a folder without it
// fails the login.
TEST_F(TlsAuthIntegration, AnEd25519AccountLogsInWithThePluginFromEachPlace) {
  const std::string empty = dir_ + "/no-plugins", own = dir_ + "/plugins";
  ASSERT_EQ(testing::Shell("mkdir -p '" + empty + "' '" + own + "' && cp '" + kClientPlugins + "/client_ed25519.so' '" +
                           own + "/'"),
            0);
  std::string err;
  const std::string config = TcpConfig("ed", "Ed-Pa55word", "");
  EXPECT_EQ(Render(config, "", &err), 0) << err;
  EXPECT_NE(err.find("/yads: "), std::string::npos) << err;
  EXPECT_NE(Slurp(dir_ + "/yads.xml").find("<title>"), std::string::npos);
  EXPECT_EQ(Render(TcpConfig("ed", "Ed-Pa55word", "plugin_dir = " + own + "\n"), "MARIADB_PLUGIN_DIR=" + empty, &err), 0)
      << "plugin_dir wins over the environment: " << err;
  EXPECT_EQ(Render(config, "MARIADB_PLUGIN_DIR=" + own, &err), 0) << err;
  EXPECT_EQ(Render(config, "MARIADB_PLUGIN_DIR=" + empty, &err), 1);
  EXPECT_NE(err.find("client_ed25519"), std::string::npos) << err;
  EXPECT_EQ(Render(TcpConfig("ed", "Ed-Pa55word", "plugin_dir = " + empty + "\n"), "", &err), 1);
  EXPECT_NE(err.find("client_ed25519"), std::string::npos) << err;
  EXPECT_EQ(Render(TcpConfig("ed", "a-wrong-password", ""), "", &err), 1);
  EXPECT_EQ(err.find("a-wrong-password"), std::string::npos) << err;
}

// No MySQL 8 server here to log in to with caching_sha2_password (MariaDB
// has no server side of it): its client plugin, as libmariadb would load
// it, opens in this process and declares itself.
TEST(ClientPlugins, CachingSha2PasswordLoads) {
  void* h = dlopen((std::string(kClientPlugins) + "/caching_sha2_password.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  // struct st_mysql_client_plugin: int type; unsigned interface_version; const char* name; ...
  struct Declaration {
    int type;
    unsigned interface_version;
    const char* name;
  };
  const auto* d = static_cast<const Declaration*>(dlsym(h, "_mysql_client_plugin_declaration_"));
  ASSERT_NE(d, nullptr) << dlerror();
  EXPECT_EQ(d->type, 2) << "MYSQL_CLIENT_AUTHENTICATION_PLUGIN";
  EXPECT_STREQ(d->name, "caching_sha2_password");
  dlclose(h);
}

}  // namespace
}  // namespace feed
