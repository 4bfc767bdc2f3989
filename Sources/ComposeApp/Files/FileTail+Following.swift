import Compose

// How a FileTail follows its path: one chain of file requests at a time
// (look for the file, open it, measure it, read it to its end, compare the
// path's file with it), started by each event of the directory watch.
// Events that come while a chain runs, or while reading is paused or held
// by the line budget, are remembered (`needsCheck`) and checked once it
// ends. Every completion first checks that the tail was not stopped (or
// restarted) meanwhile (`isCurrent`); `isBusy` stays set from the start
// of a chain to its end, including while its completions send to the
// observers, so an observer's call cannot start a second chain.

extension FileTail {
    /// The file being read.
    struct Followed {
        let file: OpenedFile
        let identity: FileStatus.Identity
        var offset: Int64
        /// The path names no file: this one is still read.
        var isGone = false
        /// The path names another file: this one is read to its end once
        /// more, then the tail moves on.
        var isReplaced = false
    }

    /// Something may have changed: follows it, now or once the running
    /// chain ends.
    func check() {
        guard access != nil, watch != nil else { return }
        guard !isBusy, !isPaused, !(turns?.isHeld ?? false) else {
            needsCheck = true
            return
        }
        needsCheck = false
        isBusy = true
        if followed != nil { measure() } else { lookForFile() }
    }

    /// Whether a completion of `generation` is still wanted; if not, ends
    /// its chain (closing the file a stop left to it) and lets a restart
    /// that waited for it go on.
    private func isCurrent(_ generation: Int) -> Bool {
        guard generation != self.generation else { return true }
        isBusy = false
        if let orphan {
            self.orphan = nil
            access?.close(orphan)
        }
        if needsCheck { check() }
        return false
    }

    /// The chain ends; checks again if something happened meanwhile.
    private func idle() {
        isBusy = false
        if needsCheck { check() }
    }

    /// Stops after a failure of the followed file.
    private func drop(_ error: LoopError) {
        failed(error)
        isBusy = false
        stop()
    }

    // MARK: Finding the file

    private func lookForFile() {
        guard let access else { return idle() }
        let generation = self.generation
        access.status(ofPath: path) { [self] result in
            guard isCurrent(generation) else { return }
            switch result {
            case .success(let status) where status.isRegularFile:
                open()
            case .success:
                // A directory or a special file: nothing to follow yet.
                noFile()
                idle()
            case .failure(let error) where error.kind == .notFound || error.kind == .notDirectory:
                noFile()
                idle()
            case .failure(let error):
                failed(error)
                idle()
            }
        }
    }

    /// The path names no file: the one that appears is read from its
    /// start, and announced.
    private func noFile() {
        isMissing = true
        isFirstFile = false
    }

    private func open() {
        guard let access else { return idle() }
        let generation = self.generation
        access.open(path) { [self] result in
            guard isCurrent(generation) else {
                if case .success(let file) = result { access.close(file) }
                return
            }
            switch result {
            case .failure(let error) where error.kind == .notFound:
                noFile()
                idle()
            case .failure(let error):
                failed(error)
                idle()
            case .success(let file):
                access.status(of: file, path: path) { [self] result in
                    guard isCurrent(generation) else {
                        access.close(file)
                        return
                    }
                    switch result {
                    case .failure(let error):
                        access.close(file)
                        failed(error)
                        idle()
                    case .success(let status):
                        opened(file, status)
                    }
                }
            }
        }
    }

    /// Follows `file`, from where the start position, or a stop in it,
    /// says.
    private func opened(_ file: OpenedFile, _ status: FileStatus) {
        let offset: Int64
        if let resumePoint, resumePoint.identity == status.identity, resumePoint.offset <= status.size {
            offset = resumePoint.offset
        } else if isFirstFile, startPosition == .end {
            offset = status.size
        } else {
            offset = 0
        }
        isFirstFile = false
        resumePoint = nil
        followed = Followed(file: file, identity: status.identity, offset: offset)
        if isMissing {
            isMissing = false
            let generation = self.generation
            changes.send(.appeared)
            guard isCurrent(generation) else { return }
        }
        readNext()
    }

    // MARK: Reading

    /// Compares the file's size with what was read: shorter means
    /// truncated.
    private func measure() {
        guard let access, let followed else { return idle() }
        let generation = self.generation
        access.status(of: followed.file, path: path) { [self] result in
            guard isCurrent(generation) else { return }
            switch result {
            case .failure(let error):
                drop(error)
            case .success(let status):
                if status.size < followed.offset {
                    self.followed?.offset = 0
                    lines?.finish()
                    changes.send(.truncated)
                    guard isCurrent(generation) else { return }
                }
                readNext()
            }
        }
    }

    /// Reads the next chunk, unless paused or held by the line budget.
    private func readNext() {
        guard let access, let followed else { return idle() }
        if isPaused || (turns?.isHeld ?? false) {
            needsCheck = true
            isBusy = false
            return
        }
        // A chunk an observer kept holds the buffer: read into a new one.
        if !isKnownUniquelyReferenced(&buffer) { buffer = ReadBuffer(size: buffer.size) }
        let generation = self.generation
        access.read(followed.file, path: path, at: followed.offset, into: buffer) { [self] result in
            guard isCurrent(generation) else { return }
            switch result {
            case .failure(let error):
                drop(error)
            case .success(nil):
                endOfFile()
            case .success(let chunk?):
                self.followed?.offset += Int64(chunk.count)
                chunks.send(chunk)
                guard isCurrent(generation) else { return }
                chunk.withUnsafeBytes { lines?.append($0) }
                guard isCurrent(generation) else { return }
                readNext()
            }
        }
    }

    /// Read to the end: does the path still name this file?
    private func endOfFile() {
        guard let access, let followed else { return idle() }
        if followed.isReplaced { return moveOn() }
        let generation = self.generation
        access.status(ofPath: path) { [self] result in
            guard isCurrent(generation) else { return }
            switch result {
            case .success(let status) where status.isRegularFile && status.identity == followed.identity:
                self.followed?.isGone = false
                idle()
            case .success(let status) where status.isRegularFile:
                // Rotated: what was appended to the old file before the
                // rename may have come after this read; read it once more.
                self.followed?.isReplaced = true
                readNext()
            case .success:
                disappeared(generation)
            case .failure(let error) where error.kind == .notFound || error.kind == .notDirectory:
                disappeared(generation)
            case .failure(let error):
                failed(error)
                idle()
            }
        }
    }

    /// The path names no file: the old one is still read, at each change.
    private func disappeared(_ generation: Int) {
        if let followed, !followed.isGone {
            self.followed?.isGone = true
            changes.send(.disappeared)
            guard isCurrent(generation) else { return }
        }
        idle()
    }

    /// The old file is read to its end: its last line goes out, then the
    /// path's new file is followed from its start.
    private func moveOn() {
        guard let followed else { return idle() }
        lines?.finish()
        access?.close(followed.file)
        self.followed = nil
        isMissing = false
        let generation = self.generation
        changes.send(.rotated)
        guard isCurrent(generation) else { return }
        lookForFile()
    }
}

/// The line budget's hold on a ``FileTail`` of a live loop: when the
/// tail's lines used up a turn's budget, reading waits for the next turn,
/// where the backlog goes first (as ``FileReader`` does).
@MainActor
final class TailTurns: TurnBudgeted {
    let loop: EventLoop
    weak var backlog: LineDelivery?
    private weak var tail: FileTail?
    /// Reading waits for the next turn.
    private(set) var isHeld = false

    init(loop: EventLoop, tail: FileTail) {
        self.loop = loop
        self.tail = tail
    }

    func holdUntilNextTurn() {
        guard !isHeld else { return }
        isHeld = true
        loop.resumeNextTurn(self, delivering: backlog?.hasBacklog ?? false)
    }

    func resumeAfterBudget() {
        isHeld = false
        if let backlog, backlog.hasBacklog {
            backlog.deliverBacklog()
            if isHeld { return }
            if backlog.hasBacklog {
                holdUntilNextTurn()
                return
            }
        }
        tail?.check()
    }
}
