#if canImport(Glibc)
import Glibc
#endif

extension StartupConfiguration {
    /// The default state directory of the app named `app`, per the XDG base
    /// directory specification: `$XDG_STATE_HOME/<app>` when
    /// `XDG_STATE_HOME` is an absolute path, else `$HOME/.local/state/<app>`
    /// (the home directory from the password database when `HOME` is not
    /// set).
    ///
    /// The runtime names the app after its executable (`chatd` for
    /// `/usr/bin/chatd`), not its root component: roots made from the
    /// templates are all `AppComponent`.
    ///
    /// - Parameters:
    ///   - app: The directory's last component.
    ///   - environment: Variables to read instead of the process's
    ///     environment (for tests).
    public static func defaultStateDirectory(app: String, environment: [String: String]? = nil) -> String {
        func variable(_ name: String) -> String? {
            let value = environment.map { $0[name] } ?? getenv(name).map { String(cString: $0) }
            return value?.isEmpty == false ? value : nil
        }
        if let state = variable("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state + "/" + app
        }
        let home = variable("HOME") ?? (environment == nil ? passwordDatabaseHome() : nil) ?? "."
        return home + "/.local/state/" + app
    }

    /// The state directory the runtime gives the app named `app`.
    package func resolvedStateDirectory(app: String) -> String {
        stateDirectory ?? Self.defaultStateDirectory(app: app)
    }

    /// The name of the running executable (the last component of
    /// `argv[0]`), if it has one.
    package static var executableName: String? {
        guard let path = CommandLine.arguments.first,
              let name = path.split(separator: "/").last, !name.isEmpty else { return nil }
        return String(name)
    }

    private static func passwordDatabaseHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0,
              result != nil, let directory = entry.pw_dir else { return nil }
        return String(cString: directory)
    }
}
