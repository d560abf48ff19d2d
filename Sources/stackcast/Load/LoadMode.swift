import ArgumentParser

/// What every session of a load run does once it is up.
enum LoadMode: String, CaseIterable, ExpressibleByArgument {
    /// Push one page, then drag it back and forth from the left edge at 60 Hz (an interactive
    /// pop that is never completed), in down/move/up cycles: frames come without a break.
    case drag
    /// Push a page, wait for the result, pop it, wait, and again.
    case pushpop
}
