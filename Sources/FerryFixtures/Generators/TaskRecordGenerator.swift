/// Deterministic legacy task records at any count, whose attachments name the `urlPath`s of
/// records an `UploadRecordGenerator` makes (canonical ones, which an import keeps unless its
/// strict policy rejects a `badSize` record), except
/// where the `danglingAttachment` quirk adds one that no upload has.
///
/// Record `i` depends only on (seed, rates, uploads, i). Record 0 never reuses an id or is
/// rejected. A duplicate-id record takes the id of the nearest earlier record that is neither
/// a duplicate nor rejected, and has content of its own.
public struct TaskRecordGenerator: RandomAccessCollection, Sendable {
    /// The seed all records derive from.
    public let seed: UInt64
    /// How often each quirk occurs.
    public let rates: TaskQuirkRates
    /// The uploads that attachments name.
    public let uploads: UploadRecordGenerator
    /// Always 0.
    public let startIndex = 0
    /// The number of records.
    public let endIndex: Int

    /// The id of the first record; record `i` that is not a duplicate has id `firstTaskID + i`.
    public static let firstTaskID: Int64 = 100_000

    /// A generator of `count` records; throws when `count` is negative or a rate is invalid.
    public init(
        seed: UInt64, count: Int, rates: TaskQuirkRates = TaskQuirkRates(), uploads: UploadRecordGenerator
    ) throws(FixtureConfigurationError) {
        guard count >= 0 else { throw .negativeCount(count) }
        try rates.validate()
        self.seed = seed
        self.rates = rates
        self.uploads = uploads
        self.endIndex = count
    }

    /// Record `position`.
    public subscript(position: Int) -> TaskRecord {
        var rng = SplitMix64(seed: seed, stream: UInt64(position))
        let (isDuplicate, isRejected) = plan(position, &rng)
        var quirks: TaskQuirks = []
        var taskID = FieldValue.integer(Self.firstTaskID + Int64(position))
        if isDuplicate {
            taskID = .integer(Self.firstTaskID + Int64(canonicalIndex(atOrBefore: position - 1)))
            quirks.insert(.duplicateID)
        }
        var taskDate = LegacyText.day(15_000 + position / 20 + rng.next(below: 90))
        let remindDraw = rng.nextFraction()
        var remindTime: String? = remindDraw < 0.5 ? LegacyText.timeOfDay(minutes: rng.next(below: 24 * 60)) : remindDraw < 0.9 ? "" : nil
        if isRejected {
            switch rng.next(below: 3) {
            case 0:
                taskID = rng.pick(LegacyText.badTaskIDs)
                quirks.insert(.badTaskID)
            case 1:
                taskDate = rng.pick(LegacyText.badDates)
                quirks.insert(.badDate)
            default:
                remindTime = rng.pick(LegacyText.badRemindTimes)
                quirks.insert(.badRemindTime)
            }
        }
        var taskTitle: String?
        if rng.chance(rates.cjkTitle) {
            taskTitle = rng.pick(LegacyText.cjkTitles)
            quirks.insert(.cjkTitle)
        } else if rng.chance(0.97) {
            taskTitle = rng.pick(LegacyText.plainTitles)
        }
        var taskLevel = FieldValue.integer(Int64(rng.next(below: 4)))
        if rng.chance(rates.outOfRangeLevel) {
            taskLevel = .integer(rng.pick(LegacyText.outOfRangeLevels))
            quirks.insert(.outOfRangeLevel)
        }
        let taskDesc = description(&rng)
        let isComplete = rng.chance(0.4)
        var attachments = self.attachments(&rng, position: position)
        if rng.chance(rates.danglingAttachment) {
            attachments.append("/remote/uploads/missing/\(position).jpg")
            quirks.insert(.danglingAttachment)
        }
        return TaskRecord(
            attachments: attachments, isComplete: isComplete, remindTime: remindTime, tags: tags(&rng),
            taskDate: taskDate, taskDesc: taskDesc, taskID: taskID, taskLevel: taskLevel,
            taskTitle: taskTitle, quirks: quirks)
    }

    /// The nearest index at or before `index` whose record neither reuses an id nor is rejected.
    public func canonicalIndex(atOrBefore index: Int) -> Int {
        var j = index
        while j > 0 {
            var rng = SplitMix64(seed: seed, stream: UInt64(j))
            let (isDuplicate, isRejected) = plan(j, &rng)
            if !isDuplicate && !isRejected { return j }
            j -= 1
        }
        return 0
    }

    private func plan(_ index: Int, _ rng: inout SplitMix64) -> (isDuplicate: Bool, isRejected: Bool) {
        let isDuplicate = rng.chance(rates.duplicateID) && index > 0
        let isRejected = rng.chance(rates.reject) && index > 0
        return (isDuplicate, isRejected)
    }

    private func description(_ rng: inout SplitMix64) -> String? {
        let draw = rng.nextFraction()
        if draw < 0.2 { return nil }
        let lineCount = draw < 0.5 ? 1 : rng.next(in: 2...3)
        var text = rng.pick(LegacyText.descriptionLines)
        for _ in 1..<lineCount { text += "\n" + rng.pick(LegacyText.descriptionLines) }
        return text
    }

    /// Up to three attachments of the record at `position`, each drawn from every upload
    /// (`rates.sharedAttachment`) or from the uploads this record's position owns: those at
    /// `position`, `position + count`, `position + 2 × count`, … (no other task names them when
    /// the uploads are clean; with quirky ones, an attachment names the canonical upload at or
    /// before its draw, which another task may name too).
    private func attachments(_ rng: inout SplitMix64, position: Int) -> [String] {
        guard !uploads.isEmpty else { return [] }
        let owned = position < uploads.count ? (uploads.count - position + count - 1) / count : 0
        var paths: [String] = []
        for _ in 0..<rng.next(in: 0...3) {
            let index: Int
            if rng.chance(rates.sharedAttachment) {
                index = rng.next(below: uploads.count)
            } else {
                guard owned > 0 else { continue }
                index = position + rng.next(below: owned) * count
            }
            let path = uploads.canonicalURLPath(atOrBefore: index)
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    private func tags(_ rng: inout SplitMix64) -> [String] {
        var names: [String] = []
        for _ in 0..<rng.next(in: 0...3) {
            let name = rng.pick(LegacyText.tags)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
