/// Something a model holds that Xcode's model XML has no spelling for, so that `XcodeModelWriter`
/// leaves it out of the file (and a model loaded back from the file lacks it).
public struct UnwrittenModelPart: Sendable, Equatable, CustomStringConvertible {
    /// Where it is: `Entity.property`, or `fetch request NAME`.
    public var location: String
    /// What is left out.
    public var detail: String
    /// Whether Core Data's version hash covers it, so that the written model's hashes differ from
    /// the model's: such a file is not the same model version to Core Data.
    public var changesVersionHash: Bool

    public init(location: String, detail: String, changesVersionHash: Bool) {
        self.location = location
        self.detail = detail
        self.changesVersionHash = changesVersionHash
    }

    public var description: String {
        "\(location): \(detail)" + (changesVersionHash ? " (part of the version hash)" : "")
    }
}
