import FerryFormats
import FerryModel

/// Records as JSON objects `{"Z_PK":1,"name":"…","project":12,"tags":[3,4]}`: one per line
/// (NDJSON), or as the elements of one array. Numbers are JSON numbers, decimals, dates, UUIDs
/// and binary (base64) are strings, NULL is null, a to-one without destination is null.
struct JSONRecordEncoder: ExportRecordEncoder {
    private let asArray: Bool
    /// `"name":` of every column, ready to copy.
    private let keys: [[UInt8]]
    private var first = true

    init(layout: EntityExportLayout, asArray: Bool) {
        self.asArray = asArray
        keys = layout.columnNames.map { name in
            var key: [UInt8] = []
            JSONStringEncoding.append(name, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    mutating func prologue(into output: inout [UInt8]) {
        if asArray { output.append(UInt8(ascii: "[")) }
    }

    mutating func encode(_ row: ExportRow, into output: inout [UInt8]) throws(ExportError) {
        if asArray { output.append(contentsOf: first ? [0x0A] : [UInt8(ascii: ","), 0x0A]) }
        first = false
        output.append(UInt8(ascii: "{"))
        output.append(contentsOf: keys[0])
        DecimalText.append(row.primaryKey, to: &output)
        var column = 1
        for value in try row.attributes {
            separate(column, &output)
            Self.append(value, to: &output)
            column += 1
        }
        for key in row.toOne {
            separate(column, &output)
            if let key { DecimalText.append(key, to: &output) } else { output.append(contentsOf: "null".utf8) }
            column += 1
        }
        for keys in row.toMany {
            separate(column, &output)
            output.append(UInt8(ascii: "["))
            for (index, key) in keys.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                DecimalText.append(key, to: &output)
            }
            output.append(UInt8(ascii: "]"))
            column += 1
        }
        output.append(UInt8(ascii: "}"))
        if !asArray { output.append(0x0A) }
    }

    mutating func epilogue(into output: inout [UInt8]) {
        if asArray { output.append(contentsOf: first ? [UInt8(ascii: "]"), 0x0A] : [0x0A, UInt8(ascii: "]"), 0x0A]) }
    }

    private func separate(_ column: Int, _ output: inout [UInt8]) {
        output.append(UInt8(ascii: ","))
        output.append(contentsOf: keys[column])
    }

    private static func append(_ value: AttributeValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .integer(let number): DecimalText.append(number, to: &output)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .double(let number) where number.isFinite: output.append(contentsOf: number.description.utf8)
        case .string(let text), .uri(let text), .decimal(let text): JSONStringEncoding.append(text, to: &output)
        default: JSONStringEncoding.append(ExportValueText.text(value) ?? "", to: &output)
        }
    }
}
