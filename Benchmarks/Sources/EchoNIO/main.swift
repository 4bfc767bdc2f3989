// The SwiftNIO contender of the echo benchmark: a ServerBootstrap on ONE
// event-loop thread whose handler writes back what it reads and flushes
// once per batch of reads (channelReadComplete), as NIO's own echo example
// does. Listens on 127.0.0.1, port from argv[1] (0: any free port), prints
// "listening PORT" and runs until SIGTERM.

import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

final class EchoHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Writes `text` to file descriptor `fd` at once (no stdio buffering: the
/// runner reads stdout through a pipe).
func say(_ text: String, to fd: Int32 = 1) {
    var line = text + "\n"
    line.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
}

let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 0
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 511)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(EchoHandler())
        }
    }
do {
    let channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
    say("listening \(channel.localAddress?.port ?? 0)")
    // SIGTERM's default action ends the process; the runner sends it.
    try channel.closeFuture.wait()
} catch {
    say("EchoNIO: \(error)", to: 2)
    exit(1)
}
