/// A mapping expression that cannot be read, or cannot fit the attributes it reads, with the
/// position of the offending token in the mapping file (1-based line and column). Both are
/// found when the mapping loads, not once per record.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
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

/// What the lexer and parser throw: text that is not an expression.
public typealias ExpressionSyntaxError = ExpressionError

/// What the type checker throws: an expression whose types do not fit.
public typealias ExpressionTypeError = ExpressionError
