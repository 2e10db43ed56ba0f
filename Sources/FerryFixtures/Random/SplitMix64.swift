/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast, seedable generator whose output is the
/// same on every platform and Swift version, so that generated fixtures are byte-identical for
/// the same seed.
///
/// Every generated record draws from its own stream (`init(seed:stream:)`), so a record can be
/// produced from its index alone, in any order.
public struct SplitMix64: Sendable {
    private var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// An independent stream for one record: the seed and the stream number are mixed so that
    /// neighbouring streams do not overlap.
    public init(seed: UInt64, stream: UInt64) {
        state = SplitMix64.mix(seed ^ SplitMix64.mix(stream &+ 0x632B_E59B_D9B4_E019))
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// A uniform value in `0..<bound` (Lemire's multiply-high reduction; `bound` must be > 0).
    public mutating func next(below bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform value in `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.upperBound - range.lowerBound + 1)
    }

    /// A uniform fraction in `0..<1` with 53 random bits.
    public mutating func nextFraction() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// `true` with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        nextFraction() < probability
    }

    /// A uniformly chosen element of a non-empty array.
    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[next(below: elements.count)]
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
