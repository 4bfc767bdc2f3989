@testable import ComposeApp
import Testing

/// LoopError's description, from its internal initializer.
@Suite struct LoopErrorDescriptionTests {
    @Test func describesTheCallTheLibuvErrorAndWhatItWasAbout() {
        // -98 is EADDRINUSE on Linux (libuv uses negated errno values).
        let error = LoopError("uv_tcp_bind", code: -98, context: "127.0.0.1:7070")
        #expect(error.description == "uv_tcp_bind failed: EADDRINUSE (address already in use) for 127.0.0.1:7070")
        #expect(error.name == "EADDRINUSE")
        #expect(LoopError("uv_listen", code: -98).description == "uv_listen failed: EADDRINUSE (address already in use)")
    }
}
