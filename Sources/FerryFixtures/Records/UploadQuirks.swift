/// The quirks a generated upload record carries, so that a test or benchmark knows the expected
/// outcome of importing it.
public struct UploadQuirks: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16

    /// Creates a quirk set from its raw bits.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// An exact copy of an earlier record.
    public static let duplicate = UploadQuirks(rawValue: 1 << 0)
    /// `imageData` is absent.
    public static let missingThumbnail = UploadQuirks(rawValue: 1 << 1)
    /// `fileName` is the empty string.
    public static let emptyName = UploadQuirks(rawValue: 1 << 2)
    /// `fileName` holds a comma, a double quote or a newline.
    public static let awkwardName = UploadQuirks(rawValue: 1 << 3)
    /// `fileName` holds CJK text or emoji.
    public static let cjkName = UploadQuirks(rawValue: 1 << 4)
    /// `fileSize` is present but not "digits.two digits" ("", "n/a", garbage): rejected under
    /// the strict policy, `byteCount` nil under the lenient one.
    public static let badSize = UploadQuirks(rawValue: 1 << 5)
    /// `fileType` is an integer outside 0…5.
    public static let outOfRangeType = UploadQuirks(rawValue: 1 << 6)
    /// `fileType` is not an integer: a strict or lenient importer must reject the record.
    public static let badFileType = UploadQuirks(rawValue: 1 << 7)
    /// `time` is not an integer: a strict or lenient importer must reject the record.
    public static let badTime = UploadQuirks(rawValue: 1 << 8)

    /// The quirks that make every importer reject the record.
    public static let rejecting: UploadQuirks = [.badFileType, .badTime]

    /// Whether an importer must reject the record whatever its policy.
    public var isRejected: Bool { !isDisjoint(with: .rejecting) }
}
