#ifndef COMPOSE_CLIBUV_TERMINAL_H
#define COMPOSE_CLIBUV_TERMINAL_H

/* The terminal given back on every way out (ComposeTerminal's device,
   through ComposeApp's TerminalRestoration.swift; docs/unsafe.md, "C: the
   terminal's restoration", has the proof).

   A terminal app changes the terminal (raw mode, the alternate screen, a
   hidden cursor, bracketed paste, mouse reporting) and must undo it on a
   normal exit, on `exit()` from anywhere (atexit), and on a crash signal,
   where only async-signal-safe calls may run. So what undoing needs is
   computed before, while the app runs, and kept here: the saved termios
   and the bytes that undo the modes. This is process-wide state by nature
   (termios belongs to the terminal device, signal actions to the
   process), and the one mutable global of the libraries.

   One definition for the whole program: the state is a *weak* global, not
   `static` (a static in a header would be one copy per object file that
   uses it: Swift emits header code into each of its object files, and an
   arming call in one file would not be seen by a handler from another). */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define COMPOSE_TERMINAL_SEQUENCE_CAPACITY 256
#define COMPOSE_TERMINAL_SIGNAL_COUNT 8

struct compose_terminal_state {
    /* 1 while the terminal is changed: set last when arming (release),
       exchanged to 0 first when restoring (acquire), so a restore runs
       once, whoever gets there first (a handler, atexit, the app). */
    int armed;
    int termios_fd;
    int has_termios;
    struct termios saved;
    int output_fd;
    char sequence[COMPOSE_TERMINAL_SEQUENCE_CAPACITY];
    size_t sequence_length;
    /* Set once per process, on the arming thread (the loop's). */
    int handlers_installed;
    int signals[COMPOSE_TERMINAL_SIGNAL_COUNT];
    struct sigaction previous[COMPOSE_TERMINAL_SIGNAL_COUNT];
};

__attribute__((weak)) struct compose_terminal_state compose_terminal_state_storage = {0};

/* Writes the undo bytes and puts the saved termios back, once, if armed.
   Async-signal-safe: an atomic exchange, write(2) and tcsetattr(3) only.
   Returns 1 if it restored, 0 if nothing was armed. */
static inline int compose_terminal_restore(void) {
    struct compose_terminal_state *state = &compose_terminal_state_storage;
    if (__atomic_exchange_n(&state->armed, 0, __ATOMIC_ACQ_REL) != 1) return 0;
    int saved_errno = errno;
    /* libuv reopened the terminal for its stream non-blocking (a
       description of this process's own): blocking again, so the bytes
       are written whole, and so are the app's last lines after this. */
    int flags = fcntl(state->output_fd, F_GETFL);
    if (flags >= 0 && (flags & O_NONBLOCK)) fcntl(state->output_fd, F_SETFL, flags & ~O_NONBLOCK);
    size_t offset = 0;
    while (offset < state->sequence_length) {
        ssize_t written = write(state->output_fd, state->sequence + offset, state->sequence_length - offset);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) break;
        offset += (size_t)written;
    }
    if (state->has_termios) {
        while (tcsetattr(state->termios_fd, TCSANOW, &state->saved) != 0 && errno == EINTR) {}
    }
    errno = saved_errno;
    return 1;
}

/* Whether the terminal is changed and not given back yet. */
static inline int compose_terminal_is_armed(void) {
    return __atomic_load_n(&compose_terminal_state_storage.armed, __ATOMIC_ACQUIRE);
}

/* A crash signal: give the terminal back, then let the action that was
   there before (Swift's backtracer, or the default) handle the signal. A
   fault the kernel raised (si_code > 0) comes back when the faulting
   instruction runs again; a signal sent (kill, raise, abort) or a trap
   that does not repeat is raised again, pending until this returns. */
static inline void compose_terminal_fatal_signal(int signum, siginfo_t *info, void *context) {
    (void)context;
    struct compose_terminal_state *state = &compose_terminal_state_storage;
    compose_terminal_restore();
    for (int index = 0; index < COMPOSE_TERMINAL_SIGNAL_COUNT; index++) {
        if (state->signals[index] == signum) {
            sigaction(signum, &state->previous[index], NULL);
            break;
        }
    }
    int repeats = info != NULL && info->si_code > 0 &&
        (signum == SIGSEGV || signum == SIGBUS || signum == SIGILL || signum == SIGFPE);
    if (!repeats) raise(signum);
}

static inline void compose_terminal_at_exit(void) {
    compose_terminal_restore();
}

/* Once per process: the crash handlers (for the signals whose action is
   not "ignore") and the atexit hook. */
static inline void compose_terminal_install_handlers(void) {
    struct compose_terminal_state *state = &compose_terminal_state_storage;
    if (state->handlers_installed) return;
    state->handlers_installed = 1;
    const int signals[COMPOSE_TERMINAL_SIGNAL_COUNT] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGQUIT};
    for (int index = 0; index < COMPOSE_TERMINAL_SIGNAL_COUNT; index++) {
        int signum = signals[index];
        struct sigaction current;
        if (sigaction(signum, NULL, &current) != 0) continue;
        if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) continue;
        state->previous[index] = current;
        state->signals[index] = signum;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = compose_terminal_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        if (sigaction(signum, &action, NULL) != 0) state->signals[index] = 0;
    }
    atexit(compose_terminal_at_exit);
}

/* Puts the terminal of `termios_fd` in raw mode (no echo, no line
   editing, no signals from keys, no flow control or CR translation on
   input; output still turns "\n" into "\r\n"), and arms the restore: the
   termios as it was, and `sequence` (at most
   COMPOSE_TERMINAL_SEQUENCE_CAPACITY bytes), written to `output_fd`
   when the terminal is given back. `termios_fd` < 0: no raw mode, the
   sequence only. Returns 0, or -errno (nothing changed, nothing armed). */
static inline int compose_terminal_arm(int termios_fd, int output_fd, const char *sequence, size_t length) {
    struct compose_terminal_state *state = &compose_terminal_state_storage;
    if (length > COMPOSE_TERMINAL_SEQUENCE_CAPACITY) return -EINVAL;
    if (compose_terminal_is_armed()) return -EBUSY;
    struct termios saved;
    int has_termios = 0;
    if (termios_fd >= 0) {
        if (tcgetattr(termios_fd, &saved) != 0) return -errno;
        has_termios = 1;
    }
    compose_terminal_install_handlers();
    state->termios_fd = termios_fd;
    state->has_termios = has_termios;
    if (has_termios) state->saved = saved;
    state->output_fd = output_fd;
    if (length > 0) memcpy(state->sequence, sequence, length);
    state->sequence_length = length;
    if (has_termios) {
        struct termios raw = saved;
        raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
        raw.c_oflag |= ONLCR;
        raw.c_cflag |= CS8;
        raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        int result;
        while ((result = tcsetattr(termios_fd, TCSANOW, &raw)) != 0 && errno == EINTR) {}
        if (result != 0) return -errno;
    }
    __atomic_store_n(&state->armed, 1, __ATOMIC_RELEASE);
    return 0;
}

/* Whether `fd` is a terminal. */
static inline int compose_terminal_isatty(int fd) {
    return isatty(fd);
}

/* The size of the terminal of `fd` (TIOCGWINSZ), or -errno. */
#include <sys/ioctl.h>
static inline int compose_terminal_size(int fd, int *columns, int *rows) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -errno;
    *columns = size.ws_col;
    *rows = size.ws_row;
    return 0;
}

#endif
