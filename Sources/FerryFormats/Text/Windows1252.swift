/// Text in Windows-1252, the code page of Western European Windows: every byte is one
/// character. Bytes below 0x80 are ASCII and bytes from 0xA0 on are Latin-1's characters of
/// the same number; 0x80–0x9F hold `€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ`,
/// and the five the code page leaves out (0x81, 0x8D, 0x8F, 0x90, 0x9D) stand for the control
/// character of the same number, as the WHATWG Encoding Standard's index maps them.
///
/// That standard (which browsers follow) reads the labels `latin1` and `iso-8859-1` as this
/// encoding: files said to be Latin-1 almost always are, their smart quotes and `€` being these
/// bytes, and Latin-1 proper would make them invisible control characters.
public enum Windows1252 {
    /// The characters of bytes 0x80–0x9F.
    private static let high: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// The bytes as text; ASCII takes the standard library's UTF-8 fast path.
    public static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.lazy.map { $0 & 0xE0 == 0x80 ? high[Int($0 & 0x1F)] : UInt16($0) }, as: UTF16.self)
    }
}
