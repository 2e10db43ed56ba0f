/// How often the upload generator injects each quirk: every rate is a fraction of all records
/// in `0...1`.
public struct UploadQuirkRates: Sendable, Hashable {
    /// Exact copies of an earlier record.
    public var duplicate: Double
    /// Records without a thumbnail.
    public var missingThumbnail: Double
    /// Empty file names.
    public var emptyName: Double
    /// File names with commas, quotes or newlines.
    public var awkwardName: Double
    /// File names with CJK text or emoji.
    public var cjkName: Double
    /// Unparseable `fileSize` values.
    public var badSize: Double
    /// `fileType` integers outside 0…5.
    public var outOfRangeType: Double
    /// Records that must be rejected (non-integer `fileType` or `time`, half each).
    public var reject: Double

    /// Rates with the given values; the defaults resemble the field data.
    public init(
        duplicate: Double = 0.02, missingThumbnail: Double = 0.6, emptyName: Double = 0.02,
        awkwardName: Double = 0.05, cjkName: Double = 0.1, badSize: Double = 0.05,
        outOfRangeType: Double = 0.02, reject: Double = 0.01
    ) {
        self.duplicate = duplicate
        self.missingThumbnail = missingThumbnail
        self.emptyName = emptyName
        self.awkwardName = awkwardName
        self.cjkName = cjkName
        self.badSize = badSize
        self.outOfRangeType = outOfRangeType
        self.reject = reject
    }

    /// No quirks at all: every record is clean and distinct.
    public static let none = UploadQuirkRates(
        duplicate: 0, missingThumbnail: 0, emptyName: 0, awkwardName: 0, cjkName: 0,
        badSize: 0, outOfRangeType: 0, reject: 0)

    /// No quirks and no thumbnails: small records of a few short fields, where the cost per
    /// record shows rather than the cost of decoding blobs.
    public static let noneWithoutThumbnails = UploadQuirkRates(
        duplicate: 0, missingThumbnail: 1, emptyName: 0, awkwardName: 0, cjkName: 0,
        badSize: 0, outOfRangeType: 0, reject: 0)

    /// Throws when a rate is outside `0...1`, or when the name rates (which exclude each other)
    /// add up to more than 1.
    public func validate() throws(FixtureConfigurationError) {
        try FixtureConfigurationError.check([
            ("duplicate", duplicate), ("missingThumbnail", missingThumbnail), ("emptyName", emptyName),
            ("awkwardName", awkwardName), ("cjkName", cjkName), ("badSize", badSize),
            ("outOfRangeType", outOfRangeType), ("reject", reject),
        ])
        try FixtureConfigurationError.checkSum(emptyName + awkwardName + cjkName, of: "emptyName + awkwardName + cjkName")
    }
}
