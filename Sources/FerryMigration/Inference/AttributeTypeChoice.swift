import FerryModel

/// The attribute type inference picks for a key's values, and why.
///
/// Among the types that hold every value (see `ValueEvidence`), the most specific one the values
/// look like wins, in this order:
/// - no values at all: String;
/// - numbers written with a leading zero (`08075`: a ZIP code, a phone number) or a leading `+`
///   (`+15551234567`): String, as a number type would drop the zero or the sign (DuckDB's
///   sniffer decides so too for the zero);
/// - numbers a name calls a time (`time`, `date`, `createdAt`, `updated_at`, `timestamp`…) that fall
///   between 1980 and 2100 on the run's epoch: Date;
/// - integers: Integer 16, 32 or 64, the narrowest holding their range (only `0` and `1` stay an
///   integer: sqlite-utils and DuckDB read them so too);
/// - booleans (`true`/`false`, `yes`/`no`, plist booleans): Boolean;
/// - other numbers: Decimal when one has more significant digits than a Double keeps (15) or is
///   written to the same 2 to 4 places with a trailing zero (`12.50`, `3.10`), else Double; but
///   String when one has more digits than a store's Decimal (a real) keeps (`StoredDecimal`),
///   as a number type would lose them;
/// - ISO 8601 text or plist dates: Date; 8-4-4-4-12 hex: UUID; absolute URIs with `://`: URI;
/// - canonical base64 (every value the one text its bytes encode to: no spaces or line breaks,
///   unused bits zero), at least one of 16 characters or more that holds `+`, `/`, `=` or
///   mixed-case letters with digits (and not all hex digits, which reads as a digest), or plist
///   data: Binary, which gives every value back as it was read;
/// - anything else: String.
public struct AttributeTypeChoice: Sendable, Equatable {
    public let type: AttributeType
    /// What the type was read from, for the report (`integers 0 to 9`, `ISO 8601 dates`).
    public let basis: String

    /// The choice for `evidence` of a key named `key`; nil when no type holds every value (the key
    /// is left out of the model, and `evidence.lastRuledOut` says which value ended the last type).
    public init?(_ evidence: ValueEvidence, key: String, epoch: CoercionOptions.NumericDateEpoch) {
        let viable = evidence.viable
        func choose(_ type: AttributeType, _ basis: String) -> (AttributeType, String) { (type, basis) }
        let choice: (AttributeType, String)
        if evidence.values == 0 {
            choice = choose(.string, evidence.emptyFields > 0 ? "only empty fields" : "no values")
        } else if let form = evidence.numberForm, viable.contains(.string) {
            choice = choose(.string, "\(form), which a number would drop")
        } else if evidence.numbers == evidence.values, viable.contains(.date),
                  let range = evidence.numberRange, Self.namesATime(key), let basis = Self.epochBasis(range, epoch: epoch) {
            choice = choose(.date, basis)
        } else if viable.contains(.integer64), let range = evidence.integerRange, evidence.booleanWords == 0 {
            choice = choose(Self.integerType(for: range), "integers \(range.lowerBound) to \(range.upperBound)")
        } else if viable.contains(.boolean) {
            choice = choose(.boolean, "booleans")
        } else if viable.contains(.double) || viable.contains(.decimal), evidence.numbers == evidence.values,
                  viable.contains(.decimal) || evidence.mostSignificantDigits <= 15 {
            if viable.contains(.decimal), !viable.contains(.double) || evidence.mostSignificantDigits > 15 {
                choice = choose(.decimal, "numbers of up to \(evidence.mostSignificantDigits) significant digits (more than a Double keeps)")
            } else if viable.contains(.decimal), evidence.fixedPlaces {
                choice = choose(.decimal, "numbers written to \(evidence.fractionDigits ?? 2) places (a trailing zero, as in 12.50)")
            } else {
                choice = choose(.double, "numbers with fractions")
            }
        } else if viable.contains(.date), evidence.numbers == 0 {
            choice = choose(.date, evidence.plistDates == evidence.values ? "property-list dates"
                                : evidence.plistDates == 0 ? "ISO 8601 dates" : "ISO 8601 text and property-list dates")
        } else if viable.contains(.uuid) {
            choice = choose(.uuid, "UUIDs")
        } else if viable.contains(.uri), evidence.allHaveAuthority {
            choice = choose(.uri, "absolute URIs")
        } else if viable.contains(.binary), evidence.dataValues == evidence.values
                    || (evidence.longestText >= 16 && evidence.looksEncoded && !evidence.allHex && evidence.allCanonicalBase64) {
            choice = choose(.binary, evidence.dataValues == evidence.values ? "property-list data" : "base64")
        } else if viable.contains(.string) {
            choice = choose(.string, Self.textBasis(evidence))
        } else if viable.contains(.binary) {
            choice = choose(.binary, "property-list data and base64")
        } else if viable.contains(.date) {
            choice = choose(.date, "dates of several forms")
        } else {
            return nil
        }
        (type, basis) = choice
    }

    /// Why values are text: when at most a tenth of them kept a type from holding all, the type
    /// and the first such value (`text: 1 of 32 values is no Integer ('yesterday')`), so a few bad
    /// values can be fixed or rejected on purpose.
    static func textBasis(_ evidence: ValueEvidence) -> String {
        let near = ValueEvidence.explained.compactMap { type in evidence.misses[type].map { (type, $0.count, $0.first) } }
            .filter { $0.1 * 10 <= evidence.values }
            .min { $0.1 < $1.1 }
        guard let (type, count, first) = near else { return "text" }
        let name = type == .integer64 ? "integer" : type == .double ? "number" : type.xcodeName
        return "text: \(count) of \(evidence.values) values \(count == 1 ? "is" : "are") no \(name) (\(first))"
    }

    /// The narrowest integer type holding `range`.
    static func integerType(for range: ClosedRange<Int64>) -> AttributeType {
        for type in [AttributeType.integer16, .integer32] {
            if let bounds = type.integerRange, bounds.contains(range.lowerBound), bounds.contains(range.upperBound) { return type }
        }
        return .integer64
    }

    /// Whether a key's name says it holds a point in time: it has the word `date`, `time` or
    /// `timestamp`, or ends in `At`/`_at`/`On`/`_on` (`createdAt`, `updated_at`), or is
    /// `created`/`modified`/`updated`.
    static func namesATime(_ key: String) -> Bool {
        let lower = key.lowercased()
        if ["date", "time", "timestamp"].contains(where: lower.contains) { return true }
        if ["created", "modified", "updated"].contains(lower) { return true }
        for suffix in ["At", "On"] where key.hasSuffix(suffix) && key.count > 2 {
            let before = key[key.index(key.endIndex, offsetBy: -3)]
            if before.isLowercase { return true }
        }
        return lower.hasSuffix("_at") || lower.hasSuffix("_on")
    }

    /// The basis of a numeric Date when `range` falls between 1980 and 2100 on `epoch`.
    static func epochBasis(_ range: ClosedRange<Double>, epoch: CoercionOptions.NumericDateEpoch) -> String? {
        let (scale, offset, name): (Double, Double, String) = switch epoch {
        case .unixSeconds: (1, 0, "Unix seconds")
        case .unixMilliseconds: (1000, 0, "Unix milliseconds")
        case .referenceSeconds: (1, ReferenceDate.unixOffset, "seconds since 2001")
        }
        let earliest = 315_532_800.0, latest = 4_102_444_800.0  // 1980-01-01, 2100-01-01, Unix seconds
        let low = range.lowerBound / scale + offset, high = range.upperBound / scale + offset
        guard low >= earliest, high <= latest else { return nil }
        let first = ISO8601Date.format(low - ReferenceDate.unixOffset).map { String($0.prefix(10)) } ?? "\(range.lowerBound)"
        let last = ISO8601Date.format(high - ReferenceDate.unixOffset).map { String($0.prefix(10)) } ?? "\(range.upperBound)"
        return "\(name) (the name says a time; \(first) to \(last))"
    }
}
