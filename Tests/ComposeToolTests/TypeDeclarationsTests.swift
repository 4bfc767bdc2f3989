@testable import ComposeTool
import Testing

@Suite struct TypeDeclarationsTests {
    @Test func declarationsAfterModifiersAndAttributesAreFound() {
        let text = """
        @main
        public struct AppComponent: RouterComponent {
        final class Box {}
        private enum Mode: String {
        extension Other {}
        let struct_ = 1
            // struct NotACommentType
        fileprivate typealias Alias = Int
        """
        #expect(TypeDeclarations.declaredTypes(in: text) == ["AppComponent", "Box", "Mode", "Alias"])
    }
}
