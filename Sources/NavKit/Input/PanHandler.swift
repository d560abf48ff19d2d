/// Whatever a pan drives once the responder chain gave it a handler: an interactive pop, a
/// left-swipe push, a list's scrolling.
public protocol PanHandler: AnyObject {
    /// The gesture's name in `gestureBegan`/`gestureEnded` events; nil for ones not announced.
    var gestureName: String? { get }
    /// True when navigation commands must wait until the pan ends (it moves pages).
    var holdsCommands: Bool { get }
    /// The responder chain chose this handler; the gesture starts now.
    func panBegan(_ pan: PanTracker)
    /// The finger moved; `pan` has its translation and velocity.
    func panMoved(_ pan: PanTracker)
    /// The finger really is where `pan` says (called after `panMoved`, never for the translations
    /// a probe tries): the place for what follows the finger besides the picture, such as
    /// appearance callbacks, so that `panMoved` stays a function of the translation.
    func panMoveCommitted(_ pan: PanTracker)
    /// The finger lifted; `done` says whether the gesture completed (an interactive pop popped).
    func panEnded(_ pan: PanTracker, done: @escaping (_ completed: Bool) -> Void)
    /// The gesture was cancelled (a `cancel` pointer, a dropped connection).
    func panCancelled(done: @escaping (_ completed: Bool) -> Void)
    /// True when what `panMoved` shows is a function of the pan's translation alone, so that it
    /// may be called with other translations to see where the finger would take things
    /// (`Scene.probePan`) and then with the real one to put them back.
    var followsTranslationAlone: Bool { get }
    /// The translations along the pan's axis where what it shows bends (a progress reaching 0 or
    /// 1, a rubber band starting), for a handler that follows its translation alone.
    var bends: [Double] { get }
}

extension PanHandler {
    public func panMoveCommitted(_ pan: PanTracker) {}
    public var followsTranslationAlone: Bool { false }
    public var bends: [Double] { [] }
}
