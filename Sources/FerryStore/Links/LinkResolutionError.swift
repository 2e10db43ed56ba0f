/// Why staged links could not be resolved.
public enum LinkResolutionError: Error, Equatable, Sendable {
    case store(StoreWriterError)
    /// An end of the links' relationship has no table in the store layout.
    case unknownEntity(String)
    /// The layout has no place for what the links need (a relationship's pairs, a matched
    /// attribute's column), or their destinations cannot be created.
    case unsupported(entity: String, relationship: String, reason: String)
    /// A to-one the version change made of a to-many would hold several destinations of some
    /// objects (`NarrowedToOneClaims`).
    case severalForToOne(NarrowedToOneClaims)

    static func store<T>(_ body: () throws(StoreWriterError) -> T) throws(LinkResolutionError) -> T {
        do { return try body() } catch { throw .store(error) }
    }

    static func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(LinkResolutionError) -> T {
        do { return try body() } catch { throw .store(.sqlite(error)) }
    }
}
