// A terminal app of views, run in tmux by the end-to-end tests
// (Tests/ComposeAppTests/ViewsEndToEndTests.swift): a router of two
// screens, a list with a selection, a text field, key bindings and a help
// line, and a title bar whose right end follows the terminal's width.
//   list screen   type a name and Enter to add it; Tab to the list;
//                 Up/Down select; Enter opens the selected item
//   item screen   Escape goes back
// SIGTERM and SIGINT shut it down gracefully; Ctrl+C too.
import ComposeTerminal
#if canImport(Glibc)
import Glibc
#endif

@main
struct ViewsFixture: RouterComponent, StartupComponent {
    let items = ItemsScreen()
    let item = ItemScreen()
    let router = Router(start: \Self.items)
    var observers: Void {
        items.open += { name in
            item.name = name
            router.push(\Self.item)
        }
        item.back += { router.pop() }
    }
}

extension ViewsFixture: ViewComponent {
    var view: some View {
        VStack {
            HStack {
                Text("Views fixture").bold()
                Text(" pid \(getpid())")
                Spacer()
                Text("right edge")
            }
            RouterView(router).border()
            HelpLine()
        }
    }
}

struct ItemsScreen: Component {
    @Store var names = ["apples", "bread"]
    @Store var selected = 0
    @Store var draft = TextInput()
    let open = Emitter<String>()
    var observers: Void { None }
}

extension ItemsScreen: ViewComponent {
    var view: some View {
        VStack {
            HStack { Text("new: "); TextField("type a name", input: draft).focusName("draft") }
            List(names, selection: selected) { name in Text(name) }.focusName("names")
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding.input(whileFocused: "draft") { draft.apply($0) }
        KeyBinding(.enter, "add", whileFocused: "draft") {
            guard !draft.isEmpty else { return }
            names.append(draft.text)
            draft.clear()
        }
        KeyBinding(.down, "next", whileFocused: "names") { selected = min(names.count - 1, selected + 1) }
        KeyBinding(.up, "previous", whileFocused: "names") { selected = max(0, selected - 1) }
        KeyBinding(.enter, "open", whileFocused: "names") { open.send(names[selected]) }
    }
}

struct ItemScreen: Component {
    @Store var name = ""
    let back = SignalEmitter()
    var observers: Void { None }
}

extension ItemScreen: ViewComponent {
    var view: some View {
        Text("item: \(name)")
    }

    var keyBindings: [KeyBinding] {
        KeyBinding(.escape, "back") { back.send() }
    }
}
