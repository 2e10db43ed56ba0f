/// Base64 (RFC 4648, standard alphabet): `<data>` in XML property lists, and binary fields of
/// text formats (CSV), decoded straight from their bytes.
public enum PropertyListBase64 {
    /// Whether a decoder insists on `=` padding to a multiple of four characters.
    public enum Padding: Sendable {
        /// Padding may be left out (property lists written by hand often do).
        case optional
        /// The characters and padding must come in groups of four (RFC 4648 section 3.2).
        case required
        /// As `required`, and the text must be the one its bytes encode to, but for line breaks:
        /// the bits of the last character that no byte holds are zero (RFC 4648 section 3.5) and
        /// no spaces or tabs stand inside. Text that decodes to bytes another text encodes to
        /// would not come back as it was given.
        case canonical
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The two characters of each 12-bit value, first in the low byte: a group of three bytes
    /// is two lookups and two 16-bit stores.
    private static let pairs: [UInt16] = (0..<4096).map { value in
        UInt16(alphabet[value >> 6]) | UInt16(alphabet[value & 0x3F]) << 8
    }

    /// Class of each byte for the decoder: a sextet (0...63), `whitespace`, `pad` or `invalid`.
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        for byte in [0x20, 0x09, 0x0A, 0x0D] { table[byte] = whitespace }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()
    private static let whitespace: UInt8 = 0xFD
    private static let pad: UInt8 = 0xFE
    private static let invalid: UInt8 = 0xFF

    /// Padded base64 of `bytes`, without line breaks.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        append(bytes, to: &output)
        return output
    }

    /// Padded base64 text of `bytes`, without line breaks.
    public static func text(_ bytes: [UInt8]) -> String {
        String(decoding: encode(bytes), as: UTF8.self)
    }

    /// Appends the padded base64 of `bytes`, without line breaks, to `output`.
    public static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        bytes.withUnsafeBytes { append($0, to: &output) }
    }

    /// Appends the padded base64 of `input`, without line breaks, to `output`: one pass over
    /// whole groups of three bytes, then the padded tail. (Pointer arithmetic without bounds
    /// checks: the output is sized first, and each group reads three and writes four.)
    public static func append(_ input: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        guard let source = input.baseAddress?.assumingMemoryBound(to: UInt8.self), !input.isEmpty else { return }
        let start = output.count
        output.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (input.count + 2) / 3 * 4))
        output.withUnsafeMutableBufferPointer { out in
            alphabet.withUnsafeBufferPointer { digits in
                guard let base = out.baseAddress, let digit = digits.baseAddress else { return }
                var read = source, write = UnsafeMutableRawPointer(base + start)
                pairs.withUnsafeBufferPointer { pairs in
                    guard let pair = pairs.baseAddress else { return }
                    for _ in 0..<(input.count / 3) {
                        let chunk = Int(read[0]) << 16 | Int(read[1]) << 8 | Int(read[2])
                        write.storeBytes(of: pair[chunk >> 12].littleEndian, as: UInt16.self)
                        (write + 2).storeBytes(of: pair[chunk & 0xFFF].littleEndian, as: UInt16.self)
                        read += 3
                        write += 4
                    }
                }
                let tail = write.assumingMemoryBound(to: UInt8.self)
                switch input.count % 3 {
                case 1:
                    let chunk = Int(read[0]) << 16
                    tail[0] = digit[chunk >> 18]
                    tail[1] = digit[chunk >> 12 & 0x3F]
                case 2:
                    let chunk = Int(read[0]) << 16 | Int(read[1]) << 8
                    tail[0] = digit[chunk >> 18]
                    tail[1] = digit[chunk >> 12 & 0x3F]
                    tail[2] = digit[chunk >> 6 & 0x3F]
                default:
                    break
                }
            }
        }
    }

    /// Decodes base64 text (a property list `<data>` element, a field of a text format);
    /// whitespace is skipped, as in `decode(contiguous:padding:)`.
    public static func decode(_ text: String.UTF8View, padding: Padding = .optional) -> [UInt8]? {
        var string = String(text)
        return string.withUTF8 { decode(contiguous: UnsafeRawBufferPointer($0), padding: padding) }
    }

    /// Each byte's sextet shifted to its place in a group of four characters, one table of 256
    /// per place (`placed[place << 8 | byte]`), or `outsideAlphabet` for every other byte: the
    /// four entries of a group OR'd are its 24 bits unless one character is not in the alphabet.
    private static let placed: [UInt32] = (0..<1024).map { entry in
        let sextet = classes[entry & 0xFF]
        return sextet < 64 ? UInt32(sextet) << UInt32(18 - 6 * (entry >> 8)) : outsideAlphabet
    }
    private static let outsideAlphabet: UInt32 = 1 << 31

    /// Decodes base64 from contiguous bytes in one pass, skipping spaces, tabs and line breaks
    /// anywhere (only line breaks for `.canonical`). Anything else outside the alphabet, text after
    /// padding, or padding that does not fit makes the result nil. Empty text (or only
    /// whitespace) decodes to no bytes.
    ///
    /// Runs of whole groups of four alphabet characters are decoded four at a time (four table
    /// lookups, no branch per character); anything else, one character at a time.
    /// The entry point is not generic so that callers in other modules get the specialized loop.
    public static func decode(contiguous text: UnsafeRawBufferPointer, padding: Padding = .optional) -> [UInt8]? {
        guard let input = text.baseAddress?.assumingMemoryBound(to: UInt8.self), !text.isEmpty else { return [] }
        let count = text.count
        var valid = true
        let output = placed.withUnsafeBufferPointer { placed in
            classes.withUnsafeBufferPointer { table in
                [UInt8](unsafeUninitializedCapacity: count / 4 * 3 + 2) { buffer, initialized in
                    guard let place = placed.baseAddress, let out = buffer.baseAddress else { return }
                    var written = 0
                    defer { initialized = written }
                    var accumulator: UInt32 = 0
                    var pending = 0
                    var pads = 0
                    var index = 0
                    while index < count {
                        if pending == 0, pads == 0 {
                            while index + 4 <= count {
                                let group = place[Int(input[index])] | place[256 | Int(input[index + 1])]
                                    | place[512 | Int(input[index + 2])] | place[768 | Int(input[index + 3])]
                                guard group & outsideAlphabet == 0 else { break }
                                // The three bytes in one store of four; the fourth is room the
                                // capacity leaves (at most count / 4 * 3 + 1 bytes are stored
                                // here), overwritten next or left outside the initialized count.
                                UnsafeMutableRawPointer(out + written).storeBytes(of: (group << 8).bigEndian, as: UInt32.self)
                                written += 3
                                index += 4
                            }
                            guard index < count else { break }
                        }
                        let sextet = table[Int(input[index])]
                        index += 1
                        if sextet < 64 {
                            guard pads == 0 else { valid = false; return }
                            accumulator = accumulator << 6 | UInt32(sextet)
                            pending += 1
                            if pending == 4 {
                                out[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
                                out[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                                out[written + 2] = UInt8(truncatingIfNeeded: accumulator)
                                written += 3
                                accumulator = 0
                                pending = 0
                            }
                        } else if sextet == pad {
                            pads += 1
                        } else if sextet != whitespace || (padding == .canonical && (input[index - 1] == 0x20 || input[index - 1] == 0x09)) {
                            valid = false
                            return
                        }
                    }
                    switch (pending, pads) {
                    case (0, 0):
                        break
                    case (2, 0), (2, 2):
                        guard pads == 2 || padding == .optional, padding != .canonical || accumulator & 0xF == 0 else { valid = false; return }
                        out[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
                        written += 1
                    case (3, 0), (3, 1):
                        guard pads == 1 || padding == .optional, padding != .canonical || accumulator & 0x3 == 0 else { valid = false; return }
                        out[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
                        out[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                        written += 2
                    default:
                        valid = false
                    }
                }
            }
        }
        return valid ? output : nil
    }
}
