// Compose benchmarks: `make bench` from the project root. Top-level code runs
// on the main actor, like every emitter and component.

import BenchmarkTrees

print("# Compose benchmarks")
print()
print("- date: \(Machine.utcDate)")
print("- swift: \(Machine.swiftVersion)")
print("- machine: \(Machine.processorCount) CPUs, \(Machine.cpuModel)")
print("- command: `make bench` (release build)")
print("- method: \(Harness.rounds) interleaved rounds per case (7 for binding), median per operation")
print()

let sink = Sink()
var table = Table(
    "case", "Compose ns/op", "baseline ns/op", "Compose/baseline", "OpenCombine ns/op", "OpenCombine/Compose"
)
var targets: [Target] = []

// 1. Sending one Int to K observers (per observer call).
for observers in [1, 10, 100] {
    progress("send to \(observers)")
    let result = EmitterBenchmarks.send(toObservers: observers, sink: sink)
    let closures = result.closures
    let toFloor = result.compose / closures
    let openCombineRatio = result.openCombine / result.compose
    table.add(
        "send to \(observers) observer\(observers == 1 ? "" : "s") (per call)",
        Format.ns(result.compose), Format.ns(closures), Format.ratio(toFloor),
        Format.ns(result.openCombine), Format.ratio(openCombineRatio)
    )
    if observers >= 10 {
        targets.append(Target(
            description: "send to \(observers) observers ≤ 2.0x closure array",
            measured: Format.ratio(toFloor), passed: toFloor <= 2.0
        ))
        targets.append(Target(
            description: "send to \(observers) observers ≥ 20x cheaper than OpenCombine",
            measured: Format.ratio(openCombineRatio), passed: openCombineRatio >= 20
        ))
    }
}

// 2. Subscribing and cancelling next to 10 observers.
do {
    progress("subscribe + cancel")
    let result = EmitterBenchmarks.subscribeAndCancel(existing: 10, sink: sink)
    let closures = result.closures
    let openCombineRatio = result.openCombine / result.compose
    table.add(
        "subscribe + cancel (10 observers)",
        Format.ns(result.compose), Format.ns(closures), Format.ratio(result.compose / closures),
        Format.ns(result.openCombine), Format.ratio(openCombineRatio)
    )
    targets.append(Target(
        description: "subscribe + cancel ≥ 10x cheaper than OpenCombine",
        measured: Format.ratio(openCombineRatio), passed: openCombineRatio >= 10
    ))
}

// 3. Binding trees (per component).
progress("bind 1k")
let bind1k = BindBenchmarks.run({ Branch3() }, sink: sink)
progress("bind 10k")
let bind10k = BindBenchmarks.run({ Branch4() }, sink: sink)
progress("bind 100k")
let bind100k = BindBenchmarks.run({ Branch5() }, sink: sink)
let binds = [bind1k, bind10k, bind100k]
for result in binds {
    let toMirror = result.bind / result.mirrorWalk
    table.add(
        "bind \(Format.count(result.components)) components (per component)",
        Format.ns(result.bind), Format.ns(result.mirrorWalk), Format.ratio(toMirror),
        Format.none, Format.none
    )
    targets.append(Target(
        description: "bind \(Format.count(result.components)) components ≤ 3x Mirror walk",
        measured: Format.ratio(toMirror), passed: toMirror <= 3
    ))
}
let growth = (bind100k.bind * Double(bind100k.components)) / (bind10k.bind * Double(bind10k.components))
targets.append(Target(
    description: "bind \(Format.count(bind100k.components)) ≤ 12x bind \(Format.count(bind10k.components)) (whole tree)",
    measured: Format.ratio(growth), passed: growth <= 12
))

print(table.markdown)
print()
print("Baseline: a `ContiguousArray<(Int) -> Void>` called by index for send, the same")
print("array's append + removeLast for subscribe + cancel, and a recursive `Mirror` walk")
print("of the same component value for bind. Every observer is `{ v in sink.sum &+= v }`.")
print()
print("## Targets")
print()
for target in targets { print(target.line) }
print()
print("checksum: \(sink.sum &+ sentToLeaves)")
