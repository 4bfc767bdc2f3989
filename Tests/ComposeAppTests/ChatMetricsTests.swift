import Foundation
import Testing

/// The chat daemon's `--metrics-port`: a real scrape over 127.0.0.1 of the
/// real process, in Prometheus text format.
@Suite struct ChatMetricsTests {
    @Test func aScrapeOfMetricsShowsTheDaemonsConnectionsBytesAndLoopLag() async throws {
        let chat = try FixtureProcess(executable: "ComposeChat", environment: ["CHAT_PORT": "0", "CHAT_METRICS_PORT": "0"])
        let chatLine = try await chat.waitForLine(startingWith: "listening on 127.0.0.1:")
        let chatPort = try #require(chatLine.split(separator: ":").last.flatMap { UInt16($0) }, "\(chatLine)")
        let metricsLine = try await chat.waitForLine(startingWith: "metrics on http://127.0.0.1:")
        let metricsPort = try #require(
            metricsLine.split(separator: ":").last?.split(separator: "/").first.flatMap { UInt16($0) }, "\(metricsLine)"
        )
        let daemon = ChatDaemon(process: chat, port: chatPort)
        let ada = try await daemon.connect(as: "ada")
        let bob = try await daemon.connect(as: "bob")

        let scrape = try await Self.get("/metrics", port: metricsPort)
        #expect(scrape.first == "HTTP/1.1 200 OK", "\(scrape)")
        let body = Self.samples(scrape)
        // The two chat clients (the scrape itself is a third connection).
        #expect(body["compose_connections_open"].map { $0 >= 2 } == true, "\(scrape)")
        #expect(body["compose_connections_accepted_total"].map { $0 >= 3 } == true, "\(scrape)")
        #expect(body["compose_bytes_read_total"].map { $0 >= 8 } == true, "ada\\n bob\\n: \(scrape)")
        #expect(body["compose_bytes_written_total"].map { $0 > 0 } == true, "\(scrape)")
        #expect(body["compose_loop_events_total"].map { $0 > 0 } == true, "\(scrape)")
        #expect(body.keys.contains { $0.hasPrefix("compose_loop_lag_count") }, "\(scrape)")
        #expect(scrape.contains("# TYPE compose_loop_lag histogram"), "\(scrape)")

        let missing = try await Self.get("/nothing", port: metricsPort)
        #expect(missing.first == "HTTP/1.1 404 Not Found", "\(missing)")

        ada.disconnect()
        bob.disconnect()
        #expect(await daemon.stop() == 0, "\(chat.transcript)")
    }

    /// One keep-alive curl: `/metrics` twice on one connection (the second
    /// scrape made no new connection), then the health endpoints on the
    /// same port.
    @Test func aKeepAliveScraperFetchesMetricsTwiceOnOneConnectionAndHealthzAnswers() async throws {
        let chat = try FixtureProcess(executable: "ComposeChat", environment: ["CHAT_PORT": "0", "CHAT_METRICS_PORT": "0"])
        let metricsLine = try await chat.waitForLine(startingWith: "metrics on http://127.0.0.1:")
        let metricsPort = try #require(
            metricsLine.split(separator: ":").last?.split(separator: "/").first.flatMap { UInt16($0) }, "\(metricsLine)"
        )
        let base = "http://127.0.0.1:\(metricsPort)"
        let curl = try FixtureProcess(
            executable: "/usr/bin/curl",
            arguments: ["-s", "-w", "%{url_effective} %{http_code} %{num_connects}\n", "\(base)/metrics", "\(base)/metrics", "\(base)/healthz", "\(base)/readyz"]
        )
        #expect(await curl.waitForExit() == 0, "\(curl.transcript)")
        let lines = curl.output.lines
        // The scrape made the only connection; the others reused it.
        #expect(lines.contains("\(base)/metrics 200 1"), "\(lines)")
        #expect(lines.contains("\(base)/metrics 200 0"), "\(lines)")
        #expect(lines.contains("ok"), "\(lines)")
        #expect(lines.contains("\(base)/healthz 200 0"), "\(lines)")
        #expect(lines.contains("ready"), "\(lines)")
        #expect(lines.contains("\(base)/readyz 200 0"), "\(lines)")
        #expect(lines.filter { $0.hasPrefix("compose_connections_accepted_total{app=\"chatApp\"} ") }.count == 2, "\(lines)")

        chat.signal(SIGTERM)
        #expect(await chat.waitForExit() == 0, "\(chat.transcript)")
    }

    /// The lines of the answer to `GET path` (the connection closes after it).
    static func get(_ path: String, port: UInt16) async throws -> [String] {
        let client = try LineClient(port: port)
        client.send("GET \(path) HTTP/1.1\r")
        client.send("Host: 127.0.0.1\r")
        client.send("Connection: close\r")
        client.send("\r")
        #expect(await client.waitForClose())
        return client.lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
    }

    /// The `name{app="chatApp"} value` lines of a Prometheus text body, by
    /// name (those of other label sets, histogram buckets, are left out).
    static func samples(_ lines: [String]) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in lines where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            guard series.hasSuffix("{app=\"chatApp\"}") else { continue }
            samples[String(series.prefix { $0 != "{" })] = value
        }
        return samples
    }
}
