import FerryModel

/// Whether a key's values are unique and never blank, checked as they stream by.
///
/// Values are held as 64-bit hashes (FNV-1a) of a canonical form that import's coercion would not
/// tell apart: spaces around the text trimmed, integers by value (`07` is `7`), UUIDs in lower
/// case. Two values of the same canonical form are duplicates; a hash collision can only make a
/// unique key look duplicated, never the reverse, so a suggested constraint always holds.
public struct DistinctValues {
    /// What the check found so far.
    public enum State: Sendable, Equatable {
        /// Every value so far is distinct and not blank.
        case unique
        /// A value was blank (missing, empty or only spaces).
        case blank
        /// Two values were equal.
        case duplicate
        /// The budget was spent after this many distinct values of the key; not checked further.
        case gaveUp(after: Int)
    }

    public private(set) var state = State.unique
    private var seen = Set<UInt64>()
    private let budget: DistinctValueBudget

    public init(budget: DistinctValueBudget) {
        self.budget = budget
    }

    /// Notes one value of the key.
    public mutating func observe(_ value: ObservedValue) {
        guard state == .unique else { return }
        switch value {
        case .missing, .emptyField:
            stop(.blank)
        case .value(let document):
            guard let form = Self.canonicalForm(document) else { return stop(.blank) }
            let hash = Self.hash(form)
            guard !seen.contains(hash) else { return stop(.duplicate) }
            guard budget.take() else { return stop(.gaveUp(after: seen.count)) }
            seen.insert(hash)
        }
    }

    private mutating func stop(_ final: State) {
        state = final
        budget.give(back: seen.count)
        seen = []
    }

    /// The canonical form of a value, tagged by kind; nil for a blank one.
    static func canonicalForm(_ value: DocumentValue) -> [UInt8]? {
        switch value {
        case .null: return nil
        case .bool(let flag): return Array((flag ? "b1" : "b0").utf8)
        case .number(let text), .string(let text):
            let trimmed = text.trimmingASCIISpaces()
            if trimmed.isEmpty { return nil }
            if case .success(.integer(let number)) = TextCoercion.value(trimmed, as: .integer64) { return Array("i\(number)".utf8) }
            if let uuid = UUIDBytes(string: trimmed) { return [UInt8(ascii: "u")] + uuid.bytes }
            return [UInt8(ascii: "s")] + Array(trimmed.utf8)
        case .data(let bytes): return [UInt8(ascii: "d")] + bytes
        case .date(let seconds): return Array("t\(seconds)".utf8)
        case .uid, .array, .object: return nil
        }
    }

    /// FNV-1a, 64 bits.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
