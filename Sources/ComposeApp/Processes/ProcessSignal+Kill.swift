extension ProcessSignal.Name {
    /// `SIGKILL`: ends a process at once. It can be sent
    /// (``ChildProcess/kill(_:)``), never listened for.
    public static let kill = ProcessSignal.Name(rawValue: 9, name: "SIGKILL")

    /// The conventional name of signal `number` (`SIGTERM` for 15), or
    /// `signal N` for one without a well-known name.
    static func describe(_ number: Int32) -> String {
        let names: [Int32: String] = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 6: "SIGABRT",
            7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV",
            12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
        ]
        return names[number] ?? "signal \(number)"
    }
}
