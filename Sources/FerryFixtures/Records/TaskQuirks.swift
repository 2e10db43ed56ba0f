/// The quirks a generated task record carries, so that a test or benchmark knows the expected
/// outcome of importing it.
public struct TaskQuirks: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16

    /// Creates a quirk set from its raw bits.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The `taskID` of an earlier record, with different content (the sync bug).
    public static let duplicateID = TaskQuirks(rawValue: 1 << 0)
    /// `taskTitle` holds CJK text or emoji.
    public static let cjkTitle = TaskQuirks(rawValue: 1 << 1)
    /// `taskLevel` is an integer outside 0…3.
    public static let outOfRangeLevel = TaskQuirks(rawValue: 1 << 2)
    /// One attachment names a urlPath that no upload record has.
    public static let danglingAttachment = TaskQuirks(rawValue: 1 << 3)
    /// `taskID` is missing or not an integer: the record must be rejected.
    public static let badTaskID = TaskQuirks(rawValue: 1 << 4)
    /// `taskDate` is not a valid "yyyy-MM-dd" day: the record must be rejected.
    public static let badDate = TaskQuirks(rawValue: 1 << 5)
    /// `remindTime` is neither "" nor a valid "HH:mm": the record must be rejected.
    public static let badRemindTime = TaskQuirks(rawValue: 1 << 6)

    /// The quirks that make every importer reject the record.
    public static let rejecting: TaskQuirks = [.badTaskID, .badDate, .badRemindTime]

    /// Whether an importer must reject the record whatever its policy.
    public var isRejected: Bool { !isDisjoint(with: .rejecting) }
}
