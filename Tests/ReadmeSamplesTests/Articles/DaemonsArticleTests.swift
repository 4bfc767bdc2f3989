import ComposeApp
import ComposeTesting
import Testing

// Sources/ComposeApp/ComposeApp.docc/DaemonsAndIO.md. The shouter and the
// greeter are the README's (TestAppSampleTests, ConfigurationSampleTests);
// this is the console.

@MainActor
final class ConsoleLog {
    var lines: [String] = []
}

struct Console: Component {
    let input = StandardInput()
    let hangup = ProcessSignal(.hangup)
    let log = ConsoleLog()
    var observers: Void {
        input += { command in
            log.lines.append("> \(command)")
            if command == "quit" { Application.shutdown(status: 0) }
        }
        input.didReachEnd += { Application.shutdown(status: 0) }     // Ctrl-D
        hangup += { _ in log.lines.append("reloading") }        // kill -HUP
    }
}

@MainActor
@Test func theConsoleReadsLinesAndEndsWithItsInput() {
    let app = TestApp(root: Console())
    app.standardInput.write("status\n")
    app.send(.hangup)
    #expect(app.root(as: Console.self)?.log.lines == ["> status", "reloading"])
    #expect(app.exitStatus == nil)

    app.standardInput.close()
    #expect(app.exitStatus == 0)
}

// The Files section: the message of the day read again on `kill -HUP`,
// without blocking the loop.

@MainActor
final class MessageOfTheDay {
    var value = ""
}

struct MotdReloader: Component {
    let hangup = ProcessSignal(.hangup)
    let motd = MessageOfTheDay()
    var observers: Void {
        hangup += { _ in
            Application.readFile("/etc/chat/motd.txt", maximumSize: 64 * 1024) { result in
                switch result {
                case .success(let bytes): motd.value = String(decoding: bytes, as: UTF8.self)
                case .failure(let error): Application.logger.warning("motd kept: \(error)")
                }
            }
        }
    }
}

@MainActor
@Test func theMessageOfTheDayIsReadAgainOnHangup() {
    let app = TestApp(root: MotdReloader()) { app in
        app.files.write("/etc/chat/motd.txt", "Welcome\n")
    }
    app.send(.hangup)
    #expect(app.root(as: MotdReloader.self)?.motd.value == "Welcome\n")
    app.files.write("/etc/chat/motd.txt", String(repeating: "x", count: 65 * 1024))
    app.send(.hangup)
    #expect(app.root(as: MotdReloader.self)?.motd.value == "Welcome\n", "a file over the limit is not read")
}

// ComposeTesting's Testing article: files with contents, and a rotation
// written faster than the app reads.

struct LogShipper: Component {
    let log = FileTail(path: "/var/log/app.log")
    let shipped = ConsoleLog()
    var observers: Void {
        log += { line in shipped.lines.append(line) }
    }
}

@MainActor
@Test func aLogShipperFollowsTheLogAcrossARotationWithoutSendingALineTwice() throws {
    let app = TestApp(root: LogShipper()) { app in
        app.files.write("/var/log/app.log", "booted\n")
    }
    app.files.append("/var/log/app.log", "GET /\n")        // the tail sends "GET /"
    app.run {                                              // logrotate, faster than the app
        app.files.rename("/var/log/app.log", to: "/var/log/app.log.1")
        app.files.write("/var/log/app.log", "GET /health\n")
    }
    let shipper = try #require(app.root(as: LogShipper.self))
    #expect(shipper.shipped.lines == ["GET /", "GET /health"])
    #expect(app.files.text(of: "/var/log/app.log.1") == "booted\nGET /\n")
}
