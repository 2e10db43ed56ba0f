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

    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
