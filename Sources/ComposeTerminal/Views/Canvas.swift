/// What views draw into: a ``CellGrid``, the rectangle drawing is clipped
/// to, the style views inherit from their modifiers, and what the
/// runtime needs to know about the frame besides its cells (the focusable
/// views, the components drawn, where the cursor goes).
///
/// Render a view into a canvas the size of the screen:
///
/// ```swift
/// var canvas = Canvas(size: Size(width: 80, height: 24))
/// canvas.draw(VStack { Text("Hello").bold(); TextField("name", text: name) })
/// canvas.grid.text      // the frame as text, one line per row
/// canvas.cursor         // where the terminal's cursor belongs, if anywhere
/// ```
///
/// A view's ``View/draw(in:canvas:)`` draws its children with
/// ``draw(_:in:)`` and cells with ``put(_:at:style:)``, ``set(_:x:y:)``
/// and ``fill(_:with:)``, all clipped to ``clip``.
@MainActor
public struct Canvas {
    /// The cells drawn so far.
    public private(set) var grid: CellGrid
    /// The rectangle drawing is clipped to now: the intersection of the
    /// grid and every rectangle being drawn into.
    public private(set) var clip: Rect
    /// The style views inherit (``View/bold()``, ``View/foreground(_:)``,
    /// ...): ``Text`` draws in it, its own style on top.
    public var style: Style = .plain
    /// The focusable view that has the focus, chosen by whoever renders
    /// the frame (the runtime moves it with Tab). `nil`: the first
    /// focusable view drawn counts as focused (see ``cursor``).
    public var focus: FocusID?
    /// The focusable views drawn (text fields, lists), in drawing order:
    /// the order Tab moves in.
    public private(set) var focusRegions: [FocusRegion] = []
    /// The components whose views were drawn, outermost first, each with
    /// the part of the screen it took.
    public private(set) var componentRegions: [ComponentRegion] = []
    /// The component whose view is being drawn (``ComponentView``,
    /// ``RouterView``), or `nil` outside any.
    public private(set) var component: ComponentNode?

    /// Views nested deeper than this draw nothing: a view tree that
    /// contains itself (through a computed `body`) ends here instead of
    /// overflowing the stack.
    nonisolated public static let maximumDepth = 100
    private var depth = 0
    /// Per component being drawn, how many focusable views it drew.
    private var focusCount = 0
    /// Nodes whose views are being drawn (a component drawn inside itself
    /// is refused).
    private var nodesBeingDrawn: [ObjectIdentifier] = []
    /// The keys that do something now, for ``HelpLine`` (set by the
    /// runtime from the key bindings of the components on the screen).
    public var keyHelp: [KeyHelp] = []
    /// The name the next focusable view drawn takes (``View/focusName(_:)``).
    private var pendingFocusName: String?
    /// Whether a view went past ``maximumDepth`` or a component was drawn
    /// inside itself (reported once per canvas).
    public private(set) var wasCut = false

    /// A blank canvas of `size`.
    public init(size: Size, focus: FocusID? = nil) {
        self.init(grid: CellGrid(size: size), focus: focus)
    }

    /// A canvas over `grid`, which views draw on top of.
    public init(grid: CellGrid, focus: FocusID? = nil) {
        self.grid = grid
        self.clip = grid.bounds
        self.focus = focus
    }

    // MARK: Drawing views

    /// Draws `view` over the whole grid: the root of a screen is given
    /// every cell.
    public mutating func draw(_ view: some View) {
        draw(view, in: grid.bounds)
    }

    /// Draws `view` into `rect`, clipped to it (and to the current
    /// ``clip``). Nothing is drawn when no cell of `rect` is visible.
    public mutating func draw(_ view: some View, in rect: Rect) {
        let visible = clip.intersection(rect)
        guard !visible.isEmpty else { return }
        guard depth < Self.maximumDepth else {
            cut()
            return
        }
        let savedClip = clip
        clip = visible
        depth += 1
        view.draw(in: rect, canvas: &self)
        depth -= 1
        clip = savedClip
    }

    /// Runs `body` with the clip narrowed to `rect` (a scroll view draws
    /// content larger than its viewport this way).
    public mutating func clipped(to rect: Rect, _ body: (inout Canvas) -> Void) {
        let savedClip = clip
        clip = clip.intersection(rect)
        if !clip.isEmpty { body(&self) }
        clip = savedClip
    }

    /// Runs `body` with the inherited style changed by `change`.
    public mutating func styled(_ change: (inout Style) -> Void, _ body: (inout Canvas) -> Void) {
        let savedStyle = style
        change(&style)
        body(&self)
        style = savedStyle
    }

    /// Draws the view of the component at `node` into `rect`: views
    /// drawn inside belong to that component (their focus regions name
    /// it), and its region is recorded. A component drawn inside its own
    /// view draws nothing the second time (reported once as a
    /// `viewRecursion` diagnostic).
    mutating func drawComponent(_ node: ComponentNode?, content: any View, in rect: Rect) {
        guard let node else {
            draw(content, in: rect)
            return
        }
        let id = ObjectIdentifier(node)
        if nodesBeingDrawn.contains(id) {
            if !wasCut {
                Diagnostics.report(Diagnostic(.viewRecursion, "The view of \(node.path) contains itself (a ComponentView or RouterView that leads back to it); the inner one draws nothing. Show a child component's view instead, or a RoutableViewComponent's routableView for the \\Self.self route.", path: node.path), in: node)
            }
            wasCut = true
            return
        }
        let visible = clip.intersection(rect)
        guard !visible.isEmpty else { return }
        componentRegions.append(ComponentRegion(node: node, rect: visible))
        let savedComponent = component, savedCount = focusCount
        component = node
        focusCount = 0
        nodesBeingDrawn.append(id)
        draw(content, in: rect)
        nodesBeingDrawn.removeLast()
        component = savedComponent
        focusCount = savedCount
    }

    private mutating func cut() {
        if !wasCut {
            Diagnostics.report(Diagnostic(.viewRecursion, "A view tree nested deeper than \(Self.maximumDepth) views (a view whose body contains itself?); the views below that depth draw nothing.", path: component?.path), in: component)
        }
        wasCut = true
    }

    // MARK: Drawing cells

    /// Writes `text` from `point` rightwards, clipped to ``clip``, in
    /// `style` (the inherited ``style`` when `nil`); returns the columns
    /// it took (see ``CellGrid/put(_:at:style:clip:)``).
    @discardableResult
    public mutating func put(_ text: some StringProtocol, at point: Point, style: Style? = nil) -> Int {
        grid.put(text, at: point, style: style ?? self.style, clip: clip)
    }

    /// Sets one cell if it lies inside ``clip``.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard clip.contains(Point(x: x, y: y)) else { return }
        set(grid.pack(cell), x: x, y: y)
    }

    /// Sets one packed cell if it lies inside ``clip`` (``set(_:x:y:)``
    /// without making a ``Cell``).
    @inline(__always)
    mutating func set(_ cell: PackedCell, x: Int, y: Int) {
        // The clip lies inside the grid.
        guard clip.contains(Point(x: x, y: y)) else { return }
        if cell.width == 2 {
            // A wide character needs both of its cells visible.
            guard clip.contains(Point(x: x + 1, y: y)) else {
                grid.set(.space(cell), x: x, y: y)
                return
            }
            grid.set(cell, x: x, y: y)
            grid.set(cell.with(code: 0x20, width: 0), x: x + 1, y: y)
            return
        }
        grid.set(cell, x: x, y: y)
    }

    /// Writes printable ASCII `bytes` (one column each) from column `x`
    /// of row `y` rightwards as cells of `look` (a packed style), clipped
    /// to ``clip``.
    mutating func put(ascii bytes: ArraySlice<UInt8>, x: Int, y: Int, look: PackedCell) {
        guard y >= clip.origin.y, y < clip.maxY else { return }
        let from = max(x, clip.origin.x), to = min(x + bytes.count, clip.maxX)
        guard from < to else { return }
        let start = bytes.startIndex + (from - x)
        grid.write(ascii: bytes[start..<(start + to - from)], x: from, y: y, look: look)
    }

    /// The code of `character` in this canvas's grid (see ``PackedCell``).
    mutating func code(of character: Character) -> UInt32 {
        grid.code(of: character)
    }

    /// Fills the visible part of `rect` with `cell` (a space in the
    /// inherited style when `nil`).
    public mutating func fill(_ rect: Rect, with cell: Cell? = nil) {
        grid.fill(clip.intersection(rect), with: cell ?? Cell(" ", style: style))
    }

    // MARK: Focus

    /// Runs `body` with the focusable view it draws named `name` (see
    /// ``View/focusName(_:)``); the name goes to the first one only.
    public mutating func naming(_ name: String, _ body: (inout Canvas) -> Void) {
        let saved = pendingFocusName
        pendingFocusName = name
        body(&self)
        pendingFocusName = saved
    }

    /// Records a focusable view drawn at `rect` (its visible part is
    /// kept), with the cursor position it wants when focused, and returns
    /// its ``FocusID`` (the component drawing it and the view's
    /// `name`, or its kind and place among the component's focusable
    /// views). Returns `nil` when no cell of it is visible.
    @discardableResult
    public mutating func addFocusRegion(_ kind: FocusRegion.Kind, rect: Rect, name: String? = nil, cursor: Point? = nil) -> FocusID? {
        let visible = clip.intersection(rect)
        let index = focusCount
        focusCount += 1
        let name = name ?? pendingFocusName
        pendingFocusName = nil
        guard !visible.isEmpty else { return nil }
        let id = FocusID(component: component?.path, name: name ?? "\(kind.rawValue).\(index)")
        let shownCursor = cursor.flatMap { visible.contains($0) ? $0 : nil }
        focusRegions.append(FocusRegion(id: id, kind: kind, rect: visible, component: component, cursor: shownCursor))
        return id
    }

    /// Whether the focusable view `id` has the focus: it is ``focus``, or
    /// ``focus`` is `nil` and it is the first focusable view drawn.
    public func isFocused(_ id: FocusID) -> Bool {
        if let focus { return focus == id }
        return focusRegions.first?.id == id
    }

    /// The region that has the focus: the one named ``focus``, or the
    /// first one drawn when ``focus`` is `nil` or names none drawn.
    public var focusedRegion: FocusRegion? {
        if let focus, let region = focusRegions.first(where: { $0.id == focus }) { return region }
        return focusRegions.first
    }

    /// Where the terminal's cursor belongs: the cursor of the focused
    /// region (a ``TextField``'s insertion point), or `nil` to hide it.
    public var cursor: Point? { focusedRegion?.cursor }
}

extension Diagnostic.Code {
    /// A terminal view contains itself: a component's view shows that
    /// component again, or views nest past ``Canvas/maximumDepth``.
    public static let viewRecursion = Diagnostic.Code(rawValue: "viewRecursion")
}
