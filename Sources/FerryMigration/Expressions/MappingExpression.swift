import FerryModel

/// The right-hand side of a rule in a written mapping file, such as
/// `byteCount = round(decimal(fileSize) * 1048576)`: an expression over the attributes of the
/// source record and the run-time variables, giving the value of one destination attribute.
///
/// Grammar, loosest binding first:
/// ```
/// expression  := or ['if' or 'else' expression]        value if condition else other (right-assoc)
/// or          := and {'or' and}
/// and         := not {'and' not}
/// not         := 'not' not | comparison
/// comparison  := sum [('==' | '!=' | '<' | '<=' | '>' | '>=') sum   (no chaining: a < b < c is an error)
///                     | 'between' sum 'and' sum                      inclusive on both ends
///                     | 'in' '[' [expression {',' expression}] ']']
/// sum         := product {('+' | '-') product}
/// product     := unary {('*' | '/') unary}
/// unary       := '-' unary | primary
/// primary     := integer | decimal | string | 'nil' | 'true' | 'false'
///              | name | '`' any text but backquotes '`' | '$' name
///              | '$'                                              the current part, only in Entity(…) for $ in split(…)
///              | function '(' [expression {',' expression}] ')'
///              | 'lookup' '(' expression ',' '{' [key ':' expression {',' key ':' expression}] '}' [',' expression] ')'
///              | '(' expression ')'
/// ```
/// - Literals: `42` is an integer, `12.50` and `1e3` are exact decimals (`.decimal`), strings are
///   in double quotes with `\"`, `\\`, `\n` and `\t` escapes. Names are letters, digits and `_`,
///   not starting with a digit; the keywords `and or not if else between in nil true false` and any
///   other name are written in backquotes (`` `first name` ``). A name followed by `(` is a function.
/// - Arithmetic: see `ExpressionArithmetic` (integers stay integers and overflow is a failure;
///   integers with decimals are exact decimals; `/` without doubles is an exact decimal rounded to
///   38 significant digits; any double makes a double; `+` with a string joins texts; dates move
///   by seconds).
/// - Comparisons: numbers across types, strings (by Unicode scalars), dates; `==`/`!=` also
///   booleans, UUIDs and binary data, and nil equals only nil. Comparing different kinds of value is
///   a failure. `and`/`or`/`not` take booleans and nil (three-valued: `false and nil` is false,
///   `true or nil` is true, otherwise nil); a nil condition of `if` picks the `else` branch.
/// - Functions: `integer double decimal text bool` convert (text is read as the import reads it);
///   `round floor ceil` give integers (round: half away from zero; exact on decimals);
///   `trim lower upper length replace(s, old, new)` work on strings; `prefix(s, n)` and
///   `suffix(s, n)` are the first and last n characters (all of a shorter text) and
///   `substring(s, start, n)` the n characters from character `start` (0 is the first), so
///   `prefix(content, 4) + "..."` shortens a text (counts are integers, 0 or more); `coalesce(a, b, ...)` is
///   the first non-nil value; `isnil(x)`; `date(x)` reads ISO 8601 text or Unix seconds;
///   `date(text, "pattern"[, zone])` reads text with a `DatePattern` in a zone (`LocalTime`,
///   default UTC); `unixtime(x)` is seconds since 1970 and `epoch2001(x)` seconds since 2001 as a date (a date an
///   expression makes must fall in the years 0 to 9999, as import reads legacy numbers);
///   `uuid(a, b, ...)` is a deterministic UUID of the argument values (`NameBasedUUID`);
///   `lookup(x, {1: "a", 2: "b"}, default)` maps keys (numbers, strings, booleans) to values,
///   and without a default a missing key is a failure.
/// - nil: any operator or function given nil gives nil, except `==`/`!=`, `and`/`or`, `if`,
///   `coalesce`, `isnil` and the arguments of `uuid` (where nil is a value unlike any other).
///
/// Examples: `round(decimal(fileSize) * 1048576)`, `unixtime(time)`,
/// `fileType if fileType between 0 and 5 else 5`, `uuid(time, remotePath, fileName)`,
/// `date(taskDate + " " + remindTime, "yyyy-MM-dd HH:mm", $zone) if remindTime != "" else nil`.
public struct MappingExpression: Sendable, CustomStringConvertible {
    /// The deepest nesting of parentheses, arguments, `not`, `-` and `if … else` accepted.
    public static let maxNesting = 64
    /// The deepest expression tree accepted: each operator of a chain (`a + b + c`) is one level,
    /// so a sum has at most this many terms unless they are grouped with parentheses.
    public static let maxDepth = 256

    let root: ExpressionNode
    /// The line of the mapping file the expression was read from.
    public let line: Int
    /// The source attributes the expression reads.
    public let referencedAttributes: Set<String>
    /// The run-time variables the expression reads (without `$`).
    public let referencedVariables: Set<String>
    /// The zones of `date(text, pattern, zone)` computed from run-time variables alone (`$zone`,
    /// `coalesce($zone, "UTC")`): known once the variables are, so checked before any record.
    let variableZones: [ExpressionNode]

    /// Parses `text`, which starts at `column` (1-based) of `line` in the mapping file; errors
    /// carry the file position of the offending token.
    public init(parsing text: String, line: Int, column: Int) throws(ExpressionSyntaxError) {
        var parser = try ExpressionParser(text, line: line, column: column)
        root = try parser.parse()
        self.line = line
        var attributes: Set<String> = []
        var variables: Set<String> = []
        var zones: [ExpressionNode] = []
        var pending = [root]
        while let node = pending.popLast() {
            switch node.kind {
            case let .attribute(name): attributes.insert(name)
            case let .variable(name): variables.insert(name)
            default: pending += node.children
            }
            if case let .formattedDate(_, _, _, zone?) = node.kind, Self.readsVariablesOnly(zone) { zones.append(zone) }
        }
        referencedAttributes = attributes
        referencedVariables = variables
        variableZones = zones
    }

    /// Why the expression cannot run with the run-time `variables`: one it reads is not given
    /// (unless `allGiven` is false, as before a run whose sources may hold no record the
    /// expression maps), or one that gives `date()` its time zone names none (`--var
    /// zone=Mars/Olympus` rejected every record, one by one, and left an empty store); nil when it can.
    public func variableProblem(_ variables: [String: String], allGiven: Bool = true) -> String? {
        if allGiven, let missing = referencedVariables.sorted().first(where: { variables[$0] == nil }) {
            return "uses $\(missing): give it a value (--var \(missing)=…)"
        }
        let given = VariablesContext(variables: variables)
        for zone in variableZones {
            // One that cannot be evaluated yet (a variable not given) fails when a record needs it.
            guard case let .string(name)? = try? ExpressionEvaluator(context: given).evaluate(zone) else { continue }
            if case let .failure(failure) = LocalTime.zone(named: name) { return "\(zone): \(failure.reason)" }
        }
        return nil
    }

    /// Whether a node reads run-time variables and no attribute or part (and is not a literal,
    /// which the parser checks itself).
    private static func readsVariablesOnly(_ node: ExpressionNode) -> Bool {
        var readsVariable = false
        var pending = [node]
        while let next = pending.popLast() {
            switch next.kind {
            case .attribute, .part: return false
            case .variable: readsVariable = true
            default: pending += next.children
            }
        }
        return readsVariable
    }

    /// A constant, the same for every record (a Core Data mapping model's constant expression).
    init(constant: ExpressionLiteral) {
        root = ExpressionNode(kind: .literal(constant), column: 1)
        line = 0
        referencedAttributes = []
        referencedVariables = []
        variableZones = []
    }

    /// A source attribute's value, as written in a mapping file (`` `first name` `` quoted).
    init(attribute name: String) {
        root = ExpressionNode(kind: .attribute(name), column: 1)
        line = 0
        referencedAttributes = [name]
        referencedVariables = []
        variableZones = []
    }

    /// The value for one record, or why there is none. Never traps, whatever the record holds.
    public func evaluate(_ context: some ExpressionContext) -> Result<AttributeValue, ExpressionFailure> {
        do { return .success(try ExpressionEvaluator(context: context).evaluate(root)) } catch { return .failure(error) }
    }

    /// The expression printed back; it parses to the same expression.
    public var description: String { root.description }

    /// The type the expression gives when the source attributes have these types, or nil when it
    /// cannot be known before evaluation (nil literals, conditionals of mixed types). Fails on an
    /// unknown attribute (naming the closest known ones) and on operations that would fail for
    /// every record, so a typo in a mapping file fails when it is loaded.
    /// `allowingPart`: whether `$`, the current part of `Entity(…) for $ in split(…)`, may be used
    /// (as text); elsewhere it is an error.
    public func resultType(attributes: [String: AttributeType], allowingPart: Bool = false) throws(ExpressionTypeError) -> AttributeType? {
        try ExpressionTypeChecker(attributes: attributes, line: line, allowsPart: allowingPart).type(of: root).attributeType
    }
}

/// The run-time variables alone, for what an expression computes from them before any record.
private struct VariablesContext: ExpressionContext {
    let variables: [String: String]
    func value(of attribute: String) -> AttributeValue? { nil }
    func variable(_ name: String) -> String? { variables[name] }
}
