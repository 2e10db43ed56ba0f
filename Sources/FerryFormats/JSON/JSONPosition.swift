/// A place in a JSON input: 1-based line and column, and the 0-based byte offset.
///
/// Columns and offsets count UTF-8 bytes as the parser sees them: after a byte order mark is
/// dropped, and after UTF-16 input is transcoded to UTF-8.
public struct JSONPosition: Sendable, Equatable, CustomStringConvertible {
    /// The source name: a path, `<stdin>`, `<memory>`.
    public let source: String
    public let line: Int
    public let column: Int
    public let byteOffset: Int

    public init(source: String, line: Int, column: Int, byteOffset: Int) {
        self.source = source
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    public var description: String { "\(source):\(line):\(column)" }
}
