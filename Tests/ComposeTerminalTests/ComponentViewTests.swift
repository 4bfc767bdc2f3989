import ComposeTerminal
import ComposeTesting
import Testing

// A small notes app: a router between a list of notes and an editor, a
// help line from a component that stores nothing, and lazy and dynamic
// panels.

struct NotesScreen: Component {
    @Store var notes = ["milk", "eggs", "bread"]
    @Store var selected = 0
    let select = Emitter<Int>()

    var observers: Void {
        select += { selected = $0 }
    }
}

extension NotesScreen: ViewComponent {
    var view: some View {
        List(notes, selection: selected) { Text($0) }
            .border(.rounded, title: "Notes")
    }
}

struct EditorScreen: Component {
    @Store var draft = ""
    let type = Emitter<String>()

    var observers: Void {
        type += { draft += $0 }
    }
}

extension EditorScreen: ViewComponent {
    var view: some View {
        VStack {
            Text("New note").bold()
            TextField("type here", text: draft)
        }
    }
}

/// Stores no emitter or store: found among its parent's children by type.
struct HelpBar: Component {
    var observers: Void { None }
}

extension HelpBar: ViewComponent {
    var view: some View {
        Text("q quit").dim()
    }
}

struct Panel: Component {
    let close = SignalEmitter()
    var observers: Void { None }
}

extension Panel: ViewComponent {
    var view: some View {
        Text("panel")
    }
}

struct NotesApp: RouterComponent {
    let notes = NotesScreen()
    let editor = EditorScreen()
    let lazyPanel = LazyComponent(Panel())
    let dynamicPanel = DynamicComponent<Panel>()
    let help = HelpBar()
    let router = Router(start: \Self.notes)
    let openPanel = SignalEmitter()

    var observers: Void {
        openPanel += {
            dynamicPanel.create { Panel() }
            router.push(\Self.dynamicPanel)
        }
    }
}

extension NotesApp: ViewComponent {
    var view: some View {
        VStack {
            Text("Notes app").bold()
            RouterView(router)
            Spacer()
            ComponentView(help)
        }
    }
}

/// A router that starts on itself: its routable view shows then.
struct Home: RouterComponent {
    let settings = Panel()
    let router = Router(start: \Self.self)
    var observers: Void { None }
}

extension Home: RoutableViewComponent {
    var view: some View {
        RouterView(router).border(title: "Home")
    }

    var routableView: some View {
        Text("welcome")
    }
}

/// A router component without a view of its own shows its top screen.
struct PlainRouter: RouterComponent {
    let first = Panel()
    let router = Router(start: \Self.first)
    var observers: Void { None }
}

/// A component whose view shows itself.
struct Mirror: Component {
    let poke = SignalEmitter()
    var observers: Void { None }
}

extension Mirror: ViewComponent {
    var view: some View {
        VStack {
            Text("mirror")
            ComponentView(self)
        }
    }
}

@MainActor
@Suite struct ComponentViewTests {
    func screen<Root: Component>(_ host: TestHost<Root>, width: Int = 16, height: Int = 7, focus: FocusID? = nil) -> Canvas {
        canvas(ComponentView(node: host.tree.root), width: width, height: height, focus: focus)
    }

    @Test func theViewShowsTheRoutersTopScreenAndFollowsItsChanges() {
        let host = TestHost(NotesApp())
        #expect(render(ComponentView(node: host.tree.root), width: 16, height: 7) == lines(
            "Notes app       ",
            "╭ Notes ───────╮",
            "│milk          │",
            "│eggs          │",
            "│bread         │",
            "╰──────────────╯",
            "q quit          "
        ))
        host.root.notes.select.send(2)
        let selected = screen(host).grid
        #expect(selected.text(row: 4) == "│bread         │")
        #expect(selected[x: 1, y: 4].style.attributes == .reverse)

        host.root.router.push(\NotesApp.editor)
        host.root.editor.type.send("oat")
        let editing = screen(host)
        #expect(editing.grid.text == "Notes app\nNew note\noat\n\n\n\nq quit\n")
        #expect(editing.cursor == Point(x: 3, y: 2))
        #expect(editing.focusRegions.map(\.id) == [FocusID(component: "notesApp.editor", name: "textField.0")])
        #expect(editing.focusedRegion?.component === host.node("notesApp.editor"))
        #expect(editing.componentRegions.map(\.node.path) == ["notesApp", "notesApp.editor", "notesApp.help"])
        #expect(editing.componentRegions.map(\.rect) == [
            Rect(x: 0, y: 0, width: 16, height: 7), Rect(x: 0, y: 1, width: 16, height: 2), Rect(x: 0, y: 6, width: 6, height: 1),
        ])

        host.root.router.pop()
        #expect(screen(host).grid.text(row: 1) == "╭ Notes ───────╮")
        #expect(host.diagnostics.isEmpty)
    }

    @Test func lazyAndDynamicComponentsShowTheirComponentWhileItExists() {
        let host = TestHost(NotesApp())
        #expect(render(ComponentView(host.root.dynamicPanel), width: 5, height: 1) == lines("     "))
        #expect(render(ComponentView(host.root.lazyPanel), width: 5, height: 1) == lines("     "))

        host.root.router.push(\NotesApp.lazyPanel)
        let lazy = screen(host, height: 3)
        #expect(lazy.grid.text == "Notes app\npanel\nq quit\n")
        #expect(lazy.componentRegions.map(\.node.path).contains("notesApp.lazyPanel.component"))

        host.root.router.pop()
        host.root.openPanel.send()
        let dynamic = screen(host, height: 3)
        #expect(dynamic.grid.text == "Notes app\npanel\nq quit\n")
        #expect(dynamic.componentRegions.map(\.node.path).contains("notesApp.dynamicPanel.component"))
        #expect(host.diagnostics.isEmpty)
    }

    @Test func aRouterOnItselfShowsItsRoutableViewAndARouterWithoutViewItsTop() {
        let home = TestHost(Home())
        #expect(render(ComponentView(node: home.tree.root), width: 9, height: 3) == lines("┌ Home ─┐", "│welcome│", "└───────┘"))
        home.root.router.push(\Home.settings)
        #expect(render(ComponentView(node: home.tree.root), width: 9, height: 3) == lines("┌ Home ─┐", "│panel  │", "└───────┘"))
        #expect(home.diagnostics.isEmpty)

        let plain = TestHost(PlainRouter())
        #expect(render(ComponentView(node: plain.tree.root), width: 6, height: 1) == lines("panel "))
    }

    @Test func aComponentShownInsideItselfIsDrawnOnceAndReported() {
        let host = TestHost(Mirror())
        let drawn = screen(host, width: 6, height: 3)
        #expect(drawn.grid.text == "mirror\n\n\n")
        #expect(drawn.wasCut)
        #expect(host.diagnostics.map(\.code) == [.viewRecursion])
    }

    @Test func anUnboundComponentIsStillDrawnForNoNode() {
        let diagnostics = Diagnostics.collectUnattached {
            let drawn = canvas(ComponentView(EditorScreen()), width: 10, height: 2)
            #expect(drawn.grid.text == "New note\ntype here\n")
            #expect(drawn.componentRegions.isEmpty)
            #expect(drawn.focusRegions.first?.component == nil)
        }
        #expect(diagnostics.isEmpty)
    }
}
