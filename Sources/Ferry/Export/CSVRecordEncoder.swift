import FerryFormats

/// Records as CSV rows under a header of column names: values as `ExportValueText` writes them,
/// NULL (and a to-one without destination) as an empty unquoted field, the empty string as `""`,
/// a to-many as its destination `Z_PK`s separated by spaces.
struct CSVRecordEncoder: ExportRecordEncoder {
    private let header: [String]
    var writesDeferredBase64: Bool { true }

    init(layout: EntityExportLayout) {
        header = layout.columnNames
    }

    mutating func prologue(into output: inout [UInt8]) {
        for (index, name) in header.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            CSVFieldEncoding.append(name, to: &output)
        }
        output.append(contentsOf: [0x0D, 0x0A])
    }

    mutating func encode(_ row: ExportRow, into output: inout [UInt8]) throws(ExportError) {
        DecimalText.append(row.primaryKey, to: &output)
        try row.forEachPlainValue { index, plain throws(ExportError) in
            output.append(UInt8(ascii: ","))
            // Values the store holds as they are written go straight from SQLite's buffers.
            switch plain {
            case .null: break
            case .integer(let number): DecimalText.append(number, to: &output)
            case .text(let text): CSVFieldEncoding.append(text.assumingMemoryBound(to: UInt8.self), to: &output)
            case .bytes(let bytes): Self.appendBase64(bytes, to: &output)
            case nil:
                let value = try row.value(index)
                if case .binary(let bytes) = value {
                    bytes.withUnsafeBytes { Self.appendBase64($0, to: &output) }
                } else if let text = ExportValueText.text(value) {
                    CSVFieldEncoding.append(text, to: &output)
                }
            }
        }
        for key in row.toOne {
            output.append(UInt8(ascii: ","))
            if let key { DecimalText.append(key, to: &output) }
        }
        for keys in row.toMany {
            output.append(UInt8(ascii: ","))
            CSVFieldEncoding.append(keys.map(String.init).joined(separator: " "), to: &output)
        }
        output.append(contentsOf: [0x0D, 0x0A])
    }

    mutating func epilogue(into output: inout [UInt8]) {}

    /// Base64 holds no delimiter, quote or line break: it needs no quoting, and is encoded on
    /// the writing thread (`DeferredBase64`). The empty value is quoted, as the empty string
    /// is, to tell it from NULL.
    private static func appendBase64(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        guard !bytes.isEmpty else {
            output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\"")])
            return
        }
        DeferredBase64.appendSpan(bytes, to: &output)
    }
}
