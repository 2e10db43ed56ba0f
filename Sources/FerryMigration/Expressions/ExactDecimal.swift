import FerryModel

/// Exact decimal arithmetic for `.decimal` values: a sign, a coefficient as base-10 digits
/// (least significant first, any length) and a scale (digits after the point).
///
/// Addition, subtraction and multiplication are exact. Division stops when the quotient
/// terminates or has `divisionDigits` significant digits (never cutting into the integer part),
/// rounding half away from zero.
struct ExactDecimal: Equatable, Comparable {
    /// Significant digits a quotient keeps when it does not terminate (as many as NSDecimalNumber).
    static let divisionDigits = 38

    private(set) var negative: Bool
    /// Coefficient digits, least significant first, without high zeros (zero is empty).
    private(set) var digits: [UInt8]
    /// How many of the digits stand after the point.
    private(set) var scale: Int

    private init(negative: Bool, digits: [UInt8], scale: Int) {
        var digits = digits
        var scale = scale
        if scale < 0 {
            digits.insert(contentsOf: repeatElement(0, count: -scale), at: 0)
            scale = 0
        }
        var low = 0
        while scale > 0, low < digits.count, digits[low] == 0 {
            low += 1
            scale -= 1
        }
        digits.removeFirst(low)
        while digits.last == 0 { digits.removeLast() }
        if digits.isEmpty { scale = 0 }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.scale = scale
    }

    /// Reads decimal text (`[+-]digits[.digits][e[+-]digits]`); nil when it is not a number.
    init?(_ text: String) {
        guard let plain = DecimalNotation.plain(text.utf8) else { return nil }
        // Plain form: an optional "-", digits, and at most one "." between digits.
        var digits: [UInt8] = []
        digits.reserveCapacity(plain.utf8.count)
        var negative = false, scale = 0, afterPoint = false
        for byte in plain.utf8 {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): afterPoint = true
            default:
                digits.append(byte &- 48)
                if afterPoint { scale += 1 }
            }
        }
        digits.reverse()
        self.init(negative: negative, digits: digits, scale: scale)
    }

    init(_ value: Int64) {
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        while magnitude > 0 {
            digits.append(UInt8(magnitude % 10))
            magnitude /= 10
        }
        self.init(negative: value < 0, digits: digits, scale: 0)
    }

    /// The plain text form (`DecimalNotation`): `-12.5`, `0.001`, `0`.
    var text: String {
        // Digits at or above the point, at least one; then the fraction, zero-padded to `scale`.
        let shown = max(digits.count, scale + 1)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(shown + 2)
        if negative { bytes.append(UInt8(ascii: "-")) }
        for index in stride(from: shown - 1, through: 0, by: -1) {
            bytes.append((index < digits.count ? digits[index] : 0) + 48)
            if index == scale, scale > 0 { bytes.append(UInt8(ascii: ".")) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    var isZero: Bool { digits.isEmpty }

    var doubleValue: Double { Double(text) ?? 0 }

    static func + (lhs: ExactDecimal, rhs: ExactDecimal) -> ExactDecimal {
        let scale = max(lhs.scale, rhs.scale)
        let (left, right) = (lhs.coefficient(at: scale), rhs.coefficient(at: scale))
        if lhs.negative == rhs.negative {
            return ExactDecimal(negative: lhs.negative, digits: Magnitude.add(left, right), scale: scale)
        }
        if Magnitude.compare(left, right) >= 0 {
            return ExactDecimal(negative: lhs.negative, digits: Magnitude.subtract(left, right), scale: scale)
        }
        return ExactDecimal(negative: rhs.negative, digits: Magnitude.subtract(right, left), scale: scale)
    }

    static prefix func - (operand: ExactDecimal) -> ExactDecimal {
        ExactDecimal(negative: !operand.negative, digits: operand.digits, scale: operand.scale)
    }

    static func - (lhs: ExactDecimal, rhs: ExactDecimal) -> ExactDecimal { lhs + -rhs }

    static func * (lhs: ExactDecimal, rhs: ExactDecimal) -> ExactDecimal {
        ExactDecimal(negative: lhs.negative != rhs.negative, digits: Magnitude.multiply(lhs.digits, rhs.digits),
                     scale: lhs.scale + rhs.scale)
    }

    /// The quotient, or nil when the divisor is zero.
    func divided(by divisor: ExactDecimal) -> ExactDecimal? {
        guard !divisor.isZero else { return nil }
        var quotient: [UInt8] = []
        var remainder: [UInt8] = []
        var extra = 0
        var significant = 0
        var pending = digits.reversed().makeIterator()
        while true {
            let next: UInt8
            if let digit = pending.next() {
                next = digit
            } else {
                // Past the last dividend digit, one more digit than kept decides the rounding.
                guard !remainder.isEmpty, significant <= Self.divisionDigits || extra == 0 else { break }
                next = 0
                extra += 1
            }
            remainder.insert(next, at: 0)
            while remainder.last == 0 { remainder.removeLast() }
            var digit: UInt8 = 0
            while Magnitude.compare(remainder, divisor.digits) >= 0 {
                remainder = Magnitude.subtract(remainder, divisor.digits)
                digit += 1
            }
            quotient.append(digit)
            if significant > 0 || digit > 0 { significant += 1 }
        }
        var coefficient = Array(quotient.reversed())
        if significant > Self.divisionDigits, extra > 0 {
            let dropped = coefficient.removeFirst()
            extra -= 1
            if dropped >= 5 { coefficient = Magnitude.add(coefficient, [1]) }
        }
        return ExactDecimal(negative: negative != divisor.negative, digits: coefficient, scale: extra + scale - divisor.scale)
    }

    /// The integer this rounds to under `rule`, or nil when it does not fit in Int64.
    func integer(rounding rule: FloatingPointRoundingRule) -> Int64? {
        let firstDropped = scale > 0 && scale <= digits.count ? digits[scale - 1] : 0
        let isExact = scale == 0
        let increment = switch rule {
        case .toNearestOrAwayFromZero: firstDropped >= 5
        case .down: negative && !isExact
        case .up: !negative && !isExact
        default: false
        }
        var magnitude: UInt64 = 0
        for digit in digits[min(scale, digits.count)...].reversed() {
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(digit))
            guard !carry else { return nil }
            magnitude = sum
        }
        if increment {
            let (sum, carry) = magnitude.addingReportingOverflow(1)
            guard !carry else { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return Int64(exactly: magnitude)
    }

    static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        let difference = lhs - rhs
        return difference.negative
    }

    /// The coefficient scaled to `target` digits after the point (target ≥ scale).
    private func coefficient(at target: Int) -> [UInt8] {
        digits.isEmpty ? [] : Array(repeatElement(0, count: target - scale)) + digits
    }
}

/// Unsigned arithmetic on base-10 digit arrays, least significant digit first.
private enum Magnitude {
    static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        for index in lhs.indices.reversed() where lhs[index] != rhs[index] {
            return lhs[index] < rhs[index] ? -1 : 1
        }
        return 0
    }

    static func add(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(max(lhs.count, rhs.count) + 1)
        var carry: UInt8 = 0
        for index in 0..<max(lhs.count, rhs.count) {
            let sum = (index < lhs.count ? lhs[index] : 0) + (index < rhs.count ? rhs[index] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
        }
        if carry > 0 { result.append(carry) }
        return result
    }

    /// `lhs - rhs` for `lhs >= rhs`, without high zeros.
    static func subtract(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(lhs.count)
        var borrow: UInt8 = 0
        for index in lhs.indices {
            let subtrahend = (index < rhs.count ? rhs[index] : 0) + borrow
            if lhs[index] >= subtrahend {
                result.append(lhs[index] - subtrahend)
                borrow = 0
            } else {
                result.append(lhs[index] + 10 - subtrahend)
                borrow = 1
            }
        }
        while result.last == 0 { result.removeLast() }
        return result
    }

    static func multiply(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        guard !lhs.isEmpty, !rhs.isEmpty else { return [] }
        var columns = [Int](repeating: 0, count: lhs.count + rhs.count)
        for (i, left) in lhs.enumerated() {
            for (j, right) in rhs.enumerated() { columns[i + j] += Int(left) * Int(right) }
        }
        var result: [UInt8] = []
        var carry = 0
        for column in columns {
            let total = column + carry
            result.append(UInt8(total % 10))
            carry = total / 10
        }
        while carry > 0 {
            result.append(UInt8(carry % 10))
            carry /= 10
        }
        while result.last == 0 { result.removeLast() }
        return result
    }
}
