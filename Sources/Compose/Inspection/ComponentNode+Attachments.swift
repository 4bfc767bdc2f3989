extension ComponentNode {
    /// The resources stored in this component (``ComponentAttachment``s:
    /// connections, timers, child processes), with the property holding
    /// each, for the runtime's inspection (`compose inspect PID loop` names
    /// a connection by its component's path and property).
    package var labelledAttachments: [(label: String, attachment: any ComponentAttachment)] {
        guard !isDestroyed, !(componentType is AnyClass) else { return [] }
        let layout = ComponentLayout.of(componentType)
        let raw = UnsafeRawBufferPointer(start: address, count: Self.valueSize(of: componentType))
        var result: [(label: String, attachment: any ComponentAttachment)] = []
        for (index, offset) in layout.attachmentOffsets.enumerated() {
            if let attachment = ComponentLayout.attachment(at: offset, in: raw) {
                result.append((layout.attachmentLabels[index], attachment))
            }
        }
        return result
    }

    private static func valueSize<C: Component>(of type: C.Type) -> Int {
        MemoryLayout<C>.size
    }
}
