/// How one ``Field`` or ``Each`` checks a state: the building block of a
/// ``Validation``.
struct FieldCheck<State>: Sendable {
    /// The field's key path, by which ``ValidationResult/errors(for:)``
    /// finds its errors.
    let keyPath: any PartialKeyPath<State> & Sendable

    /// Appends the field's errors in `state` to `errors`, in declaration
    /// order, each with its element's index (for an ``Each``). `prefix`
    /// starts every field name (the outer fields of a nested validation,
    /// `"address."`).
    let run: @Sendable (_ state: State, _ prefix: String, _ errors: inout [IndexedError]) -> Void
}

/// An error with the index of the array element it is about, if any.
struct IndexedError {
    let index: Int?
    let error: ValidationError
}
