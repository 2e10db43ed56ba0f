/// A generator configuration that cannot be honoured.
public enum FixtureConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A quirk rate is not a fraction in `0...1`.
    case rateOutOfRange(name: String, value: Double)
    /// Rates of mutually exclusive quirks add up to more than 1.
    case exclusiveRatesExceedOne(names: String, sum: Double)
    /// A record count is negative.
    case negativeCount(Int)

    public var description: String {
        switch self {
        case .rateOutOfRange(let name, let value):
            "quirk rate '\(name)' is \(value); it must be a fraction in 0...1"
        case .exclusiveRatesExceedOne(let names, let sum):
            "quirk rates \(names) exclude each other but add up to \(sum), more than 1"
        case .negativeCount(let count):
            "record count \(count) is negative"
        }
    }

    static func check(_ rates: [(String, Double)]) throws(FixtureConfigurationError) {
        for (name, value) in rates where !(0...1).contains(value) {
            throw .rateOutOfRange(name: name, value: value)
        }
    }

    static func checkSum(_ sum: Double, of names: String) throws(FixtureConfigurationError) {
        if sum > 1 { throw .exclusiveRatesExceedOne(names: names, sum: sum) }
    }
}
