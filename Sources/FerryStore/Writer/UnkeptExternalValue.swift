/// A value a restore was to keep outside its row (`CoreDataStoreWriter.keepOutside`) that cannot
/// be kept there as its backup names it, and is left in its row.
public struct UnkeptExternalValue: Sendable, Equatable {
    /// Why the value is not kept outside.
    public enum Reason: Sendable, Equatable {
        /// The row holds no value in it (NULL, or a reference already), or the entity has no
        /// such attribute that allows external storage.
        case noValueInRow
        /// Another row named the same file with other bytes: one file cannot hold both.
        case fileNamedForOtherBytes(String)
    }

    /// The attribute the value is of.
    public let attribute: String
    /// The `Z_PK` of the row that holds it.
    public let primaryKey: Int64
    public let reason: Reason
}

extension UnkeptExternalValue: CustomStringConvertible {
    public var description: String {
        switch reason {
        case .noValueInRow: "\(attribute) of Z_PK \(primaryKey), which holds no value in its row"
        case .fileNamedForOtherBytes(let file): "\(attribute) of Z_PK \(primaryKey), named \(file) as another value of other bytes"
        }
    }
}
