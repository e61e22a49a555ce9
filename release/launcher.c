/* feed.fcgi of the release: a small static program that starts the real
 * one (feed-files/lib/feed) with the dynamic loader and libraries the
 * release carries, so that nothing is taken from the host but the kernel
 * (any x86_64 Linux 3.2 or later, whatever its C library and packages).
 *
 * It finds its own folder (/proc/self/exe, else argv[0]: mod_cgi passes
 * the script's name and starts it in its folder; in a chroot without /proc
 * argv[0] is the path it was started by), sets
 *   FEED_HOME           its folder: the program looks for feed.ini there
 *   MARIADB_PLUGIN_DIR  the database client's authentication plugins
 *   GCONV_PATH          the character set converters iconv loads
 *   TZDIR               the zone archive (one file for every IANA zone)
 * removes LD_PRELOAD and LD_LIBRARY_PATH (the host's libraries must not
 * mix with the release's), and replaces itself with
 *   feed-files/lib/ld-linux-x86-64.so.2 --library-path feed-files/lib
 *       --argv0 ARGV0 feed-files/lib/feed ARGS...
 * The process keeps its pid, its standard streams and the FastCGI socket
 * on descriptor 0. On failure it says why on stderr and exits 127. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char *what, const char *path) {
  fprintf(stderr, "feed.fcgi: %s %s: %s\n", what, path, strerror(errno));
  _exit(127);
}

/* The folder of this program, without a trailing '/', into dir. */
static void own_folder(const char *argv0, char *dir, size_t size) {
  char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n > 0 && path[0] == '/') {
    path[n] = '\0';
  } else if (argv0 && argv0[0] == '/') {
    snprintf(path, sizeof path, "%s", argv0);
  } else if (argv0 && argv0[0]) {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) die("cannot tell the working folder", "");
    snprintf(path, sizeof path, "%s/%s", cwd, argv0);
  } else {
    errno = ENOENT;
    die("cannot tell where it is", "");
  }
  char *slash = strrchr(path, '/');
  if (slash == path) slash[1] = '\0';
  else *slash = '\0';
  snprintf(dir, size, "%s", path);
}

int main(int argc, char **argv) {
  char dir[PATH_MAX], lib[PATH_MAX + 32], loader[PATH_MAX + 64], program[PATH_MAX + 64], buf[PATH_MAX + 64];
  own_folder(argc > 0 ? argv[0] : NULL, dir, sizeof dir);
  const char *sep = strcmp(dir, "/") == 0 ? "" : "/";
  snprintf(lib, sizeof lib, "%s%sfeed-files/lib", dir, sep);
  snprintf(loader, sizeof loader, "%s/ld-linux-x86-64.so.2", lib);
  snprintf(program, sizeof program, "%s/feed", lib);

  setenv("FEED_HOME", dir, 1);
  snprintf(buf, sizeof buf, "%s/plugin", lib);
  setenv("MARIADB_PLUGIN_DIR", buf, 1);
  snprintf(buf, sizeof buf, "%s/gconv", lib);
  setenv("GCONV_PATH", buf, 1);
  snprintf(buf, sizeof buf, "%s/zones", lib);
  setenv("TZDIR", buf, 1);
  unsetenv("LD_PRELOAD");
  unsetenv("LD_LIBRARY_PATH");

  char **args = calloc((size_t)argc + 8, sizeof *args);
  if (!args) die("out of memory", "");
  int n = 0;
  args[n++] = loader;
  args[n++] = "--library-path";
  args[n++] = lib;
  args[n++] = "--argv0";
  args[n++] = argc > 0 ? argv[0] : program;
  args[n++] = program;
  for (int i = 1; i < argc; ++i) args[n++] = argv[i];
  args[n] = NULL;
  execv(loader, args);
  die("cannot start", loader);
  return 127;
}
