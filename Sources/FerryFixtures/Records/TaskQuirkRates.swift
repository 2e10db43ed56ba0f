/// How often the task generator injects each quirk: every rate is a fraction of all records
/// in `0...1`.
public struct TaskQuirkRates: Sendable, Hashable {
    /// Records reusing an earlier record's `taskID` with different content.
    public var duplicateID: Double
    /// Titles with CJK text or emoji.
    public var cjkTitle: Double
    /// `taskLevel` integers outside 0…3.
    public var outOfRangeLevel: Double
    /// Records with one attachment naming a urlPath that no upload has.
    public var danglingAttachment: Double
    /// Records that must be rejected (bad `taskID`, `taskDate` or `remindTime`, a third each).
    public var reject: Double
    /// Attachments drawn from every upload, which other tasks may name too (an upload belongs to
    /// one task: an import keeps the last task that names it and warns of the others), rather
    /// than from the uploads this task alone may name.
    public var sharedAttachment: Double

    /// Rates with the given values; the defaults resemble the field data.
    public init(
        duplicateID: Double = 0.02, cjkTitle: Double = 0.15, outOfRangeLevel: Double = 0.01,
        danglingAttachment: Double = 0.01, reject: Double = 0.01, sharedAttachment: Double = 1
    ) {
        self.duplicateID = duplicateID
        self.cjkTitle = cjkTitle
        self.outOfRangeLevel = outOfRangeLevel
        self.danglingAttachment = danglingAttachment
        self.reject = reject
        self.sharedAttachment = sharedAttachment
    }

    /// No quirks at all: every record is clean, with a unique id, and no upload is attached to
    /// two tasks.
    public static let none = TaskQuirkRates(
        duplicateID: 0, cjkTitle: 0, outOfRangeLevel: 0, danglingAttachment: 0, reject: 0, sharedAttachment: 0)

    /// Throws when a rate is outside `0...1`.
    public func validate() throws(FixtureConfigurationError) {
        try FixtureConfigurationError.check([
            ("duplicateID", duplicateID), ("cjkTitle", cjkTitle), ("outOfRangeLevel", outOfRangeLevel),
            ("danglingAttachment", danglingAttachment), ("reject", reject), ("sharedAttachment", sharedAttachment),
        ])
    }
}
