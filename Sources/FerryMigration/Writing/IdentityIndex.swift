import FerryModel
import FerryStore

/// Identity keys of records written so far, for entities deduplicated on attributes the model
/// has no uniqueness constraint for: `ferry_identity.keys (entity, value → pk)` in a scratch
/// database beside the store's connection, so memory does not grow with the records.
///
/// A key is the identity values encoded into one blob (`append(_:to:)`): equal values give
/// equal blobs, different values different ones.
final class IdentityIndex {
    private let find: SQLiteStatement
    private let insert: SQLiteStatement

    init(writer: CoreDataStoreWriter) throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.attachScratchDatabase(named: "ferry_identity")
            try writer.execute("CREATE TABLE ferry_identity.keys (entity TEXT, value BLOB, pk INTEGER, PRIMARY KEY (entity, value)) WITHOUT ROWID")
        }
        find = try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.prepareStatement("SELECT pk FROM ferry_identity.keys WHERE entity = ? AND value = ?")
        }
        insert = try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.prepareStatement("INSERT OR REPLACE INTO ferry_identity.keys (entity, value, pk) VALUES (?, ?, ?)")
        }
    }

    func primaryKey(for value: [UInt8], entity: String) throws(GraphWriteError) -> Int64? {
        let statement = find
        return try GraphWriteError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(entity, at: 1)
            try statement.bindBlob(value, at: 2)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
    }

    func remember(_ value: [UInt8], entity: String, primaryKey: Int64) throws(GraphWriteError) {
        let statement = insert
        try GraphWriteError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(entity, at: 1)
            try statement.bindBlob(value, at: 2)
            try statement.bind(primaryKey, at: 3)
            try statement.run()
        }
    }

    /// Appends one value of an identity to its key: a type tag, then the value's bytes
    /// (variable-length ones preceded by their length, so that no two lists of values meet).
    static func append(_ value: AttributeValue, to key: inout [UInt8]) {
        switch value {
        case .null: key.append(0)
        case .integer(let number): appendTagged(1, number, to: &key)
        case .double(let number): appendTagged(2, Int64(bitPattern: number.bitPattern), to: &key)
        case .date(let seconds): appendTagged(3, Int64(bitPattern: seconds.bitPattern), to: &key)
        case .bool(let flag): key += [4, flag ? 1 : 0]
        case .decimal(let text): appendBytes(5, text.utf8, to: &key)
        case .string(let text): appendBytes(6, text.utf8, to: &key)
        case .uri(let text): appendBytes(7, text.utf8, to: &key)
        case .binary(let bytes): appendBytes(8, bytes, to: &key)
        case .uuid(let uuid): appendBytes(9, uuid.bytes, to: &key)
        }
    }

    private static func appendTagged(_ tag: UInt8, _ number: Int64, to key: inout [UInt8]) {
        key.append(tag)
        withUnsafeBytes(of: number.bigEndian) { key.append(contentsOf: $0) }
    }

    private static func appendBytes(_ tag: UInt8, _ bytes: some Collection<UInt8>, to key: inout [UInt8]) {
        appendTagged(tag, Int64(bytes.count), to: &key)
        key.append(contentsOf: bytes)
    }
}
