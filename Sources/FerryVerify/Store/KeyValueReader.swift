import FerryModel
import FerryStore

/// Reads key columns of an edge query as attribute values, the way the store reader gives them
/// to record fingerprints (integers, booleans, reals, decimal text, text, blobs, 16-byte UUIDs,
/// binary values of attributes that allow external storage decoded by `ExternalBinaryData`), so
/// a key computed from a record and one read here encode alike. Values of the wrong storage
/// class were already reported by the values checks (and unreadable ones by the fingerprints);
/// they are read as their nearest value.
struct KeyValueReader {
    /// How a key column is read, as a trivial value (no reference counting per row).
    private struct KeyColumn {
        /// Nil for `Z_PK`.
        let type: AttributeType?
        let isExternallyStorable: Bool
    }

    private let columns: [KeyColumn]
    /// The store, whose external data folder holds values moved out of it.
    private let storePath: String

    /// A reader of key columns of `attributes` (nil for `Z_PK`) of the store at `storePath`.
    init(attributes: [Attribute?], storePath: String) {
        columns = attributes.map { KeyColumn(type: $0?.type, isExternallyStorable: $0?.allowsExternalBinaryDataStorage == true) }
        self.storePath = storePath
    }

    /// Appends the canonical encoding of the key in the reader's columns from `first` on, as
    /// `CanonicalEncoding.append(values:)` of their values; text is copied without a String.
    func appendKey(_ statement: SQLiteStatement, from first: Int32, to bytes: inout [UInt8]) {
        CanonicalEncoding.appendLength(columns.count, to: &bytes)
        for (offset, key) in columns.enumerated() {
            let column = first + Int32(offset)
            if key.type == .string, statement.storageClass(at: column) == .text {
                statement.withText(at: column) { CanonicalEncoding.appendText($0, as: .string, to: &bytes) }
            } else {
                CanonicalEncoding.append(value(statement, at: column, of: key), to: &bytes)
            }
        }
    }

    /// Appends the canonical encoding of a key of one `Z_PK` column holding `key`, as `appendKey`
    /// encodes it.
    static func appendPrimaryKey(_ key: Int64, to bytes: inout [UInt8]) {
        CanonicalEncoding.appendLength(1, to: &bytes)
        CanonicalEncoding.append(.integer(key), to: &bytes)
    }

    private func value(_ statement: SQLiteStatement, at column: Int32, of key: KeyColumn) -> AttributeValue {
        let storage = statement.storageClass(at: column)
        guard storage != .null else { return .null }
        switch key.type {
        case nil, .integer16, .integer32, .integer64:
            return storage == .real ? Int64(exactly: statement.double(at: column)).map(AttributeValue.integer) ?? .double(statement.double(at: column))
                                           : .integer(statement.int64(at: column))
        case .boolean: return .bool(statement.int64(at: column) != 0)
        case .double, .float: return .double(statement.double(at: column))
        case .date: return .date(statement.double(at: column))
        case .decimal:
            if storage == .integer {
                return .decimal(DecimalNotation.plain(storedInteger: statement.int64(at: column)) ?? String(statement.int64(at: column)))
            }
            if storage == .text { return .decimal(statement.withText(at: column) { DecimalNotation.plain($0) } ?? "") }
            return .decimal(DecimalNotation.plain(statement.double(at: column)) ?? "")
        case .string: return .string(statement.string(at: column) ?? "")
        case .uri: return .uri(statement.string(at: column) ?? "")
        case .uuid:
            let bytes = statement.bytes(at: column) ?? []
            return UUIDBytes(bytes).map(AttributeValue.uuid) ?? .binary(bytes)
        case .binary, .transformable, .undefined, .objectID, .composite:
            if storage == .text { return .binary(statement.withText(at: column) { Array($0) }) }
            return .binary(statement.withBlob(at: column) { stored in
                guard key.isExternallyStorable,
                      let bytes = try? ExternalBinaryData.withBytes(of: stored, storePath: storePath, { Array($0) }) else { return Array(stored) }
                return bytes
            })
        }
    }
}
