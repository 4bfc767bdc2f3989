import ComposeApp
import ComposePersistence

/// The visits `plain` counts.
struct Visits: Codable, Equatable {
    var count = 0
}

/// `plain`: a persisted store and no other line about persistence (the
/// app's configuration names no back end in this mode). Prints
/// "restored N" with the count it starts from, counts one visit, and shuts
/// down; the shutdown saves it.
struct PlainScenario: Component {
    @Store(persistedAs: "visits") var visits = Visits()

    var observers: Void {
        didAppear += {
            guard mode == "plain" else { return }
            say("restored \(visits.count)")
            visits.count += 1
            Application.shutdown()
        }
    }
}
