import FerryStore

/// What `ferry query` is asked: a store, an entity, a fetch and an output format.
public struct QueryRequest: Sendable {
    public var storePath: String
    /// A `.xcdatamodeld` bundle; nil reads the model from the store's `Z_MODELCACHE`.
    public var modelPath: String?
    public var entity: String
    /// Predicate format text; nil fetches every object.
    public var predicate: String?
    /// `key[,-key…]`.
    public var sort: String?
    public var limit: Int?
    public var offset: Int
    public var variables: [String: PredicateValue]
    public var format: QueryFormat

    public init(storePath: String, modelPath: String? = nil, entity: String, predicate: String? = nil, sort: String? = nil,
                limit: Int? = nil, offset: Int = 0, variables: [String: PredicateValue] = [:], format: QueryFormat = .table) {
        self.storePath = storePath
        self.modelPath = modelPath
        self.entity = entity
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.variables = variables
        self.format = format
    }
}
