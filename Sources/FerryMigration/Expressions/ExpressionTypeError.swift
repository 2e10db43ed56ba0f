/// A mapping expression that cannot fit the attributes it reads, found when the mapping is
/// loaded rather than once per record.
public struct ExpressionTypeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
