import FerryFormats
import FerryModel

/// Records as property-list dictionaries, shared by the XML and binary encoders: integers,
/// reals and Booleans native, binary as data, every other value as its `ExportValueText`
/// string (dates included, as plist dates would lose the fraction in XML). NULL values and
/// to-ones without destination are left out (plists have no null); a to-many is an array.
enum PlistRecordValues {
    /// The entries of one record, in column order, NULLs left out.
    static func entries(_ row: ExportRow, names: [String]) throws(ExportError) -> [(String, PropertyListValue)] {
        var entries: [(String, PropertyListValue)] = [(names[0], .integer(Int128(row.primaryKey)))]
        var column = 1
        for value in try row.attributes {
            if let item = plistValue(value) { entries.append((names[column], item)) }
            column += 1
        }
        for key in row.toOne {
            if let key { entries.append((names[column], .integer(Int128(key)))) }
            column += 1
        }
        for keys in row.toMany {
            entries.append((names[column], .array(keys.map { .integer(Int128($0)) })))
            column += 1
        }
        return entries
    }

    static func plistValue(_ value: AttributeValue) -> PropertyListValue? {
        switch value {
        case .null: nil
        case .integer(let number): .integer(Int128(number))
        case .double(let number): .real(number)
        case .bool(let flag): .bool(flag)
        case .binary(let bytes): .data(bytes)
        default: ExportValueText.text(value).map { .string($0) }
        }
    }
}

/// Records as an XML property list: one array of dictionaries, streamed record by record.
struct XMLPlistRecordEncoder: ExportRecordEncoder {
    private let entity: String
    private let names: [String]

    init(layout: EntityExportLayout) {
        entity = layout.entity
        names = layout.columnNames
    }

    mutating func prologue(into output: inout [UInt8]) {
        output.append(contentsOf: """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <array>

            """.utf8)
    }

    mutating func encode(_ row: ExportRow, into output: inout [UInt8]) throws(ExportError) {
        output.append(contentsOf: "\t<dict>\n".utf8)
        for (key, value) in try PlistRecordValues.entries(row, names: names) {
            if case .string(let text) = value, let character = XMLTextEscaping.firstUnwritable(in: text) {
                let hex = String(character.value, radix: 16, uppercase: true)
                let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                throw .encoding(reason: "\(entity) Z_PK \(row.primaryKey), \(key): the text holds \(code), which an XML property list cannot hold; "
                                + "export it as bplist, ndjson, json or csv")
            }
            output.append(contentsOf: "\t\t<key>".utf8)
            XMLTextEscaping.append(key, to: &output)
            output.append(contentsOf: "</key>".utf8)
            Self.append(value, to: &output)
            output.append(0x0A)
        }
        output.append(contentsOf: "\t</dict>\n".utf8)
    }

    mutating func epilogue(into output: inout [UInt8]) {
        output.append(contentsOf: "</array>\n</plist>\n".utf8)
    }

    private static func append(_ value: PropertyListValue, to output: inout [UInt8]) {
        switch value {
        case .integer(let number): output.append(contentsOf: "<integer>\(number)</integer>".utf8)
        case .real(let number): output.append(contentsOf: "<real>\(ExportValueText.real(number))</real>".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "<true/>" : "<false/>").utf8)
        case .data(let bytes): output.append(contentsOf: "<data>\(ExportValueText.text(.binary(bytes)) ?? "")</data>".utf8)
        case .array(let items):
            output.append(contentsOf: "<array>".utf8)
            for item in items { append(item, to: &output) }
            output.append(contentsOf: "</array>".utf8)
        case .string(let text):
            output.append(contentsOf: "<string>".utf8)
            XMLTextEscaping.append(text, to: &output)
            output.append(contentsOf: "</string>".utf8)
        default:
            break
        }
    }
}

/// Records as a binary property list: one array of dictionaries. The binary format's offset
/// table comes last and object references are fixed-width, so the array is built in memory and
/// encoded at the end: memory grows with the entity's size (use NDJSON or CSV for big entities).
struct BinaryPlistRecordEncoder: ExportRecordEncoder {
    private let names: [String]
    private var rows: [PropertyListValue] = []

    init(layout: EntityExportLayout) {
        names = layout.columnNames
    }

    mutating func prologue(into output: inout [UInt8]) {}

    mutating func encode(_ row: ExportRow, into output: inout [UInt8]) throws(ExportError) {
        let entries = try PlistRecordValues.entries(row, names: names)
        rows.append(.dictionary(Dictionary(entries, uniquingKeysWith: { first, _ in first })))
    }

    mutating func epilogue(into output: inout [UInt8]) throws(ExportError) {
        do { output.append(contentsOf: try BinaryPropertyListWriter().encode(.array(rows))) } catch {
            throw .encoding(reason: "binary property list: \(error)")
        }
        rows.removeAll()
    }
}
