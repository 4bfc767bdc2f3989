extension Diagnostic.Code {
    /// An ``HTTPExchange`` was released before it was answered (or while
    /// its streamed answer was unfinished): the client got 500 (or the
    /// connection closed mid-answer).
    public static let httpExchangeUnanswered = Diagnostic.Code(rawValue: "httpExchangeUnanswered")
    /// An ``HTTPExchange`` was answered twice, or written to after its
    /// answer ended: the second answer was dropped.
    public static let httpAlreadyAnswered = Diagnostic.Code(rawValue: "httpAlreadyAnswered")
}

extension Diagnostic.Code {
    /// A request's body was asked for (``HTTPExchange/collectBody(upTo:)``,
    /// ``HTTPExchange/body``) after the handler returned and the body had
    /// been read and dropped: ask for it in the handler itself.
    public static let httpBodyNotAvailable = Diagnostic.Code(rawValue: "httpBodyNotAvailable")
}
