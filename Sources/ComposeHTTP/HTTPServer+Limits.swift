extension HTTPServer {
    /// What one client may send and how long it may take: every input
    /// from outside has a limit and a defined answer past it.
    ///
    /// | limit | default | past it |
    /// |---|---:|---|
    /// | ``maximumRequestTargetLength`` | 8 KiB | 414, the connection closes |
    /// | ``maximumHeaderSize`` | 16 KiB | 431, closes |
    /// | ``maximumHeaderCount`` | 100 | 431, closes |
    /// | ``maximumBodySize`` | 1 MiB | 413, closes |
    /// | ``headerReadTimeout`` | 10 s | 408, closes |
    /// | ``bodyIdleTimeout`` | 30 s | 408, closes |
    /// | ``keepAliveTimeout`` | 5 s | closes |
    /// | ``maximumPipelinedRequests`` | 16 | reading pauses until answers leave |
    ///
    /// A request the parser rejects is answered 400 and the connection
    /// closes.
    ///
    /// ```swift
    /// var limits = HTTPServer.Limits()
    /// limits.maximumBodySize = 16 << 20
    /// let server = HTTPServer(port: 8080, limits: limits)
    /// ```
    public struct Limits: Sendable, Equatable {
        /// The longest request target (the path and query of the request
        /// line) in bytes: 8 KiB. Past it: 414 URI Too Long.
        public var maximumRequestTargetLength = 8 << 10
        /// The most bytes of header names and values together: 16 KiB.
        /// Past it: 431 Request Header Fields Too Large.
        public var maximumHeaderSize = 16 << 10
        /// The most header fields: 100. Past it: 431.
        public var maximumHeaderCount = 100
        /// The largest request body in bytes, announced or received
        /// (chunked): 1 MiB. Past it: 413 Content Too Large.
        /// ``HTTPExchange/collectBody(upTo:)`` may ask for less.
        public var maximumBodySize = 1 << 20
        /// From a request's first byte (or the connection's start, for its
        /// first request) to the end of its head: 10 s, against clients
        /// that send a header byte now and then (slowloris). Past it: 408
        /// Request Timeout.
        public var headerReadTimeout: Duration = .seconds(10)
        /// The longest wait for the next byte of a request's body: 30 s.
        /// Past it: 408.
        public var bodyIdleTimeout: Duration = .seconds(30)
        /// How long a connection may wait idle between requests: 5 s (as
        /// Node's). Past it the connection closes.
        public var keepAliveTimeout: Duration = .seconds(5)
        /// The most requests of one connection handed out and not yet
        /// answered: 16. Past it the server stops reading that connection
        /// until answers go out (the client's pipelining is paced).
        public var maximumPipelinedRequests = 16

        /// The defaults above.
        public init() {}
    }
}
