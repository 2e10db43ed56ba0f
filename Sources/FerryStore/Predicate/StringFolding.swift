@_spi(_Unicode) import Swift

/// The text transformations behind `[c]` and `[d]`.
///
/// Case folding is Unicode lower-casing (`String.lowercased()`: `Å` → `å`, `İ` → `i̇`; `ß` stays
/// `ß`, unlike full case folding). Diacritic removal decomposes canonically (NFD, through the
/// standard library's `_nfd`, which it offers as SPI only) and drops nonspacing marks (general
/// category Mn): `é` → `e`, `Å` → `A`; `ø` and `ł` have no decomposition and stay. ASCII text takes
/// a byte-level path that never builds a String.
enum StringFolding {
    /// `text` folded as `options` ask.
    static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        var bytes = Array(text.utf8)
        return fold(&bytes, options) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// Folds UTF-8 bytes: ASCII in place (returns nil), anything else into a new String.
    static func fold(_ bytes: inout [UInt8], _ options: ComparisonOptions) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            if options.contains(.caseInsensitive) {
                for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
            }
            return nil
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if options.contains(.diacriticInsensitive) {
            var stripped = String.UnicodeScalarView()
            for scalar in text._nfd where scalar.properties.generalCategory != .nonspacingMark {
                stripped.append(scalar)
            }
            text = String(stripped)
        }
        return options.contains(.caseInsensitive) ? text.lowercased() : text
    }
}
