/// How many columns of a terminal (a monospaced font) text takes: what table renderers pad by.
///
/// Counted per grapheme cluster, as terminals draw them: a cluster with an East Asian wide or
/// fullwidth character (CJK ideographs, kana, Hangul syllables, fullwidth forms) or an emoji
/// shown as emoji takes 2 columns; one made only of combining marks, format characters (zero
/// width joiner, …) or controls takes none; any other takes 1. Combining marks add nothing to
/// the character they follow, as they share its cluster.
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        var width = 0
        for character in text {
            width += columns(of: character)
        }
        return width
    }

    /// The columns UTF-8 bytes take (invalid sequences count as U+FFFD, one column each).
    public static func of(utf8 bytes: [UInt8]) -> Int {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return bytes.count }
        return of(String(decoding: bytes, as: UTF8.self))
    }

    /// Spaces that pad `text` to `width` columns (none when it is as wide or wider).
    public static func padding(_ text: some StringProtocol, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - of(text)))
    }

    private static func columns(of character: Character) -> Int {
        var visible = false
        for scalar in character.unicodeScalars {
            if isWide(scalar) || scalar.value == 0xFE0F { return 2 }
            if !isZeroWidth(scalar) { visible = true }
        }
        return visible ? 1 : 0
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return false
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        if scalar.properties.isEmojiPresentation { return true }
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound { high = middle - 1 } else if value > range.upperBound { low = middle + 1 } else { return true }
        }
        return false
    }

    /// Blocks whose characters are East Asian Wide or Fullwidth (emoji apart), in order.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,   // Hangul Jamo leading consonants
        0x2329...0x232A,   // angle brackets
        0x2E80...0x303E,   // CJK radicals, Kangxi radicals, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,   // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed and compatibility
        0x3400...0x4DBF,   // CJK Unified Ideographs Extension A
        0x4E00...0x9FFF,   // CJK Unified Ideographs
        0xA000...0xA4C6,   // Yi syllables and radicals
        0xA960...0xA97F,   // Hangul Jamo Extended-A
        0xAC00...0xD7A3,   // Hangul syllables
        0xF900...0xFAFF,   // CJK Compatibility Ideographs
        0xFE10...0xFE19,   // vertical forms
        0xFE30...0xFE6B,   // CJK compatibility forms, small form variants
        0xFF01...0xFF60,   // fullwidth forms
        0xFFE0...0xFFE6,   // fullwidth signs
        0x16FE0...0x16FE4, // ideographic symbols
        0x17000...0x18CFF, // Tangut, Khitan
        0x1B000...0x1B2FF, // Kana supplement and extensions, Nüshu
        0x1F200...0x1F2FF, // enclosed ideographic supplement
        0x20000...0x2FFFD, // CJK Unified Ideographs Extensions B–F, compatibility supplement
        0x30000...0x3FFFD, // CJK Unified Ideographs Extensions G–H
    ]
}
