import Compose

extension Diagnostic.Code {
    /// A configuration file could not be read or parsed: at startup the app
    /// goes on without it, on a reload with the values it had.
    public static let configurationFileRejected = Self(rawValue: "configurationFileRejected")
    /// A command-line flag of no setting the app has (none read while it
    /// started, nor named in `ConfigOptions.descriptions` or `defaults`):
    /// a misspelling, or a setting the app does not have (see `--help`).
    /// The app stops with exit status 64 and a usage line.
    public static let unknownArgument = Self(rawValue: "unknownArgument")
    /// A positional command-line argument that the app does not declare
    /// (`ConfigOptions.positionalKeys`): the app exits 64 with a usage line.
    public static let unexpectedArgument = Self(rawValue: "unexpectedArgument")
    /// A runtime setting outside its range (`busyPollMicroseconds` above
    /// 10,000, say): the app goes on with the nearest value in range, which
    /// the message names.
    public static let settingOutOfRange = Self(rawValue: "settingOutOfRange")
}
