import FerryModel

/// What `ferry inspect MODEL` shows: every version of a model with its entities, properties and
/// version hashes. Codable, so `--json` prints exactly the same facts as the text form.
public struct ModelReport: Codable, Sendable, Equatable {
    public struct Version: Codable, Sendable, Equatable {
        public var name: String
        public var isCurrent: Bool
        public var versionIdentifier: String?
        /// Base64 SHA-256 checksum (`NSStoreModelVersionChecksumKey`).
        public var checksum: String
        /// Base64 SHA-512 digest (`NSStoreModelVersionHashesDigest`).
        public var digest: String
        public var entities: [EntityReport]
    }

    public struct EntityReport: Codable, Sendable, Equatable {
        public var name: String
        public var parent: String?
        public var isAbstract: Bool
        public var renamingIdentifier: String?
        /// Base64 entity version hash, as Core Data shows it.
        public var versionHash: String
        public var attributes: [AttributeReport]
        public var relationships: [RelationshipReport]
        public var uniquenessConstraints: [[String]]
    }

    public struct AttributeReport: Codable, Sendable, Equatable {
        public var name: String
        public var type: String
        public var isOptional: Bool
        public var isTransient: Bool
        public var defaultValue: String?
        public var renamingIdentifier: String?
        public var allowsExternalStorage: Bool
        /// The derivation of a derived attribute, as Core Data keeps it (`count:(pages)`); nil
        /// for one that is not derived.
        public var derivation: String?
        /// What Core Data's validation holds values to: the bounds (`length 1...64`), a regular
        /// expression (`matches ^[a-z]+$`), other validation predicates (`rule 'length >= 3'`).
        public var validation: [String]
    }

    public struct RelationshipReport: Codable, Sendable, Equatable {
        public var name: String
        public var destination: String
        public var isToMany: Bool
        public var isOrdered: Bool
        public var isOptional: Bool
        public var minCount: Int
        public var maxCount: Int
        public var inverse: String?
        public var deleteRule: String
        public var renamingIdentifier: String?
    }

    public var model: String
    public var currentVersion: String
    public var versions: [Version]

    /// Builds the report for every version of a bundle.
    public init(bundle: ModelBundle) {
        model = bundle.name
        currentVersion = bundle.currentVersionName
        versions = bundle.versions.map { version in
            let hashes = VersionHasher.hashes(of: version)
            return Version(
                name: version.name, isCurrent: version.name == bundle.currentVersionName,
                versionIdentifier: version.versionIdentifier, checksum: hashes.base64Checksum, digest: hashes.base64Digest,
                entities: version.entities.map { Self.entityReport($0, hashes: hashes) })
        }
    }

    private static func entityReport(_ entity: Entity, hashes: VersionHashes) -> EntityReport {
        EntityReport(
            name: entity.name, parent: entity.parentName, isAbstract: entity.isAbstract,
            renamingIdentifier: entity.renamingIdentifier, versionHash: hashes.base64Hash(of: entity.name) ?? "",
            attributes: entity.attributes.map { attribute in
                AttributeReport(
                    name: attribute.name, type: attribute.type.xcodeName, isOptional: attribute.isOptional,
                    isTransient: attribute.isTransient,
                    defaultValue: attribute.defaultValueString ?? attribute.defaultDateTimeInterval.map { "\($0)" },
                    renamingIdentifier: attribute.renamingIdentifier,
                    allowsExternalStorage: attribute.allowsExternalBinaryDataStorage,
                    derivation: attribute.isDerived ? DerivationExpression.normalized(attribute.derivationExpression ?? "") : nil,
                    validation: (AttributeBounds(attribute).map { [$0.summary] } ?? [])
                        + attribute.validationRules.map { rule in rule.pattern.map { "matches \($0)" } ?? "rule '\(rule.predicate)'" })
            },
            relationships: entity.relationships.map { relationship in
                RelationshipReport(
                    name: relationship.name, destination: relationship.destinationEntity, isToMany: relationship.isToMany,
                    isOrdered: relationship.isOrdered, isOptional: relationship.isOptional,
                    minCount: relationship.minCount, maxCount: relationship.maxCount,
                    inverse: relationship.inverseName, deleteRule: relationship.deleteRule.rawValue,
                    renamingIdentifier: relationship.renamingIdentifier)
            },
            uniquenessConstraints: entity.uniquenessConstraints)
    }
}
