// ComposeFraming: frames (messages) on the byte streams of ComposeApp, over
// SwiftNIO's ByteBuffer. An app that speaks a protocol imports this module,
// which brings ComposeApp and NIOCore's ByteBuffer with it.
@_exported public import ComposeApp
@_exported public import NIOCore
