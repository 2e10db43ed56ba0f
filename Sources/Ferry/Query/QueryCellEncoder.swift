import FerryModel
import FerryFormats
import FerryStore
import FoundationEssentials

/// Appends the value of one result column to a byte buffer, typed by its column: numbers as
/// digits, booleans `true`/`false`, dates ISO 8601 UTC (milliseconds when not whole seconds),
/// UUIDs as uppercase 8-4-4-4-12 text, binary as `<N bytes>` (table) or base64 (JSON, CSV),
/// the value itself for attributes that allow external storage (`ExternalBinaryData`: inline
/// bytes without their tag, an external value read from its file), a to-many's destination keys
/// as a JSON array, or separated by spaces in CSV and the table (as export writes them).
/// Text is escaped for JSON or quoted for CSV here; nothing becomes a String on the way.
struct QueryCellEncoder {
    enum Escaping { case none, json, csv }

    let escaping: Escaping
    /// Binary values as `<N bytes>` instead of base64.
    let binaryAsSize: Bool
    let entityNames: [Int64: [UInt8]]
    /// The store queried, beside which its external data folder is.
    let storePath: String

    /// Why a cell cannot be shown as it is.
    enum CellProblem: Error {
        /// An attribute that allows external storage holds a value that cannot be read.
        case external(ExternalBinaryDataError)
        /// Text that is not valid UTF-8: shown, it would make the output invalid (JSON must be
        /// UTF-8), and repaired (U+FFFD) it would not be the value; `export` refuses it too.
        case invalidText
        /// A value whose storage class is not its attribute type's (a blob in a String column,
        /// text in a Boolean one): in JSON and CSV it would read as another value of the type
        /// (a blob's base64 as text, `false`), so it is refused, as `export` refuses it; the
        /// table shows it as SQLite's text of it.
        case misfit(String)
    }

    /// The name of the entity whose number is in result column `index` (its number when it names
    /// none).
    private func entityName(at index: Int32, of statement: SQLiteStatement) -> [UInt8] {
        entityNames[statement.int64(at: index)] ?? Array(String(statement.int64(at: index)).utf8)
    }

    /// The entity of the row `statement` is on, for naming it in an error (the entity column is
    /// the second, after `Z_PK`: `QueryColumn.columns(of:model:)`).
    func entityName(of statement: SQLiteStatement) -> String {
        String(decoding: entityName(at: 1, of: statement), as: UTF8.self)
    }

    /// Appends the cell; returns false for NULL (nothing appended).
    func append(_ column: QueryColumn, of statement: SQLiteStatement, to out: inout [UInt8]) throws(CellProblem) -> Bool {
        if column.kind == .toMany {
            appendKeyList(statement, at: column.index, to: &out)
            return true
        }
        let storage = statement.storageClass(at: column.index)
        if storage == .null { return false }
        switch column.kind {
        case .primaryKey, .reference, .integer:
            if storage == .integer { DecimalText.append(statement.int64(at: column.index), to: &out) } else { try appendRaw(column, statement, &out) }
        case .entity:
            appendText(entityName(at: column.index, of: statement), to: &out)
        case .boolean:
            let number = statement.int64(at: column.index)
            guard storage == .integer, number == 0 || number == 1 else { return try appendRaw(column, statement, &out) }
            out.append(contentsOf: number == 1 ? Self.trueBytes : Self.falseBytes)
        case .real, .decimal:
            if storage == .integer {
                DecimalText.append(statement.int64(at: column.index), to: &out)
            } else if storage == .real, statement.double(at: column.index).isFinite {
                out.append(contentsOf: statement.double(at: column.index).description.utf8)
            } else {
                try appendRaw(column, statement, &out)
            }
        case .date:
            guard storage == .integer || storage == .real, statement.double(at: column.index).isFinite else { return try appendRaw(column, statement, &out) }
            let quoted = escaping == .json
            if quoted { out.append(0x22) }
            let seconds = statement.double(at: column.index)
            out.append(contentsOf: (ISO8601Date.format(seconds) ?? seconds.description).utf8)
            if quoted { out.append(0x22) }
        case .text:
            guard storage == .text else { return try appendRaw(column, statement, &out) }
            let valid = statement.withText(at: column.index) { text in
                guard UTF8Text.isValid(UnsafeRawBufferPointer(text)) else { return false }
                appendText(text, to: &out)
                return true
            }
            guard valid else { throw .invalidText }
        case .uuid:
            guard storage == .blob, statement.withBlob(at: column.index, { $0.count }) == 16 else { return try appendRaw(column, statement, &out) }
            statement.withBlob(at: column.index) { bytes in
                if escaping == .json { out.append(0x22) }
                for (offset, byte) in bytes.enumerated() {
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 { out.append(0x2D) }
                    out.append(Self.hex[Int(byte >> 4)])
                    out.append(Self.hex[Int(byte & 0x0F)])
                }
                if escaping == .json { out.append(0x22) }
            }
        case .binary:
            guard storage == .blob else { return try appendRaw(column, statement, &out) }
            statement.withBlob(at: column.index) { appendBase64OrSize($0, to: &out) }
        case .toMany:
            break
        case .externallyStorableBinary:
            do {
                try statement.withBlob(at: column.index) { stored throws(ExternalBinaryDataError) in
                    try ExternalBinaryData.withBytes(of: stored, storePath: storePath) { appendBase64OrSize($0, to: &out) }
                }
            } catch { throw .external(error) }
        }
        return true
    }

    /// Destination keys given as digits separated by spaces (nothing when there are none).
    private func appendKeyList(_ statement: SQLiteStatement, at index: Int32, to out: inout [UInt8]) {
        let json = escaping == .json
        if json { out.append(0x5B) }
        if statement.storageClass(at: index) != .null {
            statement.withText(at: index) { keys in out.append(contentsOf: json ? keys.map { $0 == 0x20 ? 0x2C : $0 } : Array(keys)) }
        }
        if json { out.append(0x5D) }
    }

    /// A value whose storage class does not fit its column: shown in the table as SQLite's text
    /// of it; refused in JSON and CSV (`CellProblem.misfit`).
    @discardableResult
    private func appendRaw(_ column: QueryColumn, _ statement: SQLiteStatement, _ out: inout [UInt8]) throws(CellProblem) -> Bool {
        let storage = statement.storageClass(at: column.index)
        guard escaping == .none else {
            let names = [StorageClass.integer: "an integer", .real: "a real", .text: "text", .blob: "a blob"]
            var held = names[storage] ?? "a value"
            if storage == .real { held += " (\(statement.double(at: column.index)))" }
            if storage == .integer { held += " (\(statement.int64(at: column.index)))" }
            throw .misfit("\(held) is not a value of its type (\(column.kind)); `verify` fails the store, `query --format table` shows it")
        }
        if storage == .real {
            let value = statement.double(at: column.index)
            if value.isFinite { out.append(contentsOf: value.description.utf8) } else { appendText(Array(value.description.utf8), to: &out) }
        } else if storage == .blob {
            statement.withBlob(at: column.index) { appendBase64OrSize($0, to: &out) }
        } else {
            statement.withText(at: column.index) { appendText($0, to: &out) }
        }
        return true
    }

    private func appendBase64OrSize(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        if binaryAsSize {
            out.append(contentsOf: "<\(bytes.count) bytes>".utf8)
        } else {
            if escaping == .json { out.append(0x22) }
            PropertyListBase64.append(bytes, to: &out)
            if escaping == .json { out.append(0x22) }
        }
    }

    func appendText<Bytes: Collection<UInt8>>(_ text: Bytes, to out: inout [UInt8]) {
        switch escaping {
        case .none:
            out.append(contentsOf: text)
        case .json:
            out.append(0x22)
            for byte in text {
                switch byte {
                case 0x22: out.append(0x5C); out.append(0x22)
                case 0x5C: out.append(0x5C); out.append(0x5C)
                case 0x0A: out.append(0x5C); out.append(0x6E)
                case 0x0D: out.append(0x5C); out.append(0x72)
                case 0x09: out.append(0x5C); out.append(0x74)
                case 0..<0x20:
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0x0F)]])
                default: out.append(byte)
                }
            }
            out.append(0x22)
        case .csv:
            // Export's field encoding: the empty string is `""`, told apart from NULL (nothing).
            Array(text).withUnsafeBufferPointer { CSVFieldEncoding.append($0, to: &out) }
        }
    }

    private static let hex = Array("0123456789ABCDEF".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
}


extension Int64 {
    /// Division rounding towards minus infinity.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
