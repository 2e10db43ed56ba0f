/// Why gzip or zlib data could not be decompressed or compressed.
///
/// Offsets count compressed bytes from the start of the source, so a damaged backup can be
/// inspected at the reported place.
public enum GzipError: Error, Equatable, CustomStringConvertible {
    /// The compressed data is damaged at about `byteOffset` (zlib's `reason`).
    case corrupt(source: String, byteOffset: Int, reason: String)
    /// The compressed data ends before its last member is complete; `byteOffset` is its length.
    case truncated(source: String, byteOffset: Int)
    /// The compression level is outside 0...9.
    case invalidLevel(Int)
    /// zlib reported an internal failure (`code` is its return code, for example `Z_MEM_ERROR`).
    case zlibFailure(code: Int32)

    public var description: String {
        switch self {
        case let .corrupt(source, byteOffset, reason):
            "\(source): corrupt compressed data at byte offset \(byteOffset): \(reason)"
        case let .truncated(source, byteOffset):
            "\(source): compressed data ends unexpectedly at byte offset \(byteOffset)"
        case let .invalidLevel(level):
            "gzip compression level \(level) is outside 0...9"
        case let .zlibFailure(code):
            "zlib failed (code \(code))"
        }
    }
}
