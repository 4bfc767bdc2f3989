/// An array field of a ``Validation`` whose every element must keep the
/// rules; each error names the element's index.
///
/// ```swift
/// Validation<SignUp> {
///     Each(\.tags, "tag") { NonEmpty(); Matches(/[a-z]+/) }   // "tag[2] must not be empty"
///     Each(\.lines, "line", validatedBy: lineRules)             // "line[0].quantity must ..."
/// }
/// ```
///
/// Errors come element by element (all of element 0's, then element 1's),
/// and within an element in rule order. Rules about the array as a whole
/// (not empty, at most ten) belong to a ``Field`` of the same key path:
/// `Field(\.tags) { Length(1...10) }`.
public struct Each<State, Element>: Sendable {
    let check: FieldCheck<State>

    /// An array whose elements are checked by a list of rules.
    ///
    /// - Parameters:
    ///   - keyPath: Where the array is in the state.
    ///   - name: The name of one element (errors say `"tag[2]"`); by
    ///     default derived from `keyPath`.
    ///   - rules: The rules every element must keep, checked in this order.
    public init(
        _ keyPath: any KeyPath<State, [Element]> & Sendable,
        _ name: String? = nil,
        @RuleBuilder<State, Element> _ rules: () -> RuleSet<State, Element>
    ) {
        let name = name ?? FieldName.derived(from: keyPath)
        let rules = rules()
        check = FieldCheck(keyPath: keyPath) { state, prefix, errors in
            var found: [ValidationError] = []
            for (index, element) in state[keyPath: keyPath].enumerated() {
                rules.check(element, in: state, field: "\(prefix)\(name)[\(index)]", into: &found)
                errors += found.map { IndexedError(index: index, error: $0) }
                found.removeAll(keepingCapacity: true)
            }
        }
    }

    /// An array whose elements are each checked by a validation (arrays of
    /// structs); errors name the element and its field (`"line[1].product"`).
    ///
    /// - Parameters:
    ///   - keyPath: Where the array is in the state.
    ///   - name: The name of one element; by default derived from `keyPath`.
    ///   - validation: The rules of an element's fields.
    public init(
        _ keyPath: any KeyPath<State, [Element]> & Sendable,
        _ name: String? = nil,
        validatedBy validation: Validation<Element>
    ) {
        let name = name ?? FieldName.derived(from: keyPath)
        check = FieldCheck(keyPath: keyPath) { state, prefix, errors in
            for (index, element) in state[keyPath: keyPath].enumerated() {
                errors += validation.errors(of: element, prefix: "\(prefix)\(name)[\(index)].")
                    .map { IndexedError(index: index, error: $0) }
            }
        }
    }
}
