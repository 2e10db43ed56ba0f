import FerryFormats
import FerryModel

/// What the values of one key say about its attribute type, gathered one value at a time in
/// constant memory.
///
/// Which types can hold every value is decided by the coercion import applies
/// (`DocumentCoercion`, and so `TextCoercion` for text), so a type chosen from the viable ones
/// imports every value it was chosen from. The rest (ranges, digits, date forms, base64 looks) is
/// what `AttributeTypeChoice` needs to prefer one viable type over another.
public struct ValueEvidence: Sendable {
    /// The types still able to hold every value, among the ones inference writes.
    public private(set) var viable = Set(Self.candidates)
    /// Values that are not missing (empty fields excluded).
    public private(set) var values = 0
    /// Empty CSV fields: the empty string in a String attribute, nil in any other.
    public private(set) var emptyFields = 0
    /// The smallest and largest integer among the values, while all are integers.
    public private(set) var integerRange: ClosedRange<Int64>?
    /// The smallest and largest number among the values, while all are numbers.
    public private(set) var numberRange: ClosedRange<Double>?
    /// Values that are numbers (JSON or plist numbers, or text that reads as one).
    public private(set) var numbers = 0
    /// Booleans of a document, or text `true`/`false`/`yes`/`no` (not `1`/`0`).
    public private(set) var booleanWords = 0
    /// Text in ISO 8601.
    public private(set) var isoDates = 0
    /// Dates of a property list.
    public private(set) var plistDates = 0
    /// Data of a property list.
    public private(set) var dataValues = 0
    /// The most significant digits of one number.
    public private(set) var mostSignificantDigits = 0
    /// The count of fraction digits every number with a fraction is written with, while they
    /// agree (`12.50` and `3.10`: 2); nil before the first and after two disagree.
    public private(set) var fractionDigits: Int?
    /// Whether numbers with fractions were written with different counts of fraction digits.
    public private(set) var mixedFractionDigits = false
    /// Whether a number ends its fraction in a zero (`12.50`): written to places, not shortest.
    public private(set) var trailingZero = false
    /// Whether every number with a fraction is written to the same 2 to 4 places, one of them
    /// ending in a zero (`12.50`, `3.10`): as money is written.
    public var fixedPlaces: Bool {
        trailingZero && !mixedFractionDigits && fractionDigits.map { (2...4).contains($0) } == true
    }
    /// The first number written in a form a number type would not keep, for the report: a leading
    /// zero (`08075`, a ZIP code) or a leading `+` (`+15551234567`, a phone number), which no
    /// app's number prints.
    public private(set) var numberForm: String?
    /// Whether every text value holds `://`.
    public private(set) var allHaveAuthority = true
    /// The longest text value, in bytes.
    public private(set) var longestText = 0
    /// Whether some text value holds a character base64 has but words and hex digits do not
    /// (`+`, `/`, `=`), or letters of both cases with digits.
    public private(set) var looksEncoded = false
    /// Whether every text value is canonical base64: the one text that encodes its bytes (complete
    /// padding, unused bits zero, no spaces or line breaks), so that a Binary attribute gives back
    /// the text exactly as read.
    public private(set) var allCanonicalBase64 = true
    /// Whether every text value is hexadecimal digits only.
    public private(set) var allHex = true
    /// A value that no type could hold, for the report, when none is viable.
    public private(set) var lastRuledOut: String?
    /// For each type a value ruled out: how many values it could not hold, and the first of them
    /// (counted while they are few enough to report: see `AttributeTypeChoice.textBasis`).
    public private(set) var misses: [AttributeType: (count: Int, first: String)] = [:]
    /// Types that more than 100 values, and more than a tenth, could not hold: not counted on.
    private var unexplained: Set<AttributeType> = []

    /// The types whose misses are counted, to say why values stayed text.
    static let explained: [AttributeType] = [.integer64, .double, .date, .boolean, .uuid]

    /// The types inference chooses among (Float and Transformable are never guessed).
    public static let candidates: [AttributeType] = [.integer64, .boolean, .double, .decimal, .date, .uuid, .uri, .binary, .string]

    private let options: CoercionOptions

    public init(options: CoercionOptions = .init()) {
        self.options = options
    }

    /// Notes one scalar value (arrays and objects are the caller's).
    public mutating func observe(_ value: ObservedValue) {
        switch value {
        case .missing: return
        case .emptyField: emptyFields += 1
        case .value(let document): observe(document)
        }
    }

    private mutating func observe(_ value: DocumentValue) {
        if value == .null { return }
        values += 1
        for type in viable {
            if case .failure = DocumentCoercion.value(value, as: type, options: options) {
                viable.remove(type)
                if viable.isEmpty { lastRuledOut = Self.sample(value) }
            }
        }
        for type in Self.explained where !viable.contains(type) && !unexplained.contains(type) {
            if case .failure = DocumentCoercion.value(value, as: type, options: options) {
                misses[type, default: (0, Self.sample(value))].count += 1
                // Far more than a tenth: no report will name this type, so stop trying it.
                if let count = misses[type]?.count, count > 100, count * 10 > values {
                    unexplained.insert(type)
                    misses[type] = nil
                }
            }
        }
        switch value {
        case .bool: booleanWords += 1
        case .date: plistDates += 1
        case .data: dataValues += 1
        case .number(let text): noteNumber(text)
        case .string(let text):
            noteBase64(text)
            noteText(text.trimmingASCIISpaces())
        case .null, .uid, .array, .object: break
        }
    }

    private mutating func noteNumber(_ text: String) {
        numbers += 1
        if case .success(.integer(let number)) = TextCoercion.value(text, as: .integer64) {
            integerRange = integerRange.map { min($0.lowerBound, number)...max($0.upperBound, number) } ?? number...number
        }
        if case .success(.double(let number)) = TextCoercion.value(text, as: .double) {
            numberRange = numberRange.map { min($0.lowerBound, number)...max($0.upperBound, number) } ?? number...number
        }
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        let digits = mantissa.drop { !("1"..."9").contains($0) }.filter(\.isNumber)
        mostSignificantDigits = max(mostSignificantDigits, digits.count)
        if mantissa.count == text.count, let dot = mantissa.firstIndex(of: ".") {
            let fraction = mantissa[mantissa.index(after: dot)...]
            noteFraction(digits: fraction.count, trailingZero: fraction.last == "0")
        }
    }

    private mutating func noteFraction(digits: Int, trailingZero zero: Bool) {
        if let known = fractionDigits, known != digits { mixedFractionDigits = true }
        fractionDigits = fractionDigits ?? digits
        trailingZero = trailingZero || zero
    }

    private mutating func noteText(_ text: String) {
        longestText = max(longestText, text.utf8.count)
        if !text.contains("://") { allHaveAuthority = false }
        if !text.utf8.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }) { allHex = false }
        let bytes = text.utf8
        if bytes.contains(where: { $0 == 43 || $0 == 47 || $0 == 61 })
            || (bytes.contains { (65...90).contains($0) } && bytes.contains { (97...122).contains($0) } && bytes.contains { (48...57).contains($0) }) {
            looksEncoded = true
        }
        if ["true", "false", "yes", "no"].contains(text.lowercased()) { booleanWords += 1 }
        if ISO8601Date.parse(text) != nil { isoDates += 1 }
        // An integer past 2^53 is no Double's, and still an integer of the range.
        if case .success = TextCoercion.value(text, as: .integer64) {
            noteNumberText(text)
        } else if case .success = TextCoercion.value(text, as: .double) {
            noteNumberText(text)
        }
    }

    private mutating func noteNumberText(_ text: String) {
        noteNumber(text)
        guard numberForm == nil else { return }
        let digits = text.utf8.drop { $0 == 43 || $0 == 45 }
        if text.utf8.first == 43 {
            numberForm = "a number written with a leading '+' ('\(TextCoercion.clipped(text))')"
        } else if digits.count > 1, digits.first == 48, let next = digits.dropFirst().first, (48...57).contains(next) {
            numberForm = "digits with a leading zero ('\(TextCoercion.clipped(text))')"
        }
    }

    /// Notes whether `text`, exactly as read, is the base64 its bytes encode to.
    private mutating func noteBase64(_ text: String) {
        guard allCanonicalBase64 else { return }
        let bytes = PropertyListBase64.decode(text.utf8, padding: .canonical)
        allCanonicalBase64 = bytes.map { PropertyListBase64.text($0) == text } ?? false
    }

    /// Both sets of values as one (the values of a relationship, in arrays and alone).
    public mutating func merge(_ other: ValueEvidence) {
        viable.formIntersection(other.viable)
        values += other.values
        emptyFields += other.emptyFields
        integerRange = Self.union(integerRange, other.integerRange)
        numberRange = Self.union(numberRange, other.numberRange)
        numbers += other.numbers
        booleanWords += other.booleanWords
        isoDates += other.isoDates
        plistDates += other.plistDates
        dataValues += other.dataValues
        mostSignificantDigits = max(mostSignificantDigits, other.mostSignificantDigits)
        if let digits = other.fractionDigits { noteFraction(digits: digits, trailingZero: other.trailingZero) }
        mixedFractionDigits = mixedFractionDigits || other.mixedFractionDigits
        allHaveAuthority = allHaveAuthority && other.allHaveAuthority
        longestText = max(longestText, other.longestText)
        looksEncoded = looksEncoded || other.looksEncoded
        allCanonicalBase64 = allCanonicalBase64 && other.allCanonicalBase64
        allHex = allHex && other.allHex
        lastRuledOut = lastRuledOut ?? other.lastRuledOut
        numberForm = numberForm ?? other.numberForm
        unexplained.formUnion(other.unexplained)
        misses.merge(other.misses) { ($0.count + $1.count, $0.first) }
        for type in unexplained { misses[type] = nil }
    }

    private static func union<T: Comparable>(_ a: ClosedRange<T>?, _ b: ClosedRange<T>?) -> ClosedRange<T>? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
    }

    private static func sample(_ value: DocumentValue) -> String {
        switch value {
        case .string(let text), .number(let text): "'\(TextCoercion.clipped(text))'"
        default: value.kindName
        }
    }
}
