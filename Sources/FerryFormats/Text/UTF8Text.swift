#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTF-8 bytes as a `String` only when they are valid UTF-8: nil instead of a repair (U+FFFD in
/// place of what is not UTF-8, as `String(decoding:as:)` makes).
///
/// The bytes are decoded (the standard library's fast path) and compared with what the String
/// holds, a repair being the only way the two differ: several times faster than the generic
/// `String(validating:as:)`, which cost a store read a third of its speed.
public enum UTF8Text {
    public static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        let decoded = String(decoding: bytes, as: UTF8.self)
        let same = decoded.utf8.withContiguousStorageIfAvailable { stored in
            guard stored.count == bytes.count else { return false }
            guard let mine = stored.baseAddress, let given = bytes.baseAddress else { return true }
            return memcmp(mine, given, bytes.count) == 0
        } ?? decoded.utf8.elementsEqual(bytes)
        return same ? decoded : nil
    }
}
