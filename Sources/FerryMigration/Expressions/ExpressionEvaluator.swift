import FerryModel

/// Evaluates a parsed expression against one record. Failures of an operator or function carry
/// the text of that part of the expression and the values it was given.
struct ExpressionEvaluator<Context: ExpressionContext> {
    let context: Context

    func evaluate(_ node: ExpressionNode) throws(ExpressionFailure) -> AttributeValue {
        switch node.kind {
        case let .literal(literal):
            return literal.value
        case let .attribute(name):
            guard let value = context.value(of: name) else { throw ExpressionFailure("the record has no attribute '\(name)'") }
            return value
        case let .variable(name):
            guard let text = context.variable(name) else { throw ExpressionFailure("unknown variable $\(name) (it must be given at run time)") }
            return .string(text)
        case .part:
            guard let text = context.currentPart else { throw ExpressionFailure("'$' has no current part (it is one only in Entity(…) for $ in split(…))") }
            return .string(text)
        case let .negate(operand):
            let value = try evaluate(operand)
            return try at(node) { () throws(ExpressionFailure) in try ExpressionArithmetic.negate(value) }
        case let .not(operand):
            return try condition(operand).map { .bool(!$0) } ?? .null
        case let .binary(op, left, right):
            return try binary(op, left, right, node)
        case let .conditional(value, condition, otherwise):
            return try self.condition(condition) == true ? evaluate(value) : evaluate(otherwise)
        case let .between(operand, low, high):
            let (value, lower, upper) = (try evaluate(operand), try evaluate(low), try evaluate(high))
            if value == .null || lower == .null || upper == .null { return .null }
            return try at(node) { () throws(ExpressionFailure) in
                let (fromLow, toHigh) = (try ExpressionValues.order(value, lower), try ExpressionValues.order(value, upper))
                return .bool(fromLow >= 0 && toHigh <= 0)
            }
        case let .membership(operand, list):
            let value = try evaluate(operand)
            if value == .null { return .null }
            for element in list {
                let candidate = try evaluate(element)
                if try at(node, { () throws(ExpressionFailure) in try ExpressionValues.equal(value, candidate) }) { return .bool(true) }
            }
            return .bool(false)
        case let .call(function, arguments):
            return try call(function, arguments, node)
        case let .formattedDate(text, format, pattern, zone):
            return try formattedDate(text, format, pattern, zone, node)
        case let .lookup(key, table, otherwise):
            let value = try evaluate(key)
            if value == .null { return .null }
            if let entry = table.first(where: { ExpressionValues.sameKey(value, $0.key.value) }) { return try evaluate(entry.value) }
            guard let otherwise else { throw ExpressionFailure("\(node): no entry for \(ExpressionValues.describe(value))") }
            return try evaluate(otherwise)
        }
    }

    /// Runs an operation on already evaluated operands, naming `node` in its failure.
    private func at<T>(_ node: ExpressionNode, _ operation: () throws(ExpressionFailure) -> T) throws(ExpressionFailure) -> T {
        do { return try operation() } catch { throw ExpressionFailure("\(node): \(error.reason)") }
    }

    /// A condition's truth: nil when it is nil, a failure when it is not a boolean.
    private func condition(_ node: ExpressionNode) throws(ExpressionFailure) -> Bool? {
        switch try evaluate(node) {
        case .null: return nil
        case let .bool(flag): return flag
        case let other: throw ExpressionFailure("\(node): a condition must be true or false, got \(ExpressionValues.describe(other))")
        }
    }

    private func binary(_ op: ExpressionOperator, _ left: ExpressionNode, _ right: ExpressionNode, _ node: ExpressionNode) throws(ExpressionFailure) -> AttributeValue {
        switch op {
        case .and, .or:
            // Three-valued: false and nil is false, true or nil is true, otherwise nil wins.
            let decisive = op == .or
            let first = try condition(left)
            if first == decisive { return .bool(decisive) }
            let second = try condition(right)
            if second == decisive { return .bool(decisive) }
            return first == nil || second == nil ? .null : .bool(!decisive)
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let (a, b) = (try evaluate(left), try evaluate(right))
            return try at(node) { () throws(ExpressionFailure) in try Self.compare(op, a, b) }
        case .add, .subtract, .multiply, .divide:
            let (a, b) = (try evaluate(left), try evaluate(right))
            return try at(node) { () throws(ExpressionFailure) in try ExpressionArithmetic.apply(op, a, b) }
        }
    }

    /// `==` and `!=` treat nil as a value (nil == nil); ordering with nil gives nil.
    private static func compare(_ op: ExpressionOperator, _ a: AttributeValue, _ b: AttributeValue) throws(ExpressionFailure) -> AttributeValue {
        switch op {
        case .equal: return .bool(try ExpressionValues.equal(a, b))
        case .notEqual: return .bool(!(try ExpressionValues.equal(a, b)))
        default:
            if a == .null || b == .null { return .null }
            let order = try ExpressionValues.order(a, b)
            return .bool(op == .less ? order < 0 : op == .lessOrEqual ? order <= 0 : op == .greater ? order > 0 : order >= 0)
        }
    }

    private func call(_ function: ExpressionFunction, _ arguments: [ExpressionNode], _ node: ExpressionNode) throws(ExpressionFailure) -> AttributeValue {
        switch function {
        case .coalesce:
            for argument in arguments {
                let value = try evaluate(argument)
                if value != .null { return value }
            }
            return .null
        case .isnil:
            return .bool(try arguments.map { (argument) throws(ExpressionFailure) in try evaluate(argument) }.allSatisfy { $0 == .null })
        case .uuid:
            let values = try arguments.map { (argument) throws(ExpressionFailure) in try evaluate(argument) }
            return try at(node) { () throws(ExpressionFailure) in
                guard let uuid = NameBasedUUID.make(values) else { throw ExpressionFailure("no UUID could be formed") }
                return .uuid(uuid)
            }
        default:
            let values = try arguments.map { (argument) throws(ExpressionFailure) in try evaluate(argument) }
            if values.contains(.null) { return .null }
            return try at(node) { () throws(ExpressionFailure) in try ExpressionFunctions.apply(function, values) }
        }
    }

    private func formattedDate(_ text: ExpressionNode, _ format: ExpressionNode, _ pattern: DatePattern?, _ zone: ExpressionNode?,
                               _ node: ExpressionNode) throws(ExpressionFailure) -> AttributeValue {
        let value = try evaluate(text)
        let formatValue: AttributeValue = if let pattern { .string(pattern.text) } else { try evaluate(format) }
        let zoneValue: AttributeValue = if let zone { try evaluate(zone) } else { .string("UTC") }
        if value == .null || formatValue == .null || zoneValue == .null { return .null }
        return try at(node) { () throws(ExpressionFailure) in
            guard case let .string(local) = value, case let .string(formatText) = formatValue, case let .string(zoneName) = zoneValue else {
                throw ExpressionFailure("needs text, a text pattern and a text zone, got \(ExpressionValues.describe(value)), "
                    + "\(ExpressionValues.describe(formatValue)) and \(ExpressionValues.describe(zoneValue))")
            }
            let reader: DatePattern = if let pattern { pattern } else { try DatePattern(formatText) }
            let civil = try reader.read(local)
            return .date(LocalTime.referenceSeconds(civil, in: try LocalTime.zone(named: zoneName).get()))
        }
    }
}
