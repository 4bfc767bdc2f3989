import Foundation

/// Which CPUs the runner's thread may run on, and so the children it
/// spawns (a spawned process inherits its parent thread's mask). The echo
/// benchmark puts every server on one CPU and the load client on the
/// other: left to the scheduler, the two processes sometimes share a CPU
/// and sometimes not, and a round's throughput then depends on where they
/// landed more than on the server.
///
/// Glibc's module does not export `sched_setaffinity`, so it is looked up
/// by name (it has been in glibc since 2.3).
enum CPUAffinity {
    private typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    /// Bytes of a CPU mask: 1,024 CPUs, glibc's `cpu_set_t`.
    private static let maskBytes = 128

    private static func call(_ name: String) -> Call? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(symbol, to: Call.self)
    }

    /// The CPUs the runner may use now, lowest first.
    static func available() -> [Int] {
        guard let get = call("sched_getaffinity") else { return [] }
        var mask = [UInt8](repeating: 0, count: maskBytes)
        guard get(0, maskBytes, &mask) == 0 else { return [] }
        return (0..<maskBytes * 8).filter { mask[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }

    /// Runs `body` with the calling thread on `cpus` only (all of them
    /// when `nil`), then restores the mask it had.
    static func on<T>(_ cpus: [Int]?, _ body: () throws -> T) rethrows -> T {
        guard let cpus, let get = call("sched_getaffinity"), let set = call("sched_setaffinity") else {
            return try body()
        }
        var saved = [UInt8](repeating: 0, count: maskBytes)
        guard get(0, maskBytes, &saved) == 0 else { return try body() }
        var mask = [UInt8](repeating: 0, count: maskBytes)
        for cpu in cpus where cpu < maskBytes * 8 { mask[cpu / 8] |= 1 << (cpu % 8) }
        guard set(0, maskBytes, &mask) == 0 else { return try body() }
        defer { _ = set(0, maskBytes, &saved) }
        return try body()
    }
}
