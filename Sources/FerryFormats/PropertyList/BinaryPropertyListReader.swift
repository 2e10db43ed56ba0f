/// Reads Apple's binary property list format (`bplist00`; any `bplist0?` version byte is accepted).
///
/// Decoding works on the contiguous input with index arithmetic and checks every offset, count and
/// reference against the bounds of the input. It rejects: cycles, nesting deeper than `maxDepth`,
/// values that expand past `maxObjects`, non-string dictionary keys, null and fill objects (`PropertyListValue` has no case for them),
/// unpaired UTF-16 surrogates and non-finite dates. 16-byte integers are read as `Int128`.
/// ASCII-typed strings that hold non-ASCII bytes decode as UTF-8 when valid, else as Latin-1.
public struct BinaryPropertyListReader: Sendable {
    /// The default limit on nested containers.
    public static let defaultMaxDepth = 512

    /// The deepest nesting of arrays, sets and dictionaries that is accepted.
    public var maxDepth: Int

    /// The most objects the decoded value may hold, counting a shared object once per reference
    /// to it (as every walk of the value meets it); nil for `defaultMaxObjects(inputSize:)`.
    public var maxObjects: Int?

    public init(maxDepth: Int = BinaryPropertyListReader.defaultMaxDepth, maxObjects: Int? = nil) {
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
    }

    /// The default object limit for an input of `inputSize` bytes: its size, and at least 65,536.
    ///
    /// Every object below the top one is reached through a reference of at least one byte, so a
    /// value whose containers are not shared never holds more objects than the file has bytes;
    /// only shared containers (a chain of arrays each referencing the next twice holds 2^n
    /// objects in a few hundred bytes) go past it. Memory for the decoded value, and for whatever
    /// walks it, stays proportional to the input.
    public static func defaultMaxObjects(inputSize: Int) -> Int {
        max(inputSize, 1 << 16)
    }

    /// Whether `bytes` start with the binary property list magic `bplist0`.
    public static func hasBinaryHeader(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: BinaryPropertyListFormat.magic)
    }

    /// Decodes a whole binary property list.
    /// - Throws: `PropertyListError.binary` with the byte offset of the problem.
    public func decode(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        try decodeNotingRepeatedKeys(bytes).value
    }

    /// Decodes a whole binary property list, with the keys its dictionaries held more than once
    /// (the last value is kept) by the element of the top array they are in (nil: the top object
    /// is not an array).
    /// - Throws: `PropertyListError.binary` with the byte offset of the problem.
    public func decodeNotingRepeatedKeys(_ bytes: [UInt8]) throws(PropertyListError)
        -> (value: PropertyListValue, repeatedKeys: [Int?: RepeatedPropertyListKeys])
    {
        try bytes.withUnsafeBufferPointer { (buffer) throws(PropertyListError) in
            var parser = try BinaryPropertyListParser(bytes: buffer, maxDepth: maxDepth,
                                                      maxObjects: maxObjects ?? Self.defaultMaxObjects(inputSize: bytes.count))
            let value = try parser.decodeTopObject()
            return (value, parser.repeatedKeys)
        }
    }
}
