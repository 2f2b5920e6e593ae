#ifndef C_COMMAND_SPAWN_H
#define C_COMMAND_SPAWN_H

#include <spawn.h>

/// Makes a pipe whose two ends are close-on-exec from the start (pipe2 on Linux), so that no
/// program another thread starts meanwhile inherits them. Returns 0, or -1 with errno set.
int command_spawn_pipe(int fds[2]);

/// Adds "change to this folder" to the file actions (posix_spawn_file_actions_addchdir_np, a GNU
/// and Apple extension that Swift's Glibc module does not import). Returns 0 or an error number.
int command_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

#endif

#include "CommandWait.h"
