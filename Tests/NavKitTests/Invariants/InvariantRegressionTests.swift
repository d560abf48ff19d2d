import Testing
import NavApps

/// Sequences the random-sequence invariants (`Scripts/fuzz`) found breaking the engine, shrunk,
/// kept as they were printed. Regressions with a scenario of their own are tested beside their
/// code as well; these keep the whole sequence that found them.
@Suite struct InvariantRegressionTests {
    /// Run seed 6: the list of a page that a modal popToRoot slides down had been scrolled by a
    /// drag since the last walk; the slide's patch took rows past the edge without walking.
    @Test func aListScrolledBeforeItsPageSlidesIsCulledAgain() {
        #expect(InvariantRunner(app: "stack").run([
            .push(.list("Library"), nil, nil),
            .tick(0.34),
            .pointer(.down, id: 1, x: 12.0, y: 239.0, dt: 0.586),
            .popToRoot(.modal, nil),
            .tick(0.016666666666666666),
            .tick(0.016666666666666666),
            .pointer(.move, id: 1, x: -115.0, y: 725.0, dt: 0.004),
            .pointer(.move, id: 1, x: -131.0, y: 786.0, dt: 0.028),
            .tick(0.016666666666666666),
        ]) == nil)
    }

    /// Run seed 1: the same in a stack inside the tablet app, its list scrolled by a drag and
    /// the wheel while a pop slides its page.
    @Test func aListScrolledByTheWheelDuringAPopIsCulledAgain() {
        #expect(InvariantRunner(app: "tablet").run([
            .setRoot(.app("stack")),
            .resize(width: 320.0, height: 568.0),
            .setStack([.hidesBar("Library"), .half("C")], .diagonal, nil),
            .settle,
            .pointer(.down, id: 1, x: 179.0, y: 305.0, dt: 0.074),
            .pop(nil, nil),
            .tick(0.016666666666666666),
            .tick(0.016666666666666666),
            .pointer(.move, id: 1, x: 172.0, y: -36.0, dt: 0.028),
            .pointer(.up, id: 1, x: 172.0, y: -36.0, dt: 0.001),
            .wheel(x: 290.5, y: 557.9, dx: 0.0, dy: -12.8),
            .tick(0.016666666666666666),
            .tick(0.016666666666666666),
        ]) == nil)
    }

    /// A full-screen presentation over a sheet covers the app beneath the sheet too: everything on
    /// screen leaves it, so a `setRoot` then releases no page that still counts as appeared.
    @Test func aFullScreenPresentationOverASheetTakesTheAppOffScreen() {
        #expect(InvariantRunner(app: "phone").run([
            .present(.tabs, .sheet),
            .present(.tabs, .fullScreen),
            .setRoot(.app("stack")),
        ]) == nil)
    }

    /// A page that replaced the top of the app's stack while a full-screen presentation covered
    /// it loads before it appears, when the presentation is dismissed.
    @Test func aPageChangedUnderAFullScreenPresentationLoadsBeforeItAppears() {
        #expect(InvariantRunner(app: "stack").run([
            .present(.tabs, .fullScreen),
            .replaceTop(.plain("Missing"), .push, nil, .stack("main")),
            .dismiss(animated: false),
        ]) == nil)
    }

    /// Run seed 0x7777: in a split widened to 1366 pt, a paused wheel snapped to the next half
    /// page right-aligned, an offset left of 0, and the split rested stretched there.
    @Test func aWheelSnapInAWideSplitRestsInsideTheRange() {
        #expect(InvariantRunner(app: "tablet").run([
            .resize(width: 1366.0, height: 1024.0),
            .push(.half("Home"), nil, nil),
            .push(.plain("Library"), .instant, nil),
            .settle,
            .wheel(x: 702.9, y: 931.6, dx: 0.0, dy: -219.0),
        ]) == nil)
    }
}
