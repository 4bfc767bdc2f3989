/// The state the fixture persists: a number, a check derived from it and
/// padding made of its last digit, so a torn or mixed file cannot pass for
/// a committed one.
struct Counter: Codable, Equatable {
    var number: Int
    var check: Int
    var padding: String

    init(number: Int, paddingBytes: Int) {
        self.number = number
        check = Self.check(of: number)
        padding = String(repeating: Character(String(number % 10)), count: paddingBytes)
    }

    /// Whether every field agrees with the number.
    var isIntact: Bool {
        check == Self.check(of: number) && padding.allSatisfy { $0 == Character(String(number % 10)) }
    }

    static func check(of number: Int) -> Int {
        (number &* 2_654_435_761) % 1_000_000_007
    }
}
