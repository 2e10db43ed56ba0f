/// How text from legacy files becomes typed values. Every rule is documented in the README
/// ("Values") and pinned by tests.
public struct CoercionOptions: Sendable, Equatable {
    /// What a bare number means when it is read into a Date attribute.
    public enum NumericDateEpoch: String, Sendable, CaseIterable {
        /// Seconds since 1970-01-01 UTC (Unix time): the default.
        case unixSeconds = "unix"
        /// Milliseconds since 1970-01-01 UTC.
        case unixMilliseconds = "unix-ms"
        /// Seconds since 2001-01-01 UTC, Core Data's own reference date.
        case referenceSeconds = "reference"
    }

    /// When an empty field is NULL and when it is an empty string.
    public enum EmptyField: String, Sendable, CaseIterable {
        /// An empty field is NULL, but a quoted empty field (`""`) is an empty string: the default.
        case nullUnlessQuoted = "null-unless-quoted"
        /// Every empty field is NULL.
        case null
        /// An empty field of a String attribute is the empty string; a quoted one (`""`) of a
        /// Binary the empty data; of any other type, NULL.
        case empty
    }

    public var numericDateEpoch: NumericDateEpoch
    public var emptyField: EmptyField
    /// What an attribute gets when a record has no key or column for it.
    public var absentKey: AbsentKeyRule

    public init(numericDateEpoch: NumericDateEpoch = .unixSeconds, emptyField: EmptyField = .nullUnlessQuoted,
                absentKey: AbsentKeyRule = .modelDefault) {
        self.numericDateEpoch = numericDateEpoch
        self.emptyField = emptyField
        self.absentKey = absentKey
    }
}
