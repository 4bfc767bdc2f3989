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
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define COMPOSE_TERMINAL_SEQUENCE_CAPACITY 256
#define COMPOSE_TERMINAL_SIGNAL_COUNT 8

/* The states of `armed`. */
#define COMPOSE_TERMINAL_IDLE 0      /* nothing to give back */
#define COMPOSE_TERMINAL_ARMED 1     /* changed: a restore gives it back */
#define COMPOSE_TERMINAL_RESTORING 2 /* a restore is under way */
#define COMPOSE_TERMINAL_ARMING 3    /* an arming holds the fields, not written yet */
#define COMPOSE_TERMINAL_READY 4     /* an arming wrote the fields, raw mode next */

struct compose_terminal_state {
    /* Where the terminal is (COMPOSE_TERMINAL_IDLE, _ARMING, _READY,
       _ARMED, _RESTORING), changed only by atomic compare-and-swap: an
       arming claims IDLE, and the fields below are written only by the
       arming that holds the claim, so they never change under a reader;
       a restore claims ARMED, so it runs once, whoever gets there first
       (a handler, atexit, the app), and gives IDLE back when done. */
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

/* Writes the undo bytes and puts the saved termios back (the work of a
   restore, without the claim). Async-signal-safe: fcntl(2), write(2) and
   tcsetattr(3) only; errno is kept. */
static inline void compose_terminal_give_back(struct compose_terminal_state *state) {
    int saved_errno = errno;
    /* libuv reopened the terminal for its stream non-blocking (a
       description of this process's own): blocking again, so the bytes
       are written whole, and so are the app's last lines after this. */
    int flags = fcntl(state->output_fd, F_GETFL);
    if (flags >= 0 && (flags & O_NONBLOCK)) fcntl(state->output_fd, F_SETFL, flags & ~O_NONBLOCK);
    size_t length = state->sequence_length;
    if (length > COMPOSE_TERMINAL_SEQUENCE_CAPACITY) length = COMPOSE_TERMINAL_SEQUENCE_CAPACITY;
    size_t offset = 0;
    while (offset < length) {
        ssize_t written = write(state->output_fd, state->sequence + offset, length - offset);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) break;
        offset += (size_t)written;
    }
    if (state->has_termios) {
        while (tcsetattr(state->termios_fd, TCSANOW, &state->saved) != 0 && errno == EINTR) {}
    }
    errno = saved_errno;
}

/* Writes the undo bytes and puts the saved termios back, once, if armed.
   Async-signal-safe: an atomic compare-and-swap, write(2) and tcsetattr(3)
   only. Returns 1 if it restored, 0 if nothing was armed (or another
   restore is under way). */
static inline int compose_terminal_restore(void) {
    struct compose_terminal_state *state = &compose_terminal_state_storage;
    int expected = COMPOSE_TERMINAL_ARMED;
    if (!__atomic_compare_exchange_n(&state->armed, &expected, COMPOSE_TERMINAL_RESTORING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return 0;
    compose_terminal_give_back(state);
    __atomic_store_n(&state->armed, COMPOSE_TERMINAL_IDLE, __ATOMIC_RELEASE);
    return 1;
}

/* The process is about to die of a signal: the terminal is given back
   whole before, whatever state it is in. A restore under way (another
   thread's, or this thread's own that the signal interrupted, which would
   never finish) is done again, whole: the undo bytes and the termios are
   idempotent. An arming that wrote its fields is undone (its raw mode
   may be on already). */
static inline void compose_terminal_restore_before_dying(void) {
    struct compose_terminal_state *state = &compose_terminal_state_storage;
    if (compose_terminal_restore()) return;
    int current = __atomic_load_n(&state->armed, __ATOMIC_ACQUIRE);
    if (current == COMPOSE_TERMINAL_RESTORING || current == COMPOSE_TERMINAL_READY) compose_terminal_give_back(state);
}

/* Whether the terminal is changed and not given back yet. */
static inline int compose_terminal_is_armed(void) {
    return __atomic_load_n(&compose_terminal_state_storage.armed, __ATOMIC_ACQUIRE) == COMPOSE_TERMINAL_ARMED;
}

/* A crash signal: give the terminal back, then let the action that was
   there before (Swift's backtracer, or the default) handle the signal. A
   fault the kernel raised (si_code > 0) comes back when the faulting
   instruction runs again; a signal sent (kill, raise, abort) or a trap
   that does not repeat is raised again, pending until this returns. */
static inline void compose_terminal_fatal_signal(int signum, siginfo_t *info, void *context) {
    (void)context;
    struct compose_terminal_state *state = &compose_terminal_state_storage;
    compose_terminal_restore_before_dying();
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
    /* The claim: refused while armed, and while a restore is under way
       (a handler may still be reading the fields). */
    int expected = COMPOSE_TERMINAL_IDLE;
    if (!__atomic_compare_exchange_n(&state->armed, &expected, COMPOSE_TERMINAL_ARMING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return -EBUSY;
    struct termios saved;
    int has_termios = 0;
    if (termios_fd >= 0) {
        if (tcgetattr(termios_fd, &saved) != 0) {
            int error = errno;
            __atomic_store_n(&state->armed, COMPOSE_TERMINAL_IDLE, __ATOMIC_RELEASE);
            return -error;
        }
        has_termios = 1;
    }
    compose_terminal_install_handlers();
    state->termios_fd = termios_fd;
    state->has_termios = has_termios;
    if (has_termios) state->saved = saved;
    state->output_fd = output_fd;
    if (length > 0) memcpy(state->sequence, sequence, length);
    state->sequence_length = length;
    /* The fields are whole: a crash from here on gives the terminal back
       (raw mode is set next, so a crash between the two is covered). */
    __atomic_store_n(&state->armed, COMPOSE_TERMINAL_READY, __ATOMIC_RELEASE);
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
        if (result != 0) {
            int error = errno;
            __atomic_store_n(&state->armed, COMPOSE_TERMINAL_IDLE, __ATOMIC_RELEASE);
            return -error;
        }
    }
    __atomic_store_n(&state->armed, COMPOSE_TERMINAL_ARMED, __ATOMIC_RELEASE);
    return 0;
}

/* Stops the process's job as Ctrl+Z does in a shell (the terminal must
   have been given back first): SIGTSTP to the whole process group, as
   the terminal driver sends it when ISIG is on (so `make run` and the app
   stop together and the shell sees the job stopped), with this process's
   action set to the default (stop) and the signal unblocked meanwhile.
   The kernel delivers a signal a thread sends to its own process group
   to that thread before kill(2) returns, so this returns once the
   process is continued (SIGCONT: `fg`, `bg`); the action and mask found
   before are put back then. A process started with SIGTSTP ignored (no
   job control) is not stopped, nor is one of an orphaned process group
   (the kernel discards the signal: nobody could continue it). Returns 1
   if SIGTSTP was sent, 0 if it is ignored, -errno on a failure. Called on
   the loop thread only, never from a signal handler. */
static inline int compose_terminal_stop_as_job(void) {
    struct sigaction previous;
    if (sigaction(SIGTSTP, NULL, &previous) != 0) return -errno;
    if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN) return 0;
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    if (sigaction(SIGTSTP, &stop, NULL) != 0) return -errno;
    sigset_t tstp, mask;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &tstp, &mask);
    int result = kill(0, SIGTSTP) == 0 ? 1 : -errno;
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    sigaction(SIGTSTP, &previous, NULL);
    return result;
}

/* Whether SIGTSTP's action is to ignore it (the process was started
 * without job control, or asked for it with `trap '' TSTP`): then nothing
 * may catch it, since a catcher would stop a job that nobody continues. */
static inline int compose_terminal_stop_is_ignored(void) {
    struct sigaction current;
    if (sigaction(SIGTSTP, NULL, &current) != 0) return 0;
    return !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN;
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
