#ifndef COMPOSE_CLIBUV_SHIM_H
#define COMPOSE_CLIBUV_SHIM_H

#include <uv.h>
#include <stdint.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <sys/timerfd.h>

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

/* Receives one datagram of at most `length` bytes from the socket `fd`
   (non-blocking), and in `*pid` the process ID of its sender, which the
   kernel attaches when SO_PASSCRED is set on `fd` (0 when it did not).
   Descriptors passed along with it (SCM_RIGHTS) are closed. Returns the
   datagram's size, or -1 with errno set (EAGAIN: none waiting; EMSGSIZE:
   it was longer than `length`, and is dropped). The workers mode's parent
   reads its workers' notifications with it.

   SCM_CREDENTIALS and struct ucred are declared only with _GNU_SOURCE,
   which this header cannot count on (uv.h included <sys/socket.h>
   already): the kernel's ABI is used as is, SCM_CREDENTIALS being 2 and
   the credentials three 32-bit numbers, the process ID first. recvmsg
   and struct iovec come with uv.h's <sys/socket.h>. */
static inline ssize_t compose_receive_with_sender(int fd, void *buffer, size_t length, int32_t *pid) {
    struct iovec vector = { buffer, length };
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(3 * sizeof(int32_t)) + CMSG_SPACE(16 * sizeof(int))];
    } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    *pid = 0;
    ssize_t received;
    do {
        received = recvmsg(fd, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET) continue;
        if (header->cmsg_type == 2 && header->cmsg_len >= CMSG_LEN(3 * sizeof(int32_t))) {
            int32_t credentials[3];
            memcpy(credentials, CMSG_DATA(header), sizeof credentials);
            *pid = credentials[0];
        } else if (header->cmsg_type == SCM_RIGHTS) {
            size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t index = 0; index < count; index++) {
                int passed;
                memcpy(&passed, CMSG_DATA(header) + index * sizeof(int), sizeof passed);
                close(passed);
            }
        }
    }
    if (message.msg_flags & MSG_TRUNC) {
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}

/* A one-shot kernel timer (Linux timerfd) on the monotonic clock, which
   uv_hrtime also reads: non-blocking, closed on exec. Returns the file
   descriptor, or -errno. */
static inline int compose_timerfd_create(void) {
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

/* Arms `fd` to expire once, `nanoseconds` from now (at least 1 ns: 0 would
   disarm it). Returns 0, or -errno. */
static inline int compose_timerfd_arm(int fd, uint64_t nanoseconds) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (nanoseconds == 0) nanoseconds = 1;
    spec.it_value.tv_sec = (time_t)(nanoseconds / 1000000000u);
    spec.it_value.tv_nsec = (long)(nanoseconds % 1000000000u);
    return timerfd_settime(fd, 0, &spec, NULL) == 0 ? 0 : -errno;
}

/* Reads `fd`'s expiry count (non-blocking), so it stops being readable. */
static inline void compose_timerfd_clear(int fd) {
    uint64_t expirations;
    ssize_t ignored = read(fd, &expirations, sizeof expirations);
    (void)ignored;
}

#endif

