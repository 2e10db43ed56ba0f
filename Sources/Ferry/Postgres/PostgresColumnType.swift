import FerryModel

/// The PostgreSQL type of a column: each attribute type has its native counterpart.
public enum PostgresColumnType: String, Sendable, Equatable {
    case smallint, integer, bigint, boolean, real
    case doublePrecision = "double precision"
    case numeric, text, timestamptz, bytea, uuid

    /// Integer 16/32/64 → smallint/integer/bigint, Boolean → boolean, Float → real (values
    /// must be exact as 4-byte floats), Double → double precision, Decimal → numeric (exact),
    /// String and URI → text, Date → timestamptz (microseconds), Binary and Transformable →
    /// bytea, UUID → uuid. Nil for types with no stored value (undefined, object IDs, composites).
    public init?(_ type: AttributeType) {
        switch type {
        case .integer16: self = .smallint
        case .integer32: self = .integer
        case .integer64: self = .bigint
        case .boolean: self = .boolean
        case .float: self = .real
        case .double: self = .doublePrecision
        case .decimal: self = .numeric
        case .string, .uri: self = .text
        case .date: self = .timestamptz
        case .binary, .transformable: self = .bytea
        case .uuid: self = .uuid
        case .undefined, .objectID, .composite: return nil
        }
    }

    /// The type as DDL spells it.
    public var sql: String { rawValue }
}
