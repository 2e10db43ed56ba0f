/// A second count of the records in a file, made by a scanner that shares no code with the
/// file's reader: it follows only the format's structure (line breaks and quotes of CSV, the
/// nesting of JSON, the elements of a property list) and keeps no value. A reader that drops,
/// splits or invents records disagrees with it; the pipeline compares the two (`FileCensus`).
///
/// A census reads the text as code units (bytes of UTF-8, or UTF-16 units when the file starts
/// with a UTF-16 byte order mark, as the readers transcode it) through a `CensusTap`.
public protocol RecordCensus: Sendable {
    /// Reads the next bytes of a UTF-8 (or single-byte) file, its byte order mark left out.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Reads the next code units of a UTF-16 file, its byte order mark left out.
    mutating func scan(_ units: UnsafeBufferPointer<UInt16>)
    /// The count, once the last unit was scanned.
    mutating func finish() -> CensusOutcome
}

/// What a census found in a whole file.
public enum CensusOutcome: Sendable, Equatable {
    /// `records` records (rows under the header, array elements, lines of NDJSON), and
    /// `skippedLines` lines that hold none (empty lines and comments of CSV; nothing elsewhere).
    case counted(records: Int, skippedLines: Int)
    /// The structure breaks off (a quote still open at the end, a binary plist whose root cannot
    /// be found): no count.
    case malformed(String)
}
