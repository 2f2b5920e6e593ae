#ifndef C_COMMAND_WAIT_H
#define C_COMMAND_WAIT_H

#include <sys/types.h>

/// A descriptor that becomes readable when the process `pid` exits (Linux 5.3 and later's
/// pidfd_open), for poll to wait on the child's exit and its pipes at once. Returns it, or -1
/// with errno set (ENOSYS where the system has none: the caller then polls in short slices).
int command_wait_pidfd_open(pid_t pid);

#endif
