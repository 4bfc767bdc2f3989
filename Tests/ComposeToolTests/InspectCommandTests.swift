@testable import ComposeTool
import Foundation
import Testing

/// `compose inspect`'s text width and request lines, without an app.
@Suite struct InspectCommandTests {
    /// Into a pipe or a file nothing is cut; at a terminal, its width (the
    /// kernel's, else `COLUMNS`, else 80); `--width` wins either way.
    @Test func theWidthIsTheTerminalsAndNeverCutsIntoAPipe() {
        #expect(TerminalWidth.columns(requested: nil, isTerminal: false, terminalColumns: 132, environment: ["COLUMNS": "100"]) == 0)
        #expect(TerminalWidth.columns(requested: nil, isTerminal: true, terminalColumns: 132, environment: ["COLUMNS": "100"]) == 132)
        #expect(TerminalWidth.columns(requested: nil, isTerminal: true, terminalColumns: nil, environment: ["COLUMNS": "100"]) == 100)
        #expect(TerminalWidth.columns(requested: nil, isTerminal: true, terminalColumns: 0, environment: ["COLUMNS": "wide"]) == 80)
        #expect(TerminalWidth.columns(requested: nil, isTerminal: true, terminalColumns: nil, environment: [:]) == 80)
        #expect(TerminalWidth.columns(requested: 60, isTerminal: true, terminalColumns: 132) == 60)
        #expect(TerminalWidth.columns(requested: 60, isTerminal: false, terminalColumns: nil) == 60)
        #expect(TerminalWidth.columns(requested: 0, isTerminal: true, terminalColumns: 132) == 0)
    }

    @Test func aTextRequestCarriesItsWidthAndFollowItsTimes() throws {
        func object(_ line: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let tree = try object(InspectCommand.request("tree", argument: nil, text: true, width: 0))
        #expect(tree["width"] as? Int == 0)
        #expect(tree["format"] as? String == "text")
        #expect(tree["time"] == nil)
        let follow = try object(InspectCommand.request("follow", argument: "app.server", text: true, width: 120, utc: true))
        #expect(follow["width"] as? Int == 120)
        #expect(follow["time"] as? String == "utc")
        #expect(follow["path"] as? String == "app.server")
        let json = try object(InspectCommand.request("follow", argument: nil, text: false, width: 120))
        #expect(json["width"] == nil)
        #expect(json["time"] == nil)
    }

    @Test func aNegativeWidthIsRefused() throws {
        let run = try ToolRun.run(ToolPaths.compose, ["inspect", "4242", "tree", "--width=-1"], in: ToolPaths.checkout)
        #expect(run.status != 0)
        #expect(run.errors.contains("--width is a number of columns, 0 or more"), "\(run.errors)")
    }
}
