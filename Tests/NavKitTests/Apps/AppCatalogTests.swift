import Testing
@testable import NavKit

/// The apps a server serves: named once each, in order, the first the default.
@Suite struct AppCatalogTests {
    private static let one = SpecApp(name: "one", root: .stack(id: "main", root: ScreenSpec(name: "Home")))

    @Test func appsAreFoundByNameAndTheFirstIsTheDefault() throws {
        let two = SpecApp(name: "two_2", viewport: .tablet, root: .stack(id: "main", root: ScreenSpec(name: "Start")))
        let catalog = try AppCatalog([Self.one, two])
        #expect(catalog.names == ["one", "two_2"])
        #expect(catalog.defaultName == "one")
        #expect(catalog.app(named: "two_2")?.viewport == .tablet)
        #expect(catalog.app(named: "three") == nil)
    }

    @Test(arguments: [
        ([], "a server needs at least one app"),
        ([one, one], "two apps are named one"),
        ([SpecApp(name: "my app", root: .stack(id: "main", root: ScreenSpec(name: "Home")))],
         #"app name "my app": use 1 to 64 letters, digits, - and _"#),
    ] as [([SpecApp], String)])
    func aCatalogRefusesWhatAViewerCouldNotAskFor(apps: [SpecApp], message: String) {
        #expect(throws: NavError.invalidArgument(message)) { try AppCatalog(apps) }
    }

    @Test func aSpecAppBuildsItsSpec() throws {
        let scene = Scene()
        scene.setRoot(try Self.one.makeRoot(in: scene))
        #expect((scene.root as? NavigationController)?.viewControllers.map(\.name) == ["Home"])
    }
}
