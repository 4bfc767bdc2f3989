internal import CLibUV
import Compose

extension SimulatedFileSystem {
    /// What an inotify watch is on: a directory (by path: the simulation
    /// never moves directories) or a file (its inode, whatever its name).
    enum Target: Hashable {
        case directory(String)
        case file(UInt64)
    }

    /// The inotify event kinds the simulation gives, each reported by
    /// libuv as `UV_RENAME` or `UV_CHANGE`.
    enum Kind: Equatable {
        /// `IN_CREATE`: a name appeared in a watched directory.
        case create
        /// `IN_MODIFY`: contents written or truncated.
        case modify
        /// `IN_ATTRIB`: times, mode or link count changed.
        case attrib
        /// `IN_MOVED_FROM`, `IN_MOVED_TO`: a name moved away, moved in.
        case movedFrom, movedTo
        /// `IN_MOVE_SELF`: the watched file itself was moved.
        case moveSelf
        /// `IN_DELETE`: a name was deleted from a watched directory.
        case delete
        /// `IN_DELETE_SELF`: the watched file or directory is gone.
        case deleteSelf
        /// `IN_IGNORED`: the kernel dropped the watch (after `deleteSelf`).
        case ignored

        /// Whether libuv reports it as `UV_CHANGE` (else `UV_RENAME`).
        var isChange: Bool { self == .modify || self == .attrib }
    }

    /// An event waiting in the (one, per context) inotify queue.
    struct QueuedEvent {
        let target: Target
        /// The entry's name, or `nil` for the watched file or directory
        /// itself (libuv then reports the watched path's base name).
        let name: String?
        let kind: Kind
        let sequence: Int
    }

    /// One `FileWatcher` (or `FileTail`) watching: what libuv's
    /// `uv_fs_event_t` is to inotify. ``close()`` stops it.
    @MainActor
    final class Watch {
        let target: Target
        /// The watched path's base name, which libuv reports for events
        /// about the watched file or directory itself.
        fileprivate let baseName: String
        /// Events queued before it started are not its.
        fileprivate let since: Int
        fileprivate weak var files: SimulatedFileSystem?
        fileprivate var onChange: (@MainActor (FSEventHandle.Change) -> Void)?
        /// The kernel dropped the watch (its file or directory is gone):
        /// nothing more is reported, though it stays open until closed.
        fileprivate var isOver = false

        fileprivate init(target: Target, baseName: String, since: Int, files: SimulatedFileSystem, onChange: @escaping @MainActor (FSEventHandle.Change) -> Void) {
            self.target = target
            self.baseName = baseName
            self.since = since
            self.files = files
            self.onChange = onChange
        }

        /// Stops watching. Idempotent.
        func close() {
            onChange = nil
            files?.detach(self)
            files = nil
        }
    }

    // MARK: The app's side

    /// Starts watching `path`: its inode if a file is there, else the
    /// directory. A watch keeps the app running, as an active handle keeps
    /// a loop alive.
    ///
    /// - Throws: `ENOENT` naming the path when it does not exist.
    func watch(_ path: String, _ onChange: @escaping @MainActor (FSEventHandle.Change) -> Void) throws(LoopError) -> Watch {
        guard exists(path) else {
            throw LoopError("uv_fs_event_start", code: UV_ENOENT.rawValue, context: path)
        }
        let path = Self.normalized(path)
        let target: Target = files[path].map { .file($0.inode) } ?? .directory(path)
        let watch = Watch(target: target, baseName: Self.baseName(path), since: sequence, files: self, onChange: onChange)
        watches.append(watch)
        context?.beginWork()
        return watch
    }

    private func detach(_ watch: Watch) {
        guard let index = watches.firstIndex(where: { $0 === watch }) else { return }
        watches.remove(at: index)
        context?.endWork()
    }

    // MARK: The queue

    /// Queues an event for the watches of `target`, if any is live (the
    /// kernel queues nothing for an unwatched inode); merged into the last
    /// queued one when equal to it, as inotify does.
    func queue(_ target: Target, name: String?, _ kind: Kind) {
        guard watches.contains(where: { $0.target == target && !$0.isOver }) else { return }
        if let last = pendingEvents.last, last.target == target, last.name == name, last.kind == kind,
           kind != .movedFrom, kind != .movedTo {
            return
        }
        sequence += 1
        pendingEvents.append(QueuedEvent(target: target, name: name, kind: kind, sequence: sequence))
        guard !isDeliveryScheduled, let context else { return }
        isDeliveryScheduled = true
        context.simulate { [weak self] in self?.deliver() }
    }

    /// Hands every queued event to the watches of its target that started
    /// before it, in order, as libuv does for each event it reads.
    private func deliver() {
        isDeliveryScheduled = false
        let events = pendingEvents
        pendingEvents = []
        for event in events {
            for watch in watches where watch.target == event.target && watch.since < event.sequence && !watch.isOver {
                // `onChange` may close watches (this one or others).
                guard let onChange = watch.onChange else { continue }
                if event.kind == .ignored { watch.isOver = true }
                onChange(FSEventHandle.Change(name: event.name ?? watch.baseName, renamed: !event.kind.isChange, changed: event.kind.isChange))
            }
        }
    }
}
