import ComposeApp

/// `loopError`: reads standard input from a file descriptor that is not
/// open, so libuv fails and the error is printed as the app sees it.
struct LoopErrorScenario: Component {
    let input = StandardInput(fileDescriptor: 987)
    var observers: Void {
        input.errors += { error in
            say("error: \(error)")
            say("operation: \(error.operation) name: \(error.name)")
            Application.shutdown()
        }
    }
}
