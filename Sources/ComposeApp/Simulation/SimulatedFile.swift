/// A file of a test context's file system: what an inode is to the kernel.
/// A name refers to it until it is renamed or deleted; an app that opened
/// it goes on reading it whatever happens to its names, and a watch
/// started on it follows it, as inotify follows an inode.
@MainActor
package final class SimulatedFile {
    /// Its contents.
    package internal(set) var bytes: [UInt8]
    /// Its inode number, unique in its file system.
    let inode: UInt64

    init(inode: UInt64, bytes: [UInt8] = []) {
        self.inode = inode
        self.bytes = bytes
    }

    /// What `fstat` says about it.
    var status: FileStatus {
        FileStatus(identity: FileStatus.Identity(device: 0, inode: inode), size: Int64(bytes.count), isRegularFile: true, isDirectory: false)
    }
}
