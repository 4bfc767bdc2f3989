/// How ``VStack``, ``HStack`` and ``Group`` share their room among their
/// children, along the stack's axis:
///
/// 1. Each child is measured twice along the axis: with nothing offered
///    (its least) and with all the room offered (its most).
/// 2. Each child gets its least; what room is left goes to the children
///    that can grow, the least flexible first, each taking at most an
///    equal share of what is left; ``Spacer``s come last, so they take
///    only what the others leave.
/// 3. When even the least does not fit, the children keep it and the
///    stack overflows; its parent cuts it.
@MainActor
struct StackLayout {
    let axis: Axis
    let spacing: Int
    let children: [any View]

    /// The sizes last worked out, by proposal: a stack inside a stack is
    /// asked the same question several times (its parent's probes, then
    /// its own drawing), and without this each level of nesting would
    /// double the work below it. Views are values made afresh for each
    /// frame, so nothing stale is ever read.
    private let cache = Cache()

    final class Cache {
        var entries: [(width: Int, height: Int, sizes: [Size])] = []
    }

    init(axis: Axis, spacing: Int, children: [any View]) {
        self.axis = axis
        self.spacing = max(0, spacing)
        self.children = children
    }

    /// The children's sizes for `proposal` (along the axis: what each was
    /// given; across it: what each asked for then).
    func sizes(for proposal: ProposedSize) -> [Size] {
        if let hit = cache.entries.first(where: { $0.width == proposal.width && $0.height == proposal.height }) {
            return hit.sizes
        }
        let sizes = layOut(proposal)
        if cache.entries.count >= 8 { cache.entries.removeFirst() }
        cache.entries.append((proposal.width, proposal.height, sizes))
        return sizes
    }

    private func layOut(_ proposal: ProposedSize) -> [Size] {
        let count = children.count
        guard count > 0, !proposal.isTooDeep else { return Array(repeating: .zero, count: count) }
        let gaps = spacing * (count - 1)
        let cross = axis == .vertical ? proposal.width : proposal.height
        let available = max(0, (axis == .vertical ? proposal.height : proposal.width) - gaps)
        func offer(_ length: Int) -> ProposedSize {
            axis == .vertical
                ? proposal.offering(width: cross, height: length, axis: axis)
                : proposal.offering(width: length, height: cross, axis: axis)
        }
        func along(_ size: Size) -> Int { axis == .vertical ? size.height : size.width }

        var least: [Size] = [], most: [Size] = []
        least.reserveCapacity(count)
        most.reserveCapacity(count)
        for child in children {
            let small = child.sizeThatFits(offer(0))
            let large = child.sizeThatFits(offer(available))
            least.append(small)
            most.append(along(large) >= along(small) ? large : small)
        }
        var given = least.map(along)
        var left = available - given.reduce(0, +)
        if left > 0 {
            let order = children.indices.sorted { a, b in
                let spacerA = children[a] is Spacer, spacerB = children[b] is Spacer
                if spacerA != spacerB { return !spacerA }
                let flexA = along(most[a]) - along(least[a]), flexB = along(most[b]) - along(least[b])
                return flexA != flexB ? flexA < flexB : a < b
            }
            // Spacers share only what the others leave: they are counted
            // once the others are served.
            let spacers = children.reduce(0) { $0 + ($1 is Spacer ? 1 : 0) }
            var remaining = count - spacers
            for index in order {
                if remaining == 0 { remaining = spacers }
                let share = left / remaining
                let extra = min(along(most[index]) - given[index], share)
                if extra > 0 {
                    given[index] += extra
                    left -= extra
                }
                remaining -= 1
            }
        }
        return children.indices.map { index in
            let length = given[index]
            let measured: Size
            if length == along(least[index]) {
                measured = least[index]
            } else if length == along(most[index]) {
                measured = most[index]
            } else {
                measured = children[index].sizeThatFits(offer(length))
            }
            return axis == .vertical
                ? Size(width: measured.width, height: length)
                : Size(width: length, height: measured.height)
        }
    }

    /// The stack's size: the children's lengths and gaps along the axis,
    /// the widest (tallest) child across it.
    func size(for proposal: ProposedSize) -> Size {
        let sizes = sizes(for: proposal)
        guard !sizes.isEmpty else { return .zero }
        let gaps = spacing * (sizes.count - 1)
        if axis == .vertical {
            return Size(width: sizes.map(\.width).max() ?? 0, height: sizes.reduce(gaps) { $0 + $1.height })
        }
        return Size(width: sizes.reduce(gaps) { $0 + $1.width }, height: sizes.map(\.height).max() ?? 0)
    }

    /// Draws the children one after the other from the start of `rect`,
    /// each placed across the axis by `crossAlignment`.
    func draw(in rect: Rect, crossAlignment: HorizontalAlignment, canvas: inout Canvas) {
        let sizes = sizes(for: ProposedSize(rect.size, axis: axis))
        var y = rect.origin.y
        for (child, size) in zip(children, sizes) {
            guard y < canvas.clip.maxY else { break }
            let width = min(size.width, rect.size.width)
            canvas.draw(child, in: Rect(x: crossAlignment.x(of: width, in: rect), y: y, width: width, height: size.height))
            y += size.height + spacing
        }
    }

    /// Draws the children one after the other from the left of `rect`,
    /// each placed across the axis by `crossAlignment`.
    func draw(in rect: Rect, crossAlignment: VerticalAlignment, canvas: inout Canvas) {
        let sizes = sizes(for: ProposedSize(rect.size, axis: axis))
        var x = rect.origin.x
        for (child, size) in zip(children, sizes) {
            guard x < canvas.clip.maxX else { break }
            let height = min(size.height, rect.size.height)
            canvas.draw(child, in: Rect(x: x, y: crossAlignment.y(of: height, in: rect), width: size.width, height: height))
            x += size.width + spacing
        }
    }
}
