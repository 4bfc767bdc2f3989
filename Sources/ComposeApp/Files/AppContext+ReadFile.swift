public import Compose
internal import CLibUV

extension AppContext {
    /// Reads the whole file at `path` without blocking the loop, and hands
    /// its bytes to `completion` on the loop thread.
    ///
    /// ```swift
    /// reload += {
    ///     Application.readFile("/etc/app/motd.txt", maximumSize: 64 * 1024) { result in
    ///         switch result {
    ///         case .success(let bytes): motd = String(decoding: bytes, as: UTF8.self)
    ///         case .failure(let error): Application.logger.warning("no motd: \(error)")
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The file is opened, measured, read and closed by libuv's thread pool
    /// (`uv_fs_open`, `uv_fs_fstat`, `uv_fs_read`, `uv_fs_close`), so a slow
    /// disk or network file system stalls no connection: a `read(2)` or
    /// `pread(2)` on the loop thread would stall every one of them for as
    /// long as it takes.
    ///
    /// A file larger than `maximumSize` is not read: `completion` gets a
    /// ``LoopError/Code/fileTooLarge`` error naming the file, its size and
    /// the limit; one that grows past the limit while it is read fails the
    /// same way. So no file makes the app buffer without bound.
    ///
    /// A FIFO (named pipe) or a terminal is not read: the answer is an
    /// `ESPIPE` error naming it, at once. (Waiting for a writer would hold
    /// one of libuv's four thread-pool threads, and the app's shutdown,
    /// for as long as none came.)
    ///
    /// In a test context (`TestApp`) it reads the test's simulated files
    /// (`app.files.write(path, ...)`), with the same errors.
    ///
    /// - Parameters:
    ///   - path: The file to read.
    ///   - maximumSize: The most bytes accepted; 1 MiB unless given.
    ///   - completion: The bytes, or the error: ``LoopError/Code/notFound``,
    ///     ``LoopError/Code/permissionDenied``,
    ///     ``LoopError/Code/isDirectory``, ``LoopError/Code/fileTooLarge``,
    ///     or another read error, each naming the path.
    public func readFile(
        _ path: String,
        maximumSize: Int = 1 << 20,
        _ completion: @escaping @MainActor (Result<[UInt8], LoopError>) -> Void
    ) {
        let access: FileAccess
        do {
            access = try FileAccess.resolve(self, for: "readFile(\(path))")
        } catch {
            completion(.failure(error))
            return
        }
        WholeFileRead(path: path, maximumSize: max(0, maximumSize), access: access, completion: completion).start()
    }

    /// Reads the whole file at `path` without blocking the loop (see
    /// ``readFile(_:maximumSize:_:)``).
    ///
    /// ```swift
    /// let text = String(decoding: try await context.readFile("/etc/app/app.toml"), as: UTF8.self)
    /// ```
    ///
    /// In a test context it completes as the test drives the app (a task
    /// awaiting it resumes after `await app.settle()`).
    public func readFile(_ path: String, maximumSize: Int = 1 << 20) async throws(LoopError) -> [UInt8] {
        let result: Result<[UInt8], LoopError> = await withCheckedContinuation { continuation in
            readFile(path, maximumSize: maximumSize) { (result: Result<[UInt8], LoopError>) in continuation.resume(returning: result) }
        }
        return try result.get()
    }
}

extension Application {
    /// Reads the whole file at `path` without blocking the loop, in the
    /// running app (see `AppContext.readFile(_:maximumSize:_:)`):
    /// the bytes, or a ``LoopError`` naming the path
    /// (``LoopError/Code/fileTooLarge`` past `maximumSize`, 1 MiB unless
    /// given). Outside any app, ``LoopError/Code/noEventLoop``.
    ///
    /// ```swift
    /// Application.readFile("/etc/app/motd.txt") { result in
    ///     if case .success(let bytes) = result { motd = String(decoding: bytes, as: UTF8.self) }
    /// }
    /// ```
    public static func readFile(
        _ path: String,
        maximumSize: Int = 1 << 20,
        _ completion: @escaping @MainActor (Result<[UInt8], LoopError>) -> Void
    ) {
        guard let context else {
            completion(.failure(LoopError.noEventLoop("Application.readFile(\(path))")))
            return
        }
        context.readFile(path, maximumSize: maximumSize, completion)
    }

    /// Reads the whole file at `path` without blocking the loop, in the
    /// running app (see ``readFile(_:maximumSize:_:)``).
    public static func readFile(_ path: String, maximumSize: Int = 1 << 20) async throws(LoopError) -> [UInt8] {
        guard let context else { throw LoopError.noEventLoop("Application.readFile(\(path))") }
        return try await context.readFile(path, maximumSize: maximumSize)
    }
}

/// One ``AppContext/readFile(_:maximumSize:_:)``: open, measure, read to
/// the end (or past the limit), close. Each step's request keeps it alive.
@MainActor
private final class WholeFileRead {
    let path: String
    let maximumSize: Int
    let access: FileAccess
    let completion: @MainActor (Result<[UInt8], LoopError>) -> Void
    private var bytes: [UInt8] = []
    private var buffer = ReadBuffer(size: 64 * 1024)

    init(path: String, maximumSize: Int, access: FileAccess, completion: @escaping @MainActor (Result<[UInt8], LoopError>) -> Void) {
        self.path = path
        self.maximumSize = maximumSize
        self.access = access
        self.completion = completion
    }

    func start() {
        access.open(path) { result in
            switch result {
            case .success(let file): self.measure(file)
            case .failure(let error): self.completion(.failure(error))
            }
        }
    }

    private func measure(_ file: OpenedFile) {
        access.status(of: file, path: path) { result in
            switch result {
            case .failure(let error):
                self.finish(file, .failure(error))
            case .success(let status) where status.isDirectory:
                self.finish(file, .failure(LoopError("uv_fs_read", code: UV_EISDIR.rawValue, context: self.path)))
            case .success(let status) where status.size > Int64(self.maximumSize):
                self.finish(file, .failure(LoopError.fileTooLarge(self.path, size: "\(status.size) bytes", limit: self.maximumSize)))
            case .success(let status):
                // One read for the whole file (and one more to see its end),
                // in at most 1 MiB. (Not `maximumSize + 1`: the limit may be
                // `Int.max`; the size is within it already.)
                let size = min(Int(status.size), (1 << 20) - 1) + 1
                if size > self.buffer.size { self.buffer = ReadBuffer(size: size) }
                self.bytes.reserveCapacity(Int(status.size))
                self.readNext(file)
            }
        }
    }

    private func readNext(_ file: OpenedFile) {
        access.read(file, path: path, at: Int64(bytes.count), into: buffer) { result in
            switch result {
            case .failure(let error):
                self.finish(file, .failure(error))
            case .success(nil):
                self.finish(file, .success(self.bytes))
            case .success(let chunk?):
                chunk.withUnsafeBytes { self.bytes.append(contentsOf: $0) }
                if self.bytes.count > self.maximumSize {
                    self.finish(file, .failure(LoopError.fileTooLarge(self.path, size: "more than \(self.maximumSize) bytes (it grew while read)", limit: self.maximumSize)))
                } else {
                    self.readNext(file)
                }
            }
        }
    }

    private func finish(_ file: OpenedFile, _ result: Result<[UInt8], LoopError>) {
        access.close(file)
        completion(result)
    }
}
