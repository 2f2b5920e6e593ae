#define _GNU_SOURCE
#include "CCommandSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#if defined(__linux__)
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#endif

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

int command_spawn_accept(int listener) {
#if defined(__linux__)
  return accept4(listener, NULL, NULL, SOCK_CLOEXEC);
#else
  // No accept4: set the flag at once. A spawn on another thread in between could inherit it.
  int client = accept(listener, NULL, NULL);
  if (client >= 0) fcntl(client, F_SETFD, FD_CLOEXEC);
  return client;
#endif
}

int command_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}

/// One spawn, as the caller asked for it and as it ended.
struct spawn_request {
  pid_t *pid;
  const char *path;
  char *const *argv;
  char *const *envp;
  const struct command_spawn_descriptor *descriptors;
  int descriptor_count;
  const char *directory;
  int result;
  int done;
};

#if defined(__linux__)

/// Between fork and exec only async-signal-safe calls: the child of a multithreaded process
/// holds no lock it could wait on. On failure the step's error number goes up `report`.
static void run_child(const struct spawn_request *request, pid_t parent, int report) {
  int error = 0;
  // Tied to the spawning thread of `parent`; if that process died before this line, the signal
  // was never sent, and the parent is now another one.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
    _exit(127);
  }
  if (setpgid(0, 0) != 0) goto failed;
  for (int index = 0; index < request->descriptor_count; index++) {
    const struct command_spawn_descriptor *step = &request->descriptors[index];
    if (step->path != NULL) {
      int opened = open(step->path, step->flags, step->mode);
      if (opened < 0) goto failed;
      if (opened != step->fd) {
        if (dup2(opened, step->fd) < 0) goto failed;
        close(opened);
      }
    } else if (step->source == step->fd) {
      // dup2 onto itself keeps close-on-exec: clear it, as posix_spawn does.
      int flags = fcntl(step->fd, F_GETFD);
      if (flags < 0 || fcntl(step->fd, F_SETFD, flags & ~FD_CLOEXEC) < 0) goto failed;
    } else if (dup2(step->source, step->fd) < 0) {
      goto failed;
    }
  }
  if (request->directory != NULL && chdir(request->directory) != 0) goto failed;
  // Every signal to its default action (an ignored SIGPIPE would stay ignored across exec),
  // then none blocked (the spawning thread blocks them all).
  struct sigaction default_action;
  memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  for (int number = 1; number < NSIG; number++) {
    if (number == SIGKILL || number == SIGSTOP) continue;
    sigaction(number, &default_action, NULL);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  execve(request->path, request->argv, request->envp);
failed:
  error = errno;
  (void)!write(report, &error, sizeof error);
  _exit(127);
}

/// Forks and execs `request` on the calling thread (the spawning thread); its result in it.
static void spawn_now(struct spawn_request *request) {
  // A pipe that the exec closes: nothing read means the program runs, else the error number.
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    request->result = errno;
    return;
  }
  pid_t parent = getpid();
  pid_t child = fork();
  if (child < 0) {
    request->result = errno;
    close(report[0]);
    close(report[1]);
    return;
  }
  if (child == 0) {
    close(report[0]);
    run_child(request, parent, report[1]);
  }
  close(report[1]);
  int error = 0;
  ssize_t count;
  do {
    count = read(report[0], &error, sizeof error);
  } while (count < 0 && errno == EINTR);
  close(report[0]);
  if (count == (ssize_t)sizeof error) {
    // The child has exited: reap it, so no zombie is left behind.
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    request->result = error;
    return;
  }
  *request->pid = child;
  request->result = 0;
}

static pthread_mutex_t spawner_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawner_changed = PTHREAD_COND_INITIALIZER;
static struct spawn_request *spawner_request = NULL;
static int spawner_started = 0;

/// The spawning thread: lives as long as the process, with every signal blocked (so that no
/// handler of the process runs on it, and none in a child before its exec).
static void *spawner_main(void *unused) {
  (void)unused;
  for (;;) {
    pthread_mutex_lock(&spawner_lock);
    while (spawner_request == NULL || spawner_request->done) {
      pthread_cond_wait(&spawner_changed, &spawner_lock);
    }
    struct spawn_request *request = spawner_request;
    pthread_mutex_unlock(&spawner_lock);
    spawn_now(request);
    pthread_mutex_lock(&spawner_lock);
    request->done = 1;
    pthread_cond_broadcast(&spawner_changed);
    pthread_mutex_unlock(&spawner_lock);
  }
  return NULL;
}

/// Starts the spawning thread once; called with `spawner_lock` held.
static int start_spawner(void) {
  if (spawner_started) return 0;
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  int result = pthread_create(&thread, &attributes, spawner_main, NULL);
  pthread_attr_destroy(&attributes);
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  if (result == 0) spawner_started = 1;
  return result;
}

int command_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                  const struct command_spawn_descriptor *descriptors, int descriptor_count,
                  const char *directory) {
  struct spawn_request request = {pid, path, argv, envp, descriptors, descriptor_count,
                                  directory, 0, 0};
  pthread_mutex_lock(&spawner_lock);
  int started = start_spawner();
  if (started != 0) {
    pthread_mutex_unlock(&spawner_lock);
    return started;
  }
  // One request at a time: wait for the thread to be free, hand it ours, wait for its end.
  while (spawner_request != NULL && !spawner_request->done) {
    pthread_cond_wait(&spawner_changed, &spawner_lock);
  }
  spawner_request = &request;
  pthread_cond_broadcast(&spawner_changed);
  while (!request.done) {
    pthread_cond_wait(&spawner_changed, &spawner_lock);
  }
  // Another caller may have handed in its request since ours was done (it waits only for a done
  // one): clear the slot only if it is still ours, or that request would never be served.
  if (spawner_request == &request) spawner_request = NULL;
  pthread_cond_broadcast(&spawner_changed);
  pthread_mutex_unlock(&spawner_lock);
  return request.result;
}

#else

int command_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                  const struct command_spawn_descriptor *descriptors, int descriptor_count,
                  const char *directory) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  for (int index = 0; index < descriptor_count; index++) {
    const struct command_spawn_descriptor *step = &descriptors[index];
    if (step->path != NULL) {
      posix_spawn_file_actions_addopen(&actions, step->fd, step->path, step->flags, step->mode);
    } else {
      posix_spawn_file_actions_adddup2(&actions, step->source, step->fd);
    }
  }
  if (directory != NULL) posix_spawn_file_actions_addchdir_np(&actions, directory);
  sigset_t all, none;
  sigfillset(&all);
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  sigemptyset(&none);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  int result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return result;
}

#endif
