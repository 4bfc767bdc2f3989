private import CLibUV

extension LoopError {
    /// The errors an app tells apart, so it can branch on a case instead of
    /// comparing ``LoopError/name`` with a string.
    ///
    /// Each case documents the libuv (POSIX) error it stands for; libuv
    /// errors without a case of their own are ``other(_:)``. More cases may
    /// be added as more errors become worth telling apart (an error that was
    /// `.other` then gets its own case), so a `switch` over a code should
    /// end with `default:`.
    ///
    /// ```swift
    /// listener.errors += { error in
    ///     switch error.kind {
    ///     case .addressInUse: print("Port 7070 is taken: is another copy running?")
    ///     case .permissionDenied: print("Ports below 1024 need privileges")
    ///     default: print(error)
    ///     }
    /// }
    /// ```
    public enum Code: Sendable, Hashable, CustomStringConvertible {
        /// `EADDRINUSE`: another socket is bound to the address.
        case addressInUse
        /// `EADDRNOTAVAIL`: the address is not one of this machine's.
        case addressNotAvailable
        /// `ECONNREFUSED`: nothing listens at the address.
        case connectionRefused
        /// `ECONNRESET`: the peer reset the connection.
        case connectionReset
        /// `ECONNABORTED`: the connection was aborted before it was accepted
        /// or while in use.
        case connectionAborted
        /// `EPIPE`: writing to a connection or pipe whose other end is closed.
        case brokenPipe
        /// `ECANCELED`: the operation was cancelled, typically because its
        /// handle closed first, or, for a listener's `listen()`, because
        /// the app's shutdown has begun.
        case cancelled
        /// `ENOENT`: no such file or directory (or, for a child process, no
        /// such executable).
        case notFound
        /// `EACCES`: permission denied by the file system's permissions.
        case permissionDenied
        /// `EPERM`: the operation is not permitted to this process.
        case operationNotPermitted
        /// `ETIMEDOUT`: the operation timed out.
        case timedOut
        /// `EMFILE` or `ENFILE`: the process or the system has too many
        /// open files.
        case tooManyOpenFiles
        /// `EHOSTUNREACH`: no route to the host.
        case hostUnreachable
        /// `ENETUNREACH`: the network is unreachable.
        case networkUnreachable
        /// `EINVAL`: an invalid argument, such as a malformed address.
        case invalidArgument
        /// `EEXIST`: the file already exists.
        case alreadyExists
        /// `ENOTCONN`: the socket is not connected.
        case notConnected
        /// `EOF`: the end of the input was reached.
        case endOfFile
        /// `EFBIG`: the file would grow past the allowed size, or is larger
        /// than a reader allows (`AppContext.readFile(_:maximumSize:_:)`).
        case fileTooLarge
        /// `ENOSPC`: no space left on the device.
        case noSpace
        /// `EROFS`: the file system is read-only.
        case readOnlyFileSystem
        /// `EISDIR`: the path is a directory where a file was expected.
        case isDirectory
        /// `ENOTDIR`: a component of the path is not a directory.
        case notDirectory
        /// Not a libuv error: the resource was used outside an app with an
        /// event loop (no `AppContext` of a running app, or a test
        /// context, which simulates its I/O).
        case noEventLoop
        /// Not a libuv error: a connection's peer does not read what it is
        /// sent (IRC's "SendQ exceeded"): its queue stayed above the soft
        /// limit of `TCPConnection.sendQueueLimits` for the grace period
        /// while it read too little, or a write would have taken it past
        /// the hard limit, or it did not read what was queued within
        /// `TCPConnection.closeFlushTimeout` of its closing. The message
        /// says which, and how much the peer read meanwhile; the
        /// connection was reset (a Unix domain socket: closed).
        case sendQueueExceeded
        /// `EAI_NONAME`, `EAI_NODATA`: a host name has no address (it does
        /// not exist, or the resolver does not know it).
        case hostNotFound
        /// Not a libuv error: a line received was longer than the
        /// resource's maximum line length (``LineLengthLimit``); the error
        /// names the resource and the limit. ``LoopError/code`` is
        /// `EMSGSIZE`.
        case lineTooLong
        /// Not a libuv error: a stream decoded into frames (`frames(using:)`
        /// of ComposeFraming) received a frame larger than its decoder's
        /// maximum; the error names the stream, the limit and what was
        /// seen, and the stream was closed. ``LoopError/code`` is
        /// `EMSGSIZE`.
        case frameTooLarge
        /// Not a libuv error: a stream's frame decoder rejected its input
        /// (a malformed frame); the error names the stream and carries the
        /// decoder's error as text, and the stream was closed.
        /// ``LoopError/code`` is `EPROTO`.
        case malformedFrame
        /// Not a libuv error: a `ChildProcess` option needs a helper program
        /// that is not installed (`/bin/sh` for resource limits and umask,
        /// util-linux's `setpriv` for the parent-death signal); the error
        /// names it and what provides it. ``LoopError/code`` is `ENOENT`.
        case missingHelper
        /// Not a libuv error: a descriptor the app inherited (socket
        /// activation, `LISTEN_FDS`) is not the listening socket the server
        /// that claimed it needs (a UDP socket, a socket that does not
        /// listen, a Unix socket for a `TCPServer`, a file); the error
        /// names the descriptor, what it is and what was expected.
        /// ``LoopError/code`` says why in errno terms (`EPROTOTYPE`,
        /// `EINVAL`, `EAFNOSUPPORT`, `ENOTSOCK`, `EBADF`).
        case inheritedSocketMismatch
        /// Any other libuv error, with libuv's (negative) error code as in
        /// ``LoopError/code``; ``LoopError/name`` names it.
        case other(Int32)

        /// The case for libuv's (negative) error code `code`; the one place
        /// where libuv's codes are mapped.
        init(libuv code: Int32) {
            switch code {
            case UV_EADDRINUSE.rawValue: self = .addressInUse
            case UV_EADDRNOTAVAIL.rawValue: self = .addressNotAvailable
            case UV_ECONNREFUSED.rawValue: self = .connectionRefused
            case UV_ECONNRESET.rawValue: self = .connectionReset
            case UV_ECONNABORTED.rawValue: self = .connectionAborted
            case UV_EPIPE.rawValue: self = .brokenPipe
            case UV_ECANCELED.rawValue: self = .cancelled
            case UV_ENOENT.rawValue: self = .notFound
            case UV_EACCES.rawValue: self = .permissionDenied
            case UV_EPERM.rawValue: self = .operationNotPermitted
            case UV_ETIMEDOUT.rawValue: self = .timedOut
            case UV_EMFILE.rawValue, UV_ENFILE.rawValue: self = .tooManyOpenFiles
            case UV_EHOSTUNREACH.rawValue: self = .hostUnreachable
            case UV_ENETUNREACH.rawValue: self = .networkUnreachable
            case UV_EINVAL.rawValue: self = .invalidArgument
            case UV_EEXIST.rawValue: self = .alreadyExists
            case UV_ENOTCONN.rawValue: self = .notConnected
            case UV_EOF.rawValue: self = .endOfFile
            case UV_EFBIG.rawValue: self = .fileTooLarge
            case UV_ENOSPC.rawValue: self = .noSpace
            case UV_EROFS.rawValue: self = .readOnlyFileSystem
            case UV_EISDIR.rawValue: self = .isDirectory
            case UV_ENOTDIR.rawValue: self = .notDirectory
            case UV_EAI_NONAME.rawValue, UV_EAI_NODATA.rawValue: self = .hostNotFound
            default: self = .other(code)
            }
        }

        /// The case as written in Swift, e.g. `addressInUse` or `other(-71)`.
        public var description: String {
            switch self {
            case .addressInUse: "addressInUse"
            case .addressNotAvailable: "addressNotAvailable"
            case .connectionRefused: "connectionRefused"
            case .connectionReset: "connectionReset"
            case .connectionAborted: "connectionAborted"
            case .brokenPipe: "brokenPipe"
            case .cancelled: "cancelled"
            case .notFound: "notFound"
            case .permissionDenied: "permissionDenied"
            case .operationNotPermitted: "operationNotPermitted"
            case .timedOut: "timedOut"
            case .tooManyOpenFiles: "tooManyOpenFiles"
            case .hostUnreachable: "hostUnreachable"
            case .networkUnreachable: "networkUnreachable"
            case .invalidArgument: "invalidArgument"
            case .alreadyExists: "alreadyExists"
            case .notConnected: "notConnected"
            case .endOfFile: "endOfFile"
            case .fileTooLarge: "fileTooLarge"
            case .noSpace: "noSpace"
            case .readOnlyFileSystem: "readOnlyFileSystem"
            case .isDirectory: "isDirectory"
            case .notDirectory: "notDirectory"
            case .noEventLoop: "noEventLoop"
            case .sendQueueExceeded: "sendQueueExceeded"
            case .hostNotFound: "hostNotFound"
            case .lineTooLong: "lineTooLong"
            case .frameTooLarge: "frameTooLarge"
            case .malformedFrame: "malformedFrame"
            case .missingHelper: "missingHelper"
            case .inheritedSocketMismatch: "inheritedSocketMismatch"
            case .other(let code): "other(\(code))"
            }
        }
    }
}
