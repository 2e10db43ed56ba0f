/// The file formats `ferry export` writes, one file per entity.
public enum ExportFormat: String, Sendable, CaseIterable, Codable {
    /// One JSON object per line.
    case ndjson
    /// One JSON array of objects.
    case json
    /// RFC 4180 CSV with a header row.
    case csv
    /// An XML property list: an array of dictionaries.
    case plist
    /// A binary property list: an array of dictionaries (built in memory per entity).
    case bplist

    /// The file name extension, without the dot and without `.gz`.
    public var fileExtension: String {
        switch self {
        case .ndjson: "ndjson"
        case .json: "json"
        case .csv: "csv"
        case .plist: "plist"
        case .bplist: "bplist"
        }
    }

    /// The name of the file an export writes the records of `entity` into.
    public func fileName(for entity: String, gzip: Bool) -> String {
        entity + "." + fileExtension + (gzip ? ".gz" : "")
    }
}
