import ComposeApp
import Testing

/// README, "Emitters".
@MainActor
@Suite(.serialized) struct EmittersSamplesTests {
    @Test func signalEmitterSample() {
        _ = Printed.take()

        // Define an emitter that doesn't carry any value.
        let printHello = SignalEmitter()

        // Subscribe to an emitter.
        printHello += {
            print("Hello, world!")
        }

        // Later on, emit an event like this:
        printHello.send()

        #expect(Printed.take() == ["Hello, world!"])
    }

    @Test func valueEmitterSample() {
        _ = Printed.take()

        // Define an emitter that carries a certain value.
        let printMessage = Emitter<String>()

        // Subscribe to an emitter.
        printMessage += { message in
            print(message)
        }

        // You can subscribe to an emitter many times in different places.
        printMessage += { message in
            print("Another subscriber says:", message)
        }

        // Later on, emit an event with a value like this:
        printMessage.send("A simple message.")

        #expect(Printed.take() == ["A simple message.", "Another subscriber says: A simple message."])
    }

    @Test func valueEmitterIsTheOriginalName() {
        let emitter: ValueEmitter<String> = Emitter<String>()
        var seen: [String] = []
        emitter += { seen.append($0) }
        emitter.send("same type")
        #expect(seen == ["same type"])
    }

    /// "Emitters Operators": `+=`, `!+=`, `++=`, `~+=`.
    @Test func operatorsSample() {
        let count = Emitter<Int>()
        var every: [Int] = []
        var once: [Int] = []
        var replayed: [Int] = []
        var diffs: [Int] = []

        count += { every.append($0) }
        count !+= { once.append($0) }
        count.send(1)
        count ++= { replayed.append($0) }
        count ~+= { new, previous in diffs.append(new - previous) }
        count.send(4)
        count.send(10)

        #expect(every == [1, 4, 10])
        #expect(once == [1])
        #expect(replayed == [1, 4, 10])
        #expect(diffs == [3, 6])
    }
}
