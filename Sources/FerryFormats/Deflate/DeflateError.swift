/// Why a raw DEFLATE stream could not be inflated, or a buffer deflated.
public enum DeflateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream is corrupt; `offset` is how many input bytes zlib had consumed when it stopped.
    case corrupt(reason: String, offset: Int)
    /// The input ended before the final DEFLATE block; `offset` is the input length.
    case truncated(offset: Int)
    /// The stream ended before the input did: `trailing` bytes follow the final block at `offset`.
    case trailingBytes(offset: Int, trailing: Int)
    /// Inflating would produce more than `limit` bytes (a decompression bomb guard).
    case outputLimitExceeded(limit: Int, offset: Int)
    /// zlib refused to start or failed for a reason unrelated to the input (out of memory, version).
    case zlib(code: Int32, reason: String)

    public var description: String {
        switch self {
        case .corrupt(let reason, let offset):
            "raw DEFLATE stream is corrupt at input byte \(offset): \(reason)"
        case .truncated(let offset):
            "raw DEFLATE stream is truncated: input ended at byte \(offset) before the final block"
        case .trailingBytes(let offset, let trailing):
            "raw DEFLATE stream ends at input byte \(offset) but \(trailing) more byte(s) follow"
        case .outputLimitExceeded(let limit, let offset):
            "inflated output would exceed the limit of \(limit) bytes (input byte \(offset))"
        case .zlib(let code, let reason):
            "zlib failed with code \(code): \(reason)"
        }
    }
}
