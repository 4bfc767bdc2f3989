/// Why the tool refused to write anything.
struct ScaffoldError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
