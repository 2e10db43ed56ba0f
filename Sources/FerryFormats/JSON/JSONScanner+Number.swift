extension JSONScanner {
    /// Where the number grammar of RFC 8259 stands after the bytes seen so far.
    private enum NumberState {
        case afterMinus, afterZero, inInteger, afterPoint, inFraction, afterE, afterExponentSign, inExponent

        /// Whether a number may end here.
        var isComplete: Bool {
            switch self {
            case .afterZero, .inInteger, .inFraction, .inExponent: true
            case .afterMinus, .afterPoint, .afterE, .afterExponentSign: false
            }
        }
    }

    /// Reads the number starting at `position` (a `-` or a digit) and hands its text and whether
    /// it is an integer (no fraction or exponent) to `make`, whose result is returned.
    mutating func parseNumber<Result>(_ make: (UnsafeBufferPointer<UInt8>, Bool) -> Result) throws -> Result {
        var state = NumberState.afterMinus
        var length = 0
        var isInteger = true
        scan: while true {
            let available = filled - position
            let start = bytes + position
            while length < available {
                let byte = start[length]
                let isDigit = byte &- UInt8(ascii: "0") < 10
                switch state {
                case .afterMinus:
                    if byte == UInt8(ascii: "0") { state = .afterZero }
                    else if isDigit { state = .inInteger }
                    else if length == 0 && byte == UInt8(ascii: "-") {}  // the sign; still .afterMinus
                    else { break scan }
                case .afterZero:
                    if isDigit { throw syntaxError(.leadingZero, at: position + length) }
                    if byte == UInt8(ascii: ".") { state = .afterPoint }
                    else if byte | 0x20 == UInt8(ascii: "e") { state = .afterE }
                    else { break scan }
                    isInteger = false
                case .inInteger:
                    if isDigit { break }
                    if byte == UInt8(ascii: ".") { state = .afterPoint }
                    else if byte | 0x20 == UInt8(ascii: "e") { state = .afterE }
                    else { break scan }
                    isInteger = false
                case .afterPoint, .inFraction:
                    if isDigit { state = .inFraction }
                    else if state == .inFraction && byte | 0x20 == UInt8(ascii: "e") { state = .afterE }
                    else { break scan }
                case .afterE:
                    if isDigit { state = .inExponent }
                    else if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { state = .afterExponentSign }
                    else { break scan }
                case .afterExponentSign, .inExponent:
                    if isDigit { state = .inExponent } else { break scan }
                }
                length += 1
            }
            if length < available { break }
            guard try refill() else { break }
        }
        guard state.isComplete else { throw syntaxError(.invalidNumber, at: position + length) }
        try checkTokenLength(length)
        defer { position += length }
        return make(UnsafeBufferPointer(start: bytes + position, count: length), isInteger)
    }

    /// Reads `true`, `false` or `null` at `position`.
    mutating func parseLiteral() throws -> JSONValue {
        let (word, value): (StaticString, JSONValue) =
            switch bytes[position] {
            case UInt8(ascii: "t"): ("true", .bool(true))
            case UInt8(ascii: "f"): ("false", .bool(false))
            default: ("null", .null)
            }
        while filled - position < word.utf8CodeUnitCount {
            guard try refill() else { break }
        }
        let length = word.utf8CodeUnitCount
        guard filled - position >= length,
            UnsafeBufferPointer(start: bytes + position, count: length).elementsEqual(
                UnsafeBufferPointer(start: word.utf8Start, count: length))
        else { throw syntaxError(.invalidLiteral, at: position) }
        position += length
        return value
    }
}
