import CSQLite
import FerryModel

/// Why one stored value cannot be read as its attribute type.
struct ValueProblem: Error {
    let reason: String
}

/// Converts the value of a result column to an `AttributeValue` of an attribute type, reading
/// the storage class SQLite reports. Conversions are exact or refused:
///
/// - Integer 16/32/64: integers in the type's range, and reals with an integral value (SQLite
///   keeps those as reals only in columns without integer affinity).
/// - Boolean: 0 or 1.
/// - Double/Float: reals and integers.
/// - Decimal: integers and reals (a `DECIMAL` column has numeric affinity, so Core Data's values
///   come back as reals, or integers when integral) as the shortest plain decimal text that reads
///   back as the stored double; text that is a decimal literal, normalised. What the app held
///   before Core Data rounded it to a double is not recoverable.
/// - Date: reals and integers, seconds since 2001-01-01 UTC.
/// - String/URI: text (as a String); integers and reals as their decimal text; blobs that are UTF-8.
/// - Binary/Transformable: blobs as their bytes; text as its bytes. (The cursor then removes the
///   external-storage tag of attributes that allow external storage: `ExternalBinaryData`.)
/// - UUID: 16-byte blobs, or text in the 8-4-4-4-12 form.
enum ColumnValueDecoder {
    static func decode(_ statement: SQLiteStatement, at column: Int32,
                       as type: AttributeType) throws(ValueProblem) -> AttributeValue {
        let storage = statement.storageClass(at: column)
        if storage == .null { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            let number = try integer(statement, column, storage, type)
            guard let range = type.integerRange, range.contains(number) else {
                throw ValueProblem(reason: "\(number) is out of range for \(type.xcodeName)")
            }
            return .integer(number)
        case .boolean:
            let number = try integer(statement, column, storage, type)
            guard number == 0 || number == 1 else { throw ValueProblem(reason: "\(number) is not a Boolean (0 or 1)") }
            return .bool(number == 1)
        case .double, .float:
            return .double(try real(statement, column, storage, type))
        case .date:
            return .date(try real(statement, column, storage, type))
        case .decimal:
            return .decimal(try decimal(statement, column, storage))
        case .string:
            return .string(try text(statement, column, storage, type))
        case .uri:
            return .uri(try text(statement, column, storage, type))
        case .binary, .transformable:
            return .binary(try bytes(statement, column, storage, type))
        case .uuid:
            return .uuid(try uuid(statement, column, storage))
        case .undefined, .objectID, .composite:
            throw ValueProblem(reason: "attributes of type \(type.xcodeName) have no column")
        }
    }

    private static func integer(_ statement: SQLiteStatement, _ column: Int32, _ storage: StorageClass,
                                _ type: AttributeType) throws(ValueProblem) -> Int64 {
        switch storage {
        case .integer:
            return statement.int64(at: column)
        case .real:
            let value = statement.double(at: column)
            guard let exact = Int64(exactly: value) else { throw ValueProblem(reason: "real \(value) is not an integer") }
            return exact
        default:
            throw mismatch(storage, type)
        }
    }

    private static func real(_ statement: SQLiteStatement, _ column: Int32, _ storage: StorageClass,
                             _ type: AttributeType) throws(ValueProblem) -> Double {
        switch storage {
        case .real: return statement.double(at: column)
        case .integer: return Double(statement.int64(at: column))
        default: throw mismatch(storage, type)
        }
    }

    private static func decimal(_ statement: SQLiteStatement, _ column: Int32, _ storage: StorageClass) throws(ValueProblem) -> String {
        switch storage {
        case .integer:
            return String(statement.int64(at: column))
        case .real:
            let value = statement.double(at: column)
            guard let text = DecimalNotation.plain(value) else { throw ValueProblem(reason: "real \(value) is not a decimal number") }
            return text
        case .text:
            let text = statement.withText(at: column) { DecimalNotation.plain($0) }
            guard let text else { throw ValueProblem(reason: "text \(clipped(statement, column)) is not a decimal number") }
            return text
        default:
            throw mismatch(storage, .decimal)
        }
    }

    private static func text(_ statement: SQLiteStatement, _ column: Int32, _ storage: StorageClass,
                             _ type: AttributeType) throws(ValueProblem) -> String {
        switch storage {
        case .text:
            return statement.withText(at: column) { String(decoding: $0, as: UTF8.self) }
        case .integer:
            return String(statement.int64(at: column))
        case .real:
            return statement.double(at: column).description
        default:
            let decoded = statement.withBlob(at: column) { String(validating: $0, as: UTF8.self) }
            guard let decoded else { throw ValueProblem(reason: "a blob that is not UTF-8 text cannot be a \(type.xcodeName)") }
            return decoded
        }
    }

    private static func bytes(_ statement: SQLiteStatement, _ column: Int32, _ storage: StorageClass,
                              _ type: AttributeType) throws(ValueProblem) -> [UInt8] {
        switch storage {
        case .blob: return statement.withBlob(at: column) { Array($0) }
        case .text: return statement.withText(at: column) { Array($0) }
        default: throw mismatch(storage, type)
        }
    }

    private static func uuid(_ statement: SQLiteStatement, _ column: Int32, _ storage: StorageClass) throws(ValueProblem) -> UUIDBytes {
        switch storage {
        case .blob:
            let bytes = statement.withBlob(at: column) { Array($0) }
            guard let uuid = UUIDBytes(bytes) else { throw ValueProblem(reason: "a UUID blob has \(bytes.count) bytes, not 16") }
            return uuid
        case .text:
            guard let uuid = UUIDBytes(string: statement.string(at: column) ?? "") else {
                throw ValueProblem(reason: "text \(clipped(statement, column)) is not a UUID")
            }
            return uuid
        default:
            throw mismatch(storage, .uuid)
        }
    }

    private static func mismatch(_ storage: StorageClass, _ type: AttributeType) -> ValueProblem {
        let names = [StorageClass.integer: "an integer", .real: "a real", .text: "text", .blob: "a blob"]
        return ValueProblem(reason: "\(names[storage] ?? "a value of storage class \(storage)") cannot be a \(type.xcodeName)")
    }

    /// At most 40 bytes of a text value, quoted, for messages.
    private static func clipped(_ statement: SQLiteStatement, _ column: Int32) -> String {
        let text = statement.withText(at: column) { String(decoding: $0.prefix(40), as: UTF8.self) }
        return "\"\(text)\""
    }
}
