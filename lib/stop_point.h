// Points where a test has the program killed (issue #22: "the program killed
// at any moment"). Each stage of a static write, an MSN sync and a live
// response calls StopPoint with its name; when the environment variable
// FEED_STOP_AT names that point, the process sends itself SIGKILL there, as
// a host's OOM killer or a reboot would. Otherwise a call costs a getenv and
// a compare.
//
//   FEED_STOP_AT=NAME         the first time NAME is reached
//   FEED_STOP_AT=NAME:N       when NAME is reached with ordinal N (the
//                             caller's count: the N-th part, the N-th batch)
//   FEED_STOP_AT=NAME[:N]@FILE  as above, only if FILE can be removed then:
//                             one process of many, once (every FastCGI
//                             process of a web server gets the same
//                             environment; a test arms the point by creating
//                             FILE, and the processes started after the kill
//                             run on untouched)
//
// The points:
//   write.part      a static write has written part N (of any section) in
//                   DIR.new-PID, not yet the index
//   write.swap      every file of the new set is written and on disk, the
//                   set not yet swapped in
//   write.swapped   the new set is in DIR, the old one still in DIR.new-PID
//   sync.batch      an MSN sync (the command's or a fetch's) has written its
//                   N-th batch of item changes (one statement each, applied
//                   by the server whole or not at all)
//   sync.merged     every change of the sync is written, the moment of the
//                   sync not yet recorded
//   spool.file      a live body has spilled to its file in spool_dir and a
//                   chunk is written there, the body not yet whole
//   handoff.named   hand_off = x-sendfile: the whole body is in spool_dir,
//                   the X-Sendfile head not yet sent
//   handoff.moved   hand_off = redirect: the whole body is in redirect_dir
//                   under its name, the 302 not yet sent
//   send.body       the program sends a spooled body itself and has sent a
//                   part of it (the head and at least one chunk)
//   send.done       a robot's feed (since = robot) is sent whole, its visit
//                   not yet recorded
//   ahead.made      a page made ahead (page_ahead) is whole in spool_dir, not
//                   yet named as made
#pragma once

namespace feed {

// Kills the process (SIGKILL) when FEED_STOP_AT names this point (`name`,
// with ordinal `n` when it gives one); returns otherwise.
void StopPoint(const char* name, long n = 1);

}  // namespace feed
