import FerryFormats

/// The legacy file formats `ferry import` reads.
public enum SourceFormat: String, Sendable, CaseIterable {
    /// CSV with a header row (also `.tsv`).
    case csv
    /// A JSON array of objects, one object, records under a key, or NDJSON.
    case json
    /// An XML or binary property list: an array of dictionaries.
    case plist

    /// The format's name in messages.
    public var name: String {
        switch self {
        case .csv: "CSV"
        case .json: "JSON"
        case .plist: "property list"
        }
    }

    /// The format a path's name says (a trailing `.gz` ignored), or what its first bytes look like:
    /// `{` or `[` is JSON, `<?xml`/`<plist` or `bplist` is a property list, anything else CSV.
    /// Standard input (`-`) is CSV unless the format is given.
    public static func detect(path: String) -> SourceFormat {
        guard path != "-" else { return .csv }
        return recognize(path: path) ?? .csv
    }

    /// The format a path's name or first bytes say, as `detect` finds it; nil when neither says
    /// one (a file that is CSV only for want of another format, or one that cannot be read).
    public static func recognize(path: String) -> SourceFormat? {
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        for (suffixes, format) in [([".csv", ".tsv", ".txt"], SourceFormat.csv), ([".json", ".ndjson", ".jsonl"], .json), ([".plist"], .plist)]
        where suffixes.contains(where: name.hasSuffix) {
            return format
        }
        guard let prefix = try? firstBytes(of: path, count: 64) else { return nil }
        if prefix.starts(with: Array("bplist".utf8)) { return .plist }
        let text = prefix.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
        switch text.first {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        case UInt8(ascii: "<"): return .plist
        default: return nil
        }
    }

    /// The first bytes of a file, decompressed when it is gzip.
    private static func firstBytes(of path: String, count: Int) throws -> [UInt8] {
        let source = try GzipDetectingByteSource(path: path)
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBytes { try source.read(into: $0) }
        return Array(bytes.prefix(read))
    }
}
