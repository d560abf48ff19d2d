/// Why a scene gives no snapshot, or a snapshot does not restore.
public enum SceneSnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Something moves, a gesture or command is under way, or a change is not drawn yet: a
    /// snapshot is taken at rest.
    case notAtRest(String)
    /// The scene holds something a snapshot does not describe (a page the app's code made that
    /// no spec describes, a spec neither a page's rows nor a command sent hold).
    case unsupported(String)
    /// The snapshot does not fit the scene it is restored into (another app, another version).
    case doesNotFit(String)

    public var description: String {
        switch self {
        case .notAtRest(let why): "not at rest: \(why)"
        case .unsupported(let why): "not described by a snapshot: \(why)"
        case .doesNotFit(let why): "the snapshot does not fit the scene: \(why)"
        }
    }
}
