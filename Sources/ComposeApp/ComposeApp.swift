@_exported public import Compose
// The app's logger (`Application.logger`) is swift-log's `Logger`: apps log
// through it without importing swift-log or depending on it.
@_exported public import Logging
private import CLibUV

/// The libuv runtime of Compose (event loop, `StartupComponent`, timers,
/// signals, sockets, child processes). Apps `import ComposeApp` only; it
/// re-exports `Compose` and swift-log's `Logging`.
public enum ComposeRuntime {
    /// The version of the libuv library the runtime is linked against.
    public static var libuvVersion: String {
        String(cString: uv_version_string())
    }
}
