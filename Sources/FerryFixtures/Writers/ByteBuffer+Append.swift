extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `text`.
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal ASCII.
    mutating func append(decimal value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let start = count
        var magnitude = value.magnitude
        repeat {
            append(UInt8(truncatingIfNeeded: 48 + magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        self[start...].reverse()
    }
}
