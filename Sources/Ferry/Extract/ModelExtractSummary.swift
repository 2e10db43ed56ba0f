import FerryModel

/// What `ModelExtractJob` wrote.
public struct ModelExtractSummary: Sendable, Equatable {
    /// The `.xcdatamodeld` bundle written.
    public var bundlePath: String
    /// Its one version, which is current.
    public var versionName: String
    /// The extracted model's entities, in name order.
    public var entities: [String]
    /// The store's version hashes, which the written model, loaded back, has too: entity → hash.
    public var versionHashes: [String: [UInt8]]
    /// Whether they are the store's `NSStoreModelVersionHashes`; false when its metadata holds none
    /// and they are the cached model's own.
    public var hashesFromMetadata: Bool
    /// What the store's model holds that Xcode's XML cannot, left out of the bundle. None of it
    /// is part of the version hashes (or they would differ and the job fail).
    public var unwritten: [UnwrittenModelPart]
}
