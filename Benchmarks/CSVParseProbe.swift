import FerryFormats

/// Ferry's CSV parsing alone, in-process: `CSVReader` over `FileByteSource`, touching every byte
/// count and the first byte of every field so that nothing can be optimized away.
///
/// There is no `ferry` verb that only parses, so this side runs inside the driver; its peak
/// memory cannot be told apart from the driver's and is not reported.
enum CSVParseProbe {
    /// Parses the file and returns a checksum; throws on unreadable or malformed input.
    static func parse(_ path: String) throws -> Int {
        var reader = try CSVReader(source: try FileByteSource(path: path))
        var rows = 0, fieldBytes = 0, checksum = 0
        while let row = try reader.nextRow() {
            rows += 1
            for index in 0..<row.count {
                row.withField(index) { field in
                    fieldBytes &+= field.count
                    checksum &+= Int(field.first ?? 0)
                }
            }
        }
        guard rows > 0, fieldBytes > 0 else { throw RunFailure(description: "\(path): no CSV rows parsed") }
        return checksum &+ rows
    }
}
