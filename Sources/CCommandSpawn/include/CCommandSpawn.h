#ifndef C_COMMAND_SPAWN_H
#define C_COMMAND_SPAWN_H

#include <spawn.h>
#include <sys/types.h>

/// Makes a pipe whose two ends are close-on-exec from the start (pipe2 on Linux), so that no
/// program another thread starts meanwhile inherits them. Returns 0, or -1 with errno set.
int command_spawn_pipe(int fds[2]);

/// Accepts a connection on `listener` close-on-exec from the start (accept4 with SOCK_CLOEXEC
/// on Linux, which Swift's Glibc module does not import), so that no program another thread
/// starts meanwhile inherits it. Returns the descriptor, or -1 with errno set.
int command_spawn_accept(int listener);

/// Adds "change to this folder" to the file actions (posix_spawn_file_actions_addchdir_np, a GNU
/// and Apple extension that Swift's Glibc module does not import). Returns 0 or an error number.
int command_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// One step that sets up a descriptor of the child, in order: open `path` with `flags` and
/// `mode` as `fd`, or (when `path` is NULL) make `fd` a copy of `source` (dup2; the copy is
/// inherited even when `source` is close-on-exec).
struct command_spawn_descriptor {
  int fd;
  int source;
  const char *path;
  int flags;
  mode_t mode;
};

/// Starts `path` with `argv` and `envp`, its descriptors set up by `descriptors` in order, in
/// `directory` (NULL: this process's), as the leader of a new process group, with every signal
/// at its default action and none blocked.
///
/// On Linux the child is also tied to this process: the kernel kills it (SIGKILL) when this
/// process dies, however it dies, even between the fork and the exec. The kernel ties a child
/// to the *thread* that forked it, so every child is forked by one thread that lives as long as
/// the process, never by the caller's (a pool thread that ends would take the child with it).
/// Elsewhere it is posix_spawn with the same set-up.
///
/// Returns 0 and sets `*pid`, or returns an error number: the exec's when the program could not
/// be started (ENOENT, EACCES…), or the one of the set-up step that failed.
int command_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                  const struct command_spawn_descriptor *descriptors, int descriptor_count,
                  const char *directory);

#endif

#include "CommandWait.h"
