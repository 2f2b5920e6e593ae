#define _GNU_SOURCE
#include "CommandWait.h"

#include <errno.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

int command_wait_pidfd_open(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
  // Close-on-exec is the kernel's default for a pidfd; no flag is needed.
  return (int)syscall(SYS_pidfd_open, pid, 0);
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}
