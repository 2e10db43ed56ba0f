/// Where a record came from: a file and a line, or a key path inside a document.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    /// 1-based line, when the format has lines.
    public var line: Int?
    /// A key path or record index inside a document (`[3].attachments[0]`), when it has no lines.
    public var path: String?

    public init(file: String, line: Int? = nil, path: String? = nil) {
        self.file = file
        self.line = line
        self.path = path
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let path { text += " \(path)" }
        return text
    }
}
