#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats

/// Binary values written raw into an export buffer and base64-encoded on the writing thread, so
/// that encoding (the biggest single cost of a CSV row with a blob) leaves the thread that reads
/// the store. A span is the byte 0xFF, the value's length as 8 bytes little-endian, then its
/// bytes. 0xFF never occurs in UTF-8, and everything else an encoder writes is UTF-8 text, so a
/// span cannot be mistaken for text.
enum DeferredBase64 {
    static let marker: UInt8 = 0xFF

    /// Appends `bytes` as a span (encoded later by `expand`).
    static func appendSpan(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        output.append(marker)
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { output.append(contentsOf: $0) }
        output.append(contentsOf: bytes)
    }

    /// Copies `buffer` to `output` (emptied first) with each span replaced by its padded base64.
    static func expand(_ buffer: [UInt8], into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        buffer.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
                // memchr: a chunk without binary values is scanned at memory speed, not byte by byte.
                guard let base = rest.baseAddress, let found = memchr(base, Int32(marker), rest.count) else {
                    output.append(contentsOf: rest)
                    return
                }
                let offset = UnsafeRawPointer(found) - base
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<offset]))
                let lengthStart = offset + 1
                let length = Int(UInt64(littleEndian: rest.loadUnaligned(fromByteOffset: lengthStart, as: UInt64.self)))
                let valueStart = lengthStart + 8
                PropertyListBase64.append(UnsafeRawBufferPointer(rebasing: rest[valueStart..<(valueStart + length)]), to: &output)
                start += valueStart + length
            }
        }
    }
}
