/// An `NSExpression` read from a keyed archive: the classes Core Data's models and mapping models
/// archive (modelcache-format.md §4.9, coredata-format.md §10.1). An expression class it does not
/// interpret is kept by name, so that reading never fails on one; it has no text.
public indirect enum ArchivedExpression: Sendable, Equatable {
    /// `NSConstantValueExpression` holding a value (nil, a string, a number, a boolean, …).
    case constant(ArchivedValue)
    /// `NSConstantValueExpression` holding a class: the target of built-in functions
    /// (`_NSPredicateUtilities` for `count:`).
    case classConstant(String)
    /// `SELF`.
    case evaluatedObject
    /// `$name`.
    case variable(String)
    /// `NSKeyPathSpecifierExpression`: a bare key path.
    case keyPathSpecifier(String)
    /// `operand.keyPath`, read with `valueForKey:` or `valueForKeyPath:`.
    case keyPath(operand: ArchivedExpression, keyPath: String)
    /// A method called on `operand`: `FUNCTION(operand, "selector", arguments…)`.
    case function(operand: ArchivedExpression, selector: String, arguments: [ArchivedExpression])
    /// `NSFetchRequestExpression`: the objects a fetch request returns in a context.
    case fetch(request: ArchivedExpression, context: ArchivedExpression, countOnly: Bool)
    /// An expression class this reader does not interpret.
    case unsupported(className: String)

    /// The expression in predicate format, as Foundation prints it (`$source.color`,
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CarToCar", $source.cars)`,
    /// `count:(pages)`); nil when a part is unsupported or a constant has no literal form.
    public var text: String? {
        switch self {
        case .constant(let value): return Self.literal(value)
        case .classConstant(let name): return name
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .keyPathSpecifier(let path): return path
        case let .keyPath(operand, path):
            if case .evaluatedObject = operand { return path }
            return operand.text.map { $0 + "." + path }
        case let .function(operand, selector, arguments):
            var texts: [String] = []
            for argument in arguments {
                guard let text = argument.text else { return nil }
                texts.append(text)
            }
            if case .classConstant("_NSPredicateUtilities") = operand { return selector + "(" + texts.joined(separator: ", ") + ")" }
            guard let target = operand.text else { return nil }
            return "FUNCTION(" + ([target, "\"\(selector)\""] + texts).joined(separator: ", ") + ")"
        case let .fetch(request, context, countOnly):
            guard let request = request.text, let context = context.text else { return nil }
            return "FETCH(\(request), \(context), \(countOnly ? "YES" : "NO"))"
        case .unsupported: return nil
        }
    }

    /// A constant as a predicate literal.
    private static func literal(_ value: ArchivedValue) -> String? {
        switch value {
        case .null: "nil"
        case .string(let text): PredicateStringLiteral.quoted(text)
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .bool(let flag): flag ? "1" : "0"
        default: nil
        }
    }
}
