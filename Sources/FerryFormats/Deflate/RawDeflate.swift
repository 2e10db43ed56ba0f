import CZlib

/// Raw DEFLATE (RFC 1951: no zlib or gzip header, no trailer) of whole buffers, through zlib with
/// `windowBits = -15`. Core Data stores its model cache (`Z_MODELCACHE.Z_CONTENT`) this way.
public enum RawDeflate {
    /// The default cap on inflated output: far above any real model archive (they inflate to < 64 KB).
    public static let defaultOutputLimit = 256 * 1024 * 1024

    /// Inflates a complete raw DEFLATE stream that ends exactly at the end of `bytes`.
    /// - Parameter limit: the most bytes the output may hold; more throws `.outputLimitExceeded`.
    public static func inflate(_ bytes: [UInt8], limit: Int = defaultOutputLimit) throws(DeflateError) -> [UInt8] {
        var stream = z_stream()
        let status = inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .zlib(code: status, reason: message(of: stream, status: status)) }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        let result: Result<Void, DeflateError> = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let produced: Int32 = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let count = chunk.count - Int(stream.avail_out)
                let consumed = source.count - Int(stream.avail_in)
                guard output.count + count <= limit else { return .failure(.outputLimitExceeded(limit: limit, offset: consumed)) }
                output.append(contentsOf: chunk[..<count])
                switch produced {
                case Z_STREAM_END:
                    guard stream.avail_in == 0 else {
                        return .failure(.trailingBytes(offset: consumed, trailing: Int(stream.avail_in)))
                    }
                    return .success(())
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.truncated(offset: consumed))
                case Z_DATA_ERROR:
                    return .failure(.corrupt(reason: message(of: stream, status: produced), offset: consumed))
                default:
                    return .failure(.zlib(code: produced, reason: message(of: stream, status: produced)))
                }
            }
        }
        try result.get()
        return output
    }

    /// Deflates a whole buffer into one raw DEFLATE stream.
    /// - Parameter level: zlib's compression level, 0 (store) to 9 (smallest).
    public static func deflate(_ bytes: [UInt8], level: Int32 = 9) throws(DeflateError) -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .zlib(code: status, reason: message(of: stream, status: status)) }
        defer { deflateEnd(&stream) }

        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        let finished: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard finished == Z_STREAM_END else { throw .zlib(code: finished, reason: message(of: stream, status: finished)) }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    private static func message(of stream: z_stream, status: Int32) -> String {
        if let text = stream.msg { return String(cString: text) }
        if let text = zError(status) { return String(cString: text) }
        return "status \(status)"
    }
}
