/// One side of a comparison.
public indirect enum PredicateOperand: Sendable, Equatable {
    /// `a.b.c`; `@count` may end a path through a to-many relationship.
    case keyPath([String])
    case value(PredicateValue)
    /// `$NAME`, replaced at compile time from the variables given to the compiler.
    case variable(String)
    /// `{a, b, …}`, for `IN` and `BETWEEN`.
    case aggregate([PredicateOperand])
}

/// A constant in a predicate, or the value of a `$VARIABLE`.
public enum PredicateValue: Sendable, Equatable {
    /// `nil` / `NULL`.
    case null
    /// `YES`/`TRUE` or `NO`/`FALSE`.
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    /// A date in seconds since 2001-01-01 00:00:00 UTC: `CAST('2014-01-01T00:00:00Z', 'NSDate')` or
    /// `CAST(410227200.0, 'NSDate')`.
    case date(Double)
    /// A value the predicate language cannot compare (Binary, Transformable): not nil, and equal
    /// to, or ordered with, nothing. `image != nil` holds for it (it held for no record: the
    /// bytes read as nil, and a mapping's filter dropped every post that had an image).
    case opaque
    /// A list, as a variable's value for `IN` or `BETWEEN`.
    case list([PredicateValue])
    /// A variable's value given as text (`--var NAME=VALUE`), of the type of the attribute it is
    /// compared with (`PredicateValueConversion.typed`): the text itself for a string, a number,
    /// a boolean, a date or a UUID read from it; never nil.
    case text(String)
}
