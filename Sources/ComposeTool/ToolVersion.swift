/// The version of Compose this tool belongs to, and so the version a new
/// app depends on by default. It is the repository's VERSION file, copied
/// here at each release: ComposeToolTests fails when the two differ.
enum ToolVersion {
    static let current = "0.1.0"
}
