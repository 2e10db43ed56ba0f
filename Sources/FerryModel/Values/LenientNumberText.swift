/// Reads numbers out of text the forgiving way Foundation's `NSString` accessors do
/// (`longLongValue`, `doubleValue`, `boolValue`): leading white space is skipped, the longest
/// number at the start is used and the rest ignored, and text without a number reads as zero or NO.
///
/// Apple's model compiler reads an attribute's `defaultValueString` this way: an Integer 32
/// attribute with `defaultValueString="YES"` (left over from a type change in Xcode) is archived as
/// the number 0 (apptentive `ATDataModelv6.sqlite`, `ATMessage.pendingState`), where a strict parse
/// would have refused it and a Boolean reading would have given 1. That Booleans and reals are read
/// by the matching accessors is inferred: the corpus has only `YES`/`NO` Boolean defaults (archived
/// as YES/NO or 1/0) and plain numbers for reals.
enum LenientNumberText {
    /// The integer at the start of `text` (optional sign, decimal digits); 0 when there is none.
    /// Values beyond the 64-bit range saturate.
    static func integer(_ text: String) -> Int64 {
        var scalars = trimmedStart(text)
        let isNegative = takeSign(&scalars)
        var value: Int64 = 0
        for digit in scalars.prefix(while: isDigit) {
            let (times, timesOverflow) = value.multipliedReportingOverflow(by: 10)
            let step = Int64(digit.value - 48)
            let (sum, sumOverflow) = isNegative ? times.subtractingReportingOverflow(step) : times.addingReportingOverflow(step)
            if timesOverflow || sumOverflow { return isNegative ? .min : .max }
            value = sum
        }
        return value
    }

    /// The decimal number at the start of `text` (optional sign, digits, fraction, exponent); 0 when
    /// there is none.
    static func real(_ text: String) -> Double {
        var scalars = trimmedStart(text)
        var literal = takeSign(&scalars) ? "-" : ""
        let whole = scalars.prefix(while: isDigit)
        scalars = scalars.dropFirst(whole.count)
        var fraction = scalars.prefix(0)
        if scalars.first == "." {
            fraction = scalars.dropFirst().prefix(while: isDigit)
            scalars = scalars.dropFirst(1 + fraction.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return 0 }
        literal += "0" + String(Substring(whole)) + "." + String(Substring(fraction)) + "0"
        if let marker = scalars.first, marker == "e" || marker == "E" {
            var exponent = scalars.dropFirst()
            let sign = takeSign(&exponent) ? "-" : ""
            let digits = exponent.prefix(while: isDigit)
            if !digits.isEmpty { literal += "e" + sign + String(Substring(digits)) }
        }
        return Double(literal) ?? 0
    }

    /// YES when `text` starts (after white space, an optional sign and any zeros) with `Y`, `y`,
    /// `T`, `t` or a digit 1–9: so `YES`, `true` and `1` are YES; `NO`, `false`, `0` and empty text are NO.
    static func boolean(_ text: String) -> Bool {
        var scalars = trimmedStart(text)
        _ = takeSign(&scalars)
        guard let first = scalars.first(where: { $0 != "0" }) else { return false }
        return "YyTt123456789".unicodeScalars.contains(first)
    }

    private static func trimmedStart(_ text: String) -> Substring.UnicodeScalarView {
        let scalars = Substring(text).unicodeScalars
        return scalars.drop { $0.properties.isWhitespace }
    }

    /// Consumes a leading `+` or `-`; true for `-`.
    private static func takeSign(_ scalars: inout Substring.UnicodeScalarView) -> Bool {
        guard let sign = scalars.first, sign == "+" || sign == "-" else { return false }
        scalars = scalars.dropFirst()
        return sign == "-"
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}
