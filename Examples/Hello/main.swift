// A first look at Compose: a tree of two components talking through
// emitters. `make run` starts it. (The event-loop runtime, StartupComponent
// and the chat daemon that will replace this example are on their way; this
// one drives the tree by hand.)
import Compose

/// A child component: it owns an emitter and reacts to its own lifecycle.
struct GreeterComponent: Component {
    let greet = Emitter<String>()
}

extension GreeterComponent {
    var observers: Void {
        didAppear += {
            print("greeter appeared")
        }
        greet += { name in
            print("Hello, \(name)!")
        }
    }
}

/// The root: it holds the greeter and a signal, and wires them together.
struct AppComponent: Component {
    let greeter = GreeterComponent()
    let start = SignalEmitter()
}

extension AppComponent {
    var observers: Void {
        didAppear += {
            print("app appeared")
        }
        start += {
            for name in ["Linux", "Compose"] {
                greeter.greet.send(name)
            }
        }
        didDisappear += {
            print("app disappeared")
        }
    }
}

// Top-level code runs on the main actor, like everything in Compose.
let app = AppComponent()
let tree = ComponentTree(app)      // bind: observers run, children first
tree.activate()                    // didAppear, parents before children
app.start.send()                   // copies share emitters with the tree
tree.destroy()                     // didDisappear, then every observer is cancelled
