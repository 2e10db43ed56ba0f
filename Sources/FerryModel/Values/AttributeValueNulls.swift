extension Array where Element == AttributeValue {
    /// `count` NULL values: a record's values before they are read.
    ///
    /// Copied from a collection, a path the compiler specializes for the element type.
    /// `Array(repeating:count:)` and `Array(unsafeUninitializedCapacity:)` allocate through a
    /// generic entry point of the standard library that looks up the array's type metadata at
    /// run time on every call (about 400 instructions, as much as reading two of a record's
    /// values from a store).
    public static func nulls(count: Int) -> [AttributeValue] {
        Array(repeatElement(.null, count: count))
    }
}
