@testable import FerryFormats
import Testing

/// The word-at-a-time search for a CSV field's end, against a byte-by-byte search, and through
/// the reader on long fields split at every place by small buffers.
struct ByteSetScanTests {
    @Test("the first of the values at every start, length and place, as a byte-by-byte search finds it")
    func agreesWithByteByByteSearch() {
        let scan = ByteSetScan(0x0A, 0x0D, 0x2C, 0x22)
        let values: Set<UInt8> = [0x0A, 0x0D, 0x2C, 0x22]
        // Bytes around the values (one below and above each: the borrow of the zero-byte test)
        // and high bytes, at a pseudo-random spread.
        let pool: [UInt8] = [0x09, 0x0B, 0x0C, 0x0E, 0x2B, 0x2D, 0x21, 0x23, 0x00, 0x01, 0x80, 0xFF, 0x41, 0xE7]
        for length in 0...40 {
            for place in 0...length {
                var bytes = (0..<length).map { pool[($0 &* 7 &+ length) % pool.count] }
                let value = [UInt8](values)[place % values.count]
                if place < length { bytes[place] = value }
                // A second value a few bytes on, often in the same block: the first one is found.
                if place + 5 < length { bytes[place + 5] = [UInt8](values)[(place + 1) % values.count] }
                for start in 0...min(length, 9) {
                    let expected = bytes.indices.dropFirst(start).first { values.contains(bytes[$0]) } ?? length
                    let found = bytes.withUnsafeBufferPointer { scan.firstIndex(in: $0.baseAddress ?? UnsafePointer(bitPattern: 1)!, from: start, to: length) }
                    #expect(found == expected, "length \(length), value \(value) at \(place), from \(start)")
                }
            }
        }
    }

    @Test("long unquoted and quoted fields read whole with the buffer ending anywhere in them", arguments: [1, 7, 9, 64])
    func longFieldsAcrossBuffers(bufferSize: Int) throws {
        let long = "abcdefghijklmnopqrstuvwxyz-0123456789"
        var text = ""
        var expected: [[String]] = []
        for cut in 0..<18 {
            let unquoted = String(long.prefix(cut + 3))
            let quoted = String(long.suffix(cut + 2)) + ",\n\"" + String(long.prefix(cut))
            text += unquoted + ",\"" + quoted.replacingOccurrences(of: "\"", with: "\"\"") + "\"," + unquoted + "\r\n"
            expected.append([unquoted, quoted, unquoted])
        }
        #expect(try CSVTestSupport.strings(text, bufferSize: bufferSize) == expected)
    }
}
