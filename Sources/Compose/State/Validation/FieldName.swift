/// Readable field names for ``Field``, ``Each`` and ``Equal``.
enum FieldName {
    /// The key path's properties without its root type: `\SignUp.email`
    /// gives "email", `\Order.address.city` "address.city".
    static func derived(from keyPath: AnyKeyPath) -> String {
        let description = String(describing: keyPath)
        guard let dot = description.firstIndex(of: ".") else { return description }
        return String(description[description.index(after: dot)...])
    }
}
