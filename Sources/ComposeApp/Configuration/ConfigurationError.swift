/// Why a configuration file or value could not be used: the file cannot be
/// read or does not parse, or a value does not convert to the type read.
/// A rejected file is reported as a diagnostic
/// (`Diagnostic.Code.configurationFileRejected`) and the app goes on
/// with the values it had; a value that does not convert makes the reader
/// return its default.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, for example "not valid JSON (...)" or "port is
    /// string, not int".
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
