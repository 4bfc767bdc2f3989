@testable import ComposeApp
import Glibc
import Testing

/// LoopError.Code from libuv's codes (negated errno values on Linux, and
/// libuv's own `UV_EOF`), built with LoopError's internal initializer.
@Suite struct LoopErrorCodeTests {
    /// Each case with a code libuv reports for it and libuv's name for that code.
    static let mapped: [(code: Int32, kind: LoopError.Code, name: String)] = [
        (-EADDRINUSE, .addressInUse, "EADDRINUSE"),
        (-EADDRNOTAVAIL, .addressNotAvailable, "EADDRNOTAVAIL"),
        (-ECONNREFUSED, .connectionRefused, "ECONNREFUSED"),
        (-ECONNRESET, .connectionReset, "ECONNRESET"),
        (-ECONNABORTED, .connectionAborted, "ECONNABORTED"),
        (-EPIPE, .brokenPipe, "EPIPE"),
        (-ECANCELED, .cancelled, "ECANCELED"),
        (-ENOENT, .notFound, "ENOENT"),
        (-EACCES, .permissionDenied, "EACCES"),
        (-EPERM, .operationNotPermitted, "EPERM"),
        (-ETIMEDOUT, .timedOut, "ETIMEDOUT"),
        (-EMFILE, .tooManyOpenFiles, "EMFILE"),
        (-ENFILE, .tooManyOpenFiles, "ENFILE"),
        (-EHOSTUNREACH, .hostUnreachable, "EHOSTUNREACH"),
        (-ENETUNREACH, .networkUnreachable, "ENETUNREACH"),
        (-EINVAL, .invalidArgument, "EINVAL"),
        (-EEXIST, .alreadyExists, "EEXIST"),
        (-ENOTCONN, .notConnected, "ENOTCONN"),
        (-4095, .endOfFile, "EOF"),
        (-EFBIG, .fileTooLarge, "EFBIG"),
        (-3008, .hostNotFound, "EAI_NONAME"),   // libuv's UV_EAI_NONAME
        (-3007, .hostNotFound, "EAI_NODATA"),   // libuv's UV_EAI_NODATA
        (-ENOSPC, .noSpace, "ENOSPC"),
        (-EROFS, .readOnlyFileSystem, "EROFS"),
        (-EISDIR, .isDirectory, "EISDIR"),
        (-ENOTDIR, .notDirectory, "ENOTDIR"),
    ]

    @Test(arguments: mapped)
    func libuvCodesMapToTheirCase(code: Int32, kind: LoopError.Code, name: String) {
        let error = LoopError("uv_test", code: code)
        #expect(error.kind == kind)
        #expect(error.name == name)
        #expect(error.code == code)
    }

    @Test func aCodeWithoutACaseIsOtherWithTheCode() {
        #expect(LoopError("uv_pipe_open", code: -EBADF).kind == .other(-EBADF))
        #expect(LoopError("uv_test", code: -123_456).kind == .other(-123_456))
    }

    @Test func isPeerGoneExactlyForBrokenPipeResetAndAborted() {
        let peerGone: Set<LoopError.Code> = [.brokenPipe, .connectionReset, .connectionAborted]
        for entry in Self.mapped {
            let error = LoopError("uv_test", code: entry.code)
            #expect(error.isPeerGone == peerGone.contains(entry.kind), "\(entry.name)")
        }
        #expect(!LoopError("uv_test", code: -EBADF).isPeerGone)
    }

    @Test func aCodeDescribesItselfAsWrittenInSwift() {
        #expect(LoopError.Code.addressInUse.description == "addressInUse")
        #expect(LoopError.Code.other(-9).description == "other(-9)")
    }
}
