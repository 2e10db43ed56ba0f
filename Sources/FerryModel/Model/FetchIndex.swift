/// A fetch index (Xcode's `<fetchIndex>`), or a legacy compound index, over properties of an entity.
public struct FetchIndex: Sendable, Equatable, Codable {
    /// One property of an index.
    public struct Element: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable {
            case binary = "Binary"
            case rTree = "RTree"
        }
        public var property: String
        public var kind: Kind
        public var isAscending: Bool

        public init(property: String, kind: Kind = .binary, isAscending: Bool = true) {
            self.property = property
            self.kind = kind
            self.isAscending = isAscending
        }
    }

    public var name: String
    public var elements: [Element]

    /// A legacy compound index (Xcode's `compoundIndexes`, an archive's `NSCompoundIndexes`) as
    /// Core Data turns it into a fetch index: named `compoundIndex`, then `compoundIndex1`, … per
    /// entity (knowledgeC's `Z_Event_compoundIndex`, `Z_Event_compoundIndex1`).
    public static func compound(_ properties: [String], among existing: [FetchIndex]) -> FetchIndex {
        let taken = Set(existing.map(\.name))
        var name = "compoundIndex", number = 0
        while taken.contains(name) {
            number += 1
            name = "compoundIndex\(number)"
        }
        return FetchIndex(name: name, elements: properties.map { Element(property: $0) })
    }

    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
