import NavKit

/// Engine benchmarks: time per frame during a slide push, and push + pop cost at stack depth 10
/// against 10,000 (the ratio must stay near 1: only pages on screen cost anything).
struct EngineBenchmarks {
    let rounds: Int
    private let step = 1.0 / 60

    /// A page of about 30 nodes: the bar (6) and 8 rows of 3 nodes.
    private var page: ScreenSpec {
        ScreenSpec(name: "Page", rows: (1...8).map { RowSpec(title: "Row \($0)", detail: "detail") })
    }

    /// The same page in the first of three tabs: the tab bar is on screen during the slide.
    private var tabs: RootSpec {
        .tabs(["Library", "Search", "Settings"].map { TabSpec(id: $0.lowercased(), title: $0, icon: "library", badge: "3", root: page) }, selected: 0)
    }

    func run(into report: inout BenchReport) {
        let (frames, nodes) = framesDuringSlide(.stack(id: "main", root: page))
        report.add("engine.slide_frame_median_ns", Stats(frames).median, "ns/frame")
        report.add("engine.slide_frame_p99_ns", Stats(frames).p99, "ns/frame")
        report.add("engine.slide_nodes_per_frame", nodes, "nodes")
        let (tabFrames, tabNodes) = framesDuringSlide(tabs)
        report.add("engine.slide_frame_tabs_median_ns", Stats(tabFrames).median, "ns/frame")
        report.add("engine.slide_frame_tabs_p99_ns", Stats(tabFrames).p99, "ns/frame")
        report.add("engine.slide_nodes_per_frame_tabs", tabNodes, "nodes")
        let (splitFrames, splitNodes) = framesDuringStackedScroll()
        report.add("engine.split_scroll_frame_median_ns", Stats(splitFrames).median, "ns/frame")
        report.add("engine.split_scroll_frame_p99_ns", Stats(splitFrames).p99, "ns/frame")
        report.add("engine.split_scroll_nodes_per_frame", splitNodes, "nodes")
        let shallow = pushPop(depth: 10)
        let deep = pushPop(depth: 10_000)
        report.add("engine.push_pop_depth_10_us", shallow.pushPop / 1000, "µs")
        report.add("engine.push_pop_depth_10000_us", deep.pushPop / 1000, "µs")
        report.add("engine.frame_depth_10_ns", shallow.frame, "ns/frame")
        report.add("engine.frame_depth_10000_ns", deep.frame, "ns/frame")
        report.add("engine.push_pop_ratio_10000_vs_10", deep.pushPop / shallow.pushPop, "×")
        report.add("engine.frame_ratio_10000_vs_10", deep.frame / shallow.frame, "×")
    }

    /// Per-frame engine time (tick: animate, flatten, compare) over many slide pushes and pops.
    private func framesDuringSlide(_ app: RootSpec) -> (frames: [Double], nodes: Double) {
        // Both apps are valid by construction: five tabs at most, a selection in range.
        let scene = Scene(viewport: .phone)
        scene.setRoot(try! app.makeController(scene))
        return measureFrames(scene, rounds: rounds) { round in round % 2 == 0 ? .push(page) : .pop() }
    }

    /// Per-frame engine time while a stacked split of six half pages scrolls end to end and back
    /// (side tabs, 1024 × 768): the reference's scroll law, stacking, dim and visibility.
    private func framesDuringStackedScroll() -> (frames: [Double], nodes: Double) {
        let half = ScreenSpec(name: "Page", rows: (1...8).map { RowSpec(title: "Row \($0)", detail: "detail") }, options: PageOptions(width: .half))
        let app = RootSpec.sideTabs(["Library", "Search"].map { TabSpec(id: $0.lowercased(), title: $0, icon: "library", root: half) }, selected: 0)
        // A valid app by construction: two tabs, the first selected.
        let scene = Scene(viewport: .tablet)
        scene.setRoot(try! app.makeController(scene))
        for _ in 1..<6 { scene.handle(.push(half, transition: ParametricTransition.none)) { _ in } }
        return measureFrames(scene, rounds: max(rounds / 4, 10)) { round in .scrollTo(.offset(round % 2 == 0 ? 0 : 1888)) }
    }

    /// Runs `command(round)` for each round and times every tick until the scene rests again;
    /// returns the tick times and the largest display list.
    private func measureFrames(_ scene: Scene, rounds: Int, command: (Int) -> Command) -> (frames: [Double], nodes: Double) {
        var now = 0.0
        _ = scene.tick(now: now)
        var frames: [Double] = []
        var nodes = 0
        for round in 0..<rounds {
            scene.handle(command(round)) { _ in }
            while scene.needsTick {
                now += step
                var list: DisplayList?
                frames.append(measureNanoseconds { list = scene.tick(now: now) })
                nodes = max(nodes, list?.items.count ?? 0)
            }
        }
        return (frames, Double(nodes))
    }

    /// Median time of one push + pop (commands and every tick), and the median frame, at `depth`.
    private func pushPop(depth: Int) -> (pushPop: Double, frame: Double) {
        let scene = Scene(viewport: .phone)
        scene.setRoot(NavigationController(root: scene.makeController(page)))
        for _ in 1..<depth { scene.handle(.push(page, transition: ParametricTransition.none)) { _ in } }
        var now = 0.0
        _ = scene.tick(now: now)
        var totals: [Double] = []
        var frames: [Double] = []
        for _ in 0..<max(rounds / 4, 10) {
            var total = 0.0
            for command in [Command.push(page), .pop()] {
                total += measureNanoseconds { scene.handle(command) { _ in } }
                while scene.needsTick {
                    now += step
                    let frame = measureNanoseconds { _ = scene.tick(now: now) }
                    frames.append(frame)
                    total += frame
                }
            }
            totals.append(total)
        }
        return (Stats(totals).median, Stats(frames).median)
    }
}
