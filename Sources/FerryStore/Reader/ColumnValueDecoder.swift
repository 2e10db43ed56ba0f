import CSQLite
import FerryFormats
import FerryModel

/// Why one stored value cannot be read as its attribute type.
struct ValueProblem: Error {
    let reason: String
}

/// Converts a value of a result column to an `AttributeValue` of an attribute type by the
/// storage class SQLite reports for it (its column's declared type does not bound what it holds),
/// reading it straight from SQLite's buffers or from a worker's copy of them (`StoredColumnValue`).
///
/// A Core Data store's value is read only in a storage class Core Data writes for its type, the
/// rule `verify` holds stores to (`StorageRule`): one `verify` fails is refused, never converted
/// on its way to another store (`strict`). A plain table's column holds what its writer put there,
/// and is read by exact conversions as well (marked "plain" below):
///
/// - Integer 16/32/64: integers in the type's range, and reals with an integral value (SQLite
///   keeps those as reals only in columns without integer affinity).
/// - Boolean: 0 or 1.
/// - Double/Float/Date: reals, and integers a double holds exactly (plain: any integer). Dates are
///   seconds since 2001-01-01 UTC.
/// - Decimal: reals and integers a double holds exactly (a `DECIMAL` column has numeric
///   affinity), as the shortest plain decimal text that reads back as the stored double (plain:
///   any integer, and text that is a decimal literal, normalised). What the app held before
///   Core Data rounded it to a double is not recoverable.
/// - String/URI: text that is valid UTF-8 (plain: integers and reals as their decimal text,
///   blobs that are UTF-8).
/// - Binary/Transformable: blobs (plain: text as its bytes). (The cursor then removes the
///   external-storage tag of attributes that allow external storage: `ExternalBinaryData`.)
/// - UUID: 16-byte blobs (plain: text in the 8-4-4-4-12 form).
enum ColumnValueDecoder {
    /// Always inlined into the cursor's one call site: a call per value, returning the value
    /// indirectly, was a sixth of the cost of reading a row's values.
    @inline(__always)
    static func decode(_ value: some StoredColumnValue, as type: AttributeType, strict: Bool) throws(ValueProblem) -> AttributeValue {
        let storage = value.storageClass
        if storage == .null { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            let number = try integer(value, storage, type)
            guard let range = type.integerRange, range.contains(number) else {
                throw ValueProblem(reason: "\(number) is out of range for \(type.xcodeName)")
            }
            return .integer(number)
        case .boolean:
            let number = try integer(value, storage, type)
            guard number == 0 || number == 1 else { throw ValueProblem(reason: "\(number) is not a Boolean (0 or 1)") }
            return .bool(number == 1)
        case .double, .float:
            return .double(try real(value, storage, type, strict))
        case .date:
            return .date(try real(value, storage, type, strict))
        case .decimal:
            return .decimal(try decimal(value, storage, strict))
        case .string:
            return .string(try text(value, storage, type, strict))
        case .uri:
            return .uri(try text(value, storage, type, strict))
        case .binary, .transformable:
            return .binary(try bytes(value, storage, type, strict))
        case .uuid:
            return .uuid(try uuid(value, storage, strict))
        case .undefined, .objectID, .composite:
            throw ValueProblem(reason: "attributes of type \(type.xcodeName) have no column")
        }
    }

    /// Inlined like `decode`: most of a row's values are integers and text.
    @inline(__always)
    private static func integer(_ value: some StoredColumnValue, _ storage: StorageClass,
                                _ type: AttributeType) throws(ValueProblem) -> Int64 {
        switch storage {
        case .integer:
            return value.int64
        case .real:
            let number = value.double
            guard let exact = Int64(exactly: number) else { throw ValueProblem(reason: "real \(number) is not an integer") }
            return exact
        default:
            throw mismatch(storage, type)
        }
    }

    private static func real(_ value: some StoredColumnValue, _ storage: StorageClass,
                             _ type: AttributeType, _ strict: Bool) throws(ValueProblem) -> Double {
        switch storage {
        case .real: return value.double
        case .integer: return strict ? try exactDouble(value.int64) : Double(value.int64)
        default: throw mismatch(storage, type)
        }
    }

    /// An integer as the double that holds it exactly; past 2^53 most integers have none, and
    /// Core Data, which reads these attributes as doubles, would read another number.
    private static func exactDouble(_ integer: Int64) throws(ValueProblem) -> Double {
        guard let exact = Double(exactly: integer) else { throw ValueProblem(reason: "integer \(integer) has no exact double") }
        return exact
    }

    private static func decimal(_ value: some StoredColumnValue, _ storage: StorageClass, _ strict: Bool) throws(ValueProblem) -> String {
        switch storage {
        case .integer:
            if strict { _ = try exactDouble(value.int64) }
            return DecimalNotation.plain(storedInteger: value.int64) ?? String(value.int64)
        case .real:
            let number = value.double
            guard let text = DecimalNotation.plain(number) else { throw ValueProblem(reason: "real \(number) is not a decimal number") }
            return text
        case .text where !strict:
            let text = value.withText { DecimalNotation.plain($0) }
            guard let text else { throw ValueProblem(reason: "text \(clipped(value)) is not a decimal number") }
            return text
        default:
            throw mismatch(storage, .decimal)
        }
    }

    /// Inlined like `decode`: most of a row's values are integers and text.
    @inline(__always)
    private static func text(_ value: some StoredColumnValue, _ storage: StorageClass,
                             _ type: AttributeType, _ strict: Bool) throws(ValueProblem) -> String {
        switch storage {
        case .text:
            // Not repaired: U+FFFD in place of the bytes would change the value, unseen by every
            // check that reads it the same way.
            guard let decoded = value.withText({ UTF8Text.string($0) }) else {
                throw ValueProblem(reason: "text that is not valid UTF-8 cannot be read as \(type.withArticle) without changing it")
            }
            return decoded
        case _ where strict:
            throw mismatch(storage, type)
        case .integer:
            return String(value.int64)
        case .real:
            return value.double.description
        default:
            let decoded = value.withBlob { UTF8Text.string($0) }
            guard let decoded else { throw ValueProblem(reason: "a blob that is not UTF-8 text cannot be \(type.withArticle)") }
            return decoded
        }
    }

    private static func bytes(_ value: some StoredColumnValue, _ storage: StorageClass,
                              _ type: AttributeType, _ strict: Bool) throws(ValueProblem) -> [UInt8] {
        switch storage {
        case .blob: return value.withBlob { Array($0) }
        case .text where !strict: return value.withText { Array($0) }
        default: throw mismatch(storage, type)
        }
    }

    private static func uuid(_ value: some StoredColumnValue, _ storage: StorageClass, _ strict: Bool) throws(ValueProblem) -> UUIDBytes {
        switch storage {
        case .blob:
            let bytes = value.withBlob { Array($0) }
            guard let uuid = UUIDBytes(bytes) else { throw ValueProblem(reason: "a UUID blob has \(bytes.count) bytes, not 16") }
            return uuid
        case .text where !strict:
            guard let uuid = UUIDBytes(string: value.withText { String(decoding: $0, as: UTF8.self) }) else {
                throw ValueProblem(reason: "text \(clipped(value)) is not a UUID")
            }
            return uuid
        default:
            throw mismatch(storage, .uuid)
        }
    }

    private static func mismatch(_ storage: StorageClass, _ type: AttributeType) -> ValueProblem {
        let names = [StorageClass.integer: "an integer", .real: "a real", .text: "text", .blob: "a blob"]
        return ValueProblem(reason: "\(names[storage] ?? "a value of storage class \(storage)") cannot be \(type.withArticle)")
    }

    /// At most 40 bytes of a text value, quoted, for messages.
    private static func clipped(_ value: some StoredColumnValue) -> String {
        let text = value.withText { String(decoding: $0.prefix(40), as: UTF8.self) }
        return "\"\(text)\""
    }
}
