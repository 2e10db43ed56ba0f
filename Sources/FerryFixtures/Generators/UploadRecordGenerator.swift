/// Deterministic legacy upload records at any count: the same seed, count and rates give the
/// same records, and record `i` depends only on (seed, rates, i), so records can be produced in
/// any order or in parallel.
///
/// Record 0 is never a duplicate or rejected. A duplicate is an exact copy of the nearest
/// earlier *canonical* record (one that is neither a duplicate nor rejected).
public struct UploadRecordGenerator: RandomAccessCollection, Sendable {
    /// The seed all records derive from.
    public let seed: UInt64
    /// How often each quirk occurs.
    public let rates: UploadQuirkRates
    /// Always 0.
    public let startIndex = 0
    /// The number of records.
    public let endIndex: Int

    /// A generator of `count` records; throws when `count` is negative or a rate is invalid.
    public init(seed: UInt64, count: Int, rates: UploadQuirkRates = UploadQuirkRates()) throws(FixtureConfigurationError) {
        guard count >= 0 else { throw .negativeCount(count) }
        try rates.validate()
        self.seed = seed
        self.rates = rates
        self.endIndex = count
    }

    /// Record `position`.
    public subscript(position: Int) -> UploadRecord {
        var rng = SplitMix64(seed: seed, stream: UInt64(position))
        let plan = self.plan(position, &rng)
        if plan.isDuplicate {
            var original = self[canonicalIndex(atOrBefore: position - 1)]
            original.quirks.insert(.duplicate)
            return original
        }
        return build(position, plan, &rng)
    }

    /// The nearest index at or before `index` whose record is neither a duplicate nor rejected
    /// (0 at the latest).
    public func canonicalIndex(atOrBefore index: Int) -> Int {
        var j = index
        while j > 0 {
            var rng = SplitMix64(seed: seed, stream: UInt64(j))
            let plan = self.plan(j, &rng)
            if !plan.isDuplicate && !plan.isRejected { return j }
            j -= 1
        }
        return 0
    }

    /// The `urlPath` of the canonical record at or before `index`, without building the record:
    /// the path a task attachment can name knowing an importer keeps that record (unless its
    /// strict policy rejects the record for `.badSize`).
    public func canonicalURLPath(atOrBefore index: Int) -> String {
        let j = canonicalIndex(atOrBefore: index)
        var rng = SplitMix64(seed: seed, stream: UInt64(j))
        return Self.urlPath(j, plan(j, &rng).fileExtension)
    }

    /// The decisions drawn first from a record's stream, cheap enough to replay.
    private struct Plan {
        var isDuplicate: Bool
        var isRejected: Bool
        var fileType: Int64
        var fileExtension: String
    }

    private func plan(_ index: Int, _ rng: inout SplitMix64) -> Plan {
        let isDuplicate = rng.chance(rates.duplicate) && index > 0
        let isRejected = rng.chance(rates.reject) && index > 0
        let kind = rng.next(below: LegacyText.extensions.count)
        let fileExtension = rng.pick(LegacyText.extensions[kind])
        let fileType = rng.chance(rates.outOfRangeType) ? rng.pick(LegacyText.outOfRangeTypes) : Int64(kind)
        return Plan(isDuplicate: isDuplicate, isRejected: isRejected, fileType: fileType, fileExtension: fileExtension)
    }

    private static func urlPath(_ index: Int, _ fileExtension: String) -> String {
        "/remote/uploads/\(index / 1000)/\(index)\(fileExtension)"
    }

    private func build(_ index: Int, _ plan: Plan, _ rng: inout SplitMix64) -> UploadRecord {
        var quirks: UploadQuirks = []
        var fileType = FieldValue.integer(plan.fileType)
        if !(0...5).contains(plan.fileType) { quirks.insert(.outOfRangeType) }
        var time = FieldValue.integer(1_262_304_000 + Int64(index) * 600 + Int64(rng.next(below: 600)))
        if plan.isRejected {
            if rng.chance(0.5) {
                fileType = .text(rng.pick(LegacyText.badFileTypes))
                quirks.remove(.outOfRangeType)
                quirks.insert(.badFileType)
            } else {
                time = .text(rng.pick(LegacyText.badTimes))
                quirks.insert(.badTime)
            }
        }
        let fileName = name(index, plan.fileExtension, &quirks, &rng)
        let fileSize: String
        if rng.chance(rates.badSize) {
            fileSize = rng.pick(LegacyText.badSizes)
            quirks.insert(.badSize)
        } else {
            fileSize = LegacyText.megabytes(hundredths: rng.next(in: 1...50_000))
        }
        let finishStatus = rng.chance(0.9)
        var imageData: [UInt8]?
        if rng.chance(rates.missingThumbnail) {
            quirks.insert(.missingThumbnail)
        } else {
            imageData = TinyPNG.make(side: 8, using: &rng)
        }
        return UploadRecord(
            fileName: fileName, fileSize: fileSize, fileType: fileType, finishStatus: finishStatus,
            imageData: imageData, time: time, urlPath: Self.urlPath(index, plan.fileExtension), quirks: quirks)
    }

    private func name(_ index: Int, _ fileExtension: String, _ quirks: inout UploadQuirks, _ rng: inout SplitMix64) -> String {
        let draw = rng.nextFraction()
        if draw < rates.emptyName {
            quirks.insert(.emptyName)
            return ""
        }
        if draw < rates.emptyName + rates.awkwardName {
            quirks.insert(.awkwardName)
            return rng.pick(LegacyText.awkwardNames) + fileExtension
        }
        if draw < rates.emptyName + rates.awkwardName + rates.cjkName {
            quirks.insert(.cjkName)
            return rng.pick(LegacyText.cjkWords) + rng.pick(LegacyText.emoji) + fileExtension
        }
        return "\(rng.pick(LegacyText.plainWords))_\(index)\(fileExtension)"
    }
}
