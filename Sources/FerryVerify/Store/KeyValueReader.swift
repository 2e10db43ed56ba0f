import CSQLite
import FerryModel
import FerryStore

/// Reads key columns of an edge query as attribute values, the way the store reader gives them
/// to record fingerprints (integers, booleans, reals, decimal text, text, blobs, 16-byte UUIDs),
/// so a key computed from a record and one read here encode alike. Values of the wrong storage
/// class were already reported by the values checks; they are read as their nearest value.
enum KeyValueReader {
    /// Appends the canonical encoding of the key in `types.count` columns from `first` on, as
    /// `CanonicalEncoding.append(values:)` of their values; text is copied without a String.
    static func appendKey(_ statement: SQLiteStatement, from first: Int32, as types: [AttributeType?], to bytes: inout [UInt8]) {
        CanonicalEncoding.appendLength(types.count, to: &bytes)
        for (offset, type) in types.enumerated() {
            let column = first + Int32(offset)
            if type == .string, statement.storageClass(at: column) == SQLITE_TEXT {
                statement.withText(at: column) { CanonicalEncoding.appendText($0, as: .string, to: &bytes) }
            } else {
                CanonicalEncoding.append(value(statement, at: column, as: type), to: &bytes)
            }
        }
    }

    private static func value(_ statement: SQLiteStatement, at column: Int32, as type: AttributeType?) -> AttributeValue {
        let storage = statement.storageClass(at: column)
        guard storage != SQLITE_NULL else { return .null }
        switch type {
        case nil, .integer16, .integer32, .integer64:
            return storage == SQLITE_FLOAT ? Int64(exactly: statement.double(at: column)).map(AttributeValue.integer) ?? .double(statement.double(at: column))
                                           : .integer(statement.int64(at: column))
        case .boolean: return .bool(statement.int64(at: column) != 0)
        case .double, .float: return .double(statement.double(at: column))
        case .date: return .date(statement.double(at: column))
        case .decimal:
            if storage == SQLITE_INTEGER { return .decimal(String(statement.int64(at: column))) }
            if storage == SQLITE_TEXT { return .decimal(statement.withText(at: column) { DecimalNotation.plain($0) } ?? "") }
            return .decimal(DecimalNotation.plain(statement.double(at: column)) ?? "")
        case .string: return .string(statement.string(at: column) ?? "")
        case .uri: return .uri(statement.string(at: column) ?? "")
        case .uuid:
            let bytes = statement.bytes(at: column) ?? []
            return UUIDBytes(bytes).map(AttributeValue.uuid) ?? .binary(bytes)
        case .binary, .transformable, .undefined, .objectID, .composite:
            return .binary(storage == SQLITE_TEXT ? statement.withText(at: column) { Array($0) } : statement.bytes(at: column) ?? [])
        }
    }
}
