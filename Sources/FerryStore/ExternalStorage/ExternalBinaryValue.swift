/// What the column value of a Binary attribute that allows external storage holds, as
/// `ExternalBinaryData.decode` reads it.
public enum ExternalBinaryValue<Bytes> {
    /// The value's bytes, kept in the row.
    case inline(Bytes)
    /// The value is the content of this file of the store's external data folder.
    case external(fileName: String)
}

extension ExternalBinaryValue: Equatable where Bytes: Equatable {}
