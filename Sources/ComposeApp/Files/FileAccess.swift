internal import CLibUV
import Compose

/// A file opened for reading through a ``FileAccess``.
enum OpenedFile {
    /// A descriptor of the real file system.
    case descriptor(Int32)
    /// A file of a test context's file system.
    case simulated(SimulatedFile)
}

/// Where the app's file reads go: libuv's thread pool (``FSRequest``) in a
/// live app, the simulated files in a test context. The one seam between
/// the readers (``AppContext/readFile(_:maximumSize:_:)``, ``FileTail``)
/// and the two worlds, small and byte-oriented; every completion comes
/// later, never inside the call (through the clock in a test context),
/// except a failure to start a request: libuv refused it, or the loop
/// was torn down (``LoopError/Code/noEventLoop``).
@MainActor
enum FileAccess {
    case live(EventLoop)
    case simulated(SimulatedFileSystem)

    /// The access of `context` (by default the running app's).
    static func resolve(_ context: AppContext?, for operation: String) throws(LoopError) -> FileAccess {
        let context = context ?? AppContext.current
        if let files = context?.simulatedFiles { return .simulated(files) }
        return .live(try EventLoop.resolve(context, for: operation))
    }

    /// Opens `path` for reading.
    func open(_ path: String, _ completion: @escaping @MainActor (Result<OpenedFile, LoopError>) -> Void) {
        switch self {
        case .live(let loop):
            FSRequest.open(path, on: loop) { completion($0.map(OpenedFile.descriptor)) }
        case .simulated(let files):
            later(files) {
                if let file = files.file(at: path) {
                    completion(.success(.simulated(file)))
                } else if files.exists(path) {
                    completion(.failure(LoopError("uv_fs_open", code: UV_EISDIR.rawValue, context: "\(path) (a directory: the test wrote no file there)")))
                } else {
                    completion(.failure(LoopError("uv_fs_open", code: UV_ENOENT.rawValue, context: path)))
                }
            }
        }
    }

    /// The status of an open file (`fstat`).
    func status(of file: OpenedFile, path: String, _ completion: @escaping @MainActor (Result<FileStatus, LoopError>) -> Void) {
        switch (self, file) {
        case (.live(let loop), .descriptor(let fd)):
            FSRequest.status(of: fd, path: path, on: loop, completion)
        case (.simulated(let files), .simulated(let file)):
            later(files) { completion(.success(file.status)) }
        default:
            completion(.failure(LoopError("uv_fs_fstat", code: UV_EBADF.rawValue, context: path)))
        }
    }

    /// The status of the file `path` names now (`stat`).
    func status(ofPath path: String, _ completion: @escaping @MainActor (Result<FileStatus, LoopError>) -> Void) {
        switch self {
        case .live(let loop):
            FSRequest.status(ofPath: path, on: loop, completion)
        case .simulated(let files):
            later(files) {
                if let file = files.file(at: path) {
                    completion(.success(file.status))
                } else if files.exists(path) {
                    completion(.success(FileStatus(identity: FileStatus.Identity(device: 0, inode: 0), size: 0, isRegularFile: false, isDirectory: true)))
                } else {
                    completion(.failure(LoopError("uv_fs_stat", code: UV_ENOENT.rawValue, context: path)))
                }
            }
        }
    }

    /// Reads at most `buffer.size` bytes of `file` at `offset` into
    /// `buffer`: a chunk of them, or `nil` at the end of the file.
    func read(_ file: OpenedFile, path: String, at offset: Int64, into buffer: ReadBuffer, _ completion: @escaping @MainActor (Result<ByteChunk?, LoopError>) -> Void) {
        switch (self, file) {
        case (.live(let loop), .descriptor(let fd)):
            FSRequest.read(fd, path: path, into: buffer, at: offset, on: loop) { result in
                completion(result.map { $0 == 0 ? nil : ByteChunk(buffer: buffer, count: $0) })
            }
        case (.simulated(let files), .simulated(let file)):
            later(files) {
                let start = Int(clamping: offset)
                guard start < file.bytes.count else { return completion(.success(nil)) }
                let slice = file.bytes[start..<min(file.bytes.count, start + buffer.size)]
                buffer.memory.copyBytes(from: slice)
                completion(.success(ByteChunk(buffer: buffer, count: slice.count)))
            }
        default:
            completion(.failure(LoopError("uv_fs_read", code: UV_EBADF.rawValue, context: path)))
        }
    }

    /// Closes `file`.
    func close(_ file: OpenedFile) {
        if case .live(let loop) = self, case .descriptor(let fd) = file {
            FSRequest.close(fd, on: loop)
        }
    }

    /// Runs `action` on the test context's clock, once the caller returned.
    private func later(_ files: SimulatedFileSystem, _ action: @escaping @MainActor () -> Void) {
        files.context?.simulate(action)
    }
}
