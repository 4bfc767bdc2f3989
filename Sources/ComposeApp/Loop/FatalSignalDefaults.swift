internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// The default signal actions that would let the outside world end a
/// daemon, turned into errors.
///
/// - `SIGPIPE`: a write to a socket or pipe whose reader has gone (a client
///   that connects and closes at once, a child that exited, `app | head`)
///   fails with `EPIPE` instead of killing the process. TCP connections and
///   child process inputs report it on their `errors` emitter and close.
/// - `SIGXFSZ`: a write past the file-size limit (`ulimit -f`) fails with
///   `EFBIG` instead of killing the process.
///
/// Only default actions change: a handler the program installed itself is
/// kept. Child processes start with default dispositions again (libuv
/// resets every signal in the child before `exec`).
enum FatalSignalDefaults {
    /// Applies the dispositions above; cheap and idempotent.
    static func apply() {
        _ = compose_ignore_if_default(SIGPIPE)
        _ = compose_ignore_if_default(SIGXFSZ)
    }
}
