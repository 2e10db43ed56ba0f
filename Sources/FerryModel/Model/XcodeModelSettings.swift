/// What an Xcode model file's `<model>` element says about how the model is edited and used, as
/// opposed to the data it describes: Core Data neither archives these settings nor hashes them, so
/// a model decoded from a store's `Z_MODELCACHE` or a `.mom` has none (the defaults below).
/// Models loaded from XML keep them, so writing such a model back says what the file said.
public struct XcodeModelSettings: Sendable, Equatable, Codable {
    /// `minimumToolsVersion` (`Automatic`, `Xcode 7.0`, …); nil when the file does not say.
    public var minimumToolsVersion: String?
    /// `sourceLanguage` of generated classes (`Swift`, `Objective-C`); nil when the file does not say.
    public var sourceLanguage: String?
    /// `usedWithCloudKit="YES"`: Xcode checks the model against CloudKit's rules.
    public var usedWithCloudKit: Bool
    /// `usedWithSwiftData="YES"`: the model was made for, or with, SwiftData.
    public var usedWithSwiftData: Bool

    public init(minimumToolsVersion: String? = nil, sourceLanguage: String? = nil,
                usedWithCloudKit: Bool = false, usedWithSwiftData: Bool = false) {
        self.minimumToolsVersion = minimumToolsVersion
        self.sourceLanguage = sourceLanguage
        self.usedWithCloudKit = usedWithCloudKit
        self.usedWithSwiftData = usedWithSwiftData
    }
}
