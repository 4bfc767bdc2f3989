import ComposeApp

/// A state changed and not saved yet.
struct PendingSave {
    /// The latest state (what ``StatePersistence/restore(_:key:)`` returns
    /// meanwhile).
    var value: Any
    /// Encodes `value` in its envelope.
    var encode: () throws -> [UInt8]
    /// When the first unsaved change came (or the last save failed): the
    /// maximum wait counts from here.
    var firstChange: Duration
    /// When the latest change came: the debounce counts from here.
    var lastChange: Duration
    /// The pending timer, if one is scheduled.
    var timer: ScheduledAction?
}

extension StatePersistence {
    /// Schedules the save of `key` at its due time, unless a timer is
    /// already pending: the due time only moves later while changes come
    /// (the debounce restarts, the maximum wait does not), and a timer that
    /// fires early reschedules itself (``timerFired(for:)``). So a state
    /// changing a thousand times between saves costs one timer, not a
    /// thousand.
    func scheduleSave(of key: String) {
        guard let entry = pending[key], entry.timer == nil else { return }
        guard let scheduler else {
            save(key)
            return
        }
        let delay = dueTime(of: entry) - now
        pending[key]?.timer = scheduler.schedule(after: delay) { [weak self] in
            self?.timerFired(for: key)
        }
    }

    /// The debounce after the last change or the maximum wait after the
    /// first, whichever comes first.
    private func dueTime(of entry: PendingSave) -> Duration {
        min(entry.lastChange + debounce, entry.firstChange + maximumWait)
    }

    private func timerFired(for key: String) {
        guard let entry = pending[key] else { return }
        pending[key]?.timer = nil
        // A libuv timer has millisecond resolution: one that fires up to a
        // millisecond early is on time.
        if dueTime(of: entry) <= now + .milliseconds(1) {
            save(key)
        } else {
            scheduleSave(of: key)
        }
    }

    /// Saves `key`'s pending state now. On failure the state stays pending,
    /// without a timer: the next change (or the shutdown) saves it again,
    /// with the maximum wait counted from now, so a disk that stays full
    /// costs at most one attempt per maximum wait.
    func save(_ key: String) {
        guard var entry = pending[key] else { return }
        if let timer = entry.timer { scheduler?.cancel(timer) }
        entry.timer = nil
        let location = storage.location(of: key)
        let bytes: [UInt8]
        do {
            bytes = try entry.encode()
        } catch {
            pending[key] = nil
            report(.stateSaveFailed, "Cannot save the state \"\(key)\" to \(location): it cannot be encoded (\(error)). The previous save is intact; the next change is saved again.")
            return
        }
        do {
            try storage.save(bytes, key: key)
        } catch {
            entry.firstChange = now
            entry.lastChange = now
            pending[key] = entry
            failing.insert(key)
            context?.counters.countStoreSave(succeeded: false)
            report(.stateSaveFailed, "Cannot save the state \"\(key)\" to \(location): \(error). The previous save is intact; the state is saved again at the next change and at shutdown.")
            return
        }
        pending[key] = nil
        context?.counters.countStoreSave(succeeded: true)
        if failing.remove(key) != nil { logRecovery(of: key) }
        didSave.send(key)
    }
}
