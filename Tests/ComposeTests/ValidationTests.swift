import Compose
import Testing

/// A sign-up form: the README's validation example.
struct SignUp: Equatable, Sendable {
    var email = "ada@example.com"
    var password = "correct horse"
    var repeated = "correct horse"
    var tags: [String] = ["math"]
}

let signUpRules = Validation<SignUp> {
    Field(\.email, "email") { NonEmpty(); Email() }
    Field(\.password, "password") { Length(8...64) }
    Field(\.repeated, "repeated password") { Equal(to: \.password) }
    Each(\.tags, "tag") { NonEmpty(); Matches(/[a-z]+/) }
}

@Suite struct ValidationTests {
    /// The messages of `state`'s errors under `rules`, in order.
    private func messages<State>(_ rules: Validation<State>, _ state: State) -> [String] {
        rules.validate(state).errors.map(\.message)
    }

    // MARK: The whole form

    @Test func aStateKeepingEveryRuleIsValid() {
        let result = signUpRules.validate(SignUp())
        #expect(result.isValid)
        #expect(result.errors.isEmpty)
        #expect(result.description == "valid")
    }

    @Test func errorsComeInDeclarationOrderFieldByFieldThenRuleByRule() {
        let form = SignUp(email: "", password: "short", repeated: "other", tags: ["ok", ""])
        let result = signUpRules.validate(form)
        #expect(!result.isValid)
        #expect(result.errors.map(\.field) == ["email", "email", "password", "repeated password", "tag[1]", "tag[1]"])
        #expect(result.errors.map(\.rule) == [.nonEmpty, .email, .length, .equal, .nonEmpty, .matches])
        #expect(result.errors.map(\.message) == [
            "email must not be empty",
            "email must be a valid email address",
            "password must be 8 to 64 characters long",
            "repeated password must match password",
            "tag[1] must not be empty",
            "tag[1] is not in the expected format",
        ])
    }

    @Test func theOrderIsTheDeclarationsNotTheFieldsNames() {
        // Declared z, a, m: a dictionary or a set would reorder them.
        struct Form { var z = ""; var a = ""; var m = "" }
        let rules = Validation<Form> {
            Field(\.z) { NonEmpty() }
            Field(\.a) { NonEmpty() }
            Field(\.m) { NonEmpty() }
        }
        for _ in 0..<20 {
            #expect(rules.validate(Form()).errors.map(\.field) == ["z", "a", "m"])
        }
    }

    @Test func errorsForAFieldAreFoundByItsKeyPath() {
        let result = signUpRules.validate(SignUp(email: "", tags: ["a", "B", ""]))
        #expect(result.errors(for: \.email).map(\.rule) == [.nonEmpty, .email])
        #expect(result.errors(for: \.password).isEmpty)
        #expect(result.errors(for: \.tags).map(\.field) == ["tag[1]", "tag[2]", "tag[2]"])
        #expect(result.errors(for: \.tags, at: 2).map(\.rule) == [.nonEmpty, .matches])
        #expect(result.errors(for: \.tags, at: 0).isEmpty)
    }

    @Test func aFieldWithoutANameIsNamedAfterItsKeyPath() {
        struct Order { var address = Address(); var note = "" }
        struct Address { var city = "" }
        let rules = Validation<Order> {
            Field(\.note) { NonEmpty() }
            Field(\.address.city) { NonEmpty() }
        }
        #expect(messages(rules, Order()) == ["note must not be empty", "address.city must not be empty"])
    }

    @Test func theDescriptionJoinsTheMessages() {
        let result = signUpRules.validate(SignUp(password: "", repeated: ""))
        #expect(result.description == "password must be 8 to 64 characters long")
        #expect("\(result.errors[0])" == "password must be 8 to 64 characters long")
    }

    @Test func resultsAreEqualWhenTheirErrorsAre() {
        let a = signUpRules.validate(SignUp(email: ""))
        let b = signUpRules.validate(SignUp(email: "", password: "different but fine"))
        #expect(a != b)   // b also breaks `repeated`
        #expect(a == signUpRules.validate(SignUp(email: "")))
        #expect(signUpRules.validate(SignUp()) == signUpRules.validate(SignUp(tags: [])))
    }

    // MARK: NonEmpty

    @Test func nonEmptyRefusesEmptyStringsAndCollections() {
        struct Form { var name = ""; var items: [Int] = [] }
        let rules = Validation<Form> {
            Field(\.name) { NonEmpty() }
            Field(\.items) { NonEmpty(message: "Add an item") }
        }
        #expect(messages(rules, Form()) == ["name must not be empty", "Add an item"])
        #expect(messages(rules, Form(name: " ", items: [1])).isEmpty)
    }

    // MARK: Email

    @Test(arguments: [
        "ada@example.com", "ada.lovelace@example.co.uk", "a+tag@sub.example.org",
        "o'brien@example.ie", "user_1-x@my-host.example.com", "josé@exämple.de",
    ])
    func emailAcceptsAddresses(_ address: String) {
        #expect(Email<String>().message(for: address, field: "email") == nil)
    }

    @Test(arguments: [
        "", "ada", "ada@", "@example.com", "ada@example", "ada@localhost", "ada@@example.com",
        "ada@example..com", ".ada@example.com", "ada.@example.com", "ada..b@example.com",
        "ada@-example.com", "ada@example-.com", "ada @example.com", "ada@exa mple.com",
        "ada@example.c", "ada@example.123", "ada@ex_ample.com",
    ])
    func emailRefusesWhatIsNotAnAddress(_ address: String) {
        #expect(Email<String>().message(for: address, field: "email") == "email must be a valid email address")
    }

    @Test func emailRefusesOverlongAddresses() {
        let local = String(repeating: "a", count: 65)
        #expect(Email<String>().message(for: "\(local)@example.com", field: "e") != nil)
        #expect(Email<String>().message(for: "\(local.dropFirst())@example.com", field: "e") == nil)
        let domain = Array(repeating: String(repeating: "d", count: 60), count: 5).joined(separator: ".")
        #expect(Email<String>().message(for: "ada@\(domain).com", field: "e") != nil)
    }

    @Test func emailTakesACustomMessageAndWorksOnSubstrings() {
        #expect(Email<Substring>(message: "Check the address").message(for: "x@"[...], field: "e") == "Check the address")
    }

    // MARK: Length

    @Test func lengthChecksBothBoundsOfAClosedRange() {
        let rule = Length<String>(3...5)
        #expect(rule.message(for: "ab", field: "code") == "code must be 3 to 5 characters long")
        #expect(rule.message(for: "abc", field: "code") == nil)
        #expect(rule.message(for: "abcde", field: "code") == nil)
        #expect(rule.message(for: "abcdef", field: "code") != nil)
    }

    @Test func lengthCountsCharactersNotBytes() {
        #expect(Length<String>(exactly: 2).message(for: "é👩‍💻", field: "x") == nil)
    }

    @Test func lengthTakesPartialRangesAndExactCounts() {
        #expect(Length<String>(2...).message(for: "a", field: "name") == "name must be at least 2 characters long")
        #expect(Length<String>(2...).message(for: String(repeating: "a", count: 1000), field: "name") == nil)
        #expect(Length<String>(...3).message(for: "abcd", field: "name") == "name must be at most 3 characters long")
        #expect(Length<String>(...3).message(for: "", field: "name") == nil)
        #expect(Length<String>(exactly: 4).message(for: "123", field: "pin") == "pin must be exactly 4 characters long")
        #expect(Length<String>(exactly: 1).message(for: "", field: "c") == "c must be exactly 1 character long")
    }

    @Test func lengthOfACollectionCountsElements() {
        #expect(Length<[Int]>(1...3).message(for: [], field: "tags") == "tags must have 1 to 3 elements")
        #expect(Length<[Int]>(1...).message(for: [], field: "tags") == "tags must have at least 1 element")
        #expect(Length<[Int]>(1...3).message(for: [1, 2], field: "tags") == nil)
        #expect(Length<[Int]>(...1, message: "One at most").message(for: [1, 2], field: "tags") == "One at most")
    }

    // MARK: Equal

    @Test func equalComparesWithAnotherFieldOrAValue() {
        struct Form { var password = "abc"; var repeated = "abd"; var terms = false; var count = 2 }
        let rules = Validation<Form> {
            Field(\.repeated, "repeated password") { Equal(to: \.password, "your password") }
            Field(\.repeated) { Equal(to: \.password) }
            Field(\.terms) { Equal(to: true, message: "Please accept the terms") }
            Field(\.count) { Equal(to: 3) }
        }
        #expect(messages(rules, Form()) == [
            "repeated password must match your password",
            "repeated must match password",
            "Please accept the terms",
            "count must equal 3",
        ])
        #expect(rules.validate(Form(repeated: "abc", terms: true, count: 3)).isValid)
    }

    // MARK: Matches

    @Test func matchesNeedsTheWholeValueToMatch() {
        let rule = Matches<String>(/[a-z]+/)
        #expect(rule.message(for: "abc", field: "tag") == nil)
        #expect(rule.message(for: "abc1", field: "tag") == "tag is not in the expected format")
        #expect(rule.message(for: "", field: "tag") != nil)
        #expect(Matches<String>(/.*[0-9].*/).message(for: "abc1def", field: "x") == nil)
    }

    @Test func matchesTakesRegexesWithCapturesAndBuiltAtRunTime() throws {
        let code = Matches<String>(/([A-Z]{3})-(\d{4})/, message: "Codes look like ABC-1234")
        #expect(code.message(for: "ABC-1234", field: "code") == nil)
        #expect(code.message(for: "AB-1234", field: "code") == "Codes look like ABC-1234")
        let dynamic = Matches<String>(try Regex("x+y"))
        #expect(dynamic.message(for: "xxy", field: "v") == nil)
        #expect(dynamic.rule == .matches)
    }

    @Test func aValidationIsUsableFromManyTasksAtOnce() async {
        // Regex is not Sendable; the rules share theirs under a lock.
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask { signUpRules.validate(SignUp(tags: [i.isMultiple(of: 2) ? "ok" : "NO"])).isValid }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 32)
    }

    // MARK: Custom

    @Test func customRulesTakeTheValueOrTheValueAndTheState() {
        struct Booking { var start = 10; var end = 5; var guests = 3 }
        let rules = Validation<Booking> {
            Field(\.guests) { Custom("must be even") { $0.isMultiple(of: 2) } }
            Field(\.end) { Custom("must come after the start") { end, booking in end > booking.start } }
            Field(\.guests) {
                Custom("must fit the room", rule: ValidationError.Rule(rawValue: "capacity"), message: "The room holds 2") { $0 <= 2 }
            }
        }
        let result = rules.validate(Booking())
        #expect(result.errors.map(\.message) == ["guests must be even", "end must come after the start", "The room holds 2"])
        #expect(result.errors.map(\.rule.rawValue) == ["custom", "custom", "capacity"])
        #expect(rules.validate(Booking(start: 1, end: 5, guests: 2)).isValid)
    }

    @Test func aRuleTypeOfYourOwnIsNamedAfterItself() {
        struct Postcode: ValidationRule {
            func message(for value: String, field: String) -> String? {
                value.count == 5 && value.allSatisfy(\.isNumber) ? nil : "\(field) must be a five-digit postcode"
            }
        }
        struct Address { var postcode = "12a" }
        let result = Validation<Address> { Field(\.postcode) { Postcode() } }.validate(Address())
        #expect(result.errors == [ValidationError(field: "postcode", rule: ValidationError.Rule(rawValue: "postcode"), message: "postcode must be a five-digit postcode")])
    }

    // MARK: Arrays and nesting

    @Test func eachChecksEveryElementAndNamesItsIndex() {
        struct Form { var scores = [3, -1, 7, -2] }
        let rules = Validation<Form> {
            Each(\.scores, "score") { Custom("must not be negative") { $0 >= 0 } }
        }
        let result = rules.validate(Form())
        #expect(result.errors.map(\.message) == ["score[1] must not be negative", "score[3] must not be negative"])
        #expect(result.errors(for: \.scores, at: 3).count == 1)
        #expect(rules.validate(Form(scores: [])).isValid)
    }

    @Test func eachGoesElementByElementThenRuleByRule() {
        let result = signUpRules.validate(SignUp(tags: ["", "ok", "X"]))
        #expect(result.errors.map(\.field) == ["tag[0]", "tag[0]", "tag[2]"])
        #expect(result.errors.map(\.rule) == [.nonEmpty, .matches, .matches])
    }

    @Test func elementRulesMayCompareWithTheState() {
        struct Team { var captain = "ada"; var members = ["bob", "ada", "cy"] }
        let rules = Validation<Team> {
            Each(\.members, "member") { Custom("must not be the captain") { member, team in member != team.captain } }
        }
        #expect(messages(rules, Team()) == ["member[1] must not be the captain"])
    }

    @Test func nestedValidationsNameTheirFieldsAfterTheOuterOnes() {
        struct Line: Sendable { var product = ""; var quantity = 1 }
        struct Order { var lines: [Line] = []; var billing = Line(product: "x") }
        let lineRules = Validation<Line> {
            Field(\.product) { NonEmpty() }
            Field(\.quantity) { Custom("must be positive") { $0 > 0 } }
        }
        let rules = Validation<Order> {
            Field(\.lines) { Length(1...) }
            Each(\.lines, "line", validatedBy: lineRules)
            Field(\.billing, validatedBy: lineRules)
        }
        let order = Order(lines: [Line(product: "tea"), Line(product: "", quantity: 0)], billing: Line(quantity: -1))
        let result = rules.validate(order)
        #expect(result.errors.map(\.message) == [
            "line[1].product must not be empty",
            "line[1].quantity must be positive",
            "billing.product must not be empty",
            "billing.quantity must be positive",
        ])
        #expect(result.errors(for: \.lines, at: 1).count == 2)
        #expect(result.errors(for: \.billing).map(\.field) == ["billing.product", "billing.quantity"])
        #expect(messages(rules, Order()) == ["lines must have at least 1 element"])
    }

    // MARK: Composition

    @Test func validationsAndRuleSetsCompose() {
        let passwordRules = RuleSet<SignUp, String> {
            Length(8...)
            Matches(/.*[0-9].*/, message: "password needs a digit")
        }
        let requireTags = true
        let rules = Validation<SignUp> {
            Field(\.password) { passwordRules }
            if requireTags { Field(\.tags) { NonEmpty() } }
            // Key paths in a variable must be declared Sendable (literals are inferred so).
            for keyPath: any KeyPath<SignUp, String> & Sendable in [\.email, \.repeated] { Field(keyPath) { NonEmpty() } }
            signUpRules
        }
        let result = rules.validate(SignUp(email: "", password: "short", tags: []))
        #expect(result.errors.map(\.message) == [
            "password must be at least 8 characters long",
            "password needs a digit",
            "tags must not be empty",
            "email must not be empty",
            "email must not be empty",
            "email must be a valid email address",
            "password must be 8 to 64 characters long",
            "repeated password must match password",
        ])
    }
}
