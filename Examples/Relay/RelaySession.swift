import ComposeApp

/// One client: a line protocol of commands.
///
///     run NAME     starts the command NAME (see `RelaySettings.commands`);
///                  its output lines come back, then `exit: HOW`
///     stop         terminates the running command (its whole group)
///     echo TEXT    answers TEXT at once, even while a command runs
///     stats        answers the timer's lateness (p50, p99, max, in µs);
///                  `stats reset` forgets the samples so far first
///     quit         closes the connection
struct RelaySession: Component {
    let connection: TCPConnection
    let settings: RelaySettings
    /// The app's timer lateness (a shared record, not the monitor
    /// component: a component stored here would become this session's child).
    let lateness: LatenessSamples
    /// The running command, if any (at most one).
    let command = InstanceComponent<CommandComponent>()
}

extension RelaySession {
    var observers: Void {
        connection.lines += { line in
            let (verb, rest) = split(line)
            switch verb {
            case "echo":
                connection.writeLine(rest)
            case "run":
                run(rest)
            case "stop":
                for id in command.ids { command[id]?.process.terminate() }
            case "stats":
                if rest == "reset" { lateness.reset() }
                connection.writeLine(lateness.summary())
            case "quit":
                connection.close()
            default:
                // Never echo unbounded input back: a client could make the
                // daemon queue a reply as long as its longest line.
                let shown = verb.utf8.count > 32 ? String(decoding: verb.utf8.prefix(32), as: UTF8.self) + "…" : String(verb)
                connection.writeLine("error: unknown command \(shown); try run NAME, stop, echo TEXT, stats, quit")
            }
        }

        // The command's output goes to the client with back-pressure: the
        // child's pipes are paused while the client's send queue is above
        // its high-water mark and resumed once it drained, so a client
        // that stops reading stops its command (the pipe fills, the child
        // blocks on its next write) and memory stays bounded.
        command.didCreate += { id in
            guard let process = command[id]?.process else { return }
            process.output.relay(to: connection, pausing: process)
            process.errorOutput.relay(to: connection, pausing: process)
        }

        command.forward(\.finished) += { id, ending in
            connection.writeLine("exit: \(ending)")
            command.remove(id)
        }

        connection.errors += { error in
            guard error.kind == .lineTooLong else { return }
            connection.writeLine("error: line too long (more than \(connection.maximumLineLength))")
        }
    }

    private func run(_ name: String) {
        guard command.ids.isEmpty else {
            connection.writeLine("error: a command is running; stop it first")
            return
        }
        guard let commandLine = settings.commands[name] else {
            let known = settings.commands.keys.sorted().joined(separator: ", ")
            connection.writeLine("error: no command named \(name); known: \(known)")
            return
        }
        command.add { CommandComponent(commandLine: commandLine) }
    }

    /// The word before the first space, and the rest. Searched in the
    /// UTF-8 bytes: a line may be megabytes long, and walking it by
    /// `Character` costs ten times as much.
    private func split(_ line: String) -> (verb: Substring, rest: String) {
        guard let space = line.utf8.firstIndex(of: UInt8(ascii: " ")) else { return (Substring(line), "") }
        return (line[..<space], String(line[line.utf8.index(after: space)...]))
    }
}
