/// Builds small, valid PNG images (8-bit RGB, zlib "stored" blocks, so no compressor is needed)
/// to serve as upload thumbnails.
enum TinyPNG {
    /// A `side`×`side` image of two random colours split along a random diagonal.
    /// `side` must be at most 100 so that the pixel data fits one stored deflate block.
    static func make(side: Int, using rng: inout SplitMix64) -> [UInt8] {
        let colours = (rng.next(), rng.next())
        let split = rng.next(below: 2 * side)
        var raw: [UInt8] = []
        raw.reserveCapacity(side * (1 + 3 * side))
        for y in 0..<side {
            raw.append(0)  // filter type None
            for x in 0..<side {
                let colour = x + y < split ? colours.0 : colours.1
                raw.append(UInt8(truncatingIfNeeded: colour))
                raw.append(UInt8(truncatingIfNeeded: colour >> 8))
                raw.append(UInt8(truncatingIfNeeded: colour >> 16))
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(UInt32(side), to: &header)
        appendBigEndian(UInt32(side), to: &header)
        header += [8, 2, 0, 0, 0]  // bit depth 8, colour type RGB, deflate, adaptive filter, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", zlibStored(raw), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        let length = UInt16(data.count)
        var out: [UInt8] = [0x78, 0x01, 0x01]  // zlib header; final stored block
        out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        out += data
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        appendBigEndian(b << 16 | a, to: &out)
        return out
    }

    private static func appendChunk(_ type: StaticString, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let start = png.count
        type.withUTF8Buffer { png += $0 }
        png += data
        appendBigEndian(crc32(png[start...]), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
