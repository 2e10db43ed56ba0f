import FerryFormats

/// What the first bytes of a legacy file say it holds, decided from its content (gzip already
/// undone), never from its name.
///
/// A binary property list starts with `bplist`, an SQLite database with `SQLite format 3`. Text is looked at after its byte order mark (a
/// UTF-16 one is transcoded) and leading whitespace: `<` starts an XML property list, `[` a JSON
/// array and `{` a JSON object — NDJSON when the first line holds one whole object and the next
/// line starts another. Anything else is ``text``: CSV, or a file of another format broken at its
/// start, which only its name (or `--format`) can tell.
public enum SourceContent: Sendable, Equatable, CustomStringConvertible {
    /// No bytes, or only a byte order mark and whitespace.
    case empty
    case binaryPropertyList
    case xmlPropertyList
    case jsonArray
    /// A JSON object: the one record, records under a key, or NDJSON whose first line does not
    /// end within the sample.
    case jsonObject
    /// JSON objects one per line (NDJSON).
    case jsonLines
    /// An SQLite database (`SQLite format 3` and a NUL): a store, not a file of records.
    case sqliteDatabase
    case text

    /// How many bytes are looked at (and given to CSV delimiter sniffing).
    public static let sampleSize = 64 * 1024

    /// What `sample`, the first bytes of a source (all of it when `isComplete`), holds.
    public static func sniff(_ sample: [UInt8], isComplete: Bool) -> SourceContent {
        if sample.starts(with: Array("bplist".utf8)) { return .binaryPropertyList }
        if sample.starts(with: Array("SQLite format 3\0".utf8)) { return .sqliteDatabase }
        let (text, isValid) = SourceContent.text(of: sample, isComplete: isComplete)
        // Bytes that do not decode are not "empty": as text, their reader reports where they break.
        guard let start = text.firstIndex(where: { !isWhitespace($0) }) else { return isComplete && isValid ? .empty : .text }
        switch text[start] {
        case UInt8(ascii: "<"): return .xmlPropertyList
        case UInt8(ascii: "["): return .jsonArray
        case UInt8(ascii: "{"): return holdsLines(text[start...]) ? .jsonLines : .jsonObject
        default: return .text
        }
    }

    /// The formats whose readers may take this content: those it says, and for text any (the
    /// reader then says what is wrong).
    public var possibleFormats: [SourceFormat] {
        switch self {
        case .empty, .sqliteDatabase: []
        case .binaryPropertyList, .xmlPropertyList: [.plist]
        case .jsonArray: [.json]
        case .jsonObject: [.json, .ndjson]
        case .jsonLines: [.ndjson, .json]
        case .text: [.csv, .json, .ndjson, .plist]
        }
    }

    /// The format the content alone decides; nil when its name must break the tie.
    public var format: SourceFormat? {
        switch self {
        case .binaryPropertyList, .xmlPropertyList: .plist
        case .jsonArray: .json
        case .jsonLines: .ndjson
        case .empty, .sqliteDatabase, .jsonObject, .text: nil
        }
    }

    public var description: String {
        switch self {
        case .empty: "nothing"
        case .binaryPropertyList: "a binary property list"
        case .xmlPropertyList: "XML (a property list)"
        case .jsonArray: "a JSON array"
        case .jsonObject: "a JSON object"
        case .jsonLines: "JSON objects one per line (NDJSON)"
        case .sqliteDatabase: "an SQLite database"
        case .text: "text that is no JSON or property list"
        }
    }

    /// The sample as UTF-8: a UTF-8 byte order mark dropped, UTF-16 with one transcoded (a code
    /// unit cut by the end of the sample left out).
    static func text(of sample: [UInt8], isComplete: Bool) -> (text: [UInt8], isValid: Bool) {
        var sample = sample
        if sample.starts(with: [0xFF, 0xFE]) || sample.starts(with: [0xFE, 0xFF]) {
            let bigEndian = sample[0] == 0xFE
            if sample.count % 2 == 1 { sample.removeLast() }
            if !isComplete, sample.count >= 4 {
                let last = bigEndian ? sample[sample.count - 2] : sample[sample.count - 1]
                if (0xD8...0xDB).contains(last) { sample.removeLast(2) }
            }
        }
        var source = UTF8TranscodingByteSource(MemoryByteSource(sample))
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            guard let count = try? chunk.withUnsafeMutableBytes({ try source.read(into: $0) }) else { return (text, false) }
            guard count > 0 else { return (text, true) }
            text += chunk[..<count]
        }
    }

    /// Whether `text`, which starts with `{`, holds an object on its first line alone and a
    /// second line that starts another one (blank lines between are allowed, as NDJSON readers skip them).
    private static func holdsLines(_ text: ArraySlice<UInt8>) -> Bool {
        guard let firstEnd = text.firstIndex(of: UInt8(ascii: "\n")) else { return false }
        guard text[..<firstEnd].last(where: { !isWhitespace($0) }) == UInt8(ascii: "}") else { return false }
        let next = text[(firstEnd + 1)...].first { !isWhitespace($0) }
        return next == UInt8(ascii: "{")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
