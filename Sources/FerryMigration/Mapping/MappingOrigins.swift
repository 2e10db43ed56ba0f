import FerryModel

/// What each entity, attribute and relationship of a mapping's destination version is made from
/// in its source version: the element whose records, values or links the mapping carries into
/// it (a copy or a conversion; defaults and written expressions come from no one element).
///
/// Origins compose along a chain (`followed(by:)`), so the origins of a mapping inferred straight
/// across several versions can be compared with those of the steps through every version between
/// (`carries(everythingOf:)`): a rename chained over versions (`A` → `B` → `C`, each version's
/// renaming identifier naming the one before) is carried by the steps and lost by the straight one.
public struct MappingOrigins: Equatable, Sendable {
    /// An entity, or one property of an entity, of one version.
    public struct Element: Hashable, Sendable, CustomStringConvertible {
        public enum Kind: Sendable { case entity, attribute, relationship }
        public let kind: Kind
        public let entity: String
        /// The attribute or relationship; nil for an entity.
        public let property: String?

        public var description: String { property.map { "\(entity).\($0)" } ?? entity }
    }

    /// Destination element → the source element it is made from.
    public private(set) var origins: [Element: Element]

    /// The origins of one step's entity mappings (branches included).
    public init(_ mapping: MappingModel) {
        origins = [:]
        for entity in mapping.entities + mapping.branches {
            origins[Element(kind: .entity, entity: entity.destination, property: nil)] = Element(kind: .entity, entity: entity.source, property: nil)
            for attribute in entity.attributes {
                switch attribute.rule {
                case .copy(let source), .convert(let source, _, _):
                    origins[Element(kind: .attribute, entity: entity.destination, property: attribute.destination)] =
                        Element(kind: .attribute, entity: entity.source, property: source)
                case .defaultValue, .expression:
                    continue
                }
            }
            for relationship in entity.relationships {
                origins[Element(kind: .relationship, entity: entity.destination, property: relationship.destination)] =
                    Element(kind: .relationship, entity: entity.source, property: relationship.source)
            }
        }
    }

    /// The origins of this mapping followed by `next` (whose source version is this one's
    /// destination): what `next`'s destination elements are made from in this one's source.
    public func followed(by next: MappingOrigins) -> MappingOrigins {
        var composed = self
        composed.origins = next.origins.compactMapValues { origins[$0] }
        return composed
    }

    /// Whether every element `other` makes from a source element this makes from the same one.
    /// It may make more (an attribute a version between lacks, which a straight mapping keeps).
    public func carries(everythingOf other: MappingOrigins) -> Bool {
        other.origins.allSatisfy { origins[$0.key] == $0.value }
    }
}

/// The versions a migration by inferred mappings must stop at between two versions: a mapping
/// inferred straight from one to a later one, as Core Data infers it, goes as far as it carries
/// everything the steps through every version between carry (`MappingOrigins`), so the migration
/// carries what `ferry plan` shows step by step. Where the steps carry no more, the straight
/// mapping is kept (it may carry more: the values of an attribute a version between lacks).
public enum InferredStops {
    /// The indices of `versions` (oldest first) to stop at, the first and the last included.
    public static func stops(in versions: [ManagedObjectModel]) -> [Int] {
        guard versions.count > 2 else { return Array(versions.indices) }
        let steps = versions.indices.dropLast().map { MappingOrigins(MappingInference.infer(from: versions[$0], to: versions[$0 + 1])) }
        var stops = [0]
        var from = 0
        while from < versions.count - 1 {
            var stepwise = steps[from]
            var farthest = from + 1
            for to in (from + 2)..<versions.count {
                stepwise = stepwise.followed(by: steps[to - 1])
                if MappingOrigins(MappingInference.infer(from: versions[from], to: versions[to])).carries(everythingOf: stepwise) {
                    farthest = to
                }
            }
            stops.append(farthest)
            from = farthest
        }
        return stops
    }
}
