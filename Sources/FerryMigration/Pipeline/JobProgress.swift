/// How far a long job is, for a progress line: the phase it is in (reading a source, resolving
/// links, verifying), the records done in that phase, and how many there are when that is known
/// (a store's rows, counted before it is read).
public struct JobProgress: Sendable, Equatable {
    public var phase: String
    public var done: Int
    public var total: Int?

    public init(phase: String, done: Int = 0, total: Int? = nil) {
        self.phase = phase
        self.done = done
        self.total = total
    }

    /// How many records go by between two reports within a phase.
    public static let interval = 8_192
}
