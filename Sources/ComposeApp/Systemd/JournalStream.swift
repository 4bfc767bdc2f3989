#if canImport(Glibc)
import Glibc
#endif

/// The stream systemd connects a service's standard output or error to when
/// they go to the journal, as `$JOURNAL_STREAM` names it: `DEVICE:INODE`,
/// both decimal.
///
/// systemd documents the check: a program logs to the journal (with
/// `<N>` priority prefixes, see ``JournalLogHandler``) only if its standard
/// error is still that stream, i.e. the device and inode `fstat` reports
/// for it match. A child whose standard error was redirected inherits the
/// variable but not the stream.
public struct JournalStream: Sendable, Hashable {
    /// The device number (`st_dev`).
    public let device: UInt64
    /// The inode number (`st_ino`).
    public let inode: UInt64

    /// A stream by its device and inode.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// Parses `DEVICE:INODE`; `nil` when `text` is not two decimal numbers
    /// separated by a colon.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        self.init(device: device, inode: inode)
    }

    /// The stream open as `descriptor`, or `nil` when `fstat` fails (it is
    /// not open).
    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether `descriptor` is this stream.
    public func matches(descriptor: Int32) -> Bool {
        JournalStream(descriptor: descriptor) == self
    }
}
