import FerryFormats
import FerryModel

/// What `ferry inspect MAPPING` shows: every entity mapping of a Core Data mapping model as
/// Apple's mapping compiler makes it (an `.xcmappingmodel` compiled, a `.cdm` as it is). Codable,
/// so `--json` prints exactly the same facts as the text form.
public struct MappingModelReport: Codable, Sendable, Equatable {
    public struct EntityMapping: Codable, Sendable, Equatable {
        public var name: String
        /// `copy`, `transform`, `add`, `custom`, …
        public var type: String
        public var source: String?
        /// Base64 entity version hash, as Core Data shows it.
        public var sourceVersionHash: String?
        public var destination: String?
        public var destinationVersionHash: String?
        /// The source expression (which objects the mapping takes) in predicate format.
        public var sourceExpression: String?
        public var migrationPolicyClass: String?
        public var attributes: [PropertyMapping]
        public var relationships: [PropertyMapping]
    }

    public struct PropertyMapping: Codable, Sendable, Equatable {
        public var name: String
        /// The value expression in predicate format; nil for the destination's default.
        public var expression: String?
    }

    public var path: String
    public var entityMappings: [EntityMapping]

    public init(_ model: CoreDataMappingModel) {
        path = model.path
        entityMappings = model.entityMappings.map { mapping in
            EntityMapping(
                name: mapping.name, type: mapping.type.name, source: mapping.sourceEntityName,
                sourceVersionHash: mapping.sourceEntityVersionHash.map(PropertyListBase64.text),
                destination: mapping.destinationEntityName,
                destinationVersionHash: mapping.destinationEntityVersionHash.map(PropertyListBase64.text),
                sourceExpression: mapping.sourceExpression.map(Self.text), migrationPolicyClass: mapping.migrationPolicyClassName,
                attributes: mapping.attributeMappings.map { PropertyMapping(name: $0.name, expression: $0.valueExpression.map(Self.text)) },
                relationships: mapping.relationshipMappings.map { PropertyMapping(name: $0.name, expression: $0.valueExpression.map(Self.text)) })
        }
    }

    /// Whether a path names a mapping model rather than a data model or a store: an
    /// `.xcmappingmodel` folder, its `xcmapping.xml`, or a compiled `.cdm…` file.
    public static func isMappingModel(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let last = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        return last.hasSuffix(".xcmappingmodel") || last == "xcmapping.xml" || last.contains(".cdm")
    }

    /// An expression's text, or its class when Ferry cannot print it.
    private static func text(_ expression: ArchivedExpression) -> String {
        expression.text ?? "(an expression Ferry cannot print: \(expression))"
    }
}
