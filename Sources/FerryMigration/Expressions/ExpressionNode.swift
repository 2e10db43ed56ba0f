import FerryModel

/// One node of a parsed mapping expression, with the file column where it starts.
struct ExpressionNode: Sendable {
    indirect enum Kind: Sendable {
        case literal(ExpressionLiteral)
        case attribute(String)
        case variable(String)
        /// `$`: the current part of `Entity(…) for $ in split(…)`, as text.
        case part
        case negate(ExpressionNode)
        case not(ExpressionNode)
        case binary(ExpressionOperator, ExpressionNode, ExpressionNode)
        /// `value if condition else otherwise`
        case conditional(value: ExpressionNode, condition: ExpressionNode, otherwise: ExpressionNode)
        case between(ExpressionNode, low: ExpressionNode, high: ExpressionNode)
        case membership(ExpressionNode, [ExpressionNode])
        case call(ExpressionFunction, [ExpressionNode])
        /// `date(text, format[, zone])`; the pattern is compiled once when the format is a literal.
        case formattedDate(text: ExpressionNode, format: ExpressionNode, pattern: DatePattern?, zone: ExpressionNode?)
        /// `lookup(key, {k: v, ...}[, otherwise])`
        case lookup(ExpressionNode, table: [LookupEntry], otherwise: ExpressionNode?)
    }

    struct LookupEntry: Sendable {
        let key: ExpressionLiteral
        let value: ExpressionNode
    }

    let kind: Kind
    let column: Int
    /// Levels from this node down to its deepest leaf (1 for a leaf): how deep the evaluator, the
    /// printer and the type checker recurse through it.
    let depth: Int

    init(kind: Kind, column: Int) {
        self.kind = kind
        self.column = column
        depth = 1 + (Self.children(of: kind).map(\.depth).max() ?? 0)
    }

    /// The nodes directly below this one, in source order.
    var children: [ExpressionNode] { Self.children(of: kind) }

    private static func children(of kind: Kind) -> [ExpressionNode] {
        switch kind {
        case .literal, .attribute, .variable, .part: []
        case let .negate(operand), let .not(operand): [operand]
        case let .binary(_, left, right): [left, right]
        case let .conditional(value, condition, otherwise): [value, condition, otherwise]
        case let .between(value, low, high): [value, low, high]
        case let .membership(value, list): [value] + list
        case let .call(_, arguments): arguments
        case let .formattedDate(text, format, _, zone): [text, format] + (zone.map { [$0] } ?? [])
        case let .lookup(key, table, otherwise): [key] + table.map(\.value) + (otherwise.map { [$0] } ?? [])
        }
    }
}

/// A constant written in an expression.
enum ExpressionLiteral: Sendable, Equatable {
    case integer(Int64)
    /// Exact decimal text in `DecimalNotation` plain form.
    case decimal(String)
    case string(String)
    case bool(Bool)
    case null

    var value: AttributeValue {
        switch self {
        case let .integer(value): .integer(value)
        case let .decimal(text): .decimal(text)
        case let .string(text): .string(text)
        case let .bool(value): .bool(value)
        case .null: .null
        }
    }
}

/// The binary operators, loosest first.
enum ExpressionOperator: String, Sendable {
    case or, and
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case add = "+", subtract = "-", multiply = "*", divide = "/"

    var precedence: ExpressionPrecedence {
        switch self {
        case .or: .or
        case .and: .and
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: .comparison
        case .add, .subtract: .additive
        case .multiply, .divide: .multiplicative
        }
    }
}

/// How tightly constructs bind, loosest first; the parser and the printer share it.
enum ExpressionPrecedence: Int, Comparable, Sendable {
    case conditional, or, and, not, comparison, additive, multiplicative, unary, primary

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The next tighter level.
    var tighter: ExpressionPrecedence { ExpressionPrecedence(rawValue: rawValue + 1) ?? .primary }
}
