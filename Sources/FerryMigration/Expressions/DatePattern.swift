/// A date pattern of `date(text, "pattern", zone)`: `yyyy` (4-digit year), `MM`/`M` (month),
/// `dd`/`d` (day), `HH`/`H` (hour 0–23), `mm`/`m` (minute), `ss`/`s` (second), `SSS`
/// (milliseconds); doubled letters take exactly two digits, single letters one or two. Other
/// letters are reserved; anything else, and text in single quotes (`'T'`, `''` for a quote),
/// must appear as written. A pattern needs a year, a month and a day.
struct DatePattern: Sendable {
    private enum Field: Character, Sendable {
        case year = "y", month = "M", day = "d", hour = "H", minute = "m", second = "s", millisecond = "S"
    }

    private enum Item: Sendable {
        case field(Field, digits: ClosedRange<Int>)
        case literal(Unicode.Scalar)
    }

    let text: String
    private let items: [Item]

    init(_ text: String) throws(ExpressionFailure) {
        self.text = text
        let scalars = Array(text.unicodeScalars)
        var items: [Item] = []
        var seen: Set<Character> = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" {
                index += 1
                if index < scalars.count, scalars[index] == "'" {
                    items.append(.literal("'"))
                    index += 1
                    continue
                }
                while true {
                    guard index < scalars.count else { throw ExpressionFailure("date pattern '\(text)' has an unterminated quote") }
                    if scalars[index] == "'" {
                        if index + 1 < scalars.count, scalars[index + 1] == "'" {
                            items.append(.literal("'"))
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    items.append(.literal(scalars[index]))
                    index += 1
                }
                continue
            }
            guard scalar.properties.isAlphabetic, scalar.isASCII else {
                items.append(.literal(scalar))
                index += 1
                continue
            }
            var count = 1
            while index + count < scalars.count, scalars[index + count] == scalar { count += 1 }
            let letters = String(repeating: Character(scalar), count: count)
            guard let field = Field(rawValue: Character(scalar)) else {
                throw ExpressionFailure("date pattern '\(text)': '\(letters)' is not supported (use yyyy MM dd HH mm ss SSS)")
            }
            let digits: ClosedRange<Int>? = switch (field, count) {
            case (.year, 4): 4...4
            case (.millisecond, 3): 3...3
            case (.year, _), (.millisecond, _): nil
            case (_, 1): 1...2
            case (_, 2): 2...2
            default: nil
            }
            guard let digits else {
                throw ExpressionFailure("date pattern '\(text)': '\(letters)' is not supported (use yyyy MM dd HH mm ss SSS)")
            }
            guard seen.insert(field.rawValue).inserted else {
                throw ExpressionFailure("date pattern '\(text)' has '\(field.rawValue)' twice")
            }
            items.append(.field(field, digits: digits))
            index += count
        }
        guard seen.isSuperset(of: ["y", "M", "d"]) else {
            throw ExpressionFailure("date pattern '\(text)' needs a year, a month and a day (yyyy, MM, dd)")
        }
        self.items = items
    }

    /// The civil time the text spells, or a failure naming the text.
    func read(_ value: String) throws(ExpressionFailure) -> CivilTime {
        let scalars = value.unicodeScalars
        var time = CivilTime(year: 0)
        var index = scalars.startIndex
        var mismatch: ExpressionFailure {
            ExpressionFailure("'\(TextCoercion.clipped(value))' does not match the date pattern '\(text)'")
        }
        for item in items {
            switch item {
            case let .literal(expected):
                guard index < scalars.endIndex, scalars[index] == expected else { throw mismatch }
                scalars.formIndex(after: &index)
            case let .field(field, digits):
                var number = 0
                var taken = 0
                while taken < digits.upperBound, index < scalars.endIndex, ExpressionLexer.isDigit(scalars[index]) {
                    number = number * 10 + Int(scalars[index].value) - 48
                    taken += 1
                    scalars.formIndex(after: &index)
                }
                guard taken >= digits.lowerBound else { throw mismatch }
                switch field {
                case .year: time.year = number
                case .month: time.month = number
                case .day: time.day = number
                case .hour: time.hour = number
                case .minute: time.minute = number
                case .second: time.second = number
                case .millisecond: time.millisecond = number
                }
            }
        }
        guard index == scalars.endIndex else { throw mismatch }
        if let invalidity = time.invalidity {
            throw ExpressionFailure("'\(TextCoercion.clipped(value))' is not a valid date and time: \(invalidity)")
        }
        return time
    }
}
