@testable import ComposeApp
import Foundation
import Testing

/// The environment is read from `environ` (child processes' inherited
/// environment) and `getenv` (the configuration's environment layer)
/// instead of Foundation's ProcessInfo, which an app does not load: they
/// must see what ProcessInfo sees.
@MainActor
@Suite struct ProcessEnvironmentTests {
    @Test func theVariablesAreWhatProcessInfoReads() {
        let variables = ProcessEnvironment.variables()
        #expect(!variables.isEmpty)
        #expect(variables == ProcessInfo.processInfo.environment)
    }

    @Test func aValueWithAnEqualsSignKeepsEverythingAfterTheFirstOne() throws {
        // Read-only: setenv while other tests' threads read the environment
        // is not safe, so this checks whatever variable has a "=" in its
        // value, if any, against getenv.
        for (name, value) in ProcessEnvironment.variables() where value.contains("=") {
            let raw = try #require(getenv(name))
            #expect(String(cString: raw) == value)
        }
    }

    @Test func theConfigurationsProcessLayerReadsTheProcessEnvironment() throws {
        let (name, value) = try #require(ProcessEnvironment.variables().first { name, value in
            // A name the environment provider maps back to a key as given:
            // upper-case letters and single underscores between words.
            !name.isEmpty && name.first != "_" && name.last != "_" && !name.contains("__") && !value.isEmpty
                && name.allSatisfy { $0 == "_" || ($0.isASCII && $0.isUppercase) }
        })
        let key = name.lowercased().split(separator: "_").joined(separator: ".")
        let configuration = AppConfiguration(environment: .process)
        #expect(configuration.string(forKey: key) == value)
    }
}
