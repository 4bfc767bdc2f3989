@_exported public import Compose
private import CLibUV

/// The libuv runtime of Compose (event loop, `StartupComponent`, timers,
/// signals, sockets, child processes). Apps `import ComposeApp` only; it
/// re-exports `Compose`.
public enum ComposeRuntime {
    /// The version of the libuv library the runtime is linked against.
    public static var libuvVersion: String {
        String(cString: uv_version_string())
    }
}
