@testable import ComposeTool

/// Reply lines as a chat daemon sends them (the shapes of
/// docs/inspection-protocol.md, members top ignores included).
enum TopFixtures {
    static let info = #"{"v":1,"ok":true,"command":"info","app":"ComposeChat","pid":4242,"uptime":4.4,"protocol":1,"socket":"/tmp/compose/ComposeChat.4242.sock"}"#

    /// The tree of a chat with `sessions` (their ids; routes as given),
    /// at `time`, each session's input having sent `sends`.
    static func tree(sessions: [(id: Int, routes: [String])], time: Double = 10, sends: Int = 0) -> String {
        var components = [
            #"{"path":"chatApp","label":"chatApp","depth":0,"type":"ChatApp","active":true,"focused":true,"emitters":[],"stores":[]}"#,
            #"{"path":"chatApp.server","label":"server","depth":1,"type":"ChatServerComponent","active":true,"focused":false,"emitters":[{"name":"didAppear","observers":1},{"name":"listener","observers":1,"sends":0,"last":"127.0.0.1:55876"}],"stores":[]}"#,
            #"{"path":"chatApp.server.sessions","label":"sessions","depth":2,"type":"InstanceComponent<SessionComponent>","active":true,"focused":false,"container":{"kind":"InstanceComponent","contentType":"SessionComponent","instances":\#(sessions.count)},"emitters":[{"name":"didCreate","observers":0,"sends":0,"last":"2"}],"stores":[]}"#,
        ]
        for session in sessions {
            let routes = session.routes.map { "\"\($0)\"" }.joined(separator: ",")
            components.append(#"{"path":"chatApp.server.sessions.\#(session.id)","label":"\#(session.id)","depth":3,"type":"SessionComponent","active":true,"focused":false,"routes":[\#(routes)],"emitters":[{"name":"router.didChangePath","observers":1},{"name":"connection","observers":1,"sends":\#(sends)}],"stores":[]}"#)
        }
        return #"{"v":1,"ok":true,"command":"tree","tree":{"app":"chatApp","time":\#(time),"route":"","focused":"chatApp","sendsCountedSince":1.5,"components":[\#(components.joined(separator: ","))],"servicesPhase":"running","services":[]}}"#
    }

    /// The loop of a chat with connections for `sessions`, its lag p99
    /// `lag` seconds.
    static func loop(sessions: [Int], time: Double = 10, lag: Double = 0.004, queued: Int = 0) -> String {
        let connections = sessions.map { id in
            #"{"path":"chatApp.server.sessions.\#(id).connection","peer":"127.0.0.1:\#(55870 + id)","queuedBytes":\#(queued),"closing":false}"#
        }
        return #"{"v":1,"ok":true,"command":"loop","loop":{"app":"ComposeChat","pid":4242,"time":\#(time),"simulated":false,"handleCount":16,"handles":{"signal":4,"tcp":3},"listeners":[{"path":"chatApp.server.listener","address":"127.0.0.1:7070","listening":true}],"connections":[\#(connections.joined(separator: ","))],"processes":[],"inspectors":1,"health":{"window":60,"lagP50":0.000118,"lagP99":\#(lag),"lagMax":0.0125,"eventsPerSecond":11.3,"utilization":0,"samples":44,"sampleInterval":0.1}}}"#
    }

    /// A follow event line.
    static func event(_ path: String, _ kind: String, _ value: String, time: Double = 12.5) -> String {
        #"{"v":1,"event":{"time":\#(time),"kind":"\#(kind)","path":"\#(path)","value":"\#(value)"}}"#
    }

    static func state(sessions: [(id: Int, routes: [String])] = [(1, ["lobby", "room"]), (2, ["lobby"])]) -> TopState {
        var state = TopState()
        state.info = try? TopDecoding.info(info).get()
        if let tree = try? TopDecoding.tree(tree(sessions: sessions)).get() { state.receive(tree: tree) }
        if let loop = try? TopDecoding.loop(loop(sessions: sessions.map(\.id))).get() { state.receive(loop: loop) }
        return state
    }
}
