/// Entity numbers (small, non-negative) as a table of flags, asked per row without hashing.
struct EntityNumberSet: Sendable {
    private var flags: [Bool] = []

    init(_ numbers: [Int]) {
        for number in numbers where number >= 0 {
            if number >= flags.count { flags += repeatElement(false, count: number + 1 - flags.count) }
            flags[number] = true
        }
    }

    func contains(_ number: Int64) -> Bool {
        number >= 0 && number < flags.count && flags[Int(number)]
    }
}
