/// A fetched property: a stored fetch request evaluated on demand. It has no column and no hash.
public struct FetchedProperty: Sendable, Equatable, Codable {
    public var name: String
    public var isOptional: Bool
    /// The entity the fetch request asks for.
    public var fetchEntity: String?
    public var predicateString: String?
    public var userInfo: [String: String]

    public init(name: String, isOptional: Bool = true, fetchEntity: String? = nil, predicateString: String? = nil,
                userInfo: [String: String] = [:]) {
        self.name = name
        self.isOptional = isOptional
        self.fetchEntity = fetchEntity
        self.predicateString = predicateString
        self.userInfo = userInfo
    }
}
