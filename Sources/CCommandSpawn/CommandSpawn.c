#define _GNU_SOURCE
#include "CCommandSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int command_spawn_pipe(int fds[2]) {
#if defined(__linux__)
  return pipe2(fds, O_CLOEXEC);
#else
  // No pipe2: set the flag at once. A spawn on another thread in between could inherit the ends.
  if (pipe(fds) != 0) return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return 0;
#endif
}

int command_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}
