import FerryFormats

/// Records as CSV rows under a header of column names: values as `ExportValueText` writes them,
/// NULL (and a to-one without destination) as an empty unquoted field, the empty string as `""`,
/// a to-many as its destination `Z_PK`s separated by spaces.
struct CSVRecordEncoder: ExportRecordEncoder {
    private let header: [String]

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

    mutating func encode(_ row: ExportRow, into output: inout [UInt8]) {
        output.append(contentsOf: String(row.primaryKey).utf8)
        for value in row.attributes {
            output.append(UInt8(ascii: ","))
            if case .binary(let bytes) = value, !bytes.isEmpty {
                // Base64 holds no delimiter, quote or line break: straight into the row, no quoting scan.
                PropertyListBase64.append(bytes, to: &output)
            } else if let text = ExportValueText.text(value) {
                CSVFieldEncoding.append(text, to: &output)
            }
        }
        for key in row.toOne {
            output.append(UInt8(ascii: ","))
            if let key { output.append(contentsOf: String(key).utf8) }
        }
        for keys in row.toMany {
            output.append(UInt8(ascii: ","))
            CSVFieldEncoding.append(keys.map(String.init).joined(separator: " "), to: &output)
        }
        output.append(contentsOf: [0x0D, 0x0A])
    }

    mutating func epilogue(into output: inout [UInt8]) {}
}
