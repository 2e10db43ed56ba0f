/// The functions a mapping expression can call, with how many arguments each takes.
enum ExpressionFunction: String, Sendable, CaseIterable {
    case integer, double, decimal, text, bool
    case round, floor, ceil
    case trim, lower, upper, length, replace
    case prefix, suffix, substring
    case coalesce, isnil
    case date, unixtime, epoch2001
    case uuid
    case lookup

    /// The smallest and largest number of arguments (nil: no upper limit).
    var arity: (minimum: Int, maximum: Int?) {
        switch self {
        case .replace, .substring: (3, 3)
        case .prefix, .suffix: (2, 2)
        case .coalesce, .uuid: (1, nil)
        case .date: (1, 3)
        case .lookup: (2, 3)
        default: (1, 1)
        }
    }

    /// How the arity reads in an error message.
    var arityDescription: String {
        switch arity {
        case let (minimum, nil): "\(minimum) or more arguments"
        case let (minimum, maximum?) where minimum == maximum: minimum == 1 ? "1 argument" : "\(minimum) arguments"
        case let (minimum, maximum?): "\(minimum) to \(maximum) arguments"
        }
    }
}
