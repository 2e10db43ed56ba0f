/// Base64 (RFC 4648, standard alphabet): `<data>` in XML property lists, and binary fields of
/// text formats (CSV), decoded straight from their bytes.
public enum PropertyListBase64 {
    /// Whether a decoder insists on `=` padding to a multiple of four characters.
    public enum Padding: Sendable {
        /// Padding may be left out (property lists written by hand often do).
        case optional
        /// The characters and padding must come in groups of four (RFC 4648 section 3.2).
        case required
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

    /// Decodes base64 from contiguous bytes in one pass, skipping spaces, tabs and line breaks
    /// anywhere. Anything else outside the alphabet, text after padding, or padding that does not
    /// fit makes the result nil. Empty text (or only whitespace) decodes to no bytes.
    ///
    /// The entry point is not generic so that callers in other modules get the specialized loop.
    public static func decode(contiguous text: UnsafeRawBufferPointer, padding: Padding = .optional) -> [UInt8]? {
        var valid = true
        let output = classes.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: text.count / 4 * 3 + 2) { buffer, written in
                written = 0
                var accumulator: UInt32 = 0
                var pending = 0
                var pads = 0
                var index = 0
                while index < text.count {
                    // Four characters at a time while they are all in the alphabet (every other
                    // class is 64 or more, so the four OR'd stay below 64 only then).
                    if pending == 0, pads == 0, index + 4 <= text.count {
                        let a = table[Int(text[index])], b = table[Int(text[index + 1])]
                        let c = table[Int(text[index + 2])], d = table[Int(text[index + 3])]
                        if a | b | c | d < 64 {
                            let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                            buffer[written] = UInt8(truncatingIfNeeded: group >> 16)
                            buffer[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                            buffer[written + 2] = UInt8(truncatingIfNeeded: group)
                            written += 3
                            index += 4
                            continue
                        }
                    }
                    let sextet = table[Int(text[index])]
                    index += 1
                    if sextet < 64 {
                        guard pads == 0 else { valid = false; return }
                        accumulator = accumulator << 6 | UInt32(sextet)
                        pending += 1
                        if pending == 4 {
                            buffer[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
                            buffer[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                            buffer[written + 2] = UInt8(truncatingIfNeeded: accumulator)
                            written += 3
                            accumulator = 0
                            pending = 0
                        }
                    } else if sextet == pad {
                        pads += 1
                    } else if sextet != whitespace {
                        valid = false
                        return
                    }
                }
                switch (pending, pads) {
                case (0, 0):
                    break
                case (2, 0), (2, 2):
                    guard pads == 2 || padding == .optional else { valid = false; return }
                    buffer[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
                    written += 1
                case (3, 0), (3, 1):
                    guard pads == 1 || padding == .optional else { valid = false; return }
                    buffer[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
                    buffer[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                    written += 2
                default:
                    valid = false
                }
            }
        }
        return valid ? output : nil
    }
}
