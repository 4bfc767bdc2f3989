private import CLibUV

/// A libuv call that failed, named with libuv's error name and message.
///
/// ```
/// uv_tcp_bind failed: EADDRINUSE (address already in use) for 127.0.0.1:7070
/// ```
///
/// To act on a particular error, compare its ``kind`` with a ``Code`` case;
/// the ``description`` is what a person reads.
public struct LoopError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The libuv function that failed, e.g. `uv_tcp_bind`.
    public let operation: String
    /// libuv's (negative) error code.
    public let code: Int32
    /// Which error it is, for code that handles some errors and not others;
    /// ``Code/other(_:)`` for a libuv error without a case of its own.
    ///
    /// ```swift
    /// do {
    ///     try server.listen()
    /// } catch {
    ///     if error.kind == .addressInUse {
    ///         // Another copy of the app holds the port.
    ///     }
    /// }
    /// ```
    public let kind: Code
    /// libuv's error name, e.g. `EADDRINUSE`.
    public let name: String
    /// libuv's description, e.g. `address already in use`.
    public let message: String
    /// What the call was about (an address, a path), if anything.
    public let context: String?
    /// The typed reason a module above ComposeApp gives for the error
    /// (ComposeFraming's `FramingError`, read there as
    /// `LoopError.framingError`). Not part of equality or hashing: the
    /// ``message`` already says it.
    package let detail: (any Error & Sendable)?

    init(_ operation: String, code: Int32, context: String? = nil) {
        self.operation = operation
        self.code = code
        self.kind = Code(libuv: code)
        self.name = String(cString: uv_err_name(code))
        self.message = String(cString: uv_strerror(code))
        self.context = context
        self.detail = nil
    }

    /// A failed POSIX call (`open`, `write`, `fsync`, `rename`, ...) that
    /// set `errno`, for code that makes its own system calls: its ``kind``
    /// is the case for that errno, as for the same error from libuv
    /// (whose codes on Unix are the negated errno values).
    ///
    /// ```swift
    /// if fsync(fd) != 0 { throw LoopError("fsync", errno: errno, context: path) }
    /// ```
    public init(_ operation: String, errno: Int32, context: String? = nil) {
        self.init(operation, code: -errno, context: context)
    }

    /// `operation` cannot run: no event loop is in reach (see
    /// ``Code/noEventLoop``).
    static func noEventLoop(_ operation: String) -> LoopError {
        LoopError(
            operation: operation,
            code: UV_EINVAL.rawValue,
            kind: .noEventLoop,
            name: "EINVAL",
            message: "not in an app with an event loop: use it in a component of a running app, or inside the run { } of a live AppContext"
        )
    }

    /// `operation` has no simulation in a test context yet (Unix domain
    /// sockets): it fails there with ``Code/noEventLoop`` rather than touch
    /// the real file system from a simulated app.
    static func notSimulated(_ operation: String, context: String?, what: String = "Unix domain sockets") -> LoopError {
        LoopError(
            operation: operation,
            code: UV_ENOSYS.rawValue,
            kind: .noEventLoop,
            name: "ENOSYS",
            message: "not simulated in a test context yet: \(what) need a live app (test them with a real loop)",
            context: context
        )
    }

    /// A listener cannot listen once the app's shutdown has begun: it
    /// closed its listeners first (see ``Code/cancelled``).
    static func shuttingDown(_ operation: String, context: String?) -> LoopError {
        LoopError(
            operation: operation,
            code: UV_ECANCELED.rawValue,
            kind: .cancelled,
            name: "ECANCELED",
            message: "the app is shutting down: its listeners closed and do not listen again",
            context: context
        )
    }

    /// A connection's peer does not read what it is sent (see
    /// ``Code/sendQueueExceeded``); `why` says which limit, and what it
    /// read meanwhile; `reset` whether the connection was reset (TCP) or
    /// closed (a Unix domain socket).
    static func sendQueueExceeded(_ why: String, peer: String, reset: Bool) -> LoopError {
        LoopError(
            operation: "write",
            code: UV_ENOBUFS.rawValue,
            kind: .sendQueueExceeded,
            name: "ENOBUFS",
            message: "send queue exceeded: \(why); the peer at \(peer) does not read what it is sent, so the connection was \(reset ? "reset" : "closed")",
        )
    }

    /// A line read by `operation` (e.g. `TCPConnection.lines`) was longer
    /// than `limit` bytes (see ``Code/lineTooLong``); `context` names the
    /// resource (a peer's address, a child's executable).
    static func lineTooLong(_ operation: String, limit: Int, context: String?) -> LoopError {
        LoopError(
            operation: operation,
            code: UV_EMSGSIZE.rawValue,
            kind: .lineTooLong,
            name: "EMSGSIZE",
            message: "a line is longer than the maximum line length of \(limit) bytes: end lines with \\n sooner, or raise the resource's maximumLineLength",
            context: context
        )
    }

    /// A frame read by `operation` (e.g. `TCPConnection.frames`) is larger
    /// than `limit` bytes (see ``Code/frameTooLarge``); `seen` says what
    /// was received (`"a frame announcing 70000 bytes"`), `context` names
    /// the stream (a peer's address, a child's executable), `detail` is
    /// the typed reason (``detail``).
    package static func frameTooLarge(_ operation: String, limit: Int, seen: String, context: String?, detail: (any Error & Sendable)? = nil) -> LoopError {
        LoopError(
            operation: operation,
            code: UV_EMSGSIZE.rawValue,
            kind: .frameTooLarge,
            name: "EMSGSIZE",
            message: "\(seen), more than the maximum frame length of \(limit) bytes: the stream was closed",
            context: context,
            detail: detail
        )
    }

    /// The frame decoder of `operation` rejected the stream's input
    /// (see ``Code/malformedFrame``): `reason` says why, `decoder` names
    /// its type, `context` the stream, `detail` is the typed reason
    /// (``detail``).
    package static func malformedFrame(_ operation: String, decoder: String, reason: String, context: String?, detail: (any Error & Sendable)? = nil) -> LoopError {
        LoopError(
            operation: operation,
            code: UV_EPROTO.rawValue,
            kind: .malformedFrame,
            name: "EPROTO",
            message: "\(decoder) rejected the input: \(reason); the stream was closed",
            context: context,
            detail: detail
        )
    }

    /// The file at `path` is larger than a reader's limit (see
    /// ``Code/fileTooLarge``): `size` says how large, `limit` is the limit
    /// in bytes.
    static func fileTooLarge(_ path: String, size: String, limit: Int) -> LoopError {
        LoopError(
            operation: "readFile",
            code: UV_EFBIG.rawValue,
            kind: .fileTooLarge,
            name: "EFBIG",
            message: "the file is \(size), over the limit of \(limit) bytes: raise maximumSize if the file is trusted, or read it in parts",
            context: path
        )
    }

    /// A `ChildProcess` option (`for`) needs `program`, which is not
    /// installed (see ``Code/missingHelper``); `package` provides it.
    static func missingHelper(_ program: String, for option: String, package: String, context: String?) -> LoopError {
        LoopError(
            operation: "ChildProcess.start",
            code: UV_ENOENT.rawValue,
            kind: .missingHelper,
            name: "ENOENT",
            message: "\(option) needs \(program), which is not installed: install \(package), or start the child without \(option)",
            context: context
        )
    }

    /// A TLS failure of `kind` (``Code/tlsHandshakeFailed``,
    /// ``Code/tlsVerificationFailed``, ``Code/tlsProtocolError``:
    /// `EPROTO`; ``Code/tlsConfigurationInvalid``: `EINVAL`), made by
    /// ComposeTLS; `operation` names the OpenSSL call or the step
    /// (`TLS handshake`), `message` says why.
    package static func tls(_ kind: Code, operation: String, message: String, context: String?) -> LoopError {
        let invalid = kind == .tlsConfigurationInvalid
        return LoopError(
            operation: operation,
            code: invalid ? UV_EINVAL.rawValue : UV_EPROTO.rawValue,
            kind: kind,
            name: invalid ? "EINVAL" : "EPROTO",
            message: message,
            context: context
        )
    }

    /// A TLS handshake that did not finish within its timeout
    /// (``Code/timedOut``): a peer that connected and never completed it
    /// (a slowloris, a client that speaks no TLS and waits).
    package static func tlsHandshakeTimedOut(after timeout: Duration, peer: String) -> LoopError {
        LoopError(
            operation: "TLS handshake",
            code: UV_ETIMEDOUT.rawValue,
            kind: .timedOut,
            name: "ETIMEDOUT",
            message: "the handshake did not finish within \(timeout): the connection was closed",
            context: peer
        )
    }

    init(operation: String, code: Int32, kind: Code, name: String, message: String, context: String? = nil, detail: (any Error & Sendable)? = nil) {
        self.operation = operation
        self.code = code
        self.kind = kind
        self.name = name
        self.message = message
        self.context = context
        self.detail = detail
    }

    // Equality and hashing leave ``detail`` out (an existential, and said
    // by ``message``).
    public static func == (lhs: LoopError, rhs: LoopError) -> Bool {
        lhs.operation == rhs.operation && lhs.code == rhs.code && lhs.kind == rhs.kind
            && lhs.name == rhs.name && lhs.message == rhs.message && lhs.context == rhs.context
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(operation)
        hasher.combine(code)
        hasher.combine(kind)
        hasher.combine(name)
        hasher.combine(message)
        hasher.combine(context)
    }

    public var description: String {
        let base = "\(operation) failed: \(name) (\(message))"
        guard let context else { return base }
        return base + " for " + context
    }

    /// Whether the error says the other end went away (``Code/brokenPipe``,
    /// ``Code/connectionReset``, ``Code/connectionAborted``): expected of any
    /// peer, never a failure of the app itself.
    public var isPeerGone: Bool {
        switch kind {
        case .brokenPipe, .connectionReset, .connectionAborted: true
        default: false
        }
    }

    /// Throws a ``LoopError`` when `result` is a libuv error code.
    static func check(_ result: Int32, _ operation: String, context: String? = nil) throws(LoopError) {
        if result < 0 { throw LoopError(operation, code: result, context: context) }
    }
}
