import Compose

extension Diagnostic.Code {
    /// A trace recording could not open or write its file: the app goes
    /// on, unrecorded from then on.
    public static let traceRecordingFailed = Self(rawValue: "traceRecordingFailed")
}
