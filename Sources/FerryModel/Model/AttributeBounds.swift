/// The range Core Data's validation holds an attribute's values to when it saves an object:
/// Xcode's Minimum and Maximum (`minValueString`, `maxValueString`), or the `SELF >= n` and
/// `SELF <= n` rules a compiled model keeps them as (`ValidationRuleBounds`). A number's value is
/// bounded; a string's length, in UTF-16 code units as `NSString` counts it. Dates, data and
/// Booleans are not bounded here.
public struct AttributeBounds: Sendable, Equatable {
    public let minimum: Double?
    public let maximum: Double?
    /// Whether the bounds are of a string's length rather than of a number's value.
    public let boundsLength: Bool

    /// The bounds of `attribute`; nil when it has none, or is of a type they do not apply to here.
    public init?(_ attribute: Attribute) {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: boundsLength = false
        case .string: boundsLength = true
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
        case .string(let text) where boundsLength: Double(text.utf16.count)
        default: nil
        }
        return measure.flatMap(problem)
    }

    /// Why `measure` (a number's value, or a string's length) breaks the bounds; nil when it
    /// keeps within them.
    public func problem(_ measure: Double) -> String? {
        let what = boundsLength ? "its length \(Self.text(measure))" : Self.text(measure)
        if let minimum, measure < minimum { return "\(what) is below the model's minimum of \(Self.text(minimum))" }
        if let maximum, measure > maximum { return "\(what) is above the model's maximum of \(Self.text(maximum))" }
        return nil
    }

    /// A bound or measure as text: whole numbers without a fraction.
    private static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
