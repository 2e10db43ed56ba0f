/// Why a ``ParallelGzipWriter`` could not be set up or used.
///
/// Failures of zlib itself are ``GzipError/zlibFailure(code:)`` and invalid levels are
/// ``GzipError/invalidLevel(_:)``, as for ``GzipWriter``; these cases cover what only the
/// parallel writer has.
public enum ParallelGzipError: Error, Equatable, CustomStringConvertible {
    /// The thread count is below 1.
    case invalidThreadCount(Int)
    /// The block size is outside ``ParallelGzipWriter/blockSizeRange``.
    case invalidBlockSize(Int)
    /// `write` was called after `finish()` completed the gzip member.
    case writeAfterFinish

    public var description: String {
        switch self {
        case let .invalidThreadCount(count):
            "parallel gzip thread count \(count) is below 1"
        case let .invalidBlockSize(size):
            "parallel gzip block size \(size) is outside \(ParallelGzipWriter.blockSizeRange)"
        case .writeAfterFinish:
            "parallel gzip writer received bytes after finish()"
        }
    }
}
