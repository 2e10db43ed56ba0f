/// Prints parsed expressions back as text that parses to the same expression, with only the
/// parentheses that precedence needs.
extension ExpressionNode: CustomStringConvertible {
    var description: String { text(atLeast: .conditional) }

    /// How tightly this node binds when printed.
    var precedence: ExpressionPrecedence {
        switch kind {
        case .literal(.integer(let value)) where value < 0: .unary
        case .literal(.decimal(let text)) where text.hasPrefix("-"): .unary
        case .literal, .attribute, .variable, .part, .call, .formattedDate, .lookup: .primary
        case .negate: .unary
        case .not: .not
        case let .binary(op, _, _): op.precedence
        case .between, .membership: .comparison
        case .conditional: .conditional
        }
    }

    /// A number literal without a sign, which a `-` right before it would make a negative literal.
    private var isUnsignedNumber: Bool {
        switch kind {
        case .literal(.integer), .literal(.decimal): precedence == .primary
        default: false
        }
    }

    /// The text, parenthesised when this node binds looser than `level`.
    private func text(atLeast level: ExpressionPrecedence) -> String {
        let body = unparenthesised
        return precedence < level ? "(" + body + ")" : body
    }

    private var unparenthesised: String {
        switch kind {
        case let .literal(literal): literal.description
        case let .attribute(name): ExpressionLexer.isPlainIdentifier(name) && !ExpressionParser.keywords.contains(name) ? name : "`\(name)`"
        case let .variable(name): "$" + name
        case .part: "$"
        // `- -x` rather than `-(-x)`: the parser reads signs in a row, and parentheses would make
        // the printed text nest deeper than the parsed one, past the nesting limit. A number keeps
        // its parentheses, as `-5` reads as the literal -5 (and `-0` as 0).
        case let .negate(operand):
            if operand.isUnsignedNumber { "-(" + operand.unparenthesised + ")" }
            else { "-" + (operand.precedence == .unary ? " " : "") + operand.text(atLeast: .unary) }
        case let .not(operand): "not " + operand.text(atLeast: .not)
        case let .binary(op, left, right):
            left.text(atLeast: op.precedence == .comparison ? .additive : op.precedence) + " \(op.rawValue) "
                + right.text(atLeast: op.precedence.tighter)
        case let .conditional(value, condition, otherwise):
            value.text(atLeast: .or) + " if " + condition.text(atLeast: .or) + " else " + otherwise.text(atLeast: .conditional)
        case let .between(value, low, high):
            value.text(atLeast: .additive) + " between " + low.text(atLeast: .additive) + " and " + high.text(atLeast: .additive)
        case let .membership(value, list):
            value.text(atLeast: .additive) + " in [" + list.map(\.description).joined(separator: ", ") + "]"
        case let .call(function, arguments):
            function.rawValue + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
        case let .formattedDate(text, format, _, zone):
            "date(" + ([text, format] + (zone.map { [$0] } ?? [])).map(\.description).joined(separator: ", ") + ")"
        case let .lookup(key, table, otherwise):
            "lookup(" + key.description + ", {" + table.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
                + (otherwise.map { ", \($0)" } ?? "") + ")"
        }
    }
}

extension ExpressionLiteral: CustomStringConvertible {
    var description: String {
        switch self {
        case let .integer(value): String(value)
        case let .decimal(text): text.contains(".") ? text : text + ".0"
        case let .string(text): "\"" + Self.escaped(text) + "\""
        case let .bool(value): value ? "true" : "false"
        case .null: "nil"
        }
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
