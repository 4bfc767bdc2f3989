internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// What `stat(2)` says about a file, as far as reading it goes.
struct FileStatus: Equatable {
    /// The device and inode: the file itself, whatever its name now.
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    let identity: Identity
    let size: Int64
    let isRegularFile: Bool
    let isDirectory: Bool
}

/// One-shot file-system requests (`uv_fs_t`) on libuv's thread pool:
/// open, stat, read at an offset, close. The loop never waits for the
/// disk; each completion runs on the loop thread.
///
/// Each request is allocated here, retains what it needs (its completion,
/// and the buffer a read fills) in `data` until its callback, which libuv
/// always calls, and is freed there (or at once when libuv refuses it).
/// A read's buffer thus outlives the request even if its owner lets go of
/// it meanwhile.
@MainActor
enum FSRequest {
    /// What one request keeps alive until its callback.
    final class Pending {
        let operation: String
        let path: String
        /// The memory a read fills (dropped before the completion runs, so
        /// its owner can tell whether anyone else keeps it).
        var buffer: ReadBuffer?
        let completion: @MainActor (UnsafeMutablePointer<uv_fs_t>) -> Void

        init(operation: String, path: String, buffer: ReadBuffer?, completion: @escaping @MainActor (UnsafeMutablePointer<uv_fs_t>) -> Void) {
            self.operation = operation
            self.path = path
            self.buffer = buffer
            self.completion = completion
        }
    }

    /// Opens `path` read-only (`O_CLOEXEC`): the descriptor, or the error
    /// naming the path.
    ///
    /// `O_NONBLOCK`: opening a FIFO for reading would wait for a writer,
    /// maybe forever, holding one of the thread pool's four threads, and
    /// the loop, which runs until every request ends (the app's shutdown,
    /// past its deadline, too). A regular file ignores the flag; a FIFO
    /// opens at once, and its reads, at an offset, fail with `ESPIPE`.
    static func open(_ path: String, on loop: EventLoop, _ completion: @escaping @MainActor (Result<Int32, LoopError>) -> Void) {
        start("uv_fs_open", path: path, buffer: nil, on: loop, failure: { completion(.failure($0)) }, { request, callback in
            uv_fs_open(loop.uv, request, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0, callback)
        }, { request in
            let result = request.pointee.result
            completion(result < 0 ? .failure(LoopError("uv_fs_open", code: Int32(result), context: path)) : .success(Int32(result)))
        })
    }

    /// The status of the open file `fd` (named `path` in errors).
    static func status(of fd: Int32, path: String, on loop: EventLoop, _ completion: @escaping @MainActor (Result<FileStatus, LoopError>) -> Void) {
        start("uv_fs_fstat", path: path, buffer: nil, on: loop, failure: { completion(.failure($0)) }, { request, callback in
            uv_fs_fstat(loop.uv, request, uv_file(fd), callback)
        }, { request in completion(Self.status(request, "uv_fs_fstat", path)) })
    }

    /// The status of `path` (following a symbolic link, as opening it does).
    static func status(ofPath path: String, on loop: EventLoop, _ completion: @escaping @MainActor (Result<FileStatus, LoopError>) -> Void) {
        start("uv_fs_stat", path: path, buffer: nil, on: loop, failure: { completion(.failure($0)) }, { request, callback in
            uv_fs_stat(loop.uv, request, path, callback)
        }, { request in completion(Self.status(request, "uv_fs_stat", path)) })
    }

    /// Reads up to `buffer.size` bytes of `fd` at `offset` into `buffer`:
    /// how many (0 at the end of the file).
    static func read(_ fd: Int32, path: String, into buffer: ReadBuffer, at offset: Int64, on loop: EventLoop, _ completion: @escaping @MainActor (Result<Int, LoopError>) -> Void) {
        start("uv_fs_read", path: path, buffer: buffer, on: loop, failure: { completion(.failure($0)) }, { request, callback in
            var chunk = uv_buf_init(buffer.base.assumingMemoryBound(to: CChar.self), UInt32(buffer.size))
            return uv_fs_read(loop.uv, request, uv_file(fd), &chunk, 1, offset, callback)
        }, { request in
            let result = request.pointee.result
            completion(result < 0 ? .failure(LoopError("uv_fs_read", code: Int32(result), context: path)) : .success(result))
        })
    }

    /// Closes `fd`; a failure is of no use to a reader and is ignored.
    /// Once the loop is torn down, nothing waits for the disk any more: it
    /// is closed at once.
    static func close(_ fd: Int32, on loop: EventLoop) {
        start("uv_fs_close", path: "", buffer: nil, on: loop, failure: { _ in _ = Glibc.close(fd) }, { request, callback in
            uv_fs_close(loop.uv, request, uv_file(fd), callback)
        }, { _ in })
    }

    private static func status(_ request: UnsafeMutablePointer<uv_fs_t>, _ operation: String, _ path: String) -> Result<FileStatus, LoopError> {
        let result = request.pointee.result
        guard result >= 0 else { return .failure(LoopError(operation, code: Int32(result), context: path)) }
        let info = request.pointee.statbuf
        // The file type bits of `st_mode` (`S_IFMT`, `S_IFREG`, `S_IFDIR`).
        let type = info.st_mode & 0o170000
        return .success(FileStatus(
            identity: FileStatus.Identity(device: info.st_dev, inode: info.st_ino),
            size: Int64(info.st_size),
            isRegularFile: type == 0o100000,
            isDirectory: type == 0o040000
        ))
    }

    /// Allocates a request, retains `pending` in it, and issues it with
    /// `issue`; on a refusal, frees it and calls `failure` with the error.
    /// Once the loop is torn down (its memory freed), nothing is issued:
    /// `failure` gets ``LoopError/Code/noEventLoop`` at once.
    private static func start(
        _ operation: String,
        path: String,
        buffer: ReadBuffer?,
        on loop: EventLoop,
        failure: @MainActor (LoopError) -> Void,
        _ issue: (UnsafeMutablePointer<uv_fs_t>, uv_fs_cb) -> Int32,
        _ completion: @escaping @MainActor (UnsafeMutablePointer<uv_fs_t>) -> Void
    ) {
        guard !loop.isClosed else {
            return failure(LoopError.noEventLoop("\(operation)(\(path)): the event loop was torn down"))
        }
        assert(loop.isOnLoopThread, "\(operation) on a thread other than its loop's")
        let request = UnsafeMutablePointer<uv_fs_t>.allocate(capacity: 1)
        let pending = Pending(operation: operation, path: path, buffer: buffer, completion: completion)
        request.pointee.data = Unmanaged.passRetained(pending).toOpaque()
        let result = issue(request, fsRequestDidFinishCallback)
        if result < 0 {
            Unmanaged<Pending>.fromOpaque(request.pointee.data).release()
            uv_fs_req_cleanup(request)
            request.deallocate()
            failure(LoopError(operation, code: result, context: path))
        }
    }
}

/// ``fsRequestDidFinish`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var fsRequestDidFinishCallback: uv_fs_cb { { fsRequestDidFinish($0) } }

@MainActor private func fsRequestDidFinish(_ request: UnsafeMutablePointer<uv_fs_t>?) {
    guard let request, let data = request.pointee.data else { return }
    let pending = Unmanaged<FSRequest.Pending>.fromOpaque(data).takeRetainedValue()
    // The buffer's owner gets it back alone (see `ReadBuffer` renewal).
    pending.buffer = nil
    pending.completion(request)
    uv_fs_req_cleanup(request)
    request.deallocate()
}
