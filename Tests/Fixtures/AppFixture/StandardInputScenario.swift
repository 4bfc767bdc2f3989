import ComposeApp

/// `stdin`: echoes each line of standard input, then shuts down at its end.
struct StandardInputScenario: Component {
    let input = StandardInput()
    var observers: Void {
        input += { line in say("line: \(line)") }
        input.didReachEnd += {
            say("end")
            Application.shutdown()
        }
        input.errors += { error in say("error: \(error)") }
    }
}
