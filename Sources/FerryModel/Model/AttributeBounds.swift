/// The range Core Data's validation holds an attribute's values to when it saves an object:
/// Xcode's Minimum and Maximum (`minValueString`, `maxValueString`; `minDateTimeInterval`,
/// `maxDateTimeInterval` for dates), or the `SELF >= n` and `SELF <= n` rules a compiled model
/// keeps them as (`ValidationRuleBounds`). A number's value is bounded, a date's seconds since
/// 2001 (as the store keeps them), a string's length in UTF-16 code units as `NSString` counts it.
/// Data and Booleans are not bounded here.
public struct AttributeBounds: Sendable, Equatable {
    public let minimum: Double?
    public let maximum: Double?
    /// Whether the bounds are of a string's length rather than of a number's value.
    public let boundsLength: Bool
    /// Whether the bounds are dates (shown as ISO 8601).
    public let boundsDate: Bool

    /// The bounds of `attribute`; nil when it has none, or is of a type they do not apply to here.
    public init?(_ attribute: Attribute) {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: (boundsLength, boundsDate) = (false, false)
        case .date: (boundsLength, boundsDate) = (false, true)
        case .string: (boundsLength, boundsDate) = (true, false)
        default: return nil
        }
        let declared = ValidationRuleBounds(attribute)
        minimum = declared.minValueString.flatMap(Double.init)
        maximum = declared.maxValueString.flatMap(Double.init)
        guard minimum != nil || maximum != nil else { return nil }
    }

    /// Why `value` breaks the bounds; nil when it keeps within them, or is not what they bound
    /// (NULL, or a value of another type).
    public func problem(of value: AttributeValue) -> String? {
        let measure: Double? = switch value {
        case .integer(let number) where !boundsLength: Double(number)
        case .double(let number) where !boundsLength: number
        case .decimal(let plain) where !boundsLength: Double(plain)
        case .date(let seconds) where boundsDate: seconds
        case .string(let text) where boundsLength: Double(text.utf16.count)
        default: nil
        }
        return measure.flatMap(problem)
    }

    /// Why `measure` (a number's value, or a string's length) breaks the bounds; nil when it
    /// keeps within them.
    public func problem(_ measure: Double) -> String? {
        let what = boundsLength ? "its length \(text(measure))" : text(measure)
        if let minimum, measure < minimum { return "\(what) is below the model's minimum of \(text(minimum))" }
        if let maximum, measure > maximum { return "\(what) is above the model's maximum of \(text(maximum))" }
        return nil
    }

    /// The bounds as `ferry inspect` shows them: `length 1...64`, `0...120`, `≥ 2020-01-01T00:00:00.000Z`.
    public var summary: String {
        let range = switch (minimum, maximum) {
        case let (low?, high?): "\(text(low))...\(text(high))"
        case let (low?, nil): "≥ \(text(low))"
        case let (nil, high?): "≤ \(text(high))"
        case (nil, nil): "any"
        }
        return boundsLength ? "length \(range)" : range
    }

    /// A bound or measure as text: a date in ISO 8601, whole numbers without a fraction.
    private func text(_ number: Double) -> String {
        if boundsDate, let date = ISO8601Date.format(number) { return date }
        return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
