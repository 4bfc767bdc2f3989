#ifndef COMPOSE_CLIBUV_SHIM_H
#define COMPOSE_CLIBUV_SHIM_H

#include <uv.h>
#include <stdint.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>

/* libdispatch's hooks for driving the main queue from a foreign run loop
   (how Foundation's RunLoop integrates it on Linux). Exported by
   libdispatch.so, declared in its private headers only. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

/* The file descriptor that becomes readable when the main queue has work. */
static inline int compose_uv_main_queue_fd(void) {
    return _dispatch_get_main_queue_handle_4CF();
}

/* Clears the main queue's eventfd (non-blocking), then drains the queue. */
static inline void compose_uv_drain_main_queue(int fd) {
    uint64_t value;
    ssize_t ignored = read(fd, &value, sizeof value);
    (void)ignored;
    _dispatch_main_queue_callback_4CF(NULL);
}

/* Sets `signum` to ignored if its action is the default one; an action the
   program installed itself is kept. Returns 1 if it changed the action. */
static inline int compose_ignore_if_default(int signum) {
    struct sigaction current;
    if (sigaction(signum, NULL, &current) != 0) return 0;
    if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) return 0;
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    return sigaction(signum, &ignore, NULL) == 0;
}

/* Makes stdout line-buffered when it is not a terminal (a pipe, a file,
   the journal), so each line an app prints leaves at once. Call before
   anything is written to stdout. */
static inline void compose_line_buffer_stdout(void) {
    if (!isatty(STDOUT_FILENO)) setvbuf(stdout, NULL, _IOLBF, 0);
}

/* This process's environment (`environ`), read on the loop thread by the
   configuration's environment layer and when a child is spawned with an
   inherited environment plus variables (ProcessEnvironment.swift). */
extern char **environ;
static inline char **compose_environ(void) {
    return environ;
}

/* Makes the loop count the time it waits for I/O (uv_metrics_idle_time):
   uv_loop_configure is variadic, which Swift cannot call. */
static inline int compose_uv_measure_idle_time(uv_loop_t *loop) {
    return uv_loop_configure(loop, UV_METRICS_IDLE_TIME);
}

static inline uv_handle_t *compose_uv_handle(void *handle) {
    return (uv_handle_t *)handle;
}

static inline uv_stream_t *compose_uv_stream(void *handle) {
    return (uv_stream_t *)handle;
}

/* Asks Linux to send `signum` to this process when its parent dies
   (prctl PR_SET_PDEATHSIG, which Swift cannot call: it is variadic).
   Returns 0, or -1 with errno set. A worker of the workers mode calls it
   at startup. */
#include <sys/prctl.h>
static inline int compose_set_parent_death_signal(int signum) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signum, 0, 0, 0);
}

#endif
